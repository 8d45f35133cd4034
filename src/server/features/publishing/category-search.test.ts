import { describe, expect, it } from 'vitest'
import type { HepsiburadaCategory } from '#tests/fakes/hepsiburada-catalog.ts'
import { hepsiburadaCategories as hepsiburadaCatalogue } from '#tests/fakes/hepsiburada-catalog.ts'
import { trendyolCategoryTree } from '#tests/fakes/trendyol-catalog.ts'
import { indexCategories, searchCategories, turkishStem } from './category-search.ts'
import { flattenTrendyol, hepsiburadaCategories } from './marketplace-categories.ts'

// The category search on the fakes' catalogues, normalised as the service normalises the
// marketplaces' answers.

const trendyol = indexCategories(flattenTrendyol(trendyolCategoryTree))
const cupSetPath = ['Ev & Mobilya', 'Mutfak', 'Sofra & Servis', 'Fincan Takımı']

describe('category search', () => {
  it.each([
    'fincan takımı',
    'fincan takimi',
    'FİNCAN TAKIMI',
    'takımı fincan',
    'Fincan Takımları',
    'finc tak',
  ])('finds the cup set under its full path for “%s”', (query) => {
    const found = searchCategories(trendyol, query, 20)
    expect(found[0]).toEqual({ id: '1111', name: 'Fincan Takımı', path: cupSetPath, isLeaf: true })
  })

  it('needs every word to begin a word of the path', () => {
    expect(searchCategories(trendyol, 'fincan kupa', 20)).toEqual([])
    expect(searchCategories(trendyol, 'incan', 20)).toEqual([])
    // A word of a parent counts: all three tableware leaves sit under "Sofra & Servis".
    expect(searchCategories(trendyol, 'sofra', 20).map((c) => c.name)).toEqual([
      'Fincan Takımı',
      'Kupa',
      'Tabak',
      'Sofra & Servis',
    ])
    expect(searchCategories(trendyol, '  ', 20)).toEqual([])
  })

  it('ranks leaves first, and a match in the category’s own name above one in a parent’s', () => {
    // "mutfak" names a parent of the tableware; "tişört" names the two T-shirt leaves.
    const tshirts = searchCategories(trendyol, 'tisort', 20)
    expect(tshirts.map((c) => c.path.join(' > '))).toEqual([
      'Giyim > Erkek > Tişört',
      'Giyim > Kadın > Tişört',
    ])
    const hepsiburada = indexCategories(hepsiburadaCategories(hepsiburadaCatalogue as HepsiburadaCategory[]))
    // "fincan" is in the cup set's own name and in the parent of both leaves ("Çay ve Kahve Fincanları").
    const cups = searchCategories(hepsiburada, 'fincan', 20)
    expect(cups.map((c) => c.name)).toEqual(['Fincan Takımları', 'Kupalar', 'Çay ve Kahve Fincanları'])
    expect(cups[0]?.path).toEqual([
      'Ev, Yaşam, Kırtasiye, Ofis',
      'Mutfak Gereçleri',
      'Çay ve Kahve Fincanları',
      'Fincan Takımları',
    ])
    // The leaf that takes no products is not offered.
    expect(searchCategories(hepsiburada, 'eski sezon', 20)).toEqual([])
  })

  it('answers at most the limit', () => {
    const many = indexCategories(
      Array.from({ length: 100 }, (_, i) => ({
        id: String(i),
        name: `Kupa ${i}`,
        path: ['Mutfak', `Kupa ${i}`],
        isLeaf: true,
      })),
    )
    expect(searchCategories(many, 'kupa', 20)).toHaveLength(20)
  })

  it('takes Turkish possessive and plural endings off a word only when it finds nothing as typed', () => {
    expect(turkishStem('takimi')).toBe('takim')
    expect(turkishStem('takimlari')).toBe('takim')
    expect(turkishStem('kisi')).toBe('kis')
    expect(turkishStem('kupa')).toBe('kupa')
    expect(turkishStem('su')).toBe('su')
  })
})

describe('normalising the marketplaces’ category lists', () => {
  it('gives Hepsiburada categories their path from the parents when it sends none', () => {
    const rows = [
      { categoryId: 1, name: 'Ev', parentCategoryId: null, leaf: false, status: 'ACTIVE', available: true },
      { categoryId: 2, name: 'Mutfak', parentCategoryId: 1, leaf: false, status: 'ACTIVE', available: true },
      {
        categoryId: 3,
        name: 'Fincan Takımları',
        parentCategoryId: 2,
        leaf: true,
        status: 'ACTIVE',
        available: true,
      },
      // A parent Vitrin was not told about: the path starts where the known ones do.
      { categoryId: 4, name: 'Kupalar', parentCategoryId: 99, leaf: true, status: 'ACTIVE', available: true },
    ]
    expect(hepsiburadaCategories(rows)).toEqual([
      { id: '1', name: 'Ev', path: ['Ev'], isLeaf: false },
      { id: '2', name: 'Mutfak', path: ['Ev', 'Mutfak'], isLeaf: false },
      { id: '3', name: 'Fincan Takımları', path: ['Ev', 'Mutfak', 'Fincan Takımları'], isLeaf: true },
      { id: '4', name: 'Kupalar', path: ['Kupalar'], isLeaf: true },
    ])
  })

  it('flattens Trendyol’s tree root first, a category without subcategories being a leaf', () => {
    const flat = flattenTrendyol(trendyolCategoryTree)
    expect(flat[0]).toEqual({ id: '1000', name: 'Ev & Mobilya', path: ['Ev & Mobilya'], isLeaf: false })
    expect(flat.find((c) => c.id === '1111')).toEqual({
      id: '1111',
      name: 'Fincan Takımı',
      path: cupSetPath,
      isLeaf: true,
    })
    expect(flat.filter((c) => c.isLeaf).map((c) => c.id)).toEqual([
      '1111',
      '1112',
      '1113',
      '1210',
      '2110',
      '2120',
      '2210',
      '3110',
      '4110',
    ])
  })
})
