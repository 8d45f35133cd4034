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
    // A barcode column is the barcode (the SKU falls back to it only without a stock code).
    ['Barkod', 'barcode'],
    ['BARKOD', 'barcode'],
    ['Barcode', 'barcode'],
    ['EAN', 'barcode'],
    ['GTIN', 'barcode'],
    ['Satış Fiyatı', 'price'],
    ["Trendyol'da Satılacak Fiyat (KDV Dahil)", 'price'],
    ['Fiyat', 'price'],
    ['Price', 'price'],
    ['Sale price', 'price'],
    ['Piyasa Satış Fiyatı', 'listPrice'],
    ['Piyasa Satış Fiyatı (KDV Dahil)', 'listPrice'],
    ['Liste Fiyatı', 'listPrice'],
    ['List price', 'listPrice'],
    ['Stok', 'stock'],
    ['Stok Adedi', 'stock'],
    ['Ürün Stok Adedi', 'stock'],
    ['Quantity', 'stock'],
    ['Stock', 'stock'],
    ['KDV', 'vatRate'],
    ['KDV Oranı', 'vatRate'],
    ['VAT', 'vatRate'],
    ['tax_vat_rate', 'vatRate'],
    ['Desi', 'desi'],
    ['Desi Miktarı', 'desi'],
    ['Dimensional weight', 'desi'],
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
    expect(matchHeader('Para Birimi')).toBeNull()
    expect(matchHeader('')).toBeNull()
    expect(matchHeader('Satıcı Adı')).toBeNull()
    // "KDV dahil" says a price includes VAT; it is not the VAT rate.
    expect(matchHeader('KDV dahil')).toBeNull()
    expect(matchHeader('Sevkiyat Süresi')).toBeNull()
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
      barcode: 0,
      name: 3,
      brand: 4,
      category: 5,
      price: 6,
      image1: 7,
      image2: 8,
    })
  })

  it("maps Trendyol's product template, listing columns included", () => {
    const headers = [
      'Barkod',
      'Model Kodu',
      'Marka',
      'Kategori',
      'Para Birimi',
      'Ürün Adı',
      'Ürün Açıklaması',
      'Piyasa Satış Fiyatı (KDV Dahil)',
      "Trendyol'da Satılacak Fiyat (KDV Dahil)",
      'Ürün Stok Adedi',
      'Stok Kodu',
      'KDV Oranı',
      'Desi',
      'Görsel 1',
      'Görsel 2',
      'Sevkiyat Süresi',
      'Renk',
    ]
    expect(suggestMapping(headers)).toEqual({
      barcode: 0,
      brand: 2,
      category: 3,
      name: 5,
      description: 6,
      listPrice: 7,
      price: 8,
      stock: 9,
      sku: 10,
      vatRate: 11,
      desi: 12,
      image1: 13,
      image2: 14,
      color: 16,
    })
  })

  it("maps Hepsiburada's template and its attribute names", () => {
    expect(
      suggestMapping(['Satıcı Stok Kodu', 'Barkod', 'Ürün Adı', 'Marka', 'KDV', 'Fiyat', 'Stok', 'Görsel1']),
    ).toEqual({ sku: 0, barcode: 1, name: 2, brand: 3, vatRate: 4, price: 5, stock: 6, image1: 7 })
    expect(
      suggestMapping([
        'merchantSku',
        'Barcode',
        'UrunAdi',
        'UrunAciklamasi',
        'tax_vat_rate',
        'price',
        'stock',
        'Image1',
      ]),
    ).toEqual({ sku: 0, barcode: 1, name: 2, description: 3, vatRate: 4, price: 5, stock: 6, image1: 7 })
  })

  it('maps English listing headers', () => {
    expect(
      suggestMapping([
        'SKU',
        'Title',
        'EAN',
        'Sale price',
        'List price',
        'Quantity',
        'VAT',
        'Dimensional weight',
      ]),
    ).toEqual({ sku: 0, name: 1, barcode: 2, price: 3, listPrice: 4, stock: 5, vatRate: 6, desi: 7 })
  })

  it('takes the barcode column as the SKU too when the list has no stock code', () => {
    expect(suggestMapping(['Barkod', 'Ürün Adı', 'Görsel 1'])).toEqual({
      barcode: 0,
      sku: 0,
      name: 1,
      image1: 2,
    })
    // A stock code anywhere in the list wins, whichever comes first.
    expect(suggestMapping(['Barkod', 'Ürün Adı', 'Stok Kodu'])).toEqual({ barcode: 0, sku: 2, name: 1 })
    // And that shared column is remembered and followed.
    const saved = toSavedMapping(['GTIN', 'Title'], { barcode: 0, sku: 0, name: 1 })
    expect(saved).toEqual({ sku: 'GTIN', barcode: 'GTIN', name: 'Title' })
    expect(suggestMapping(['Title', 'Notes', 'GTIN'], saved)).toEqual({ barcode: 2, sku: 2, name: 0 })
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
    // The SKU saved on the barcode column stays there, and that column is the barcode too.
    expect(mapping).toEqual({ sku: 0, barcode: 0, name: 2, image1: 4 })
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
