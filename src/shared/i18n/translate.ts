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

export function formatNumber(locale: Locale, value: number): string {
  return new Intl.NumberFormat(intlTag[locale]).format(value)
}

/** Whole-dollar prices, written as each language writes them ("$1,000" in English, "$1.000" in Turkish). */
export function formatUsd(locale: Locale, value: number): string {
  return new Intl.NumberFormat(intlTag[locale], {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 0,
  }).format(value)
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
