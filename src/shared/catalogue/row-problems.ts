import type { CatalogueField } from './columns.ts'

/**
 * Why a row of a product list cannot become a product. Each code is also the i18n key
 * `catalogue.rowProblems.<code>`; the preview lists every bad row with its line and reason, and
 * the user fixes the file or goes on without those rows.
 */
export const rowProblemCodes = [
  /** The name cell is empty. */
  'nameEmpty',
  /** The SKU cell is empty. */
  'skuEmpty',
  /** Another row has the same SKU (compared without case); every such row is reported. */
  'skuDuplicate',
  /** The row names no photo at all. */
  'photoMissing',
  /** The row names a photo file, but no ZIP of photos was given. */
  'photoNoZip',
  /** The named photo file is not in the ZIP (compared without case, with or without folders). */
  'photoNotInZip',
  /** The name fits several files in different folders of the ZIP; the row should give the folder. */
  'photoAmbiguous',
  /** The photo in the ZIP unpacks to more than one photo may weigh. */
  'photoTooLarge',
  /** The photo in the ZIP cannot be read safely (encrypted, unknown packing, or packed like a bomb). */
  'photoUnreadable',
  /** An image address that is not a plain http(s) URL (another scheme, a login in it, too long). */
  'imageUrlInvalid',
  /** The image address could not be fetched (set by the remote fetch, after validation). */
  'imageUnreachable',
  /** The photo step's deadline passed before the image address was fetched (or while it was). */
  'imageTimedOut',
  /** The fetched or unpacked file is not an image we can use (set once its bytes are checked). */
  'imageNotAnImage',
  /** A cell is longer than the field limit; the cell is cut in the preview. */
  'fieldTooLong',
  // The listing columns (listing-values.ts); an empty cell is never a problem, they are optional.
  /** The barcode is longer than 40 characters (Trendyol's limit). */
  'barcodeTooLong',
  /** The barcode has a character other than a letter, a digit or . - _ (e.g. Excel's 8,69E+12). */
  'barcodeInvalid',
  /** Another row has the same barcode (the marketplaces key a listing by it); every such row is reported. */
  'barcodeDuplicate',
  /** The sale price is not a number above zero with at most two decimals. */
  'priceInvalid',
  /** The list price is not a number above zero with at most two decimals. */
  'listPriceInvalid',
  /** The stock is not a whole number, zero or more. */
  'stockInvalid',
  /** The VAT rate is not 0, 1, 10 or 20 percent. */
  'vatRateInvalid',
  /** The desi is not a number, zero or more, with at most two decimals. */
  'desiInvalid',
] as const

export type RowProblemCode = (typeof rowProblemCodes)[number]

export type RowProblem = {
  /** The line in the file where the row starts, as a text editor (or Excel's row number) shows it. */
  line: number
  code: RowProblemCode
  /** The mapped field at fault, when there is one. */
  field?: CatalogueField
  /** Zero-based column of the cell at fault (also for columns not mapped to a field). */
  column?: number
  /** The value at fault, e.g. the photo name or URL (cut to 200 characters). */
  value?: string
  /** For `skuDuplicate` and `barcodeDuplicate`: the other lines with the same value. */
  otherLines?: number[]
}

export function isRowProblemCode(value: unknown): value is RowProblemCode {
  return typeof value === 'string' && (rowProblemCodes as readonly string[]).includes(value)
}

/**
 * What can be wrong with one entry of the photo ZIP, found before anything is unpacked. Each code
 * is also the i18n key `catalogue.photoProblems.<code>`.
 */
export const photoEntryProblemCodes = [
  /** A path that climbs out (`../`) or starts at a root (`/`, `C:`); never written anywhere, reported. */
  'unsafePath',
  /** Unpacks to more than one photo may weigh. */
  'tooLarge',
  /** Packed far tighter than a photo can be: treated as a bomb and never unpacked. */
  'suspiciousCompression',
  /** Encrypted, or packed with a method other than store/deflate. */
  'unsupported',
] as const

export type PhotoEntryProblemCode = (typeof photoEntryProblemCodes)[number]
