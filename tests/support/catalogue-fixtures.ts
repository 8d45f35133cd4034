import { Readable } from 'node:stream'
import ExcelJS from 'exceljs'
import iconv from 'iconv-lite'
import ZipStream from 'zip-stream'

/**
 * Product lists and photo ZIPs shaped like the files Turkish sellers upload, made in code so each
 * test shows what it feeds in. Photos here are stand-in bytes (a JPEG signature, then noise that
 * does not compress): the import only reads names and sizes; their content is checked later.
 */

/** The header Turkish Excel users write (Trendyol's template words). */
export const turkishHeader = [
  'Stok Kodu',
  'Ürün Adı',
  'Marka',
  'Kategori',
  'Renk',
  'Materyal',
  'Açıklama',
  'Görsel 1',
  'Görsel 2',
]

/**
 * "CSV (noktalı virgülle ayrılmış)" from Turkish Excel: Windows-1254, `;`, CRLF between records,
 * LF inside a quoted multi-line cell, doubled quotes. Lines: header 1, KRM-001 2–3, KRM-002 4,
 * KRM-003 5, a `;;;;` line 6 (Excel writes those for formatted empty rows), IŞK-004 7.
 */
export function turkishExcelCsv(): Buffer {
  const text = [
    turkishHeader.join(';'),
    'KRM-001;İpek Eşarp;Işıklı Tekstil;Eşarp & Şal;Kırmızı;%100 İpek;"Yumuşak, şık bir eşarp.\nİkinci satır: ""özel"" dokuma.";KRM-001_1.jpg;KRM-001_2.jpg',
    'KRM-002;Ağır Çorap;ŞIK;Çorap;Gümüş;Yün;Sıcak tutar;KRM-002_1.jpg;',
    'KRM-003;Ölçülü Güğüm;Çağ;Mutfak;Bakır;Bakır;"15"" güğüm";https://cdn.example.com/güğüm.jpg;',
    ';;;;;;;;',
    'IŞK-004;Işık Saçan Lamba;İz;Aydınlatma;Sarı;Cam;"Çift ""ş"" ve ""ğ""";Işık Şal.jpg;',
  ].join('\r\n')
  return iconv.encode(`${text}\r\n`, 'windows-1254')
}

/** UTF-8 with a BOM, `,`, English headers, LF line ends, an image URL column. */
export function utf8BomCsv(): Buffer {
  const text = [
    'SKU,Product Name,Brand,Category,Colour,Material,Description,Image URL',
    'EN-1,"Cotton Shirt, blue",Acme,Shirts,Blue,Cotton,"Soft; breathable",https://example.com/shirt.jpg',
    'EN-2,Türk Kahvesi Fincanı,Çini,Kitchen,White,Porcelain,"Two lines:\nİznik motif",https://example.com/cup.jpg',
  ].join('\n')
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${text}\n`, 'utf8')])
}

/** A CSV (UTF-8, `;`) with the given rows under the Turkish header. */
export function csvOf(
  rows: readonly (readonly string[])[],
  header: readonly string[] = turkishHeader,
): Buffer {
  const quote = (cell: string) => (/[;"\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)
  return Buffer.from([header, ...rows].map((row) => row.map(quote).join(';')).join('\r\n'), 'utf8')
}

/** A row under the Turkish header with a photo file name, numbered. */
export function productRow(index: number, overrides: Partial<Record<string, string>> = {}): string[] {
  const values: Record<string, string> = {
    'Stok Kodu': `SKU-${index}`,
    'Ürün Adı': `Ürün ${index}`,
    Marka: 'Marka',
    Kategori: 'Kategori',
    Renk: 'Renk',
    Materyal: 'Pamuk',
    Açıklama: 'Açıklama',
    'Görsel 1': `SKU-${index}.jpg`,
    'Görsel 2': '',
    ...overrides,
  }
  return turkishHeader.map((name) => values[name] ?? '')
}

/**
 * An Excel workbook: barcodes stored as numbers (one with leading zeros shown by a `0000…`
 * format), a formula with its cached result, a date, rich text, a hyperlinked photo, and text
 * that looks like a formula. Rows 2 and 3 are products; row 1 is the header.
 */
export async function productsXlsx(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Ürünler')
  workbook.addWorksheet('Notlar').addRow(['not the first sheet'])
  sheet.addRow([
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
  sheet.addRow([
    8690000000001,
    'İpek Şal',
    'Işıl',
    100,
    { formula: 'D2*1.2', result: 120 },
    new Date(Date.UTC(2024, 2, 5)),
    {
      richText: [
        { text: 'Çok ', font: { bold: true } },
        { text: 'güzel ' },
        { text: 'şal', font: { italic: true } },
      ],
    },
    { text: 'Görsel', hyperlink: 'https://cdn.example.com/ipek-sal.jpg' },
    '=HYPERLINK("http://evil.example","click")',
  ])
  sheet.addRow([
    123456789012,
    'Ğ Harfli Ürün',
    'Marka',
    50,
    { formula: 'D3*1.2', result: 60 },
    null,
    '',
    'ğ.jpg',
    '+1+2',
  ])
  sheet.getCell('A3').numFmt = '0000000000000'
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

/** The header of Trendyol's product template, listing columns included (its Turkish words). */
export const trendyolTemplateHeader = [
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
]

/**
 * A workbook on Trendyol's template as a seller fills it: prices typed as numbers and as Turkish
 * text, a VAT column formatted as percent (the cell holds 0.2), a barcode as a number, and row 4
 * with the values a seller gets wrong (the old 18 % VAT, a price in words, stock with decimals,
 * a barcode Excel turned into 8,69E+12 text). `image` is the photo link of every row.
 */
export async function trendyolTemplateXlsx(image: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook()
  const sheet = workbook.addWorksheet('Ürünler')
  sheet.addRow(trendyolTemplateHeader)
  sheet.addRow([
    8690000000011,
    'FNC-M',
    'Çini',
    'Fincan Takımı',
    'TRY',
    'İznik Desenli Kahve Fincanı',
    'İki kişilik porselen fincan takımı.',
    1499.9,
    1299.9,
    25,
    'FNC-1',
    0.2,
    2,
    image,
  ])
  sheet.addRow([
    'TY-FNC_2.B',
    'FNC-M',
    'Çini',
    'Fincan Takımı',
    'TRY',
    'Mavi Kahve Fincanı',
    '',
    '1.499,90 TL',
    '₺1.199,90',
    '1.000',
    'FNC-2',
    '%10',
    '1,5',
    image,
  ])
  sheet.addRow([
    '8,69E+12',
    'FNC-M',
    'Çini',
    'Fincan Takımı',
    'TRY',
    'Yeşil Kahve Fincanı',
    '',
    '',
    'sorunuz',
    12.5,
    'FNC-3',
    18,
    '',
    image,
  ])
  sheet.getColumn(12).numFmt = '0%'
  return Buffer.from(await workbook.xlsx.writeBuffer())
}

export type ZipFixtureEntry = {
  name: string
  data?: Buffer | string
  /** The name's bytes as stored, without the UTF-8 flag (e.g. CP857 from Turkish Windows). */
  rawName?: Buffer
  /** Stored, not deflated. */
  store?: boolean
  /** Write this uncompressed size into the central directory instead of the true one. */
  declaredSize?: number
}

/**
 * A ZIP made with zip-stream. zip-stream cleans names (drops a leading `../`, marks any non-ASCII
 * name UTF-8), so names given as `rawName` are written as ASCII placeholders of the same length
 * and their bytes patched in afterwards, in both the local header and the central directory; so
 * is a false `declaredSize`.
 */
export async function zipOf(entries: readonly ZipFixtureEntry[]): Promise<Buffer> {
  const archive = new ZipStream({ zlib: { level: 9 } })
  const chunks: Buffer[] = []
  archive.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise<void>((resolve, reject) => {
    archive.on('end', () => resolve())
    archive.on('error', reject)
  })
  const patches = new Map<string, ZipFixtureEntry>()
  for (const [index, entry] of entries.entries()) {
    let name = entry.name
    if (entry.rawName) {
      name = `~${index}~`.padEnd(entry.rawName.length, 'q')
      if (name.length !== entry.rawName.length) throw new Error('raw name too short for a placeholder')
    }
    if (entry.rawName || entry.declaredSize !== undefined) patches.set(name, entry)
    await new Promise<void>((resolve, reject) => {
      archive.entry(entry.data ?? Buffer.alloc(0), { name, store: entry.store ?? false }, (error) =>
        error ? reject(error) : resolve(),
      )
    })
  }
  archive.finish()
  await ended
  const zip = Buffer.concat(chunks)
  patchCentralDirectory(zip, patches)
  return zip
}

function patchCentralDirectory(zip: Buffer, patches: Map<string, ZipFixtureEntry>): void {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  const count = zip.readUInt16LE(end + 10)
  let offset = zip.readUInt32LE(end + 16)
  for (let index = 0; index < count; index += 1) {
    const nameLength = zip.readUInt16LE(offset + 28)
    const extraLength = zip.readUInt16LE(offset + 30)
    const commentLength = zip.readUInt16LE(offset + 32)
    const localHeader = zip.readUInt32LE(offset + 42)
    const name = zip.subarray(offset + 46, offset + 46 + nameLength).toString('latin1')
    const patch = patches.get(name)
    if (patch?.rawName) {
      patch.rawName.copy(zip, offset + 46)
      patch.rawName.copy(zip, localHeader + 30)
    }
    if (patch?.declaredSize !== undefined) {
      zip.writeUInt32LE(patch.declaredSize, offset + 24)
      zip.writeUInt32LE(patch.declaredSize, localHeader + 22)
    }
    offset += 46 + nameLength + extraLength + commentLength
  }
}

/** Bytes that look like a JPEG to a name-only check and do not compress (a seeded generator). */
export function photoBytes(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size)
  let state = seed >>> 0 || 1
  for (let index = 0; index < size; index += 1) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    bytes[index] = state & 0xff
  }
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]).copy(bytes)
  return bytes
}

/** The Turkish name of a photo as Turkish Windows' "Compressed folder" writes it: CP857, no UTF-8 flag. */
export const cp857PhotoName = 'Işık Şal.jpg'

/**
 * A ZIP of photos as sellers make them: a plain name, one in a folder with a UTF-8 name, one in
 * CP857 without the flag, macOS's `__MACOSX/` copy and `.DS_Store`, and one `../evil.jpg`.
 */
export async function photosZip(): Promise<Buffer> {
  return zipOf([
    { name: 'KRM-001_1.jpg', data: photoBytes(3000, 1) },
    { name: 'fotoğraflar/KRM-001_2.jpg', data: photoBytes(3000, 2) },
    { name: 'fotoğraflar/KRM-002_1.JPG', data: photoBytes(3000, 3) },
    { name: cp857PhotoName, rawName: iconv.encode(cp857PhotoName, 'cp857'), data: photoBytes(3000, 4) },
    { name: '__MACOSX/._KRM-001_1.jpg', data: 'resource fork' },
    { name: '.DS_Store', data: 'finder' },
    { name: '../evil.jpg', rawName: Buffer.from('../evil.jpg'), data: photoBytes(100, 5) },
  ])
}

/** The parts Excel needs to call a ZIP a workbook, around one sheet. */
function workbookParts(
  sheetXml: Buffer | string,
  sheetEntry: Partial<ZipFixtureEntry> = {},
): ZipFixtureEntry[] {
  return [
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    },
    { name: 'xl/workbook.xml', data: '<?xml version="1.0"?><workbook/>' },
    { name: 'xl/worksheets/sheet1.xml', data: sheetXml, ...sheetEntry },
  ]
}

/** An XLSX zip bomb: 25 KB whose 8 MB sheet (honestly declared) packs over 300 to 1. */
export async function xlsxBomb(unpackedBytes = 8 * 1024 * 1024): Promise<Buffer> {
  const row = Buffer.from('<row><c t="inlineStr"><is><t>AAAAAAAAAAAAAAAA</t></is></c></row>')
  const sheet = Buffer.alloc(unpackedBytes)
  for (let offset = 0; offset < unpackedBytes; offset += row.length) row.copy(sheet, offset)
  return zipOf(workbookParts(sheet))
}

/**
 * A workbook whose sheet's header says it unpacks to 1 GB, while its data is 20 KB of noise.
 * Inflating it would end in a size mismatch (CATALOGUE_FILE_UNREADABLE); refusing it with
 * CATALOGUE_FILE_UNSAFE shows the decision came from the directory, before anything was inflated.
 */
export async function xlsxDeclaringHugeSheet(): Promise<Buffer> {
  return zipOf(workbookParts(photoBytes(20_000), { declaredSize: 1024 * 1024 * 1024 }))
}

/** A workbook whose sheet's header claims 1,000 bytes while the sheet unpacks to 2 MB. */
export async function xlsxUnderstatingSheet(): Promise<Buffer> {
  return zipOf(workbookParts(Buffer.alloc(2 * 1024 * 1024, 'x'), { declaredSize: 1000 }))
}

/** A PNG signature and noise, named `.csv` by its uploader. */
export function binaryRenamedCsv(): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), photoBytes(2000, 9)])
}

/** Noise with no signature at all (zero bytes and control codes). */
export function noiseFile(): Buffer {
  const bytes = photoBytes(4000, 11)
  bytes[0] = 0x41
  return bytes
}

/**
 * A real workbook with one large sheet: a header and `rows` products of three cells each, as
 * inline strings (no shared strings to wait for, so a streaming reader reads the sheet as it
 * unpacks). About 175 bytes a row: 500,000 rows make a 90 MB sheet in a ZIP of about 10 MB.
 */
export async function largeSheetXlsx(rows: number): Promise<Buffer> {
  // The sheet is produced in slices as the ZIP takes it: a 90 MB string at once leaves this
  // process a long garbage collection to do later, in the middle of whatever is being timed.
  function* sheetXml(): Generator<Buffer> {
    yield Buffer.from(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
        '<row r="1"><c r="A1" t="inlineStr"><is><t>SKU</t></is></c><c r="B1" t="inlineStr"><is><t>Ürün Adı</t></is></c><c r="C1" t="inlineStr"><is><t>Görsel</t></is></c></row>',
    )
    for (let from = 2; from <= rows + 1; from += 2_000) {
      let slice = ''
      for (let index = from; index < Math.min(from + 2_000, rows + 2); index += 1) {
        slice += `<row r="${index}"><c r="A${index}" t="inlineStr"><is><t>SKU-${index}</t></is></c><c r="B${index}" t="inlineStr"><is><t>Ürün ${index}</t></is></c><c r="C${index}" t="inlineStr"><is><t>SKU-${index}.jpg</t></is></c></row>`
      }
      yield Buffer.from(slice)
    }
    yield Buffer.from('</sheetData></worksheet>')
  }
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
  const archive = new ZipStream({ zlib: { level: 1 } })
  const chunks: Buffer[] = []
  archive.on('data', (chunk: Buffer) => chunks.push(chunk))
  const ended = new Promise<void>((resolve, reject) => {
    archive.on('end', () => resolve())
    archive.on('error', reject)
  })
  const entries: [string, Buffer | string | Readable][] = [
    [
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    ],
    [
      'xl/workbook.xml',
      `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${rel}"><sheets><sheet name="Ürünler" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ],
    [
      'xl/sharedStrings.xml',
      '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>',
    ],
    ['xl/worksheets/sheet1.xml', Readable.from(sheetXml())],
  ]
  for (const [name, data] of entries) {
    await new Promise<void>((resolve, reject) => {
      archive.entry(data, { name }, (error) => (error ? reject(error) : resolve()))
    })
  }
  archive.finish()
  await ended
  return Buffer.concat(chunks)
}
