import { intlTag, type Locale } from '#shared/i18n/locales.ts'

/** A moment written the way the language writes it, with the time: "Nov 24, 2026, 5:35 AM". */
export function formatDateTime(locale: Locale, iso: string): string {
  return new Intl.DateTimeFormat(intlTag[locale], { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  )
}
