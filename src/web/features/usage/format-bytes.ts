import { intlTag, type Locale } from '#shared/i18n/locales.ts'

const units = [
  { unit: 'gigabyte', size: 1e9 },
  { unit: 'megabyte', size: 1e6 },
  { unit: 'kilobyte', size: 1e3 },
] as const

/**
 * A size in the largest decimal unit it reaches, as each language writes it ("1.5 GB", "1,5 GB");
 * anything under a kilobyte reads in kilobytes ("0 kB"), not in the awkward "0 byte".
 */
export function formatBytes(locale: Locale, bytes: number): string {
  const { unit, size } = units.find((u) => bytes >= u.size) ?? { unit: 'kilobyte', size: 1e3 }
  const value = bytes / size
  return new Intl.NumberFormat(intlTag[locale], {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: value < 10 ? 1 : 0,
  }).format(value)
}
