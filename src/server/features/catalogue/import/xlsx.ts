import { Readable } from 'node:stream'
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

export type ReadSheetOptions = {
  /** Called for every row the reader hands over (tests count them to see the cap stop reading). */
  onRowRead?: () => void
}

/** What the streaming reader hands over; exceljs types these loosely (`parse(): AsyncIterator<any>`). */
type StreamReader = {
  model?: { sheets?: { name: string; rId: string }[] }
  workbookRels?: { Id: string; Target: string }[]
  parse(): AsyncIterable<{ eventType: string; value: unknown }>
}
type SheetReader = {
  name?: string
  /** The sheet's XML: a zip entry's iterator, or a temporary file's stream (see below). */
  iterator?: { destroy?: () => void; on?: (event: 'error', listener: () => void) => void }
  parse(): AsyncIterable<{ eventType: string; value: unknown }[]>
}
type HyperlinkRels = {
  id: string
  on(event: 'hyperlink', listener: (rel: { rId: string; target: string }) => void): void
  read(): Promise<void>
}

/**
 * Reads the first worksheet's rows as text, each with its sheet row number as its line; rows with
 * no text are skipped, and past `maxRows` others it stops with CATALOGUE_TOO_MANY_ROWS. The sheet
 * is streamed (exceljs's WorkbookReader): rows are read one by one and reading ends at the cap,
 * so a sheet of a million rows costs what its first thousand do. Hyperlinks are listed after the
 * rows in a sheet's XML and resolved once it ends (they matter only for a list under the cap).
 */
export async function readFirstSheet(
  bytes: Buffer,
  maxRows: number,
  options: ReadSheetOptions = {},
): Promise<ParsedSheet> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([bytes]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'emit',
    // Number formats: dates, and the leading zeros a "000…" format shows.
    styles: 'cache',
    entries: 'ignore',
  }) as unknown as StreamReader
  const rows: RawRow[] = []
  /** Cell address (A2) → relationship id, from the first sheet's <hyperlinks>. */
  const linkRefs = new Map<string, { row: RawRow; column: number; rId: string }>()
  const cellsAt = new Map<number, RawRow>()
  /** Relationship id → address, from the first sheet's relationships part. */
  const targets = new Map<string, string>()
  let firstSheet: { name: string; fileNumber: string | null } | null = null
  let sheetName: string | null = null
  // A sheet stored before the shared strings is copied to a temporary file and read from there
  // once the ZIP ends; a stream of one that is skipped, or left at the cap, is closed here (else it
  // keeps its descriptor, or fails to open a file removed under it).
  const sheetStreams: NonNullable<SheetReader['iterator']>[] = []
  try {
    for await (const event of reader.parse()) {
      if (event.eventType === 'hyperlinks') {
        const rels = event.value as HyperlinkRels
        const first = firstSheet ?? firstSheetOf(reader)
        if (String(rels.id) === (first?.fileNumber ?? '1')) {
          rels.on('hyperlink', (rel) => targets.set(rel.rId, rel.target))
        }
        await rels.read()
        continue
      }
      if (event.eventType !== 'worksheet' || sheetName !== null) continue
      const sheet = event.value as SheetReader
      if (sheet.iterator?.destroy) sheetStreams.push(sheet.iterator)
      firstSheet ??= firstSheetOf(reader)
      // With the workbook's own list known, the first sheet is the first it names; else the first in the ZIP.
      if (firstSheet?.name && sheet.name !== undefined && sheet.name !== firstSheet.name) {
        closeStreams(sheetStreams.splice(0))
        continue
      }
      sheetName = sheet.name ?? firstSheet?.name ?? ''
      for await (const events of sheet.parse()) {
        for (const { eventType, value } of events) {
          if (eventType === 'hyperlink') {
            const link = value as { ref: string; rId: string }
            const address = /^([A-Z]+)(\d+)$/.exec(link.ref ?? '')
            if (!address) continue
            const row = cellsAt.get(Number(address[2]))
            if (row) linkRefs.set(link.ref, { row, column: columnIndex(address[1] as string), rId: link.rId })
            continue
          }
          if (eventType !== 'row') continue
          options.onRowRead?.()
          const row = value as ExcelJS.Row
          const cells: string[] = []
          for (let column = 1; column <= row.cellCount; column += 1) {
            const cell = row.getCell(column)
            cells.push(cellText(cell.value, cell.numFmt))
          }
          if (cells.every((cell) => cell.trim() === '')) continue
          const raw: RawRow = { line: row.number, cells }
          rows.push(raw)
          cellsAt.set(row.number, raw)
          if (rows.length > maxRows) throw new AppError('CATALOGUE_TOO_MANY_ROWS', 'too many rows')
        }
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    throw new AppError('CATALOGUE_FILE_UNREADABLE', 'workbook could not be read', undefined, { cause: error })
  } finally {
    closeStreams(sheetStreams)
  }
  for (const { row, column, rId } of linkRefs.values()) {
    const target = targets.get(rId)
    // "#Sheet2!A1" points inside the workbook, not at a photo.
    if (!target || target.startsWith('#')) continue
    row.links ??= new Map()
    row.links.set(column, target)
    if ((row.cells[column] ?? '') === '') row.cells[column] = target
  }
  return { sheetName: sheetName ?? '', rows }
}

function closeStreams(streams: NonNullable<SheetReader['iterator']>[]): void {
  for (const stream of streams) {
    stream.on?.('error', () => {})
    stream.destroy?.()
  }
}

/** The first sheet the workbook names, and the number in its part's file name (sheetN.xml). */
function firstSheetOf(reader: StreamReader): { name: string; fileNumber: string | null } | null {
  const first = reader.model?.sheets?.[0]
  if (!first) return null
  const target = reader.workbookRels?.find((rel) => rel.Id === first.rId)?.Target ?? ''
  return { name: first.name, fileNumber: /sheet(\d+)\.xml$/.exec(target)?.[1] ?? null }
}

/** Zero-based column of a column name (A → 0, AA → 26). */
function columnIndex(letters: string): number {
  let index = 0
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64)
  return index - 1
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
