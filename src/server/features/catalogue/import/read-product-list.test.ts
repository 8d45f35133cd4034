import iconv from 'iconv-lite'
import { describe, expect, it } from 'vitest'
import { catalogueLimits } from '#shared/catalogue/limits.ts'
import { AppError, type ErrorCode } from '#shared/errors.ts'
import {
  binaryRenamedCsv,
  csvOf,
  largeSheetXlsx,
  noiseFile,
  productRow,
  productsXlsx,
  turkishExcelCsv,
  turkishHeader,
  utf8BomCsv,
  xlsxBomb,
  xlsxDeclaringHugeSheet,
  xlsxUnderstatingSheet,
  zipOf,
} from '#tests/support/catalogue-fixtures.ts'
import { readProductList } from './read-product-list.ts'
import { readFirstSheet } from './xlsx.ts'

async function refusal(promise: Promise<unknown>): Promise<{ code: ErrorCode; line?: number }> {
  try {
    await promise
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    return error.details?.line === undefined
      ? { code: error.code }
      : { code: error.code, line: error.details.line }
  }
  throw new Error('expected a refusal')
}

describe('readProductList: CSV', () => {
  it('reads a Windows-1254 `;` CSV from Turkish Excel with the right letters and physical lines', async () => {
    const list = await readProductList(turkishExcelCsv(), 'ürünler.csv')
    expect(list).toMatchObject({ format: 'csv', encoding: 'windows-1254', delimiter: ';', headerLine: 1 })
    expect(list.headers).toEqual(turkishHeader)
    expect(list.rows.map((row) => row.line)).toEqual([2, 4, 5, 7])
    const [first, second, third, fourth] = list.rows
    expect(first?.cells.slice(0, 7)).toEqual([
      'KRM-001',
      'İpek Eşarp',
      'Işıklı Tekstil',
      'Eşarp & Şal',
      'Kırmızı',
      '%100 İpek',
      'Yumuşak, şık bir eşarp.\nİkinci satır: "özel" dokuma.',
    ])
    expect(second?.cells[1]).toBe('Ağır Çorap')
    expect(second?.cells[2]).toBe('ŞIK')
    expect(third?.cells[6]).toBe('15" güğüm')
    expect(fourth?.cells.slice(0, 2)).toEqual(['IŞK-004', 'Işık Saçan Lamba'])
    expect(list.suggestedMapping).toEqual({
      sku: 0,
      name: 1,
      brand: 2,
      category: 3,
      color: 4,
      material: 5,
      description: 6,
      image1: 7,
      image2: 8,
    })
  })

  it('reads a UTF-8 CSV with a BOM and `,` (the BOM is not part of the first header)', async () => {
    const list = await readProductList(utf8BomCsv(), 'products.txt')
    expect(list).toMatchObject({ encoding: 'utf-8', delimiter: ',' })
    expect(list.headers[0]).toBe('SKU')
    expect(list.rows.map((row) => row.line)).toEqual([2, 3])
    expect(list.rows[0]?.cells.slice(1, 2)).toEqual(['Cotton Shirt, blue'])
    expect(list.rows[0]?.cells[6]).toBe('Soft; breathable')
    expect(list.rows[1]?.cells[1]).toBe('Türk Kahvesi Fincanı')
    expect(list.rows[1]?.cells[6]).toBe('Two lines:\nİznik motif')
    expect(list.suggestedMapping).toMatchObject({ sku: 0, name: 1, color: 4, image1: 7 })
  })

  it('never reads Turkish as mojibake, either way round', async () => {
    const letters = 'İşğıŞĞüöçÜÖÇ'
    const text = `SKU;Ürün Adı\r\nA;${letters}\r\n`
    for (const bytes of [Buffer.from(text, 'utf8'), iconv.encode(text, 'windows-1254')]) {
      const list = await readProductList(bytes, 'x.csv')
      expect(list.headers[1]).toBe('Ürün Adı')
      expect(list.rows[0]?.cells[1]).toBe(letters)
    }
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      iconv.encode(text.replace(/;/g, '\t'), 'utf-16le'),
    ])
    const fromExcelUnicodeText = await readProductList(utf16, 'x.txt')
    expect(fromExcelUnicodeText).toMatchObject({ encoding: 'utf-16le', delimiter: '\t' })
    expect(fromExcelUnicodeText.rows[0]?.cells[1]).toBe(letters)
  })

  it('finds the delimiter outside quotes, and takes Excel’s sep= line', async () => {
    const quotedCommas = Buffer.from('"SKU, kod";"Ad, soyad";Görsel\nA;B;c.jpg\n')
    expect((await readProductList(quotedCommas, 'x.csv')).delimiter).toBe(';')
    const belowTitle = Buffer.from('\r\n\r\nÜrün listesi\r\nSKU;Ad;Görsel\r\nA;B, C;x.jpg\r\n')
    const titled = await readProductList(belowTitle, 'x.csv')
    expect(titled).toMatchObject({ delimiter: ';', headerLine: 4, headers: ['SKU', 'Ad', 'Görsel'] })
    const hinted = await readProductList(Buffer.from('sep=,\r\nSKU,Name\r\nA,"B;C"\r\n'), 'x.csv')
    expect(hinted.delimiter).toBe(',')
    expect(hinted.headerLine).toBe(2)
    expect(hinted.rows[0]).toMatchObject({ line: 3, cells: ['A', 'B;C'] })
  })

  it('counts lines the way an editor does with LF, CRLF and a CRLF inside a quoted cell', async () => {
    const text = 'SKU;Ad;Açıklama\r\n\r\nA;"x";"bir\r\niki\r\nüç"\r\nB;y;z\r\n'
    const list = await readProductList(Buffer.from(text), 'x.csv')
    expect(list.rows.map((row) => [row.line, row.cells[2]])).toEqual([
      [3, 'bir\niki\nüç'],
      [6, 'z'],
    ])
  })

  it('keeps formula-looking cells as text (neutralising is the export’s job)', async () => {
    const bytes = csvOf([
      productRow(1, { Açıklama: '=HYPERLINK("http://evil.example","click")', Marka: '+SUM(A1)' }),
    ])
    const list = await readProductList(bytes, 'x.csv')
    expect(list.rows[0]?.cells[6]).toBe('=HYPERLINK("http://evil.example","click")')
    expect(list.rows[0]?.cells[2]).toBe('+SUM(A1)')
  })

  it('skips a title row above the header', async () => {
    const text = 'Mart 2024 ürün listesi;;\r\nStok Kodu;Ürün Adı;Görsel 1\r\nA;B;c.jpg\r\n'
    const list = await readProductList(Buffer.from(text), 'x.csv')
    expect(list.headerLine).toBe(2)
    expect(list.rows).toHaveLength(1)
  })

  it('cuts a 100,000-character field and marks the row, without failing the file', async () => {
    const long = 'ş'.repeat(100_000)
    const list = await readProductList(csvOf([productRow(1), productRow(2, { Açıklama: long })]), 'x.csv')
    expect(list.rows[0]?.tooLong).toEqual([])
    expect(list.rows[1]?.tooLong).toEqual([6])
    expect(list.rows[1]?.cells[6]).toHaveLength(catalogueLimits.maxFieldChars)
  })

  it('refuses an unclosed quote, naming the line that opened it', async () => {
    const text = 'SKU;Ad\r\nA;b\r\nB;"open\r\nC;d\r\n'
    expect(await refusal(readProductList(Buffer.from(text), 'x.csv'))).toEqual({
      code: 'CATALOGUE_FILE_UNREADABLE',
      line: 3,
    })
  })
})

describe('readProductList: limits and bad files', () => {
  it('takes 1,000 rows and refuses 1,001, trailing empty rows not counted', async () => {
    const rows = (count: number) => Array.from({ length: count }, (_, index) => productRow(index + 1))
    const thousand = Buffer.concat([csvOf(rows(1000)), Buffer.from('\r\n;;;\r\n;;;\r\n')])
    expect((await readProductList(thousand, 'x.csv')).rows).toHaveLength(1000)
    expect(await refusal(readProductList(csvOf(rows(1001)), 'x.csv'))).toEqual({
      code: 'CATALOGUE_TOO_MANY_ROWS',
    })
  })

  it('counts the lines before parsing: 10 MB of empty lines is refused at once', async () => {
    const newlines = Buffer.alloc(catalogueLimits.maxListFileBytes, '\n')
    const started = performance.now()
    expect(await refusal(readProductList(newlines, 'x.csv'))).toEqual({ code: 'CATALOGUE_FILE_TOO_COMPLEX' })
    // Parsing them took 321 s; counting them takes milliseconds (generous for a busy machine).
    expect(performance.now() - started).toBeLessThan(2_000)
    const crs = Buffer.alloc(catalogueLimits.maxListLines + 10, '\r')
    expect(await refusal(readProductList(crs, 'x.csv'))).toEqual({ code: 'CATALOGUE_FILE_TOO_COMPLEX' })
    const rows = Array.from({ length: 3 }, (_, index) => productRow(index + 1))
    const padded = Buffer.concat([csvOf(rows), Buffer.alloc(catalogueLimits.maxListLines - 10, '\n')])
    expect((await readProductList(padded, 'x.csv')).rows).toHaveLength(3)
  })

  it('refuses a 0-byte file, a blank one, a header alone, and a 50 MB list', async () => {
    expect(await refusal(readProductList(Buffer.alloc(0), 'x.csv'))).toEqual({ code: 'CATALOGUE_FILE_EMPTY' })
    expect(await refusal(readProductList(Buffer.from('\ufeff \r\n\r\n'), 'x.csv'))).toEqual({
      code: 'CATALOGUE_FILE_EMPTY',
    })
    expect(await refusal(readProductList(csvOf([]), 'x.csv'))).toEqual({ code: 'CATALOGUE_NO_ROWS' })
    expect(await refusal(readProductList(Buffer.from('SKU;Ad\r\n;;\r\n;\r\n'), 'x.csv'))).toEqual({
      code: 'CATALOGUE_NO_ROWS',
    })
    const emptyRows = Buffer.alloc(1024 * 1024 - 10, ';')
    for (let offset = 0; offset < emptyRows.length; offset += 10) emptyRows[offset] = 0x0a
    // 100,000 lines of `;`: more lines than a list can have, refused before parsing.
    expect(await refusal(readProductList(emptyRows, 'x.csv'))).toEqual({ code: 'CATALOGUE_FILE_TOO_COMPLEX' })
    const huge = Buffer.alloc(50 * 1024 * 1024, 'a')
    expect(await refusal(readProductList(huge, 'x.csv'))).toEqual({ code: 'CATALOGUE_FILE_TOO_LARGE' })
  })

  it('refuses binary files named .csv, and a ZIP that is not a workbook', async () => {
    expect(await refusal(readProductList(binaryRenamedCsv(), 'liste.csv'))).toEqual({
      code: 'CATALOGUE_FILE_TYPE',
    })
    expect(await refusal(readProductList(noiseFile(), 'liste.csv'))).toEqual({ code: 'CATALOGUE_FILE_TYPE' })
    const oldExcel = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.from('x'.repeat(100))])
    expect(await refusal(readProductList(oldExcel, 'liste.xls.csv'))).toEqual({ code: 'CATALOGUE_FILE_TYPE' })
    const photos = await zipOf([{ name: 'a.jpg', data: 'x' }])
    expect(await refusal(readProductList(photos, 'liste.csv'))).toEqual({ code: 'CATALOGUE_FILE_TYPE' })
  })
})

describe('readProductList: XLSX', () => {
  it('reads the first sheet by its content, whatever the name says', async () => {
    const list = await readProductList(await productsXlsx(), 'liste.csv')
    expect(list).toMatchObject({ format: 'xlsx', sheetName: 'Ürünler', headerLine: 1 })
    expect(list.headers).toEqual([
      'Barkod',
      'Ürün Adı',
      'Marka',
      'Fiyat',
      'KDV dahil',
      'Eklenme',
      'Açıklama',
      'Görsel 1',
      'Not',
    ])
    const [first, second] = list.rows
    expect(first?.line).toBe(2)
    expect(first?.cells).toEqual([
      '8690000000001',
      'İpek Şal',
      'Işıl',
      '100',
      '120',
      '2024-03-05',
      'Çok güzel şal',
      'Görsel',
      '=HYPERLINK("http://evil.example","click")',
    ])
    expect(first?.links?.get(7)).toBe('https://cdn.example.com/ipek-sal.jpg')
    expect(second?.cells.slice(0, 2)).toEqual(['0123456789012', 'Ğ Harfli Ürün'])
    expect(second?.cells[8]).toBe('+1+2')
    expect(list.suggestedMapping).toMatchObject({ sku: 0, name: 1, brand: 2, description: 6, image1: 7 })
  })

  it('refuses a zip bomb from its directory, before inflating it', async () => {
    expect(await refusal(readProductList(await xlsxBomb(), 'bomb.xlsx'))).toEqual({
      code: 'CATALOGUE_FILE_UNSAFE',
    })
    expect(await refusal(readProductList(await xlsxDeclaringHugeSheet(), 'bomb.xlsx'))).toEqual({
      code: 'CATALOGUE_FILE_UNSAFE',
    })
  })

  it('refuses a sheet that unpacks past the size its header declares, stopping there', async () => {
    expect(await refusal(readProductList(await xlsxUnderstatingSheet(), 'liar.xlsx'))).toEqual({
      code: 'CATALOGUE_FILE_UNSAFE',
    })
  })

  it('refuses a workbook with too many parts, or too large unpacked, by the limits given', async () => {
    const workbook = await productsXlsx()
    const limits = (xlsx: Partial<typeof catalogueLimits.xlsx>) => ({
      ...catalogueLimits,
      xlsx: { ...catalogueLimits.xlsx, ...xlsx },
    })
    expect(await refusal(readProductList(workbook, 'x.xlsx', { limits: limits({ maxEntries: 3 }) }))).toEqual(
      {
        code: 'CATALOGUE_FILE_UNSAFE',
      },
    )
    expect(
      await refusal(readProductList(workbook, 'x.xlsx', { limits: limits({ maxUncompressedBytes: 1000 }) })),
    ).toEqual({ code: 'CATALOGUE_FILE_UNSAFE' })
  })

  it('refuses a damaged workbook as unreadable', async () => {
    const workbook = await productsXlsx()
    const damaged = Buffer.from(workbook)
    // Overwrite the middle (entry data) but keep the ZIP's directory at the end intact.
    damaged.fill(0x55, 200, Math.floor(damaged.length / 2))
    const { code } = await refusal(readProductList(damaged, 'x.xlsx'))
    expect(code).toBe('CATALOGUE_FILE_UNREADABLE')
  })

  it('stops reading a large sheet at the row cap instead of loading it whole', async () => {
    const sheet = await largeSheetXlsx(50_000)
    let rowsRead = 0
    const maxRows = catalogueLimits.maxHeaderSearchRows + catalogueLimits.maxProductRows
    expect(await refusal(readFirstSheet(sheet, maxRows, { onRowRead: () => rowsRead++ }))).toEqual({
      code: 'CATALOGUE_TOO_MANY_ROWS',
    })
    // One row past the cap is the last one read of the 50,001.
    expect(rowsRead).toBe(maxRows + 1)
    expect(await refusal(readProductList(sheet, 'x.xlsx'))).toEqual({ code: 'CATALOGUE_TOO_MANY_ROWS' })
  })

  it('applies the row limit to workbooks too', async () => {
    const limits = { ...catalogueLimits, maxProductRows: 1 }
    expect(await refusal(readProductList(await productsXlsx(), 'x.xlsx', { limits }))).toEqual({
      code: 'CATALOGUE_TOO_MANY_ROWS',
    })
  })
})
