/** The languages Vitrin speaks. The first is the fallback. */
export const locales = ['en', 'tr'] as const
export type Locale = (typeof locales)[number]
export const defaultLocale: Locale = 'en'

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value)
}

/** BCP 47 tags used for number, currency and date formatting. */
export const intlTag: Record<Locale, string> = { en: 'en-US', tr: 'tr-TR' }
