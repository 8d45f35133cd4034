import { catalogueLimits } from './limits.ts'

/**
 * The columns of a product list: which fields a row has, how headers written by Turkish and
 * English sellers (and by the marketplaces' own templates) are recognised, and the suggested
 * mapping the web app's mapping step starts from. Shared so the browser shows what the server uses.
 */

/** Text fields of a product, in the order the mapping step lists them. */
export const textFields = ['sku', 'name', 'brand', 'category', 'color', 'material', 'description'] as const
export type TextField = (typeof textFields)[number]

/** Photo columns: one file name or address each (a cell may hold several, see photo-refs.ts). */
export const imageFields = [
  'image1',
  'image2',
  'image3',
  'image4',
  'image5',
  'image6',
  'image7',
  'image8',
] as const
export type ImageField = (typeof imageFields)[number]

/**
 * What a marketplace listing needs beyond the text (issue 30): the barcode, the sale price (VAT
 * included), the list price, the stock, the VAT rate and the desi. Optional; read and checked by
 * listing-values.ts.
 */
export const listingFields = ['barcode', 'price', 'listPrice', 'stock', 'vatRate', 'desi'] as const
export type ListingField = (typeof listingFields)[number]

/** The fields a header names by its words (every field but the photos). */
export type NamedField = TextField | ListingField
const namedFields: readonly NamedField[] = [...textFields, ...listingFields]

export const catalogueFields = [...textFields, ...listingFields, ...imageFields] as const
export type CatalogueField = (typeof catalogueFields)[number]

/** Without these a row cannot become a product (export folders are named by SKU). */
export const requiredFields = ['sku', 'name'] as const satisfies readonly CatalogueField[]

/** Field → zero-based column index in the list. */
export type ColumnMapping = Partial<Record<CatalogueField, number>>

/**
 * A mapping as remembered for the next import: field → the header text it was mapped to, or null
 * for a field the user chose to leave unmapped. Header names, not indexes, so it survives columns
 * being moved.
 */
export type SavedMapping = Partial<Record<CatalogueField, string | null>>

export function isCatalogueField(value: unknown): value is CatalogueField {
  return typeof value === 'string' && (catalogueFields as readonly string[]).includes(value)
}

/**
 * A header reduced for comparison: Turkish dotted and dotless i both become i (so BARKOD, Barkod,
 * İSİM and ısım compare alike whatever the locale's casing), diacritics go (ü → u, ş → s, ğ → g),
 * and punctuation becomes single spaces ("Ürün Adı (zorunlu)" → "urun adi zorunlu").
 */
export function foldHeader(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[ıİ]/g, 'i')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

/**
 * Header words per field, already folded, best first. The SKU is the seller's stock code; a
 * barcode column ("Barkod", "EAN", "GTIN") is the barcode. When a list has no stock-code column,
 * the SKU falls back to the barcode's column (suggestMapping), so a list keyed by barcode alone
 * still imports.
 */
const fieldSynonyms: Record<NamedField, readonly string[]> = {
  sku: [
    'sku',
    'stok kodu',
    'satici stok kodu',
    'stock code',
    'merchant sku',
    // Hepsiburada's attribute names as its JSON and templates spell them (merchantSku, UrunAdi …).
    'merchantsku',
    'seller sku',
    'urun kodu',
    'product code',
    'item code',
    'model kodu',
    'model code',
  ],
  name: [
    'urun adi',
    'urunadi',
    'urun ismi',
    'urun basligi',
    'product name',
    'product title',
    'name',
    'title',
    'ad',
    'adi',
    'isim',
    'baslik',
  ],
  brand: ['marka', 'brand', 'marka adi', 'brand name', 'manufacturer', 'uretici'],
  category: ['kategori', 'category', 'kategori adi', 'category name', 'urun kategorisi', 'product category'],
  color: ['renk', 'color', 'colour', 'urun rengi', 'product color', 'product colour'],
  material: ['materyal', 'malzeme', 'material', 'kumas', 'fabric', 'materyal bileseni'],
  description: [
    'aciklama',
    'description',
    'urun aciklamasi',
    'urunaciklamasi',
    'product description',
    'urun detayi',
    'details',
  ],
  barcode: [
    'barkod',
    'barcode',
    'ean',
    'gtin',
    'barkod no',
    'barkod numarasi',
    'ean kodu',
    'ean code',
    'upc',
  ],
  price: [
    'satis fiyati',
    'trendyol da satilacak fiyat kdv dahil',
    'trendyol da satilacak fiyat',
    'satilacak fiyat',
    'indirimli fiyat',
    'fiyat',
    'price',
    'sale price',
    'selling price',
    'satis fiyati kdv dahil',
    'fiyat kdv dahil',
  ],
  listPrice: [
    'piyasa satis fiyati',
    'piyasa satis fiyati kdv dahil',
    'piyasa fiyati',
    'liste fiyati',
    'list price',
    'market price',
    'rrp',
    'msrp',
  ],
  stock: [
    'stok',
    'stok adedi',
    'urun stok adedi',
    'stok miktari',
    'stock',
    'quantity',
    'qty',
    'stock quantity',
    'adet',
  ],
  vatRate: ['kdv', 'kdv orani', 'kdv yuzdesi', 'vat', 'vat rate', 'tax rate', 'tax vat rate'],
  desi: ['desi', 'desi miktari', 'dimensional weight', 'kargo desi', 'desi kg'],
}

/** "Görsel 1", "Resim2", "Image URL 3", "Görsel Linki", "Fotoğraf 4 URL", "Product image 1". */
const imageHeaderPattern =
  /^(?:urun |product )?(?:gorsel|gorseli|gorseller|resim|resmi|resimler|image|images|img|foto|fotograf|fotograflar|photo|photos|picture|pictures|pic)(?: (?:url|link|linki|adresi|dosyasi|file|adi|name))?(?: ?(\d{1,2}))?(?: (?:url|link|linki|adresi|dosyasi|file|adi|name))?$/

export type HeaderMatch =
  | { kind: 'text'; field: NamedField; rank: number; isExact: boolean }
  | { kind: 'image'; position: number | null }

/** What one header names, if it names a field: the rank orders synonyms (lower is better). */
export function matchHeader(header: string): HeaderMatch | null {
  const folded = foldHeader(header)
  if (folded === '') return null
  const image = imageHeaderPattern.exec(folded.replace(/([a-z])(\d)/g, '$1 $2'))
  if (image) return { kind: 'image', position: image[1] === undefined ? null : Number(image[1]) }

  let exact: { field: NamedField; rank: number } | null = null
  let partial: { field: NamedField; rank: number; length: number } | null = null
  for (const field of namedFields) {
    for (const [rank, synonym] of fieldSynonyms[field].entries()) {
      if (folded === synonym) {
        if (!exact || rank < exact.rank) exact = { field, rank }
      } else if (
        // A header that holds a longer synonym as whole words ("Ürün Adı (Türkçe)", "Marka *"),
        // longest first, so "Brand name" is the brand; short words (ad, sku) only match alone.
        synonym.length >= 4 &&
        (!partial || synonym.length > partial.length) &&
        ` ${folded} `.includes(` ${synonym} `)
      ) {
        partial = { field, rank, length: synonym.length }
      }
    }
  }
  if (exact) return { kind: 'text', field: exact.field, rank: exact.rank, isExact: true }
  if (partial) return { kind: 'text', field: partial.field, rank: 100 + partial.rank, isExact: false }
  return null
}

/**
 * Suggests field → column from the headers. A saved mapping wins for every field whose header is
 * still in the list (compared folded); the rest are detected: exact header names before headers
 * that merely contain one, better synonyms before worse, and each column is used once. Numbered
 * photo headers take their number's slot; unnumbered ones ("Image URL") the next free slots.
 */
export function suggestMapping(headers: readonly string[], saved?: SavedMapping): ColumnMapping {
  const mapping: ColumnMapping = {}
  const used = new Set<number>()
  const folded = headers.map(foldHeader)
  const decided = new Set<CatalogueField>()

  // A saved SKU on the barcode's own column (a list keyed by barcode alone) shares that column.
  const isSkuOnBarcode =
    typeof saved?.sku === 'string' &&
    typeof saved.barcode === 'string' &&
    foldHeader(saved.sku) === foldHeader(saved.barcode)

  if (saved) {
    for (const field of catalogueFields) {
      const header = saved[field]
      if (header === undefined || (field === 'sku' && isSkuOnBarcode)) continue
      if (header === null) {
        decided.add(field)
        continue
      }
      const target = foldHeader(header)
      const column = folded.findIndex((name, index) => name !== '' && name === target && !used.has(index))
      if (column >= 0) {
        mapping[field] = column
        used.add(column)
        decided.add(field)
      }
    }
  }

  const matches = headers.map((header) => matchHeader(header))
  const textCandidates: { field: NamedField; column: number; score: number }[] = []
  matches.forEach((match, column) => {
    if (match?.kind === 'text') textCandidates.push({ field: match.field, column, score: match.rank })
  })
  textCandidates.sort((a, b) => a.score - b.score || a.column - b.column)
  for (const { field, column } of textCandidates) {
    if (decided.has(field) || used.has(column)) continue
    mapping[field] = column
    used.add(column)
    decided.add(field)
  }
  // No stock-code column: the barcode is the SKU too (one column, two fields).
  if (!decided.has('sku') && mapping.barcode !== undefined) {
    mapping.sku = mapping.barcode
    decided.add('sku')
  }
  // And a SKU the user put on a barcode column (a mapping saved before barcodes were a field of
  // their own) still gives the barcode.
  const skuHeader = mapping.sku === undefined ? undefined : headers[mapping.sku]
  const skuMatch = skuHeader === undefined ? null : matchHeader(skuHeader)
  if (!decided.has('barcode') && skuMatch?.kind === 'text' && skuMatch.field === 'barcode') {
    mapping.barcode = mapping.sku
    decided.add('barcode')
  }

  const unnumbered: number[] = []
  matches.forEach((match, column) => {
    if (match?.kind !== 'image' || used.has(column)) return
    const field = match.position === null ? undefined : imageFields[match.position - 1]
    if (field && !decided.has(field)) {
      mapping[field] = column
      used.add(column)
      decided.add(field)
    } else if (match.position === null) {
      unnumbered.push(column)
    }
  })
  for (const column of unnumbered) {
    const free = imageFields.find((field) => !decided.has(field))
    if (!free) break
    mapping[free] = column
    used.add(column)
    decided.add(free)
  }
  return mapping
}

/**
 * The mapping as it is remembered: each mapped field's header text. Unmapped fields are left out
 * (not saved as null), so the next list's own headers can still fill them; pass `unmapped` for the
 * fields the user cleared on purpose, which stay unmapped next time.
 */
export function toSavedMapping(
  headers: readonly string[],
  mapping: ColumnMapping,
  unmapped: readonly CatalogueField[] = [],
): SavedMapping {
  const saved: SavedMapping = {}
  for (const field of catalogueFields) {
    const column = mapping[field]
    const header = column === undefined ? undefined : headers[column]
    if (header !== undefined && header !== '') saved[field] = header
    else if (unmapped.includes(field)) saved[field] = null
  }
  return saved
}

/** Required fields the mapping leaves out; the mapping step cannot go on while any is missing. */
export function missingRequiredFields(mapping: ColumnMapping): CatalogueField[] {
  return requiredFields.filter((field) => mapping[field] === undefined)
}

/**
 * Which of the first rows is the header: the one naming the most known fields (templates put a
 * title or instructions above it), else the first row with any text. -1 when all are empty.
 */
export function findHeaderRow(
  rows: readonly (readonly string[])[],
  searchRows = catalogueLimits.maxHeaderSearchRows,
): number {
  let bestIndex = -1
  let bestCount = 0
  let firstFilled = -1
  for (const [index, cells] of rows.slice(0, searchRows).entries()) {
    if (firstFilled < 0 && cells.some((cell) => cell.trim() !== '')) firstFilled = index
    const named = new Set<string>()
    for (const [column, cell] of cells.entries()) {
      const match = matchHeader(cell)
      if (match) named.add(match.kind === 'text' ? match.field : `image ${column}`)
    }
    if (named.size > bestCount) {
      bestCount = named.size
      bestIndex = index
    }
  }
  return bestIndex >= 0 ? bestIndex : firstFilled
}
