import { translateIn } from '#shared/i18n/locales/all.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import type { MessageVars } from '#shared/i18n/translate.ts'

/** Translates on the server (emails), from the same locale files the web app uses. */
export function translateFor(locale: Locale, key: TKey, vars?: MessageVars): string {
  return translateIn(locale, key, vars)
}
