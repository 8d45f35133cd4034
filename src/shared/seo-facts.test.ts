import { describe, expect, it } from 'vitest'
import type { SeoContent } from './seo.ts'
import {
  colourWordsIn,
  descriptionLead,
  factViolations,
  keywordProblems,
  promotionalPhrasesIn,
  withoutPromotionalPhrases,
} from './seo-facts.ts'

const copy = (overrides: Partial<SeoContent> = {}): SeoContent => ({
  title: 'Kırmızı Porselen Türk Kahvesi Fincanı',
  description: 'Kırmızı porselen fincan, iki kişilik kahve keyfi için.',
  features: ['Renk: Kırmızı', 'Malzeme: Porselen', 'Bulaşık makinesinde yıkanabilir', '2 kişilik'],
  keywords: ['türk kahvesi fincanı', 'porselen fincan', 'kırmızı fincan', 'a', 'b', 'c', 'd', 'e', 'f', 'g'],
  ...overrides,
})

describe('the seller facts check', () => {
  it('passes copy that keeps every given fact', () => {
    expect(
      factViolations(copy(), {
        name: 'Türk Kahvesi Fincanı, 2 Kişilik',
        color: 'kırmızı',
        material: 'Porselen',
        features: ['Bulaşık makinesinde yıkanabilir'],
      }),
    ).toEqual([])
  })

  it('names each missing fact', () => {
    const violations = factViolations(copy(), {
      name: 'Espresso Fincanı',
      brand: 'Paşabahçe',
      features: ['Mikrodalgaya uygun'],
      description: 'El yapımı bir fincan. Her biri farklıdır.',
    })
    expect(violations.map((v) => v.fact)).toEqual(['name', 'brand', 'features', 'description'])
  })

  it('finds a colour the seller did not give, in suffixed form too', () => {
    const violations = factViolations(copy({ description: 'Turuncusu göz alıcı bir fincan.' }), {
      color: 'Kırmızı',
    })
    expect(violations).toEqual([
      { fact: 'color', kind: 'contradicted', expected: 'Kırmızı', found: 'turuncu' },
    ])
  })

  it('allows colours the seller named in their own words', () => {
    const content = copy({
      title: 'Beyaz Çizgili Lacivert Gömlek',
      description: 'Beyaz çizgili lacivert pamuklu gömlek.',
      features: ['Renk: Lacivert', 'a', 'b', 'c'],
      keywords: ['lacivert gömlek', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'],
    })
    expect(
      factViolations(content, { color: 'Lacivert', name: 'Beyaz Çizgili Lacivert Gömlek' }).filter(
        (v) => v.kind === 'contradicted',
      ),
    ).toEqual([])
  })

  it('keeps the first sentence of the seller description, cut to the meta description when long', () => {
    expect(descriptionLead('El yapımı bir fincan. Her biri farklıdır.')).toBe('El yapımı bir fincan.')
    expect(descriptionLead('kelime '.repeat(60)).length).toBeLessThanOrEqual(160)
  })

  it('reads colour words and promotional phrases as words', () => {
    expect(colourWordsIn('Grisi ve morumsu, bir Moritanya haritası')).toEqual(['gri', 'mor'])
    expect(promotionalPhrasesIn('Hemen sepete ekleyin!')).toEqual(['hemen', 'sepete ekle'])
    expect(promotionalPhrasesIn('Şehmen bir sepet')).toEqual([])
    expect(keywordProblems('mutfak > fincan')).toEqual(['path'])
    expect(keywordProblems('fincan takımı, 2 kişilik')).toEqual(['separator'])
    expect(keywordProblems('porselen fincan')).toEqual([])
  })

  it('takes promotional phrases out of copy, suffixed forms too, and tidies what is left', () => {
    expect(withoutPromotionalPhrases('Kahve Fincan Takımı İndirimli Ücretsiz Kargo')).toBe(
      'Kahve Fincan Takımı',
    )
    expect(withoutPromotionalPhrases('Hemen sepete ekleyin! Porselen fincan, kampanya fiyatıyla.')).toBe(
      'Porselen fincan, fiyatıyla.',
    )
    expect(withoutPromotionalPhrases('Porselen fincan.\n\nBEDAVA kargo, son şans!')).toBe(
      'Porselen fincan.\n\nkargo',
    )
    // Words that only contain a phrase, and text without any, stay as they are.
    expect(withoutPromotionalPhrases('Şehmen bir sepet')).toBe('Şehmen bir sepet')
    for (const text of ['Fırsatçı değil, fırsat: ücretsiz kargo', 'Acele edin, stoklarla sınırlı!']) {
      expect(promotionalPhrasesIn(withoutPromotionalPhrases(text))).toEqual([])
    }
  })
})
