import { intlTag, type Locale } from '#shared/i18n/locales.ts'

// Dates and times written the way the reader's language writes them. One place, so every screen
// says a moment the same way.

/** A date: "June 3, 2026" / "3 Haziran 2026". */
export function formatDate(locale: Locale, iso: string): string {
  return new Intl.DateTimeFormat(intlTag[locale], { dateStyle: 'long' }).format(new Date(iso))
}

/**
 * Date and time, short: "Jun 3, 2026, 2:05 PM" / "3 Haz 2026 14:05". The time tells apart the
 * several things a seller makes or changes in one day.
 */
export function formatDateTime(locale: Locale, iso: string): string {
  return new Intl.DateTimeFormat(intlTag[locale], { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  )
}
