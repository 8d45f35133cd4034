import type { Locale } from './locales.ts'
import { intlTag } from './locales.ts'

/** A nested message tree: leaves are strings with optional `{{name}}` placeholders. */
export type Messages = { readonly [key: string]: string | Messages }

/** Dotted paths to every string leaf of a message tree, e.g. `nav.pricing`. */
export type MessageKey<T> = {
  [K in keyof T & string]: T[K] extends string ? K : `${K}.${MessageKey<T[K]>}`
}[keyof T & string]

export type MessageVars = Record<string, string | number>

/** Looks up a dotted key; returns undefined when it is missing or not a string. */
export function lookupMessage(messages: Messages, key: string): string | undefined {
  let node: string | Messages | undefined = messages
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined
    node = node[part]
  }
  return typeof node === 'string' ? node : undefined
}

/**
 * Replaces `{{name}}` placeholders. Numbers are formatted for the locale, so a
 * count reads "1,000" in English and "1.000" in Turkish.
 */
export function interpolate(template: string, locale: Locale, vars?: MessageVars): string {
  if (!vars) return template
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const value = vars[name]
    if (value === undefined) return whole
    return typeof value === 'number' ? formatNumber(locale, value) : value
  })
}

/** Translates a key, falling back to the key itself so a gap is visible rather than blank. */
export function translate(messages: Messages, locale: Locale, key: string, vars?: MessageVars): string {
  const template = lookupMessage(messages, key)
  return template === undefined ? key : interpolate(template, locale, vars)
}

/**
 * One formatter per language and style, made on first use: building an Intl.NumberFormat costs
 * far more than formatting with it, and a page formats dozens of numbers as it renders.
 */
function cached<T>(make: (locale: Locale) => T): (locale: Locale) => T {
  const made = new Map<Locale, T>()
  return (locale) => {
    let formatter = made.get(locale)
    if (!formatter) {
      formatter = make(locale)
      made.set(locale, formatter)
    }
    return formatter
  }
}

const numberFormat = cached((locale) => new Intl.NumberFormat(intlTag[locale]))
const usdFormat = cached(
  (locale) =>
    new Intl.NumberFormat(intlTag[locale], { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }),
)

/** How each language groups thousands, as Intl writes whole numbers ("1,000" / "1.000"). */
const thousandsSeparator: Record<Locale, string> = { en: ',', tr: '.' }

/**
 * A whole number grouped by hand, exactly as Intl.NumberFormat writes it (a property test holds
 * the two equal): a page's first formatter would otherwise load the language's number data
 * while it hydrates, a long task on a slow phone.
 */
function groupedInteger(locale: Locale, value: number): string | null {
  if (!Number.isSafeInteger(value)) return null
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+(?!\d))/g, thousandsSeparator[locale])
  return value < 0 ? `-${digits}` : digits
}

export function formatNumber(locale: Locale, value: number): string {
  return groupedInteger(locale, value) ?? numberFormat(locale).format(value)
}

/** Whole-dollar prices, written as each language writes them ("$1,000" in English, "$1.000" in Turkish). */
export function formatUsd(locale: Locale, value: number): string {
  const grouped = groupedInteger(locale, Math.abs(value))
  if (grouped === null || !Number.isInteger(value)) return usdFormat(locale).format(value)
  return value < 0 ? `-$${grouped}` : `$${grouped}`
}

/** The formatters Intl would use, for the test that holds the hand-grouped ones equal to them. */
export const intlFormatters = {
  number: (locale: Locale, value: number) => numberFormat(locale).format(value),
  usd: (locale: Locale, value: number) => usdFormat(locale).format(value),
}

/** Upper-cases with the language's own rules (Turkish i → İ, ı → I). */
export function toUpper(locale: Locale, text: string): string {
  return text.toLocaleUpperCase(intlTag[locale])
}

/** Lower-cases with the language's own rules (Turkish I → ı, İ → i). */
export function toLower(locale: Locale, text: string): string {
  return text.toLocaleLowerCase(intlTag[locale])
}

/** Every dotted key to a string leaf, for comparing locale files. */
export function listMessageKeys(messages: Messages, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [prefix + key] : listMessageKeys(value, `${prefix}${key}.`),
  )
}
