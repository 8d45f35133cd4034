import { once } from 'node:events'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type ZipStream from 'zip-stream'
import { translateFor } from '#server/i18n.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { fitCopy } from '#shared/marketplaces/fit-copy.ts'
import type { MarketplaceProfile } from '#shared/marketplaces/types.ts'
import { createFolderNames, extensionFor } from './file-names.ts'
import { csvRecord, neutraliseCell } from './listing-cells.ts'

/** One stored result of a product: what the ZIP copies into the product's folder. */
export type ExportFile = { assetId: string; kind: 'image' | 'video'; mime: string; storageKey: string }

export type ExportSeo = { title: string; description: string; features: string[]; keywords: string[] }

/** One product row of a batch, with its results. */
export type ExportProduct = {
  line: number
  sku: string
  name: string
  /** The list's input cells, in the list's column order. */
  cells: string[]
  /** The row's results in output order (studio image, fashion image, video). */
  files: ExportFile[]
  seo: ExportSeo | null
}

export type CatalogueExportInput = {
  /** The list's header cells. */
  headers: string[]
  /** Read page by page by the caller, so memory stays flat; read once, in order. */
  products: AsyncIterable<ExportProduct>
  /** Opens one stored file (storage.getStream); called only once the previous file is in the ZIP. */
  openFile: (file: ExportFile) => Promise<Readable>
  /**
   * The batch's marketplace preset, when its id names a profile: every file is re-made for it
   * and named by its rule, and the copy columns are fitted to its limits. Null: files as stored.
   */
  preset: ExportPreset | null
  /** The language of the listing's own column headers (the list's headers are kept as they are). */
  locale: Locale
  /** The browser went away: stop reading and writing. */
  signal?: AbortSignal
  /** Where the listing is kept while the files are written (default: the system's temporary folder). */
  tempDir?: string
}

/**
 * A marketplace profile and how one stored file is re-made for it (marketplaces.service.ts
 * exportFileFor: an image rendered to the profile's export size as JPEG, a video lengthened
 * past its floor), given that file's bytes; the export calls it for one file at a time.
 * The profiles carry no listing column names (src/shared/marketplaces/types.ts), so the
 * listing keeps its own columns.
 */
export type ExportPreset = {
  profile: MarketplaceProfile
  render: (
    file: ExportFile,
    bytes: Buffer,
    name: { skuOrName: string; n: number },
  ) => Promise<{ bytes: Buffer; fileName: string }>
}

/** Names of the listing files at the ZIP's root. */
export const listingCsvName = 'listing.csv'
export const listingXlsxName = 'listing.xlsx'

const utf8Bom = '\uFEFF'
const featureSeparator = ' | '
const keywordSeparator = ', '
/** Column widths in the XLSX, in characters: wide enough to read, narrow enough to scan. */
const minColumnWidth = 10
const maxColumnWidth = 60

/** One line of the listing as kept on disk until every product has been read. */
type SpilledRow = {
  seo: [string, string, string, string]
  images: string[]
  videos: string[]
  cells: string[]
}

/** The widest text seen per column group, for the XLSX's column widths. */
type Widths = { seo: number[]; image: number; video: number; input: number[] }

/**
 * Writes a batch's export ZIP to `out` while building it: each product's files in a folder named
 * by its SKU (stored, since photos and videos do not compress), then `listing.csv` and
 * `listing.xlsx` with the SEO columns, the files' paths in the ZIP and the list's own columns.
 *
 * Memory stays flat: one file is read at a time, at the pace `out` takes it (the next file is
 * opened only once the previous entry is written), and the listing's rows wait in a temporary
 * file, because the listing comes last and its image columns are known only once every product
 * has been read. With a preset, each file is read whole, re-made for the marketplace and written
 * before the next is opened, so one file and its re-made copy are in memory at a time; its name
 * then follows the marketplace export's rule (`<sku or name>-<marketplace>-<n>.jpg`) and the title
 * and description are fitted to the profile's limits. Resolves once `out` has the whole archive. On an abort (`signal`, or `out`
 * failing) or any failure it stops reading, destroys the open file stream, the archive and `out`
 * (a cut-off ZIP must not look complete) and rejects: with the signal's reason on an abort.
 */
export async function writeCatalogueExport(
  out: NodeJS.WritableStream,
  input: CatalogueExportInput,
): Promise<void> {
  input.signal?.throwIfAborted()
  const workDir = await mkdtemp(join(input.tempDir ?? tmpdir(), 'vitrin-export-'))
  // Aborted by the caller's signal, or by `out` failing (the browser closed the connection).
  const stop = new AbortController()
  const onCallerAbort = () => stop.abort(input.signal?.reason)
  input.signal?.addEventListener('abort', onCallerAbort, { once: true })
  // Files are stored entry by entry; only the CSV is deflated. (Loaded with the first export, as
  // exceljs below: neither is needed to start the server.)
  const { default: ZipStreamClass } = await import('zip-stream')
  const zip = new ZipStreamClass({ zlib: { level: 6 } })
  const written = pipeline(zip, out)
  written.catch((error: unknown) => stop.abort(error))
  try {
    // Aborted while the temporary folder was made: nothing has been read yet.
    stop.signal.throwIfAborted()
    const listing = await writeProductFiles(zip, input, workDir, stop.signal)
    const csv = Readable.from(csvChunks(listing, input.locale), { objectMode: false })
    await addEntry(zip, csv, listingCsvName, false, stop.signal)
    const xlsxPath = join(workDir, listingXlsxName)
    await writeXlsx(xlsxPath, listing, input.locale, stop.signal)
    await addEntry(zip, createReadStream(xlsxPath), listingXlsxName, true, stop.signal)
    zip.finalize()
    await written
  } catch (error) {
    const reason: unknown = stop.signal.aborted ? stop.signal.reason : error
    stop.abort(reason)
    zip.destroy(reason instanceof Error ? reason : new Error(String(reason)))
    await written.catch(() => {})
    throw reason
  } finally {
    input.signal?.removeEventListener('abort', onCallerAbort)
    await rm(workDir, { recursive: true, force: true })
  }
}

/** What the listing's rows need once every product has been read. */
type Listing = {
  rowsPath: string
  headers: string[]
  imageColumns: number
  videoColumns: number
  inputColumns: number
  widths: Widths
}

/** Writes every product's files into the ZIP and its listing row to a file in `workDir`. */
async function writeProductFiles(
  zip: ZipStream,
  input: CatalogueExportInput,
  workDir: string,
  stop: AbortSignal,
): Promise<Listing> {
  const rowsPath = join(workDir, 'rows.ndjson')
  const rows = createWriteStream(rowsPath, { mode: 0o600 })
  const rowsClosed = once(rows, 'close')
  // `once` rejects on 'error', so a failing rows file ends the wait for 'drain' or 'close'.
  rowsClosed.catch(() => {})
  const folders = createFolderNames()
  const widths: Widths = { seo: [0, 0, 0, 0], image: 0, video: 0, input: [] }
  let imageColumns = 0
  let videoColumns = 0
  let inputColumns = input.headers.length
  try {
    for await (const product of input.products) {
      stop.throwIfAborted()
      const folder = folders.take(product.sku, product.line)
      const images: string[] = []
      const videos: string[] = []
      for (const file of product.files) {
        const isVideo = file.kind === 'video'
        const n = (isVideo ? videos.length : images.length) + 1
        const { preset } = input
        let path: string
        if (preset) {
          const bytes = await readAll(await openFile(input, file, stop), stop)
          const made = await preset.render(file, bytes, { skuOrName: product.sku || product.name, n })
          stop.throwIfAborted()
          path = `${folder}/${made.fileName}`
          await addEntry(zip, Readable.from([made.bytes], { objectMode: false }), path, true, stop)
        } else {
          const suffix = isVideo ? (n === 1 ? 'video' : `video-${n}`) : `${n}`
          path = `${folder}/${folder}-${suffix}.${extensionFor(file.mime)}`
          await addEntry(zip, await openFile(input, file, stop), path, true, stop)
        }
        ;(isVideo ? videos : images).push(path)
      }
      const seo =
        product.seo && input.preset
          ? { ...product.seo, ...fitCopy(input.preset.profile, product.seo) }
          : product.seo
      const row: SpilledRow = {
        seo: seo
          ? [
              seo.title,
              seo.description,
              seo.features.join(featureSeparator),
              seo.keywords.join(keywordSeparator),
            ]
          : ['', '', '', ''],
        images,
        videos,
        cells: product.cells,
      }
      imageColumns = Math.max(imageColumns, images.length)
      videoColumns = Math.max(videoColumns, videos.length)
      inputColumns = Math.max(inputColumns, product.cells.length)
      row.seo.forEach((text, i) => {
        widths.seo[i] = Math.max(widths.seo[i] ?? 0, longestLine(text))
      })
      for (const path of images) widths.image = Math.max(widths.image, path.length)
      for (const path of videos) widths.video = Math.max(widths.video, path.length)
      product.cells.forEach((text, i) => {
        widths.input[i] = Math.max(widths.input[i] ?? 0, longestLine(text))
      })
      if (!rows.write(`${JSON.stringify(row)}\n`)) await Promise.race([once(rows, 'drain'), rowsClosed])
    }
    rows.end()
    await rowsClosed
  } catch (error) {
    rows.destroy()
    throw error
  }
  return { rowsPath, headers: input.headers, imageColumns, videoColumns, inputColumns, widths }
}

/**
 * A stored file's bytes, for a preset's re-render (sharp and ffmpeg take whole files). Only this
 * one file is held, and only until its re-made copy is in the ZIP.
 */
async function readAll(source: Readable, stop: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = []
  const handleAbort = () => source.destroy()
  stop.addEventListener('abort', handleAbort, { once: true })
  try {
    for await (const chunk of source) chunks.push(chunk as Buffer)
  } finally {
    stop.removeEventListener('abort', handleAbort)
  }
  stop.throwIfAborted()
  return Buffer.concat(chunks)
}

/** Opens a file for the ZIP; one that opens after an abort is closed at once. */
async function openFile(input: CatalogueExportInput, file: ExportFile, stop: AbortSignal): Promise<Readable> {
  const source = await input.openFile(file)
  if (stop.aborted) {
    source.destroy()
    throw stop.reason
  }
  return source
}

/**
 * Adds one entry and resolves once all of it has gone into the archive (so at most the archive's
 * own buffer waits for `out`). On an abort the source is destroyed, which also frees a storage
 * connection that would otherwise stay open for the rest of a half-read object.
 */
function addEntry(
  zip: ZipStream,
  source: Readable,
  name: string,
  isStored: boolean,
  stop: AbortSignal,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const cleanUp = () => {
      stop.removeEventListener('abort', handleAbort)
      source.off('error', handleSourceError)
    }
    const fail = (error: unknown) => {
      cleanUp()
      source.destroy()
      reject(error)
    }
    function handleAbort() {
      fail(stop.reason)
    }
    function handleSourceError(error: unknown) {
      fail(error)
    }
    if (stop.aborted) {
      fail(stop.reason)
      return
    }
    stop.addEventListener('abort', handleAbort, { once: true })
    source.on('error', handleSourceError)
    zip.entry(source, { name, store: isStored }, (error) => {
      cleanUp()
      if (error) reject(error)
      else resolve()
    })
  })
}

/** The listing's rows, read back from the file they waited in. */
async function* readRows(path: string): AsyncGenerator<SpilledRow> {
  const file = createReadStream(path)
  const lines = createInterface({ input: file, crlfDelay: Number.POSITIVE_INFINITY })
  try {
    for await (const line of lines) if (line !== '') yield JSON.parse(line) as SpilledRow
  } finally {
    lines.close()
    file.destroy()
  }
}

function padded(cells: readonly string[], length: number): string[] {
  return Array.from({ length }, (_, i) => cells[i] ?? '')
}

/**
 * The header row: our columns in the user's language (named "Vitrin …", so a template's own
 * "Görsel 1" is never repeated), then the list's own headers as they were. A header that still
 * repeats an earlier one (a list exported before and imported again) gets " (2)", " (3)" …, so
 * every column of the sheet has a name of its own.
 */
function headerCells(listing: Listing, locale: Locale): string[] {
  return distinctHeaders([
    translateFor(locale, 'catalogue.export.columns.seoTitle'),
    translateFor(locale, 'catalogue.export.columns.metaDescription'),
    translateFor(locale, 'catalogue.export.columns.features'),
    translateFor(locale, 'catalogue.export.columns.keywords'),
    ...Array.from({ length: listing.imageColumns }, (_, i) =>
      translateFor(locale, 'catalogue.export.columns.image', { n: i + 1 }),
    ),
    ...Array.from({ length: listing.videoColumns }, (_, i) =>
      i === 0
        ? translateFor(locale, 'catalogue.export.columns.video')
        : translateFor(locale, 'catalogue.export.columns.videoNumbered', { n: i + 1 }),
    ),
    ...padded(listing.headers, listing.inputColumns),
  ])
}

function distinctHeaders(headers: string[]): string[] {
  const seen = new Set<string>()
  return headers.map((header) => {
    if (header.trim() === '') return header
    const key = (name: string) => name.trim().toLocaleLowerCase('tr')
    let name = header
    for (let n = 2; seen.has(key(name)); n++) name = `${header} (${n})`
    seen.add(key(name))
    return name
  })
}

function tableCells(row: SpilledRow, listing: Listing): string[] {
  return [
    ...row.seo,
    ...padded(row.images, listing.imageColumns),
    ...padded(row.videos, listing.videoColumns),
    ...padded(row.cells, listing.inputColumns),
  ]
}

/** `listing.csv`, in pieces of about 64 KB: BOM, header, one record per product. */
async function* csvChunks(listing: Listing, locale: Locale): AsyncGenerator<Buffer> {
  let chunk = utf8Bom + csvRecord(headerCells(listing, locale))
  for await (const row of readRows(listing.rowsPath)) {
    chunk += csvRecord(tableCells(row, listing))
    if (chunk.length >= 64 * 1024) {
      yield Buffer.from(chunk, 'utf8')
      chunk = ''
    }
  }
  yield Buffer.from(chunk, 'utf8')
}

/** Excel's limit on the characters of one cell; a longer text would make the file unreadable. */
const maxXlsxCellChars = 32_767

/**
 * A cell for the XLSX: neutralised, line breaks as Excel's own (LF; exceljs writes a CR raw,
 * and XML reading turns it into LF anyway), cut to Excel's limit.
 */
function xlsxCell(text: string): string {
  return neutraliseCell(text).replace(/\r\n?/g, '\n').slice(0, maxXlsxCellChars)
}

function longestLine(text: string): number {
  let longest = 0
  for (const line of text.split(/\r\n|\r|\n/)) longest = Math.max(longest, line.length)
  return longest
}

function columnWidths(listing: Listing, headers: readonly string[]): number[] {
  const { widths } = listing
  const content = [
    ...widths.seo,
    ...Array.from({ length: listing.imageColumns }, () => widths.image),
    ...Array.from({ length: listing.videoColumns }, () => widths.video),
    ...Array.from({ length: listing.inputColumns }, (_, i) => widths.input[i] ?? 0),
  ]
  return headers.map((header, i) =>
    Math.min(maxColumnWidth, Math.max(minColumnWidth, Math.max(header.length, content[i] ?? 0) + 2)),
  )
}

/**
 * `listing.xlsx`, through exceljs's streaming writer into a file: every cell a plain string
 * (exceljs makes a formula only from a `{ formula }` object, never from text), neutralised all the
 * same so the sheet stays safe when saved again as CSV; the header row bold and frozen.
 */
async function writeXlsx(path: string, listing: Listing, locale: Locale, stop: AbortSignal): Promise<void> {
  const { default: ExcelJS } = await import('exceljs')
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useStyles: true,
    useSharedStrings: false,
  })
  const sheet = workbook.addWorksheet(translateFor(locale, 'catalogue.export.sheetName'), {
    views: [{ state: 'frozen', ySplit: 1 }],
  })
  const headers = headerCells(listing, locale)
  sheet.columns = columnWidths(listing, headers).map((width) => ({ width }))
  const header = sheet.addRow(headers.map(xlsxCell))
  header.font = { bold: true }
  header.commit()
  try {
    for await (const row of readRows(listing.rowsPath)) {
      stop.throwIfAborted()
      sheet.addRow(tableCells(row, listing).map(xlsxCell)).commit()
    }
  } finally {
    // Also after an abort: committing is what closes the file.
    sheet.commit()
    await workbook.commit()
  }
}
