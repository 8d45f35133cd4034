import ExcelJS from 'exceljs'
import type { ZipLimits } from '#shared/catalogue/limits.ts'
import { AppError } from '#shared/errors.ts'
import type { RawRow } from './raw-row.ts'
import {
  compressionRatio,
  decodeEntryName,
  drainEntry,
  EntryTooLargeError,
  isReadable,
  openZip,
  readCentralDirectory,
} from './zip-inspect.ts'

export type XlsxLimits = ZipLimits & { ratioCheckFromBytes: number }

/**
 * Checks a workbook's ZIP before exceljs (through JSZip) inflates it whole: its central directory
 * first (entry count, declared sizes, compression ratios: nothing inflated yet), then each entry
 * inflated as a stream and thrown away, which stops at the declared size, so a part whose header
 * understates its size (the other kind of bomb) is caught having cost at most the limit.
 * Returns false when the ZIP is not a workbook (no xl/workbook.xml).
 */
export async function inspectWorkbookZip(bytes: Buffer, limits: XlsxLimits): Promise<boolean> {
  const unsafe = (message: string) => new AppError('CATALOGUE_FILE_UNSAFE', message)
  let zip: Awaited<ReturnType<typeof openZip>>
  try {
    zip = await openZip(bytes)
  } catch (error) {
    throw new AppError('CATALOGUE_FILE_UNREADABLE', 'workbook is not a readable ZIP', undefined, {
      cause: error,
    })
  }
  try {
    const entries = await readCentralDirectory(zip, limits.maxEntries, unsafe('too many workbook parts'))
    let total = 0
    let isWorkbook = false
    for (const entry of entries) {
      if (decodeEntryName(entry).path.toLowerCase() === 'xl/workbook.xml') isWorkbook = true
      total += entry.uncompressedSize
      if (total > limits.maxUncompressedBytes) throw unsafe('workbook unpacks past the limit')
      if (
        entry.uncompressedSize >= limits.ratioCheckFromBytes &&
        compressionRatio(entry) > limits.maxCompressionRatio
      ) {
        throw unsafe('workbook part compressed like a bomb')
      }
    }
    if (!isWorkbook) return false
    for (const entry of entries) {
      if (!isReadable(entry)) throw new AppError('CATALOGUE_FILE_UNREADABLE', 'encrypted or unknown packing')
      try {
        await drainEntry(zip, entry, entry.uncompressedSize)
      } catch (error) {
        // yauzl reports data running past the declared size as "too many bytes in the stream".
        if (error instanceof EntryTooLargeError || /too many bytes/i.test(String(error))) {
          throw unsafe('workbook part larger than its header says')
        }
        throw new AppError('CATALOGUE_FILE_UNREADABLE', 'damaged workbook part', undefined, { cause: error })
      }
    }
    return true
  } catch (error) {
    if (error instanceof AppError && error.code === 'CATALOGUE_ZIP_INVALID') {
      throw new AppError('CATALOGUE_FILE_UNREADABLE', 'damaged workbook', undefined, { cause: error })
    }
    throw error
  } finally {
    zip.close()
  }
}

export type ParsedSheet = { sheetName: string; rows: RawRow[] }

/**
 * Reads the first worksheet's rows as text, each with its sheet row number as its line; rows with
 * no text are skipped, and past `maxRows` others it stops with CATALOGUE_TOO_MANY_ROWS.
 */
export async function readFirstSheet(bytes: Buffer, maxRows: number): Promise<ParsedSheet> {
  const workbook = new ExcelJS.Workbook()
  try {
    // exceljs's typings want its own Buffer type; Node's Buffer is what it reads.
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer)
  } catch (error) {
    throw new AppError('CATALOGUE_FILE_UNREADABLE', 'workbook could not be read', undefined, { cause: error })
  }
  const sheet = workbook.worksheets[0]
  if (!sheet) return { sheetName: '', rows: [] }
  const rows: RawRow[] = []
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = []
    const links = new Map<number, string>()
    for (let column = 1; column <= row.cellCount; column += 1) {
      const cell = row.getCell(column)
      // A merged range keeps its value in the top-left cell; the others would repeat it.
      if (cell.isMerged && cell.master.address !== cell.address) {
        cells.push('')
        continue
      }
      cells.push(cellText(cell.value, cell.numFmt))
      const link = hyperlinkOf(cell.value)
      if (link) links.set(column - 1, link)
    }
    if (cells.every((cell) => cell.trim() === '')) return
    rows.push(links.size > 0 ? { line: rowNumber, cells, links } : { line: rowNumber, cells })
    // exceljs cannot stop eachRow; the throw ends it.
    if (rows.length > maxRows) throw new AppError('CATALOGUE_TOO_MANY_ROWS', 'too many rows')
  })
  return { sheetName: sheet.name, rows }
}

/**
 * A cell as the text a seller means. Numbers from their value, never the display (a barcode
 * shown as 8,69E+12 is 8690000000001), with leading zeros a "000…" format shows; dates as ISO
 * dates; formulas as their saved result (formula-looking text stays text: neutralising it is the
 * export's job); rich text joined; a hyperlink as its text.
 */
export function cellText(value: ExcelJS.CellValue | undefined, numFmt?: string): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number') return numberText(value, numFmt)
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  if (value instanceof Date) return dateText(value)
  if ('richText' in value) return value.richText.map((part) => part.text).join('')
  if ('hyperlink' in value) {
    const text = cellText(value.text as ExcelJS.CellValue, numFmt)
    return text === '' ? (value.hyperlink ?? '') : text
  }
  if ('formula' in value || 'sharedFormula' in value) {
    return cellText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue, numFmt)
  }
  if ('error' in value) return String(value.error)
  return ''
}

function hyperlinkOf(value: ExcelJS.CellValue | undefined): string | undefined {
  if (value && typeof value === 'object' && !(value instanceof Date) && 'hyperlink' in value) {
    const link = value.hyperlink
    // "#Sheet2!A1" points inside the workbook, not at a photo.
    if (typeof link === 'string' && link !== '' && !link.startsWith('#')) return link
  }
  return undefined
}

function numberText(value: number, numFmt?: string): string {
  if (!Number.isFinite(value)) return ''
  if (Number.isInteger(value)) {
    const digits = Math.abs(value) >= 1e21 ? BigInt(value).toString() : String(value)
    const zeros = numFmt && /^0+$/.test(numFmt) ? numFmt.length : 0
    return value >= 0 && zeros > digits.length ? digits.padStart(zeros, '0') : digits
  }
  return String(value)
}

function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return ''
  const iso = date.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19)
}
