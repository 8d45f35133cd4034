import { enMessages } from '#shared/i18n/locales/en/index.ts'
import { trMessages } from '#shared/i18n/locales/tr/index.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import type { AppMessages, TKey } from '#shared/i18n/messages.ts'
import { type Messages, type MessageVars, translate } from '#shared/i18n/translate.ts'

const catalogues: Record<Locale, AppMessages> = { en: enMessages, tr: trMessages }

/** Translates on the server (emails), from the same locale files the web app uses. */
export function translateFor(locale: Locale, key: TKey, vars?: MessageVars): string {
  return translate(catalogues[locale] as unknown as Messages, locale, key, vars)
}
