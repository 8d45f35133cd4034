import { describe, expect, it } from 'vitest'
import { inquiryTypes } from '#shared/contracts/contact.ts'
import { errorCodes } from '#shared/errors.ts'
import { plans } from '#shared/plans.ts'
import type { FieldReason } from '#shared/validation.ts'
import { type Locale, locales } from '../locales.ts'
import { listMessageKeys, lookupMessage, type Messages } from '../translate.ts'
import { enMessages } from './en/index.ts'
import { trMessages } from './tr/index.ts'

const catalogues: Record<Locale, Messages> = {
  en: enMessages as unknown as Messages,
  tr: trMessages as unknown as Messages,
}

function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? ''))].sort()
}

/** Keys that must exist in every language, with the language each one is missing from. */
function missingKeys(keys: readonly string[]): Record<string, string[]> {
  const missing: Record<string, string[]> = {}
  for (const locale of locales) {
    const gaps = keys.filter((key) => lookupMessage(catalogues[locale], key) === undefined)
    if (gaps.length > 0) missing[locale] = gaps
  }
  return missing
}

describe('locale files', () => {
  const enKeys = listMessageKeys(catalogues.en)
  const trKeys = listMessageKeys(catalogues.tr)

  it('have a non-trivial number of keys', () => {
    expect(enKeys.length).toBeGreaterThan(50)
  })

  it('have exactly the same keys in English and Turkish', () => {
    const trSet = new Set(trKeys)
    const enSet = new Set(enKeys)
    const missing = {
      tr: enKeys.filter((key) => !trSet.has(key)),
      en: trKeys.filter((key) => !enSet.has(key)),
    }
    expect(missing).toEqual({ tr: [], en: [] })
  })

  it('have no empty strings', () => {
    const empty = Object.fromEntries(
      locales.map((locale) => [
        locale,
        listMessageKeys(catalogues[locale]).filter(
          (key) => (lookupMessage(catalogues[locale], key) ?? '').trim() === '',
        ),
      ]),
    )
    expect(empty).toEqual({ en: [], tr: [] })
  })

  it('use the same {{placeholders}} for each key in both languages', () => {
    const mismatches = enKeys.flatMap((key) => {
      const en = placeholdersOf(lookupMessage(catalogues.en, key) ?? '')
      const tr = placeholdersOf(lookupMessage(catalogues.tr, key) ?? '')
      return en.join(',') === tr.join(',') ? [] : [{ key, en, tr }]
    })
    expect(mismatches).toEqual([])
  })

  it('translate every error code the API can answer with', () => {
    expect(errorCodes.length).toBeGreaterThan(0)
    expect(missingKeys(errorCodes.map((code) => `errors.${code}`))).toEqual({})
  })

  it('translate every field reason the validation can give', () => {
    // Listing them as an object makes the compiler name any reason added later and left out here.
    const reasons = {
      required: true,
      email: true,
      tooShort: true,
      tooLong: true,
      invalid: true,
      unknown: true,
      tooCommon: true,
      sameAsEmail: true,
    } satisfies Record<FieldReason, true>
    expect(missingKeys(Object.keys(reasons).map((reason) => `errors.field.${reason}`))).toEqual({})
  })

  it('translate every plan feature and every plan blurb', () => {
    const featureKeys = [...new Set(plans.flatMap((plan) => plan.features))].map((f) => `plans.features.${f}`)
    const blurbKeys = plans.map((plan) => `plans.blurb.${plan.id}`)
    expect(missingKeys([...featureKeys, ...blurbKeys])).toEqual({})
  })

  it('translate every inquiry type of the contact form', () => {
    expect(missingKeys(inquiryTypes.map((type) => `contact.inquiry.${type}`))).toEqual({})
  })
})
