import type { TKey } from '#shared/i18n/messages.ts'
import { ApiError } from '#web/lib/api-client.ts'

/** The translated message for a failed call: its error code's text, or the generic one. */
export function errorMessage(t: (key: TKey) => string, error: unknown): string {
  return t(error instanceof ApiError ? `errors.${error.code}` : 'errors.INTERNAL')
}
