import { describe, expect, it } from 'vitest'
import { trMessages } from './locales/tr/index.ts'

// One word per concept across the Turkish interface: a seller who reads "Kitaplık" on one screen
// and "Kütüphane" on the next wonders whether they are two places. Each concept names the word
// used and the words that must not appear for it (matched in any case, at a word's start, so
// suffixed forms are caught too: "Kütüphanenize").

const glossary: { concept: string; use: string; avoid: RegExp[] }[] = [
  { concept: 'the library of results', use: 'Kitaplık', avoid: [/(^|[^\p{L}])kütüphane/iu] },
  { concept: 'a password', use: 'şifre', avoid: [/(^|[^\p{L}])parola/iu] },
  { concept: 'signing in', use: 'giriş yap', avoid: [/(^|[^\p{L}])oturum aç/iu] },
  { concept: 'an email', use: 'e-posta', avoid: [/(^|[^\p{L}])eposta/iu, /(^|[^\p{L}])e-mail/iu] },
]

/** Every string of the Turkish messages, with where it is. */
function turkishStrings(): { where: string; text: string }[] {
  const found: { where: string; text: string }[] = []
  const walk = (value: unknown, where: string) => {
    if (typeof value === 'string') found.push({ where, text: value })
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) walk(inner, `${where}.${key}`)
    }
  }
  walk(trMessages, 'tr')
  return found
}

describe('the Turkish glossary', () => {
  const strings = turkishStrings()

  it.each(glossary)('says $use for $concept, never another word', ({ use, avoid }) => {
    const offending = strings.filter(({ text }) => avoid.some((pattern) => pattern.test(text)))
    expect(offending.map(({ where, text }) => `${where}: ${text}`)).toEqual([])
    // The chosen word is in use, so the entry is not stale.
    expect(
      strings.some(({ text }) => text.toLocaleLowerCase('tr').includes(use.toLocaleLowerCase('tr'))),
    ).toBe(true)
  })
})
