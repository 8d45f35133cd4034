import type { Locale } from '../locales.ts'
import type { AppMessages, TKey } from '../messages.ts'
import { type Messages, type MessageVars, translate } from '../translate.ts'
import { enMessages } from './en/index.ts'
import { trMessages } from './tr/index.ts'

/**
 * Every language's whole text, for code that writes in any language at once: the server's
 * emails and the build's prerendered pages and preview images. (The web app loads only the
 * language it shows, see web/lib/i18n.tsx.)
 */
export const allMessages: Record<Locale, AppMessages> = { en: enMessages, tr: trMessages }

/** Translates in a language from the locale files the web app uses. */
export function translateIn(locale: Locale, key: TKey, vars?: MessageVars): string {
  return translate(allMessages[locale] as unknown as Messages, locale, key, vars)
}
