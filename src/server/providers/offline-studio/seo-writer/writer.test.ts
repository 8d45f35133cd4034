import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type ProductDetails, type SeoContent, seoLimits } from '#shared/seo.ts'
import { colourWordsIn, factViolations, keywordProblems, promotionalPhrasesIn } from '#shared/seo-facts.ts'
import { seoEvaluationSet } from '#tests/support/seo-evaluation-set.ts'
import { expectWithinLimits } from '#tests/support/seo-expectations.ts'
import { banks, categoryIds } from './categories.ts'
import { detectCategory } from './detect.ts'
import { softLower, titleCase, upperFirst } from './text.ts'
import { canWriteOffline, ProductNameNeededError, render, writeOfflineSeo } from './writer.ts'

const lower = (text: string) => text.toLocaleLowerCase('tr-TR')

function expectClean(content: SeoContent) {
  for (const keyword of content.keywords) expect(keywordProblems(keyword), keyword).toEqual([])
  for (const text of [content.title, content.description, ...content.features]) {
    expect(promotionalPhrasesIn(text), text).toEqual([])
  }
  const all = lower([content.title, content.description, ...content.features, ...content.keywords].join('\n'))
  for (const filler of [
    'online alışveriş',
    'kaliteli ürün',
    'trend ürünler',
    'renkli ürün',
    'imzalı',
    'hediye',
  ]) {
    expect(all).not.toContain(filler)
  }
}

/** The seller's own text, which two products may share (a brand, a colour, a feature). */
function sellerText(details: ProductDetails): string[] {
  return [details.description, ...(details.features ?? [])].filter((t): t is string => Boolean(t)).map(lower)
}

/** Sentences of a description and lines of the features that the writer wrote, not the seller. */
function writtenSentences(content: SeoContent, details: ProductDetails): string[] {
  const given = sellerText(details)
  const sentences = content.description.split(/(?<=[.!?])\s+/).map((s) => s.trim())
  return (
    [...sentences, ...content.features]
      .map(lower)
      .filter((line) => line.length > 0)
      .filter((line) => !given.some((text) => text.includes(line) || line.includes(text)))
      // "Renk: Kırmızı", "Malzeme: Porselen", "Marka: Karaca" carry the seller's facts.
      .filter((line) => !/^(?:renk|malzeme|marka): /.test(line))
  )
}

describe('the offline writer over the evaluation set', () => {
  const written = seoEvaluationSet.map((product) => ({
    product,
    result: writeOfflineSeo(product.details, product.photoColour),
  }))

  it('covers every category with at least four products', () => {
    expect(seoEvaluationSet.length).toBeGreaterThanOrEqual(60)
    for (const id of categoryIds.filter((c) => c !== 'genel')) {
      expect(seoEvaluationSet.filter((p) => p.category === id).length, id).toBeGreaterThanOrEqual(4)
    }
  })

  it('keeps every fact the seller gave, for every product', () => {
    const broken = written.filter(
      ({ product, result }) => factViolations(result.content, product.details).length > 0,
    )
    expect(
      broken.map(({ product, result }) => [
        product.details.name,
        factViolations(result.content, product.details),
      ]),
    ).toEqual([])
  })

  it('detects the category the set says', () => {
    expect(written.map(({ product, result }) => [product.details.name, result.category])).toEqual(
      seoEvaluationSet.map((p) => [p.details.name, p.category]),
    )
  })

  it('holds the limits, with clean keywords and no promotional phrase', () => {
    for (const { result } of written) {
      expectWithinLimits(result.content)
      expectClean(result.content)
    }
  })

  it('shares no written sentence between products of different categories', () => {
    const owner = new Map<string, string>()
    const shared: string[] = []
    for (const { product, result } of written) {
      for (const sentence of writtenSentences(result.content, product.details)) {
        const first = owner.get(sentence)
        if (first !== undefined && first !== product.category)
          shared.push(`${first}/${product.category}: ${sentence}`)
        owner.set(sentence, product.category)
      }
    }
    expect(shared).toEqual([])
  })

  it('names the photo colour only when the seller gave none, and says so', () => {
    for (const { product, result } of written) {
      if (product.details.color) expect(result.colourFromPhoto).toBeUndefined()
      if (result.colourFromPhoto) {
        expect(lower(result.content.title)).toContain(lower(result.colourFromPhoto))
      } else if (!product.details.color) {
        expect(colourWordsIn(result.content.title).includes(product.photoColour)).toBe(
          colourWordsIn(
            [product.details.name, product.details.description, ...(product.details.features ?? [])].join(
              ' ',
            ),
          ).includes(product.photoColour),
        )
      }
    }
  })

  it('writes the same copy for the same product, and varies it across a catalogue', () => {
    for (const { product, result } of written) {
      expect(writeOfflineSeo(product.details, product.photoColour)).toEqual(result)
    }
    const openings = new Set(
      written.map(({ result }) => result.content.description.split(/(?<=[.!?])\s+/)[1] ?? ''),
    )
    expect(openings.size).toBeGreaterThan(10)
  })
})

describe('the offline writer', () => {
  it('writes the coffee cup from the catalogue row, keeping the seller colour over the photo', () => {
    const details = {
      name: 'Türk Kahvesi Fincan Takımı, 2 Kişilik',
      category: 'Ev & Yaşam > Mutfak > Fincan',
      color: 'Kırmızı',
      material: 'Porselen',
    }
    const { content, category, colourFromPhoto } = writeOfflineSeo(details, 'turuncu')
    expect(category).toBe('mutfak')
    expect(colourFromPhoto).toBeUndefined()
    expect(content.title).toBe('Türk Kahvesi Fincan Takımı 2 Kişilik Kırmızı Porselen')
    expect(lower(JSON.stringify(content))).not.toContain('turuncu')
    expect(content.features.slice(0, 2)).toEqual(['Renk: Kırmızı', 'Malzeme: Porselen'])
    expect(content.keywords).toEqual(
      expect.arrayContaining([
        'türk kahvesi fincan takımı',
        'porselen fincan takımı',
        '2 kişilik fincan takımı',
      ]),
    )
    expect(content.description).not.toMatch(/[>›»]/)
    expect(factViolations(content, details)).toEqual([])
  })

  it('reads no colour from the photo when the seller named a metal or a finish', () => {
    for (const name of [
      'Gümüş Kolye',
      'Altın Kaplama Yüzük',
      'Şeffaf Telefon Kılıfı',
      'Çok Renkli Boncuk Bileklik',
    ]) {
      const result = writeOfflineSeo({ name }, 'gri')
      expect(result.colourFromPhoto).toBeUndefined()
      expect(colourWordsIn(result.content.title)).not.toContain('gri')
    }
  })

  it('refuses to write with neither a name nor a category', () => {
    expect(canWriteOffline({})).toBe(false)
    expect(canWriteOffline({ brand: 'Karaca', color: 'Kırmızı' })).toBe(false)
    expect(canWriteOffline({ category: ' > ' })).toBe(false)
    expect(canWriteOffline({ name: '|' })).toBe(false)
    expect(canWriteOffline({ category: 'Mutfak' })).toBe(true)
    expect(() => writeOfflineSeo({ brand: 'Karaca' }, 'turuncu')).toThrow(ProductNameNeededError)
  })

  it('with only a category, names the product by its most specific step', () => {
    expect(writeOfflineSeo({ category: 'Ev & Yaşam > Mutfak > Fincan' }, 'mavi').content.title).toBe(
      'Fincan Mavi',
    )
    const onlyKind = writeOfflineSeo({ category: 'Kozmetik' }, 'beyaz').content
    expect(onlyKind.title).toBe('Bakım Ürünü Beyaz')
    expect(onlyKind.description).toMatch(/^Bakım ürünü/)
  })

  it('puts the seller features first and their description lead first, unchanged', () => {
    const details = {
      name: 'Cam Saklama Kabı',
      features: ['3 farklı boy', 'Kilitli kapak'],
      description: 'Fırında ve buzdolabında kullanılabilen borosilikat cam. Her boyda kapak.',
    }
    const { content } = writeOfflineSeo(details, 'beyaz')
    expect(content.features.slice(0, 2)).toEqual(details.features)
    expect(content.description.startsWith('Fırında ve buzdolabında kullanılabilen borosilikat cam.')).toBe(
      true,
    )
  })

  it('keeps facts the title cannot hold when the seller gave six features', () => {
    const details = {
      name: 'Çok Uzun Bir Ürün Adı Olan Deri Omuz Çantası Model Numarası 12345',
      brand: 'Uzun Marka Adı',
      color: 'Lacivert',
      material: 'Hakiki dana derisi',
      features: ['Bir', 'İki', 'Üç', 'Dört', 'Beş', 'Altı'],
    }
    const { content } = writeOfflineSeo(details, 'siyah')
    expect(factViolations(content, details)).toEqual([])
    expectWithinLimits(content)
  })

  it('puts suffixes on the seller words by Turkish rules', () => {
    const accusative = (ad: string) => render('{ad:acc} kullanabilirsiniz.', { ad })
    expect(accusative('Bluetooth Kulaklık')).toBe('Bluetooth Kulaklığı kullanabilirsiniz.')
    expect(accusative('Ahşap Oyuncak Roket')).toBe('Ahşap Oyuncak Roketi kullanabilirsiniz.')
    expect(accusative('Keten Masa Örtüsü')).toBe('Keten Masa Örtüsünü kullanabilirsiniz.')
    expect(accusative('Plastik Saksı')).toBe('Plastik Saksıyı kullanabilirsiniz.')
    expect(accusative('Yoga Matı')).toBe('Yoga Matını kullanabilirsiniz.')
    expect(accusative('Kitap')).toBe('Kitabı kullanabilirsiniz.')
    expect(accusative('iPhone 15 Kılıf')).toBe('iPhone 15 Kılıfı kullanabilirsiniz.')
    expect(render('{malzeme:abl} üretilen {ad}.', { ad: 'Kupa', malzeme: 'ahşap' })).toBe(
      'Ahşaptan üretilen Kupa.',
    )
    expect(render('{malzeme:abl} üretilen {ad}.', { ad: 'Kupa', malzeme: '%100 pamuk' })).toBe(
      '%100 pamuktan üretilen Kupa.',
    )
    expect(render('{malzeme:abl} üretilen {ad}.', { ad: 'Kupa' })).toBeUndefined()
  })

  it('stays within every limit and keeps the facts for any mix of missing and long details', () => {
    const text = fc.oneof(
      fc.constant(undefined),
      fc.constant(''),
      fc.constantFrom(
        'Deri Çanta',
        'tişört',
        'Koton',
        'IKEA',
        '%100 pamuk',
        'ahşap',
        'İğne Oyası',
        'Şal',
        'a > b',
      ),
      fc.string({ maxLength: 80 }),
      fc
        .array(
          fc.constantFrom('uzun', 'ürün', 'adı', 'çok', 'şık', 'Iğdır', 'istanbul', 'x', ',', 'fincan'),
          {
            maxLength: 30,
          },
        )
        .map((w) => w.join(' ')),
    )
    const colours = ['siyah', 'beyaz', 'gri', 'kırmızı', 'lacivert', 'yeşil', 'sarı', 'bej']
    fc.assert(
      fc.property(
        fc.record({ name: text, category: text, brand: text, material: text, color: text }),
        fc.constantFrom(...colours),
        (raw, colour) => {
          // The shared schema caps the typed details; the copy is built from values it accepts.
          const details: ProductDetails = {
            name: raw.name?.slice(0, 120),
            category: raw.category?.slice(0, 80),
            brand: raw.brand?.slice(0, 80),
            material: raw.material?.slice(0, 80),
            color: raw.color?.slice(0, 40),
          }
          if (!canWriteOffline(details)) {
            expect(() => writeOfflineSeo(details, colour)).toThrow(ProductNameNeededError)
            return
          }
          const result = writeOfflineSeo(details, colour)
          expectWithinLimits(result.content)
          for (const keyword of result.content.keywords) expect(keywordProblems(keyword)).toEqual([])
          expect(factViolations(result.content, details)).toEqual([])
          expect(writeOfflineSeo(details, colour)).toEqual(result)
        },
      ),
      // FUZZ_RUNS=5000 looks much harder, by hand (it found the "__proto__" word).
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    )
  })

  it('uses Turkish casing rules', () => {
    expect(upperFirst('iğne')).toBe('İğne')
    expect(titleCase('ipek ılık şal iPhone 50 ml')).toBe('İpek Ilık Şal iPhone 50 ml')
    expect(softLower('Pamuk PU IKEA İpek')).toBe('pamuk PU IKEA ipek')
    expect(writeOfflineSeo({ name: 'ipek eşarp', category: 'aksesuar' }, 'mavi').content.title).toBe(
      'İpek Eşarp Mavi',
    )
  })
})

describe('the category banks', () => {
  const bankTexts = (id: (typeof categoryIds)[number]) => {
    const bank = banks[id]
    return [...bank.openers, ...bank.closers, ...bank.features, ...bank.keywords, ...bank.kindKeywords]
  }

  it('name no colour and no promotional phrase', () => {
    for (const id of categoryIds) {
      for (const text of bankTexts(id)) {
        expect(colourWordsIn(text), `${id}: ${text}`).toEqual([])
        expect(promotionalPhrasesIn(text), `${id}: ${text}`).toEqual([])
      }
    }
  })

  it('give each sentence and feature line to one category only', () => {
    const seen = new Map<string, string>()
    for (const id of categoryIds) {
      const bank = banks[id]
      for (const line of [...bank.openers, ...bank.closers, ...bank.features]) {
        expect(seen.get(line), line).toBeUndefined()
        seen.set(line, id)
      }
    }
  })

  it('have enough lines to fill the copy', () => {
    for (const id of categoryIds) {
      const bank = banks[id]
      expect(bank.openers.length, id).toBeGreaterThanOrEqual(3)
      expect(bank.closers.length, id).toBeGreaterThanOrEqual(3)
      expect(bank.features.length, id).toBeGreaterThanOrEqual(seoLimits.featuresMin)
    }
  })

  it('detect categories from path steps and from names', () => {
    expect(detectCategory({ category: 'Ev & Yaşam > Mutfak > Fincan' })).toBe('mutfak')
    expect(detectCategory({ category: 'Ev & Yaşam > Mutfak > Özel Seri' })).toBe('mutfak')
    expect(detectCategory({ category: 'Anne & Bebek' })).toBe('anneBebek')
    expect(detectCategory({ name: 'Oyuncak Bebek' })).toBe('oyuncak')
    expect(detectCategory({ name: 'Bebek Arabası' })).toBe('anneBebek')
    expect(detectCategory({ name: 'Duvar Saati' })).toBe('dekorasyon')
    expect(detectCategory({ name: 'Kol Saati' })).toBe('aksesuar')
    expect(detectCategory({ name: 'Akülü Matkap' })).toBe('bahce')
    expect(detectCategory({ name: 'Matara' })).toBe('spor')
    expect(detectCategory({ name: 'Botanik Desenli Defter' })).toBe('kirtasiye')
    expect(detectCategory({ name: 'Kar Küresi' })).toBe('genel')
  })
})
