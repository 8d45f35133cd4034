import { type ListingField, listingFields } from './columns.ts'

/**
 * The listing values of a product list's row (barcode, price, list price, stock, VAT rate, desi):
 * read from the cells as Turkish and English sellers write them, and checked against what the
 * marketplaces take (Trendyol's createProducts rules, ../shared/spec/publishing.md). Shared so the
 * browser and the server read a cell the same way.
 */

/** Trendyol's allowed `vatRate` values (percent); Hepsiburada's `tax_vat_rate` takes the same. */
export const vatRates = [0, 1, 10, 20] as const
export type VatRate = (typeof vatRates)[number]

/** Trendyol's barcode: at most 40 characters. */
export const maxBarcodeChars = 40

/** What a row's listing columns hold once read; a field is absent when its cell is empty or unmapped. */
export type ListingValues = {
  barcode?: string
  /** The sale price in Turkish lira, VAT included, rounded to kuruş. */
  price?: number
  /** The list ("market") price, the crossed-out price above the sale price. */
  listPrice?: number
  stock?: number
  vatRate?: VatRate
  /** Dimensional weight, as the cargo companies price a parcel. */
  desi?: number
}

export type ListingValueProblem =
  | 'barcodeTooLong'
  | 'barcodeInvalid'
  | 'priceInvalid'
  | 'listPriceInvalid'
  | 'stockInvalid'
  | 'vatRateInvalid'
  | 'desiInvalid'

export type ListingRead<T> = { ok: true; value: T } | { ok: false; problem: ListingValueProblem }

/** Letters (ASCII, so the same barcode goes to every marketplace), digits and `.` `-` `_`. */
const barcodePattern = /^[A-Za-z0-9._-]+$/

export function readBarcode(cell: string): ListingRead<string> {
  const text = cell.trim()
  if (Array.from(text).length > maxBarcodeChars) return { ok: false, problem: 'barcodeTooLong' }
  if (!barcodePattern.test(text)) return { ok: false, problem: 'barcodeInvalid' }
  return { ok: true, value: text }
}

/**
 * A number as a seller writes it, or null when it is not one. Currency marks go (₺, TL, TRY,
 * before or after, any case), as do spaces (also the no-break spaces Excel puts between groups).
 * The separators:
 * - both `.` and `,`: the last one is the decimal mark, the other groups thousands
 *   ("1.299,90", "1,299.90");
 * - one kind, more than once: it groups thousands ("1.299.000");
 * - one kind, once: a decimal mark when one or two digits follow ("1299,90", "1299.9"), or when
 *   the whole part is 0 ("0,125"); with exactly three digits after it groups thousands ("1.299"
 *   is one thousand two hundred ninety-nine, as a Turkish price list means it; "1,299" too). More
 *   than three digits after a lone mark are decimals ("12.5000").
 * Groups must be three digits after a first group of one to three. Signs, exponents ("8,69E+12",
 * what Excel makes of a long barcode) and anything else make it not a number.
 */
export function parseNumber(cell: string): number | null {
  const text = cell
    .replace(/[\s\u00a0\u202f]+/g, '')
    .replace(/^(?:₺|tl|try)/i, '')
    .replace(/(?:₺|tl|try)$/i, '')
  if (!/^[0-9][0-9.,]*$/.test(text) || /[.,]$/.test(text)) return null
  const lastDot = text.lastIndexOf('.')
  const lastComma = text.lastIndexOf(',')
  let whole: string
  let fraction = ''
  if (lastDot >= 0 && lastComma >= 0) {
    const decimal = lastDot > lastComma ? '.' : ','
    const at = text.lastIndexOf(decimal)
    fraction = text.slice(at + 1)
    if (/[.,]/.test(fraction)) return null
    whole = ungroup(text.slice(0, at), decimal === '.' ? ',' : '.')
  } else if (lastDot >= 0 || lastComma >= 0) {
    const mark = lastDot >= 0 ? '.' : ','
    const parts = text.split(mark)
    if (parts.length > 2) {
      whole = ungroup(text, mark)
    } else {
      const [head = '', tail = ''] = parts
      if (tail.length === 3 && head !== '0') whole = ungroup(text, mark)
      else {
        whole = head
        fraction = tail
      }
    }
  } else {
    whole = text
  }
  if (whole === '' || !/^[0-9]+$/.test(whole) || !/^[0-9]*$/.test(fraction)) return null
  const value = Number(fraction === '' ? whole : `${whole}.${fraction}`)
  return Number.isFinite(value) ? value : null
}

/** "1.299.000" → "1299000" when every group after the first is three digits; '' otherwise. */
function ungroup(text: string, mark: '.' | ','): string {
  const groups = text.split(mark)
  const [first = '', ...rest] = groups
  if (!/^[0-9]{1,3}$/.test(first) || rest.some((group) => !/^[0-9]{3}$/.test(group))) return ''
  return groups.join('')
}

/** A price in lira: a number above zero with at most two decimals (kuruş). */
export function readPrice(cell: string, problem: 'priceInvalid' | 'listPriceInvalid'): ListingRead<number> {
  const value = parseNumber(cell)
  if (value === null || value <= 0 || !hasAtMostDecimals(value, 2)) return { ok: false, problem }
  return { ok: true, value: Math.round(value * 100) / 100 }
}

/** Pieces in stock: a whole number, zero or more ("1.000" is a thousand). */
export function readStock(cell: string): ListingRead<number> {
  const value = parseNumber(cell.replace(/\s*(?:adet|pcs|pieces|units?)$/i, ''))
  if (value === null || !Number.isSafeInteger(value)) return { ok: false, problem: 'stockInvalid' }
  return { ok: true, value }
}

/**
 * The VAT rate in percent: one of 0, 1, 10, 20, written "20", "%20", "% 20", "20%" or as the
 * fraction a percent-formatted Excel cell holds ("0,2", "0.20" → 20; "0,01" → 1). A bare 1 is 1 %.
 * The rates before July 2023 (8, 18) and anything else are refused.
 */
export function readVatRate(cell: string): ListingRead<VatRate> {
  const text = cell.trim()
  const isPercent = /^%|%$/.test(text)
  const value = parseNumber(text.replace(/^%|%$/g, ''))
  if (value !== null) {
    const percent = !isPercent && value > 0 && value < 1 ? Math.round(value * 10_000) / 100 : value
    const rate = vatRates.find((allowed) => allowed === percent)
    if (rate !== undefined) return { ok: true, value: rate }
  }
  return { ok: false, problem: 'vatRateInvalid' }
}

/** Desi: a number, zero or more, with at most two decimals. */
export function readDesi(cell: string): ListingRead<number> {
  const value = parseNumber(cell)
  if (value === null || !hasAtMostDecimals(value, 2)) return { ok: false, problem: 'desiInvalid' }
  return { ok: true, value }
}

function hasAtMostDecimals(value: number, decimals: number): boolean {
  const scaled = value * 10 ** decimals
  return Math.abs(scaled - Math.round(scaled)) < 1e-6
}

/**
 * Reads a row's listing cells (by field; an unmapped field is left out). An empty cell is no
 * value and no problem: every listing field is optional.
 */
export function readListingValues(cells: Partial<Record<ListingField, string>>): {
  values: ListingValues
  problems: { field: ListingField; problem: ListingValueProblem }[]
} {
  const values: ListingValues = {}
  const problems: { field: ListingField; problem: ListingValueProblem }[] = []
  const readers: { [F in ListingField]: (cell: string) => ListingRead<NonNullable<ListingValues[F]>> } = {
    barcode: readBarcode,
    price: (cell) => readPrice(cell, 'priceInvalid'),
    listPrice: (cell) => readPrice(cell, 'listPriceInvalid'),
    stock: readStock,
    vatRate: readVatRate,
    desi: readDesi,
  }
  for (const field of listingFields) {
    const cell = cells[field]?.trim() ?? ''
    if (cell === '') continue
    const read = readers[field](cell)
    if (read.ok) Object.assign(values, { [field]: read.value })
    else problems.push({ field, problem: read.problem })
  }
  return { values, problems }
}
