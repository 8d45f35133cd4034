import { AsyncLocalStorage } from 'node:async_hooks'
import type { Logger } from '#server/logger.ts'
import type { Locale } from '#shared/i18n/locales.ts'

/**
 * What code deep in a request (such as the auth library's email callbacks, which receive no
 * request of ours) may need to know about it.
 */
export type RequestContext = {
  /** The language the user is reading Vitrin in (X-Vitrin-Locale), for emails. */
  locale: Locale
  /** The site origin the user reached, for links in emails when PUBLIC_URL is unset. */
  origin: string
  clientIp: string
  log: Logger
}

export const requestContext = new AsyncLocalStorage<RequestContext>()
