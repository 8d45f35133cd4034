import fc from 'fast-check'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { normalizeSeoContent, type ProductDetails, type SeoContent, seoLimits } from '#shared/seo.ts'
import { garmentPhoto, productPhoto, redSquarePhoto } from '#tests/support/test-photos.ts'
import { ProviderError } from '../types.ts'
import { findDominantColour, nameColour, type TurkishColour } from './dominant-colour.ts'
import { createOfflineStudio } from './index.ts'
import { testContext } from './measure.ts'
import { softLower, titleCase, upperFirst, writeSeoCopy } from './seo-copy.ts'

const lower = (text: string) => text.toLocaleLowerCase('tr-TR')

function expectWithinLimits(content: SeoContent) {
  expect(content.title.length).toBeGreaterThan(0)
  expect(content.title.length).toBeLessThanOrEqual(seoLimits.titleMax)
  expect(content.description.length).toBeGreaterThan(0)
  expect(content.description.length).toBeLessThanOrEqual(seoLimits.descriptionMax)
  expect(content.features.length).toBeGreaterThanOrEqual(seoLimits.featuresMin)
  expect(content.features.length).toBeLessThanOrEqual(seoLimits.featuresMax)
  expect(content.keywords).toHaveLength(seoLimits.keywords)
  expect(new Set(content.keywords.map(lower)).size).toBe(seoLimits.keywords)
  // Already normal: the shared normaliser accepts it and changes nothing.
  expect(normalizeSeoContent(content)).toEqual(content)
}

function mentions(content: SeoContent, word: string): boolean {
  return lower(`${content.title} ${content.description}`).includes(lower(word))
}

const longName =
  'El yapımı seramik kahve fincanı takımı iki kişilik altın yaldızlı özel hediye kutusunda zarif tasarım ürün seti'

describe('offline SEO copy', () => {
  it('writes natural Turkish listing copy from full details', () => {
    const content = writeSeoCopy(
      { name: 'Deri Sırt Çantası', brand: 'Atelier', category: 'Çanta', material: 'hakiki deri' },
      'siyah',
    )
    expect(content.title).toBe('Atelier Siyah Deri Sırt Çantası')
    expect(content.description).toMatch(/^Atelier imzalı siyah Deri Sırt Çantası, hakiki deri malzemesiyle/)
    expect(content.features).toContain('Renk: Siyah')
    expect(content.features).toContain('Malzeme: Hakiki deri')
    expect(content.keywords).toContain('siyah deri sırt çantası')
    expectWithinLimits(content)
  })

  it('writes keywords that are single search phrases, from a category path and a name with a comma', () => {
    const content = writeSeoCopy(
      {
        name: 'Türk Kahvesi Fincan Takımı, 2 Kişilik',
        category: 'Ev & Yaşam > Mutfak > Fincan',
        brand: 'Karaca',
      },
      'kırmızı',
    )
    for (const keyword of content.keywords) expect(keyword).not.toMatch(/[,;>›»|]/)
    expect(content.keywords).toContain('türk kahvesi fincan takımı')
    expect(content.keywords).toContain('fincan')
    // The path's last step is the product's kind in prose too.
    expect(content.description).not.toMatch(/[>›»]/)
    expect(content.features).toContain('Kategori: Fincan')
    expectWithinLimits(content)
  })

  it('never writes a promotional line', () => {
    for (const details of [{}, { name: 'Kupa' }, { name: 'Kupa', category: 'Mutfak', brand: 'Paşabahçe' }]) {
      expect(lower(writeSeoCopy(details, 'mavi').description)).not.toMatch(/sepete|hemen|kaçırmayın|indirim/)
    }
  })

  it('says each thing once', () => {
    const content = writeSeoCopy({ name: 'Nike Siyah Koşu Ayakkabısı', brand: 'Nike' }, 'siyah')
    expect(content.title).toBe('Nike Siyah Koşu Ayakkabısı')
    expect(lower(content.title).split('siyah')).toHaveLength(2)
  })

  it('still writes a full listing with no details at all', () => {
    const content = writeSeoCopy({}, 'kırmızı')
    expect(content.title).toBe('Kırmızı Renkli Ürün')
    expect(content.description).toMatch(/^Kırmızı renkli bu ürün/)
    expectWithinLimits(content)
  })

  it('uses Turkish casing rules', () => {
    expect(upperFirst('iğne')).toBe('İğne')
    expect(titleCase('ipek ılık şal iPhone')).toBe('İpek Ilık Şal iPhone')
    expect(softLower('Pamuk PU IKEA İpek')).toBe('pamuk PU IKEA ipek')
    const content = writeSeoCopy({ name: 'ipek eşarp', category: 'aksesuar' }, 'mavi')
    expect(content.title).toBe('Mavi İpek Eşarp')
  })

  it('stays within every limit for very long details', () => {
    const content = writeSeoCopy(
      {
        name: longName,
        brand: 'Kütahya Porselen Çok Uzun Bir Marka Adı Sanayi ve Ticaret Anonim Şirketi',
        category: 'Mutfak, Sofra ve Ev Gereçleri Kategorisinin Uzun Bir Alt Kategorisi',
        material: 'Porselen ve yirmi dört ayar altın yaldız karışımı özel bir malzeme, el işçiliği',
      },
      'lacivert',
    )
    expectWithinLimits(content)
  })

  it('stays within every limit and mentions the colour for any mix of missing and long details', () => {
    const text = fc.oneof(
      fc.constant(undefined),
      fc.constant(''),
      fc.constantFrom('Deri Çanta', 'tişört', 'Koton', 'IKEA', '%100 pamuk', 'ahşap', 'İğne Oyası', 'Şal'),
      fc.string({ maxLength: 120 }),
      fc
        .array(fc.constantFrom('uzun', 'ürün', 'adı', 'çok', 'şık', 'Iğdır', 'istanbul', 'x'), {
          maxLength: 40,
        })
        .map((w) => w.join(' ')),
    )
    const colours: TurkishColour[] = ['siyah', 'beyaz', 'gri', 'kırmızı', 'lacivert', 'yeşil', 'sarı', 'bej']
    fc.assert(
      fc.property(
        fc.record({ name: text, category: text, brand: text, material: text }),
        fc.constantFrom(...colours),
        (raw, colour) => {
          // The shared schema caps the typed details; the copy is built from values it accepts.
          const details: ProductDetails = {
            name: raw.name?.slice(0, 120),
            category: raw.category?.slice(0, 80),
            brand: raw.brand?.slice(0, 80),
            material: raw.material?.slice(0, 80),
          }
          const content = writeSeoCopy(details, colour)
          expectWithinLimits(content)
          expect(mentions(content, colour)).toBe(true)
          for (const keyword of content.keywords) expect(keyword).not.toMatch(/[,;]/)
          expect(writeSeoCopy(details, colour)).toEqual(content)
        },
      ),
      { numRuns: 400 },
    )
  })
})

describe('dominant colour', () => {
  it.each([
    [[20, 20, 22], 'siyah'],
    [[250, 250, 248], 'beyaz'],
    [[128, 128, 130], 'gri'],
    [[208, 28, 28], 'kırmızı'],
    [[110, 20, 40], 'bordo'],
    [[31, 47, 92], 'lacivert'],
    [[40, 110, 220], 'mavi'],
    [[40, 150, 70], 'yeşil'],
    [[240, 200, 40], 'sarı'],
    [[240, 130, 30], 'turuncu'],
    [[110, 70, 40], 'kahverengi'],
    [[222, 205, 175], 'bej'],
    [[130, 60, 160], 'mor'],
    [[245, 160, 190], 'pembe'],
  ] as const)('names %j %s', (rgb, name) => {
    expect(nameColour(rgb)).toBe(name)
  })

  it('measures the product, not the backdrop', async () => {
    expect((await findDominantColour(await redSquarePhoto())).name).toBe('kırmızı')
    expect((await findDominantColour(await garmentPhoto())).name).toBe('lacivert')
    expect((await findDominantColour(await garmentPhoto({ colour: '#2f8f46' }))).name).toBe('yeşil')
  })
})

describe('offline studio: writeSeo', () => {
  let photo: Buffer
  beforeAll(async () => {
    photo = await garmentPhoto({ width: 500, height: 600 })
  })

  it('returns copy within limits, from the offline model, naming the photo colour', async () => {
    const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg' })
    const result = await studio.writeSeo(
      { image: { bytes: photo, mime: 'image/jpeg' }, details: { name: 'Basic Tişört', material: 'pamuk' } },
      testContext(),
    )
    expect(result.model).toBe('offline-studio')
    // No colour given: the one in the copy is read from the photo, and the result says so.
    expect(result.colourFromPhoto).toBe('lacivert')
    const { model: _model, colourFromPhoto: _colour, ...content } = result
    expectWithinLimits(content)
    expect(result.title).toBe('Lacivert Pamuk Basic Tişört')
    const again = await studio.writeSeo(
      { image: { bytes: photo, mime: 'image/jpeg' }, details: { name: 'Basic Tişört', material: 'pamuk' } },
      testContext(),
    )
    expect(again).toEqual(result)
  })

  it('works for a photo without a plain backdrop, from the centre of the photo', async () => {
    const busy = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#e3c11b' } })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="40" fill="#2244aa"/><rect y="360" width="400" height="40" fill="#aa2222"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer()
    const result = await createOfflineStudio({ ffmpegPath: 'ffmpeg' }).writeSeo(
      { image: { bytes: busy, mime: 'image/png' }, details: {} },
      testContext(),
    )
    expect(mentions(result, 'sarı')).toBe(true)
  })

  it('refuses an unreadable image', async () => {
    const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg' })
    await expect(
      studio.writeSeo(
        { image: { bytes: Buffer.from('nope'), mime: 'image/png' }, details: {} },
        testContext(),
      ),
    ).rejects.toSatisfy((error) => error instanceof ProviderError && error.failure === 'rejected')
  })

  it('names an amber bottle brown or orange', async () => {
    expect(['kahverengi', 'turuncu']).toContain((await findDominantColour(await productPhoto())).name)
  })
})
