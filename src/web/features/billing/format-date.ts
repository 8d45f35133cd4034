import { intlTag, type Locale } from '#shared/i18n/locales.ts'

/** A date written the way the language writes it: "June 3, 2026" / "3 Haziran 2026". */
export function formatDate(locale: Locale, iso: string): string {
  return new Intl.DateTimeFormat(intlTag[locale], { dateStyle: 'long' }).format(new Date(iso))
}
