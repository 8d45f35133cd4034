import { afterAll, describe, expect, it } from 'vitest'
import { catalogueLimits } from '#shared/catalogue/limits.ts'
import { AppError } from '#shared/errors.ts'
import {
  cp857PhotoName,
  csvOf,
  photoBytes,
  photosZip,
  productRow,
  productsXlsx,
  turkishExcelCsv,
  turkishHeader,
  zipOf,
} from '#tests/support/catalogue-fixtures.ts'
import { openPhotoZip, type PhotoZip } from './photo-zip.ts'
import { readProductList } from './read-product-list.ts'
import { validateRows } from './validate-rows.ts'

const opened: PhotoZip[] = []
async function photos(bytes?: Buffer): Promise<PhotoZip> {
  const zip = await openPhotoZip(bytes ?? (await photosZip()))
  opened.push(zip)
  return zip
}
afterAll(() => {
  for (const zip of opened) zip.close()
})

describe('validateRows', () => {
  it('passes the Turkish Excel list against its ZIP, and reports what is missing by line', async () => {
    const list = await readProductList(turkishExcelCsv(), 'liste.csv')
    const result = validateRows(list, list.suggestedMapping, await photos())
    expect(result.rows.map((row) => [row.line, row.sku, row.isValid])).toEqual([
      [2, 'KRM-001', true],
      [4, 'KRM-002', true],
      [5, 'KRM-003', true],
      [7, 'IŞK-004', true],
    ])
    const [first, second, third, fourth] = result.rows
    expect(first?.photos.map((photo) => (photo.kind === 'zip' ? photo.entry.path : photo.url))).toEqual([
      'KRM-001_1.jpg',
      'fotoğraflar/KRM-001_2.jpg',
    ])
    expect(first?.description).toBe('Yumuşak, şık bir eşarp.\nİkinci satır: "özel" dokuma.')
    expect(second?.photos).toHaveLength(1)
    expect(third?.imageUrls).toEqual(['https://cdn.example.com/g%C3%BC%C4%9F%C3%BCm.jpg'])
    expect(fourth?.photos).toMatchObject([{ kind: 'zip', entry: { path: cp857PhotoName } }])
    expect(result).toMatchObject({ validCount: 4, invalidCount: 0, problems: [] })
  })

  it('reports each kind of bad row with its line, field and value', async () => {
    const rows = [
      productRow(1),
      productRow(2, { 'Ürün Adı': '' }),
      productRow(3, { 'Stok Kodu': 'DUP-1' }),
      productRow(4, { 'Görsel 1': '' }),
      productRow(5, { 'Görsel 1': 'yok.jpg' }),
      productRow(6, { 'Görsel 1': 'ftp://example.com/a.jpg', 'Görsel 2': 'javascript:alert(1)' }),
      productRow(7, { 'Stok Kodu': 'dup-1', 'Görsel 1': 'https://user:pw@example.com/a.jpg' }),
      productRow(8, { Açıklama: 'x'.repeat(100_000), 'Görsel 1': 'www.example.com/a.jpg' }),
      productRow(9, { 'Stok Kodu': '', 'Görsel 1': 'C:\\Fotolar\\SKU-9.jpg' }),
    ]
    const list = await readProductList(csvOf(rows), 'liste.csv')
    const zip = await photos(
      await zipOf(
        [1, 2, 3, 4, 5, 6, 7, 8, 9].map((index) => ({
          name: `SKU-${index}.jpg`,
          data: photoBytes(50, index),
        })),
      ),
    )
    const result = validateRows(list, list.suggestedMapping, zip)
    expect(result.problems).toEqual([
      { line: 3, code: 'nameEmpty', field: 'name', column: 1 },
      { line: 4, code: 'skuDuplicate', field: 'sku', column: 0, value: 'DUP-1', otherLines: [8] },
      { line: 5, code: 'photoMissing' },
      { line: 6, code: 'photoNotInZip', field: 'image1', column: 7, value: 'yok.jpg' },
      { line: 7, code: 'imageUrlInvalid', field: 'image1', column: 7, value: 'ftp://example.com/a.jpg' },
      { line: 7, code: 'imageUrlInvalid', field: 'image2', column: 8, value: 'javascript:alert(1)' },
      {
        line: 8,
        code: 'imageUrlInvalid',
        field: 'image1',
        column: 7,
        value: 'https://user:pw@example.com/a.jpg',
      },
      { line: 8, code: 'skuDuplicate', field: 'sku', column: 0, value: 'dup-1', otherLines: [4] },
      { line: 9, code: 'imageUrlInvalid', field: 'image1', column: 7, value: 'www.example.com/a.jpg' },
      { line: 9, code: 'fieldTooLong', field: 'description', column: 6 },
      { line: 10, code: 'skuEmpty', field: 'sku', column: 0 },
    ])
    expect(result.validCount).toBe(1)
    // The Windows path found its photo by file name.
    expect(result.rows[8]?.photos).toMatchObject([{ kind: 'zip', entry: { path: 'SKU-9.jpg' } }])
  })

  it('with no ZIP, takes addresses and reports file names as needing one', async () => {
    const list = await readProductList(
      csvOf([
        productRow(1, {
          'Görsel 1': 'https://example.com/a.jpg\nhttps://example.com/b.jpg',
          'Görsel 2': 'https://example.com/a.jpg',
        }),
        productRow(2, { 'Görsel 1': 'a.jpg; https://example.com/c.jpg' }),
      ]),
      'liste.csv',
    )
    const result = validateRows(list, list.suggestedMapping, null)
    expect(result.rows[0]).toMatchObject({
      isValid: true,
      imageUrls: ['https://example.com/a.jpg', 'https://example.com/b.jpg'],
    })
    expect(result.rows[1]?.imageUrls).toEqual(['https://example.com/c.jpg'])
    // The first row's photo cell spans lines 2–3, so the second row starts on line 4.
    expect(result.problems).toEqual([
      { line: 4, code: 'photoNoZip', field: 'image1', column: 7, value: 'a.jpg' },
    ])
  })

  it('reports photos the ZIP holds but cannot give, and keeps at most 8 photos a row', async () => {
    const limits = { ...catalogueLimits, photoZip: { ...catalogueLimits.photoZip, maxPhotoBytes: 1000 } }
    const zip = await openPhotoZip(
      await zipOf([
        { name: 'big.jpg', data: photoBytes(2000) },
        { name: 'a/x.jpg', data: photoBytes(10) },
        { name: 'b/x.jpg', data: photoBytes(10) },
      ]),
      { limits },
    )
    opened.push(zip)
    const many = Array.from({ length: 10 }, (_, index) => `https://example.com/${index}.jpg`).join('\n')
    const list = await readProductList(
      csvOf([
        productRow(1, { 'Görsel 1': 'big.jpg', 'Görsel 2': 'x.jpg' }),
        productRow(2, { 'Görsel 1': many }),
      ]),
      'liste.csv',
    )
    const result = validateRows(list, list.suggestedMapping, zip)
    expect(result.problems).toEqual([
      { line: 2, code: 'photoTooLarge', field: 'image1', column: 7, value: 'big.jpg' },
      { line: 2, code: 'photoAmbiguous', field: 'image2', column: 8, value: 'x.jpg' },
    ])
    expect(result.rows[1]?.imageUrls).toHaveLength(catalogueLimits.maxImagesPerRow)
  })

  it('uses an XLSX hyperlink as the photo address', async () => {
    const list = await readProductList(await productsXlsx(), 'liste.xlsx')
    const result = validateRows(list, list.suggestedMapping, null)
    expect(result.rows[0]).toMatchObject({
      sku: '8690000000001',
      imageUrls: ['https://cdn.example.com/ipek-sal.jpg'],
    })
    expect(result.rows[1]?.problems.map((problem) => problem.code)).toEqual(['photoNoZip'])
  })

  it('reads the listing columns, and reports each value that does not read with its cell', async () => {
    const header = [
      ...turkishHeader,
      'Barkod',
      'Satış Fiyatı',
      'Piyasa Satış Fiyatı',
      'Stok',
      'KDV Oranı',
      'Desi',
    ]
    const row = (index: number, listing: string[]) => [...productRow(index), ...listing]
    const list = await readProductList(
      csvOf(
        [
          row(1, ['8690000000001', '1.299,90 TL', '1.499,90', '25', '%20', '2,5']),
          row(2, ['', '', '', '', '', '']),
          row(3, ['8,69E+12', 'ücretsiz', '0', '12,5', '18', '-1']),
          row(4, ['B'.repeat(41), '₺49,90', '59.90', '1.000', '0,1', '3']),
          row(5, ['8690000000001', '1299.90', '', '0', '0', '']),
        ],
        header,
      ),
      'liste.csv',
    )
    expect(list.suggestedMapping).toMatchObject({
      sku: 0,
      barcode: 9,
      price: 10,
      listPrice: 11,
      stock: 12,
      vatRate: 13,
      desi: 14,
    })
    const result = validateRows(list, list.suggestedMapping, null)
    expect(result.rows.map((validated) => validated.listing)).toEqual([
      { barcode: '8690000000001', price: 1299.9, listPrice: 1499.9, stock: 25, vatRate: 20, desi: 2.5 },
      {},
      {},
      { price: 49.9, listPrice: 59.9, stock: 1000, vatRate: 10, desi: 3 },
      { barcode: '8690000000001', price: 1299.9, stock: 0, vatRate: 0 },
    ])
    const listingProblems = result.problems.filter((problem) => problem.code !== 'photoNoZip')
    expect(listingProblems).toEqual([
      {
        line: 2,
        code: 'barcodeDuplicate',
        field: 'barcode',
        column: 9,
        value: '8690000000001',
        otherLines: [6],
      },
      { line: 4, code: 'barcodeInvalid', field: 'barcode', column: 9, value: '8,69E+12' },
      { line: 4, code: 'priceInvalid', field: 'price', column: 10, value: 'ücretsiz' },
      { line: 4, code: 'listPriceInvalid', field: 'listPrice', column: 11, value: '0' },
      { line: 4, code: 'stockInvalid', field: 'stock', column: 12, value: '12,5' },
      { line: 4, code: 'vatRateInvalid', field: 'vatRate', column: 13, value: '18' },
      { line: 4, code: 'desiInvalid', field: 'desi', column: 14, value: '-1' },
      { line: 5, code: 'barcodeTooLong', field: 'barcode', column: 9, value: 'B'.repeat(41) },
      {
        line: 6,
        code: 'barcodeDuplicate',
        field: 'barcode',
        column: 9,
        value: '8690000000001',
        otherLines: [2],
      },
    ])
    // Empty listing cells are no problem: those columns are optional.
    expect(result.rows[1]?.problems.map((problem) => problem.code)).toEqual(['photoNoZip'])
  })

  it('with a barcode and no stock code, the barcode is the SKU and a repeat is reported once', async () => {
    const list = await readProductList(
      csvOf(
        [
          ['8690000000001', 'Fincan', 'https://example.com/a.jpg'],
          ['8690000000002', 'Tabak', 'https://example.com/b.jpg'],
          ['8690000000001', 'Kase', 'https://example.com/c.jpg'],
        ],
        ['Barkod', 'Ürün Adı', 'Görsel 1'],
      ),
      'liste.csv',
    )
    expect(list.suggestedMapping).toEqual({ barcode: 0, sku: 0, name: 1, image1: 2 })
    const result = validateRows(list, list.suggestedMapping, null)
    expect(result.rows.map((row) => [row.sku, row.listing.barcode])).toEqual([
      ['8690000000001', '8690000000001'],
      ['8690000000002', '8690000000002'],
      ['8690000000001', '8690000000001'],
    ])
    expect(result.problems.map((problem) => [problem.line, problem.code])).toEqual([
      [2, 'skuDuplicate'],
      [4, 'skuDuplicate'],
    ])
  })

  it('refuses a mapping without SKU or name, or past the columns', async () => {
    const list = await readProductList(csvOf([productRow(1)]), 'liste.csv')
    const fields = (mapping: Parameters<typeof validateRows>[1]) => {
      try {
        validateRows(list, mapping, null)
      } catch (error) {
        if (error instanceof AppError && error.code === 'VALIDATION_FAILED') return error.details?.fields
        throw error
      }
      return undefined
    }
    expect(fields({ name: 1 })).toEqual({ 'mapping.sku': 'required' })
    expect(fields({ sku: 0, name: 1, image1: 99 })).toEqual({ 'mapping.image1': 'invalid' })
    expect(fields({ sku: 0, name: 1 })).toBeUndefined()
  })
})
