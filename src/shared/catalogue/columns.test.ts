import { describe, expect, it } from 'vitest'
import {
  findHeaderRow,
  foldHeader,
  matchHeader,
  missingRequiredFields,
  suggestMapping,
  toSavedMapping,
} from './columns.ts'

describe('foldHeader', () => {
  it('folds Turkish dotted and dotless i, both cases, and drops diacritics and punctuation', () => {
    expect(foldHeader('ÜRÜN ADI')).toBe('urun adi')
    expect(foldHeader('Ürün Adı')).toBe('urun adi')
    expect(foldHeader('ürün adı')).toBe('urun adi')
    expect(foldHeader('İSİM')).toBe('isim')
    expect(foldHeader('ısım')).toBe('isim')
    expect(foldHeader('AÇIKLAMA')).toBe('aciklama')
    expect(foldHeader('Görsel-1 (URL)')).toBe('gorsel 1 url')
    expect(foldHeader('  Şğüöç  ')).toBe('sguoc')
    // Decomposed input (as macOS writes it) folds the same as composed.
    expect(foldHeader('Ürün Adı'.normalize('NFD'))).toBe('urun adi')
  })
})

describe('matchHeader', () => {
  it.each([
    ['SKU', 'sku'],
    ['Barkod', 'sku'],
    ['BARKOD', 'sku'],
    ['stok kodu', 'sku'],
    ['STOK KODU', 'sku'],
    ['Model Kodu', 'sku'],
    ['Ürün Adı', 'name'],
    ['ÜRÜN ADI', 'name'],
    ['Name', 'name'],
    ['Title', 'name'],
    ['Marka', 'brand'],
    ['Brand', 'brand'],
    ['Kategori', 'category'],
    ['Category', 'category'],
    ['Renk', 'color'],
    ['Colour', 'color'],
    ['Color', 'color'],
    ['Materyal', 'material'],
    ['Malzeme', 'material'],
    ['Material', 'material'],
    ['Açıklama', 'description'],
    ['AÇIKLAMA', 'description'],
    ['Description', 'description'],
    ['Ürün Adı (Zorunlu)', 'name'],
    ['Brand name', 'brand'],
  ])('%s is %s', (header, field) => {
    expect(matchHeader(header)).toMatchObject({ kind: 'text', field })
  })

  it.each([
    ['Görsel 1', 1],
    ['GÖRSEL 8', 8],
    ['Görsel1', 1],
    ['Resim 3', 3],
    ['Image 2', 2],
    ['image_4', 4],
    ['Image URL', null],
    ['Görsel Linki', null],
    ['Fotoğraf 5 URL', 5],
    ['Image URL 6', 6],
  ])('%s is photo %s', (header, position) => {
    expect(matchHeader(header)).toEqual({ kind: 'image', position })
  })

  it('names nothing for unrelated or short words inside other headers', () => {
    expect(matchHeader('Fiyat')).toBeNull()
    expect(matchHeader('')).toBeNull()
    expect(matchHeader('Satıcı Adı')).toBeNull()
    expect(matchHeader('KDV Oranı')).toBeNull()
  })
})

describe('suggestMapping', () => {
  it('maps a Trendyol-style header, preferring the stock code over the barcode for SKU', () => {
    const headers = [
      'Barkod',
      'Model Kodu',
      'Stok Kodu',
      'Ürün Adı',
      'Marka',
      'Kategori',
      'Fiyat',
      'Görsel 1',
      'Görsel 2',
    ]
    expect(suggestMapping(headers)).toEqual({
      sku: 2,
      name: 3,
      brand: 4,
      category: 5,
      image1: 7,
      image2: 8,
    })
  })

  it('maps English headers and gives unnumbered photo columns the free slots in order', () => {
    const headers = ['Image URL', 'SKU', 'Title', 'Colour', 'Material', 'Description', 'Image 1', 'Photo']
    expect(suggestMapping(headers)).toEqual({
      sku: 1,
      name: 2,
      color: 3,
      material: 4,
      description: 5,
      image1: 6,
      image2: 0,
      image3: 7,
    })
  })

  it('uses each column once, and an exact header before one that only contains the word', () => {
    expect(suggestMapping(['Ürün Adı (İngilizce)', 'Ürün Adı'])).toEqual({ name: 1 })
  })

  it('lets a saved mapping win where its headers are present, and detects the rest', () => {
    const headers = ['Barkod', 'Stok Kodu', 'Başlık', 'Ürün Adı', 'Resim']
    const mapping = suggestMapping(headers, { sku: 'BARKOD', name: 'başlık', brand: 'Gone Column' })
    expect(mapping).toEqual({ sku: 0, name: 2, image1: 4 })
  })

  it('keeps a field the user left unmapped unmapped', () => {
    expect(suggestMapping(['SKU', 'Name', 'Açıklama'], { description: null })).toEqual({ sku: 0, name: 1 })
  })

  it('round-trips through the saved form', () => {
    const headers = ['Stok Kodu', 'Ürün Adı', 'Görsel 1']
    const mapping = suggestMapping(headers)
    const saved = toSavedMapping(headers, mapping, ['description'])
    expect(saved).toEqual({ sku: 'Stok Kodu', name: 'Ürün Adı', image1: 'Görsel 1', description: null })
    // Moved columns are followed; a field cleared on purpose stays cleared; others are detected.
    expect(suggestMapping(['Görsel 1', 'Ürün Adı', 'Açıklama', 'Stok Kodu', 'Marka'], saved)).toEqual({
      sku: 3,
      name: 1,
      image1: 0,
      brand: 4,
    })
  })
})

describe('missingRequiredFields', () => {
  it('names SKU and name when they are not mapped', () => {
    expect(missingRequiredFields({ name: 0 })).toEqual(['sku'])
    expect(missingRequiredFields({})).toEqual(['sku', 'name'])
    expect(missingRequiredFields({ sku: 0, name: 1 })).toEqual([])
  })
})

describe('findHeaderRow', () => {
  it('skips a title row above the header', () => {
    const rows = [
      ['Ürün Listesi — Mart 2024'],
      [],
      ['Stok Kodu', 'Ürün Adı', 'Görsel 1'],
      ['A', 'B', 'c.jpg'],
    ]
    expect(findHeaderRow(rows)).toBe(2)
  })

  it('takes the first row with text when no header word is known', () => {
    expect(findHeaderRow([[''], ['Kolon A', 'Kolon B'], ['1', '2']])).toBe(1)
    expect(findHeaderRow([['', '']])).toBe(-1)
  })
})
