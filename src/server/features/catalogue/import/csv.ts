import { CsvError, parse } from 'csv-parse/sync'
import { AppError } from '#shared/errors.ts'
import type { RawRow } from './raw-row.ts'

export type CsvDelimiter = ';' | ',' | '\t'

const delimiters: readonly CsvDelimiter[] = [';', ',', '\t']

/**
 * The delimiter is the one of `;` `,` tab that occurs most, outside quotes, in the first line
 * that has any (the header, or a title line above it with Excel's trailing `;;;`): Turkish Excel
 * writes `;`, because `,` is the decimal mark; others `,`; "Unicode text" tabs. A tie prefers `;`.
 */
export function detectDelimiter(text: string, maxLines = 10): CsvDelimiter {
  const counts = new Map<CsvDelimiter, number>(delimiters.map((d) => [d, 0]))
  let inQuotes = false
  let lines = 0
  for (let index = 0; index < text.length && lines < maxLines; index += 1) {
    const char = text[index]
    if (char === '"') inQuotes = !inQuotes
    else if (!inQuotes && (char === '\n' || char === '\r')) {
      if ([...counts.values()].some((count) => count > 0)) break
      lines += 1
    } else if (!inQuotes && counts.has(char as CsvDelimiter)) {
      counts.set(char as CsvDelimiter, (counts.get(char as CsvDelimiter) ?? 0) + 1)
    }
  }
  let best: CsvDelimiter = ','
  let bestCount = 0
  for (const delimiter of delimiters) {
    const count = counts.get(delimiter) ?? 0
    if (count > bestCount) {
      best = delimiter
      bestCount = count
    }
  }
  return best
}

/** Excel's own hint, a first line `sep=;`, names the delimiter and is not part of the data. */
const separatorLine = /^sep=([;,\t|])[ \t]*(\r\n|\n|\r|$)/i

export type ParsedCsv = { delimiter: CsvDelimiter | '|'; rows: RawRow[] }

/**
 * Parses decoded CSV text into records with the physical line each starts on. csv-parse's own
 * line count is not used: it counts CR and LF of a CRLF inside a quoted field as two lines.
 * Instead each record's byte offset (where the record before it ended) is looked up in a table of
 * where lines start. Records with no text are dropped as they come, and reading stops with
 * CATALOGUE_TOO_MANY_ROWS past `maxRecords` others, so 10 MB of `;` lines costs no memory.
 */
export function parseCsv(text: string, maxRecords: number): ParsedCsv {
  let body = text
  let delimiter: CsvDelimiter | '|'
  const hint = separatorLine.exec(body)
  if (hint) {
    delimiter = (hint[1] ?? ',') as CsvDelimiter | '|'
    // Keep the line break, so the hint's line still counts in line numbers.
    body = body.slice(hint[0].length - (hint[2] ?? '').length)
  } else {
    delimiter = detectDelimiter(body)
  }
  const bytes = Buffer.from(body, 'utf8')
  const lineStarts = findLineStarts(bytes)
  const rows: RawRow[] = []
  let recordStart = 0
  try {
    parse(bytes, {
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      info: true,
      relax_column_count: true,
      // A quote inside an unquoted field (15" ekran) is text, as Excel reads it.
      relax_quotes: true,
      skip_empty_lines: false,
      // With `info`, csv-parse hands on_record `{ record, info }`; its typings name the plain record.
      on_record: (value: unknown) => {
        const { record, info } = value as { record: string[]; info: { bytes: number } }
        const start = recordStart
        recordStart = info.bytes
        if (record.every((cell) => cell.trim() === '')) return null
        rows.push({ line: lineAt(lineStarts, start) + 1, cells: record })
        if (rows.length > maxRecords) throw new AppError('CATALOGUE_TOO_MANY_ROWS', 'too many rows')
        return null
      },
    })
  } catch (error) {
    if (error instanceof AppError) throw error
    const line = error instanceof CsvError ? lineOfError(error, lineStarts) : undefined
    throw new AppError('CATALOGUE_FILE_UNREADABLE', 'CSV could not be parsed', line ? { line } : undefined, {
      cause: error,
    })
  }
  return { delimiter, rows }
}

/** Byte offsets where lines start; CRLF, LF and a lone CR each end a line, as editors count them. */
function findLineStarts(bytes: Buffer): number[] {
  const starts = [0]
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index]
    if (byte === 0x0a) starts.push(index + 1)
    else if (byte === 0x0d && bytes[index + 1] !== 0x0a) starts.push(index + 1)
  }
  return starts
}

/** Zero-based line of a byte offset. */
function lineAt(lineStarts: readonly number[], offset: number): number {
  let low = 0
  let high = lineStarts.length - 1
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if ((lineStarts[middle] ?? 0) <= offset) low = middle
    else high = middle - 1
  }
  return low
}

function lineOfError(error: CsvError, lineStarts: readonly number[]): number | undefined {
  // `bytes` is where the last whole record ended: the start of the one that broke. For an unclosed
  // quote that is the line that opened it, more use than the end of the file csv-parse names.
  const offset = (error as CsvError & { bytes?: number }).bytes
  return typeof offset === 'number' ? lineAt(lineStarts, offset) + 1 : undefined
}
