import { describe, expect, it } from 'vitest'
import type { MarketplaceAttribute } from '#shared/contracts/publishing.ts'
import type { SeoContent } from '#shared/seo.ts'
import { type HepsiburadaAttribute, hepsiburadaCategoryAttributes } from '#tests/fakes/hepsiburada-catalog.ts'
import { type TrendyolCategoryAttribute, trendyolCategoryAttributes } from '#tests/fakes/trendyol-catalog.ts'
import { type AttributeFill, askOnce, attributeKind, fillAttributes } from './attribute-filler.ts'
import { clusterColours, knownColourName } from './product-colour.ts'

// The categories as the fakes serve them, in the shared shape the category lookups give.
function fromTrendyol(categoryId: number): MarketplaceAttribute[] {
  const attributes = trendyolCategoryAttributes.get(categoryId) ?? []
  return attributes.map((entry: TrendyolCategoryAttribute) => ({
    id: String(entry.attribute.id),
    name: entry.attribute.name,
    isRequired: entry.required,
    isMultiple: entry.allowMultipleAttributeValues,
    allowsCustom: entry.allowCustom,
    values: entry.attributeValues.map((value) => ({ id: String(value.id), name: value.name })),
  }))
}

function fromHepsiburada(categoryId: number): MarketplaceAttribute[] {
  const category = hepsiburadaCategoryAttributes.get(categoryId)
  return [...(category?.attributes ?? []), ...(category?.variantAttributes ?? [])].map(
    (entry: HepsiburadaAttribute) => ({
      id: entry.id,
      name: entry.name,
      isRequired: entry.mandatory,
      isMultiple: entry.multiValue,
      allowsCustom: entry.type !== 'enum',
      values: (entry.values ?? []).map((name) => ({ id: name, name })),
    }),
  )
}

const cups = fromTrendyol(1111) // Ev & Mobilya > Mutfak > Sofra & Servis > Fincan Takımı
const tshirts = fromTrendyol(2110) // Giyim > Kadın > Tişört
const hbCups = fromHepsiburada(60001001)

const byName = (attributes: MarketplaceAttribute[], name: string) => {
  const attribute = attributes.find((entry) => entry.name === name)
  if (!attribute) throw new Error(`no ${name}`)
  return attribute
}

/** The value filled for an attribute (by name), with its source; undefined when none. */
function filledValue(fill: AttributeFill, attributes: MarketplaceAttribute[], name: string) {
  const id = byName(attributes, name).id
  const values = fill.filled.filter((entry) => entry.attributeId === id)
  return values.length === 0
    ? undefined
    : values.map(({ value, source }) => `${value} (${source})`).join(', ')
}

const missingNames = (fill: AttributeFill) => fill.missing.map((attribute) => attribute.name)

type Rgb = [number, number, number]
const photoOf = (...parts: [Rgb, number][]) =>
  clusterColours(parts.flatMap(([rgb, count]) => Array.from({ length: count }, () => rgb)))

const redPhoto = photoOf([[200, 30, 35], 800])
const brownPhoto = photoOf([[120, 75, 45], 800])
const manyColouredPhoto = photoOf(
  [[210, 30, 30], 300],
  [[40, 150, 70], 250],
  [[40, 110, 220], 250],
  [[240, 200, 40], 200],
)

const copy: SeoContent = {
  title: 'Porselen Fincan Takımı 2 Kişilik',
  description: 'İki kişilik porselen kahve fincanı takımı, tabaklarıyla.',
  features: ['Porselen gövde', 'Bulaşık makinesinde yıkanabilir', '2 fincan, 2 tabak', 'Hediye kutusunda'],
  keywords: ['fincan takımı', 'kahve fincanı'],
}

describe('the colour attribute', () => {
  it('recognises colour, material and brand attributes by their folded names', () => {
    expect(['Renk', 'RENK', 'Renk Kodu', 'Color'].map((name) => attributeKind({ name }))).toEqual([
      'colour',
      'colour',
      'colour',
      'colour',
    ])
    expect(['Materyal', 'Malzeme', 'Kumaş', 'KUMAS'].map((name) => attributeKind({ name }))).toEqual([
      'material',
      'material',
      'material',
      'material',
    ])
    expect(attributeKind({ name: 'Marka' })).toBe('brand')
    expect(attributeKind({ name: 'Renk Tonu Kartelası' })).toBe('other')
  })

  it('knows a colour for every colour value both marketplaces’ categories list', () => {
    const colourValues = [...cups, ...hbCups]
      .filter((attribute) => attributeKind(attribute) === 'colour')
      .flatMap((attribute) => attribute.values.map((value) => value.name))
    expect(colourValues.length).toBeGreaterThan(20)
    expect(colourValues.filter((name) => knownColourName(name) === undefined)).toEqual([])
  })

  it('takes the photo’s colour when the seller named none', async () => {
    const fill = await fillAttributes({ attributes: cups, photoColour: redPhoto })
    expect(filledValue(fill, cups, 'Renk')).toBe('Kırmızı (photo)')
    expect(missingNames(fill)).not.toContain('Renk')
  })

  it('keeps the seller’s stated colour over the photo’s', async () => {
    const fill = await fillAttributes({
      attributes: cups,
      details: { color: 'lacivert' },
      photoColour: redPhoto,
    })
    expect(filledValue(fill, cups, 'Renk')).toBe('Lacivert (details)')
    const fromList = await fillAttributes({
      attributes: cups,
      catalogue: { fields: { color: 'SİYAH' } },
      photoColour: redPhoto,
    })
    expect(filledValue(fromList, cups, 'Renk')).toBe('Siyah (catalogue)')
  })

  it('does not force a stated colour the list lacks, nor let the photo replace it: it is asked', async () => {
    const fill = await fillAttributes({
      attributes: cups,
      details: { color: 'Hardal' },
      photoColour: redPhoto,
    })
    expect(filledValue(fill, cups, 'Renk')).toBeUndefined()
    expect(missingNames(fill)).toContain('Renk')
    // Where the attribute takes a typed value, the seller's word is typed as it is.
    const open = cups.map((attribute) =>
      attribute.name === 'Renk' ? { ...attribute, allowsCustom: true } : attribute,
    )
    const typed = await fillAttributes({
      attributes: open,
      details: { color: 'Hardal' },
      photoColour: redPhoto,
    })
    expect(typed.filled.find((entry) => entry.value === 'Hardal')).toMatchObject({
      valueId: null,
      source: 'details',
    })
  })

  it('knows another name for an allowed colour (kahve is Kahverengi)', async () => {
    const fill = await fillAttributes({ attributes: cups, details: { color: 'Kahve' } })
    expect(filledValue(fill, cups, 'Renk')).toBe('Kahverengi (details)')
  })

  it('fills Çok Renkli for a many-coloured photo and for a seller naming several colours', async () => {
    const fromPhoto = await fillAttributes({ attributes: hbCups, photoColour: manyColouredPhoto })
    expect(filledValue(fromPhoto, hbCups, 'Renk')).toBe('Çok Renkli (photo)')
    const stated = await fillAttributes({
      attributes: hbCups,
      details: { color: 'Siyah-Beyaz' },
      photoColour: redPhoto,
    })
    expect(filledValue(stated, hbCups, 'Renk')).toBe('Çok Renkli (details)')
  })

  it('lets the seller’s own words bound the photo: "siyah" in the name is never overruled by brown pixels', async () => {
    const details = { name: 'Siyah Porselen Fincan Takımı' }
    const fill = await fillAttributes({ attributes: cups, details, photoColour: brownPhoto })
    expect(filledValue(fill, cups, 'Renk')).toBe('Siyah (details)')
    // The photo still decides among the colours the name gives.
    const twoColours = { name: 'Kırmızı Beyaz Puantiyeli Fincan' }
    const chosen = await fillAttributes({ attributes: cups, details: twoColours, photoColour: redPhoto })
    expect(filledValue(chosen, cups, 'Renk')).toBe('Kırmızı (photo)')
    const without = await fillAttributes({ attributes: cups, photoColour: brownPhoto })
    expect(filledValue(without, cups, 'Renk')).toBe('Kahverengi (photo)')
  })

  it('asks for the colour when neither the seller nor a photo says it', async () => {
    const fill = await fillAttributes({ attributes: cups, details: { name: 'Fincan Takımı' } })
    expect(missingNames(fill)).toContain('Renk')
  })
})

describe('the other attributes', () => {
  it('matches the seller’s material to the allowed values, the more specific one first', async () => {
    const plain = await fillAttributes({ attributes: cups, details: { material: 'porselen' } })
    expect(filledValue(plain, cups, 'Materyal')).toBe('Porselen (details)')
    const bone = await fillAttributes({ attributes: cups, details: { material: 'Kemik porselen' } })
    expect(filledValue(bone, cups, 'Materyal')).toBe('Kemik Porselen (details)')
    const cotton = await fillAttributes({
      attributes: tshirts,
      catalogue: { fields: { material: '%100 pamuk' } },
    })
    expect(filledValue(cotton, tshirts, 'Materyal')).toBe('%100 Pamuk (catalogue)')
  })

  it('asks for a stated material the list lacks instead of reading one from the copy', async () => {
    const fill = await fillAttributes({ attributes: cups, details: { material: 'Bambu' }, copy })
    expect(filledValue(fill, cups, 'Materyal')).toBeUndefined()
    expect(missingNames(fill)).toContain('Materyal')
  })

  it('reads an unstated material from the copy when it names exactly one allowed value', async () => {
    const fill = await fillAttributes({ attributes: cups, copy })
    expect(filledValue(fill, cups, 'Materyal')).toBe('Porselen (copy)')
    const twoMaterials = { ...copy, features: [...copy.features.slice(0, 3), 'Cam fincan altlığı'] }
    const unsure = await fillAttributes({ attributes: cups, copy: twoMaterials })
    expect(filledValue(unsure, cups, 'Materyal')).toBeUndefined()
  })

  it('fills an attribute whose one allowed value the seller’s words name, suffixed or not', async () => {
    const adult = await fillAttributes({
      attributes: tshirts,
      details: { description: 'Yetişkinler için pamuklu tişört.' },
    })
    expect(filledValue(adult, tshirts, 'Yaş Grubu')).toBe('Yetişkin (details)')
    expect(filledValue(adult, tshirts, 'Materyal')).toBe('Pamuk (details)')
    const both = await fillAttributes({
      attributes: tshirts,
      details: { description: 'Yetişkin ve çocuk bedenleri var.' },
    })
    expect(filledValue(both, tshirts, 'Yaş Grubu')).toBeUndefined()
  })

  it('never reads a count from a bare number in a text: "2 Kişilik" is not Parça Sayısı 2', async () => {
    const fill = await fillAttributes({
      attributes: cups,
      details: { name: '2 Kişilik Fincan Takımı' },
      copy,
    })
    expect(filledValue(fill, cups, 'Parça Sayısı')).toBeUndefined()
    expect(missingNames(fill)).toContain('Parça Sayısı')
  })

  it('fills an attribute from a catalogue column of the same name, typed where the attribute takes it', async () => {
    const fill = await fillAttributes({
      attributes: cups,
      catalogue: { columns: { 'PARÇA SAYISI': '6', 'Kişi sayısı': '6 kişilik', Renk: 'beyaz' } },
      photoColour: redPhoto,
    })
    expect(filledValue(fill, cups, 'Parça Sayısı')).toBe('6 (catalogue)')
    expect(filledValue(fill, cups, 'Kişi Sayısı')).toBe('6 kişilik (catalogue)')
    expect(filledValue(fill, cups, 'Renk')).toBe('Beyaz (catalogue)')
  })

  it('fills a brand attribute from the seller’s brand only when it is allowed or may be typed', async () => {
    const brand = (values: string[], allowsCustom: boolean): MarketplaceAttribute => ({
      id: 'marka',
      name: 'Marka',
      isRequired: true,
      isMultiple: false,
      allowsCustom,
      values: values.map((name) => ({ id: name.toLowerCase(), name })),
    })
    const listed = await fillAttributes({
      attributes: [brand(['Kütahya Porselen', 'Güral'], false)],
      details: { brand: 'KÜTAHYA PORSELEN' },
    })
    expect(listed.filled).toEqual([
      { attributeId: 'marka', valueId: 'kütahya porselen', value: 'Kütahya Porselen', source: 'details' },
    ])
    const unlisted = await fillAttributes({
      attributes: [brand(['Güral'], false)],
      details: { brand: 'Atölye Nar' },
    })
    expect(unlisted.filled).toEqual([])
    expect(missingNames(unlisted)).toEqual(['Marka'])
    const typed = await fillAttributes({ attributes: [brand([], true)], details: { brand: 'Atölye Nar' } })
    expect(typed.filled).toEqual([
      { attributeId: 'marka', valueId: null, value: 'Atölye Nar', source: 'details' },
    ])
  })

  it('reports as missing only the required attributes nothing filled', async () => {
    const fill = await fillAttributes({
      attributes: cups,
      details: { material: 'Porselen' },
      photoColour: redPhoto,
    })
    expect(missingNames(fill).sort()).toEqual(['Boyut/Ebat', 'Parça Sayısı'])
  })
})

describe('the vision seam', () => {
  it('asks a vision chooser only about what nothing else filled, and keeps only allowed answers', async () => {
    const asked: string[][] = []
    const piecesId = byName(cups, 'Parça Sayısı').id
    const sizeId = byName(cups, 'Boyut/Ebat').id
    const sixPieces = byName(cups, 'Parça Sayısı').values.find((value) => value.name === '6')?.id ?? ''
    const fill = await fillAttributes({
      attributes: cups,
      details: { material: 'Porselen' },
      photoColour: redPhoto,
      vision: async (attributes) => {
        asked.push(attributes.map((attribute) => attribute.name))
        return [
          { attributeId: piecesId, valueIds: [sixPieces] },
          { attributeId: sizeId, valueIds: ['not-an-allowed-id'] },
        ]
      },
    })
    expect(asked).toEqual([['Boyut/Ebat', 'Parça Sayısı', 'Bulaşık Makinesinde Yıkanabilir']])
    expect(filledValue(fill, cups, 'Parça Sayısı')).toBe('6 (vision)')
    expect(missingNames(fill)).toEqual(['Boyut/Ebat'])
  })
})

describe('asking once per batch', () => {
  it('asks once for what every row lacks, and row by row for the rest', async () => {
    const rows = await Promise.all([
      fillAttributes({ attributes: cups, details: { material: 'Porselen' }, photoColour: redPhoto }),
      fillAttributes({ attributes: cups, details: { material: 'Bambu' }, photoColour: redPhoto }),
      fillAttributes({ attributes: cups, details: { material: 'Seramik' } }),
    ])
    const questions = askOnce(rows)
    expect(questions.forBatch.map((attribute) => attribute.name).sort()).toEqual([
      'Boyut/Ebat',
      'Parça Sayısı',
    ])
    expect(
      questions.perRow.map(({ row, attributes }) => [row, attributes.map((attribute) => attribute.name)]),
    ).toEqual([
      [1, ['Materyal']],
      [2, ['Renk']],
    ])
  })

  it('asks once for what more than one row lacks, the rows that have it keeping their own', async () => {
    const rows = await Promise.all([
      fillAttributes({ attributes: cups, details: { material: 'Porselen' }, photoColour: redPhoto }),
      fillAttributes({ attributes: cups, details: { material: 'Bambu' }, photoColour: redPhoto }),
      fillAttributes({ attributes: cups, details: { material: 'Tahta' }, photoColour: redPhoto }),
    ])
    const questions = askOnce(rows)
    expect(questions.forBatch.map((attribute) => attribute.name).sort()).toEqual([
      'Boyut/Ebat',
      'Materyal',
      'Parça Sayısı',
    ])
    expect(questions.perRow).toEqual([])
  })

  it('asks a one-row batch its questions as the batch’s', async () => {
    const only = await fillAttributes({
      attributes: cups,
      details: { material: 'Porselen' },
      photoColour: redPhoto,
    })
    expect(
      askOnce([only])
        .forBatch.map((attribute) => attribute.name)
        .sort(),
    ).toEqual(['Boyut/Ebat', 'Parça Sayısı'])
  })

  it('asks nothing for a batch whose rows are complete, and nothing for an empty batch', () => {
    expect(askOnce([{ filled: [], missing: [] }])).toEqual({ forBatch: [], perRow: [] })
    expect(askOnce([])).toEqual({ forBatch: [], perRow: [] })
  })

  it('asks per row when only some rows lack an attribute', async () => {
    const rows = await Promise.all([
      fillAttributes({
        attributes: tshirts,
        details: { material: 'Pamuk', description: 'Yetişkin' },
        photoColour: redPhoto,
      }),
      fillAttributes({ attributes: tshirts, details: { material: 'Pamuk' }, photoColour: redPhoto }),
    ])
    const questions = askOnce(rows)
    expect(questions.forBatch.map((attribute) => attribute.name)).toEqual(['Beden'])
    expect(questions.perRow).toEqual([{ row: 1, attributes: [byName(tshirts, 'Yaş Grubu')] }])
  })
})
