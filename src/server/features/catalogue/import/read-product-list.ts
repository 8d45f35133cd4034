import {
  type ColumnMapping,
  findHeaderRow,
  type SavedMapping,
  suggestMapping,
} from '#shared/catalogue/columns.ts'
import { type CatalogueLimits, catalogueLimits } from '#shared/catalogue/limits.ts'
import { AppError } from '#shared/errors.ts'
import { type CsvDelimiter, parseCsv } from './csv.ts'
import type { RawRow } from './raw-row.ts'
import { sniffListFile } from './sniff.ts'
import { decodeListText, type ListEncoding } from './text-encoding.ts'
import { inspectWorkbookZip, readFirstSheet } from './xlsx.ts'

/** One product row of a list, cells cleaned, in the file's column order. */
export type ListRow = {
  /** Where the row starts: the CSV line a text editor shows, or the sheet's row number. */
  line: number
  /** One string per column (as many as `ProductList.headers`), trimmed, line breaks as `\n`. */
  cells: string[]
  /** XLSX only: column index → the address a hyperlink cell points to. */
  links?: Map<number, string>
  /** Columns whose cell was longer than the field limit; the cell is cut to the limit. */
  tooLong: number[]
}

export type ProductList = {
  format: 'csv' | 'xlsx'
  /** The name the user gave the file (shown back; never used to decide the format). */
  fileName: string
  /** CSV only: how the bytes were decoded, and chardet's guess (for logs; it never decides). */
  encoding?: ListEncoding
  encodingHint?: string | null
  /** CSV only: the field delimiter found in the header line (or Excel's `sep=` line). */
  delimiter?: CsvDelimiter | '|'
  /** XLSX only: the sheet read (always the first). */
  sheetName?: string
  /** The line of the header row (title rows above it are skipped). */
  headerLine: number
  /** Header texts, one per column; columns without a header have ''. */
  headers: string[]
  rows: ListRow[]
  /** Field → column, detected from the headers (a saved mapping wins where its headers exist). */
  suggestedMapping: ColumnMapping
}

export type ReadProductListOptions = {
  /** The mapping the user confirmed last time, by header name. */
  savedMapping?: SavedMapping
  /** Tests only: smaller limits to reach them with small files. */
  limits?: CatalogueLimits
}

/**
 * Reads a product list (CSV or XLSX, told apart by the bytes) into a header and product rows.
 * Whole-file problems throw AppError (CATALOGUE_FILE_EMPTY, _TOO_LARGE, _TYPE, _UNREADABLE,
 * _UNSAFE, CATALOGUE_NO_ROWS, CATALOGUE_TOO_MANY_ROWS); a bad row is kept, for validateRows to
 * report with its line. Rows with no text at all (Excel's trailing `;;;;`) are skipped.
 */
export async function readProductList(
  bytes: Buffer,
  fileName: string,
  options: ReadProductListOptions = {},
): Promise<ProductList> {
  const limits = options.limits ?? catalogueLimits
  if (bytes.length === 0) throw new AppError('CATALOGUE_FILE_EMPTY', 'list file has no bytes')
  if (bytes.length > limits.maxListFileBytes)
    throw new AppError('CATALOGUE_FILE_TOO_LARGE', 'list file too large')

  const kind = sniffListFile(bytes)
  if (kind === 'binary') throw new AppError('CATALOGUE_FILE_TYPE', 'list file is binary')
  if (kind === 'zip') {
    const isWorkbook = await inspectWorkbookZip(bytes, {
      ...limits.xlsx,
      ratioCheckFromBytes: limits.ratioCheckFromBytes,
    })
    if (!isWorkbook) throw new AppError('CATALOGUE_FILE_TYPE', 'a ZIP that is not an XLSX workbook')
    const sheet = await readFirstSheet(bytes, maxFilledRows(limits))
    return {
      format: 'xlsx',
      fileName,
      sheetName: sheet.sheetName,
      ...toProductRows(sheet.rows, limits, options.savedMapping),
    }
  }

  // Parsing costs per line, empty or not: the lines are counted first, on the bytes.
  if (countLines(bytes) > limits.maxListLines)
    throw new AppError('CATALOGUE_FILE_TOO_COMPLEX', 'list file has too many lines')
  const decoded = decodeListText(bytes)
  if (decoded.text.trim() === '') throw new AppError('CATALOGUE_FILE_EMPTY', 'list file has no text')
  const csv = parseCsv(decoded.text, maxFilledRows(limits))
  return {
    format: 'csv',
    fileName,
    encoding: decoded.encoding,
    encodingHint: decoded.hint,
    delimiter: csv.delimiter,
    ...toProductRows(csv.rows, limits, options.savedMapping),
  }
}

/**
 * Line breaks (LF, and CR not followed by LF) in the bytes; in UTF-16 they are the same byte
 * beside a zero, so one count serves every encoding read.
 */
export function countLines(bytes: Buffer): number {
  let lines = 1
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines += 1
  for (let at = bytes.indexOf(0x0d); at !== -1; at = bytes.indexOf(0x0d, at + 1)) {
    if (bytes[at + 1] !== 0x0a && bytes[at + 2] !== 0x0a) lines += 1
  }
  return lines
}

/**
 * Rows with text worth reading before the list is known to be too long: the header is among the
 * first `maxHeaderSearchRows`, so past this many the products alone exceed the limit.
 */
function maxFilledRows(limits: CatalogueLimits): number {
  return limits.maxHeaderSearchRows + limits.maxProductRows
}

type ProductRows = Pick<ProductList, 'headerLine' | 'headers' | 'rows' | 'suggestedMapping'>

function toProductRows(raw: RawRow[], limits: CatalogueLimits, saved?: SavedMapping): ProductRows {
  // The readers drop rows without text; a row of cells that are blank once cleaned goes here.
  const filled = raw.filter((row) => row.cells.some((cell) => cleanCell(cell) !== ''))
  const headerIndex = findHeaderRow(
    filled.slice(0, limits.maxHeaderSearchRows).map((row) => row.cells.map((cell) => cleanCell(cell))),
    limits.maxHeaderSearchRows,
  )
  const header = filled[headerIndex]
  if (!header) throw new AppError('CATALOGUE_NO_ROWS', 'no header row')
  const products = filled.slice(headerIndex + 1)
  if (products.length === 0) throw new AppError('CATALOGUE_NO_ROWS', 'only a header row')
  if (products.length > limits.maxProductRows) throw new AppError('CATALOGUE_TOO_MANY_ROWS', 'too many rows')

  const columnCount = Math.max(header.cells.length, ...products.map((row) => row.cells.length))
  const headers = Array.from(
    { length: columnCount },
    (_, column) => cut(cleanCell(header.cells[column] ?? ''), limits.maxFieldChars).text,
  )
  const rows = products.map((row): ListRow => {
    const tooLong: number[] = []
    const cells = Array.from({ length: columnCount }, (_, column) => {
      const { text, wasCut } = cut(cleanCell(row.cells[column] ?? ''), limits.maxFieldChars)
      if (wasCut) tooLong.push(column)
      return text
    })
    return row.links
      ? { line: row.line, cells, links: row.links, tooLong }
      : { line: row.line, cells, tooLong }
  })
  return { headerLine: header.line, headers, rows, suggestedMapping: suggestMapping(headers, saved) }
}

/** Trimmed, Windows line breaks as `\n`, no NUL characters (PostgreSQL text refuses them). */
function cleanCell(cell: string): string {
  return cell.replace(/\0/g, '').replace(/\r\n?/g, '\n').trim()
}

/** Cuts to `max` characters (code points, so an emoji is never split in half). */
function cut(text: string, max: number): { text: string; wasCut: boolean } {
  if (text.length <= max) return { text, wasCut: false }
  const points = Array.from(text)
  if (points.length <= max) return { text, wasCut: false }
  return { text: points.slice(0, max).join(''), wasCut: true }
}
