import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  formatNumber,
  formatUsd,
  interpolate,
  intlFormatters,
  listMessageKeys,
  lookupMessage,
  type Messages,
  toLower,
  toUpper,
  translate,
} from './translate.ts'

const messages: Messages = {
  greeting: 'Hello {{name}}',
  count: '{{count}} images',
  nav: { pricing: 'Pricing', deep: { leaf: 'Leaf {{ n }}' } },
}

describe('interpolate', () => {
  it('replaces placeholders, tolerating spaces inside the braces', () => {
    expect(interpolate('Hi {{name}}, step {{ n }}', 'en', { name: 'Ayşe', n: 'two' })).toBe(
      'Hi Ayşe, step two',
    )
  })

  it('leaves a placeholder without a value as written', () => {
    expect(interpolate('Hi {{name}} {{other}}', 'en', { name: 'Can' })).toBe('Hi Can {{other}}')
  })

  it('returns the template unchanged without vars', () => {
    expect(interpolate('Hi {{name}}', 'en')).toBe('Hi {{name}}')
  })

  it('formats numbers for the locale', () => {
    expect(interpolate('{{count}} images', 'en', { count: 1000 })).toBe('1,000 images')
    expect(interpolate('{{count}} görsel', 'tr', { count: 1000 })).toBe('1.000 görsel')
    expect(interpolate('{{count}}', 'tr', { count: 2500 })).toBe('2.500')
  })

  it('does not reformat numbers given as strings', () => {
    expect(interpolate('{{count}}', 'en', { count: '1000' })).toBe('1000')
  })
})

describe('translate', () => {
  it('looks up nested keys and interpolates', () => {
    expect(translate(messages, 'en', 'greeting', { name: 'Can' })).toBe('Hello Can')
    expect(translate(messages, 'en', 'nav.pricing')).toBe('Pricing')
    expect(translate(messages, 'tr', 'nav.deep.leaf', { n: 12000 })).toBe('Leaf 12.000')
  })

  it('returns the key itself for a missing key, or a key that names a branch', () => {
    expect(translate(messages, 'en', 'nav.missing')).toBe('nav.missing')
    expect(translate(messages, 'en', 'greeting.too.deep')).toBe('greeting.too.deep')
    expect(translate(messages, 'en', 'nav')).toBe('nav')
  })

  it('lookupMessage answers undefined for a branch or a missing key', () => {
    expect(lookupMessage(messages, 'nav')).toBeUndefined()
    expect(lookupMessage(messages, 'nope')).toBeUndefined()
    expect(lookupMessage(messages, 'nav.deep.leaf')).toBe('Leaf {{ n }}')
  })

  it('listMessageKeys lists every leaf by dotted path', () => {
    expect(listMessageKeys(messages).sort()).toEqual(['count', 'greeting', 'nav.deep.leaf', 'nav.pricing'])
  })
})

describe('number and currency formatting', () => {
  it('groups thousands per locale', () => {
    expect(formatNumber('en', 1000)).toBe('1,000')
    expect(formatNumber('tr', 1000)).toBe('1.000')
  })

  it('formats whole US dollars', () => {
    expect(formatUsd('en', 299)).toBe('$299')
    expect(formatUsd('en', 1299)).toBe('$1,299')
    expect(formatUsd('en', 99.4)).toBe('$99')
    const tr = new Intl.NumberFormat('tr-TR', {
      style: 'currency',
      currency: 'USD',
      maximumFractionDigits: 0,
    })
    expect(formatUsd('tr', 299)).toBe(tr.format(299))
    expect(formatUsd('tr', 1299)).toBe(tr.format(1299))
    expect(formatUsd('tr', 1299)).toContain('1.299')
  })

  it('writes every whole number and price exactly as Intl does, in both languages', () => {
    const wholeNumbers = fc.oneof(
      fc.integer(),
      fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }),
    )
    fc.assert(
      fc.property(fc.constantFrom('en' as const, 'tr' as const), wholeNumbers, (locale, value) => {
        expect(formatNumber(locale, value)).toBe(intlFormatters.number(locale, value))
        expect(formatUsd(locale, value)).toBe(intlFormatters.usd(locale, value))
      }),
      { numRuns: 2000 },
    )
    // Fractions go to Intl itself, rounding included.
    for (const value of [99.5, -1.5, 0.4, 1234.56]) {
      expect(formatUsd('tr', value)).toBe(intlFormatters.usd('tr', value))
      expect(formatNumber('en', value)).toBe(intlFormatters.number('en', value))
    }
  })
})

describe('case mapping', () => {
  it('follows Turkish rules in Turkish', () => {
    expect(toUpper('tr', 'istanbul')).toBe('İSTANBUL')
    expect(toUpper('tr', 'ılık')).toBe('ILIK')
    expect(toLower('tr', 'ISPARTA')).toBe('ısparta')
    expect(toLower('tr', 'İZMİR')).toBe('izmir')
  })

  it('follows English rules in English', () => {
    expect(toUpper('en', 'istanbul')).toBe('ISTANBUL')
    expect(toLower('en', 'ISPARTA')).toBe('isparta')
  })
})
