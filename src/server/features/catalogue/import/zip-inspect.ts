import { type Readable, Transform } from 'node:stream'
import iconv from 'iconv-lite'
import { type Entry, fromBuffer, getFileNameLowLevel, open, type ZipFile } from 'yauzl'
import { AppError } from '#shared/errors.ts'

/**
 * Reading ZIPs (the photo ZIP, and an XLSX, which is one) through their central directory:
 * names and sizes are known before any entry is inflated, so bombs and bad paths are refused
 * before they cost anything. Entries are inflated one at a time, on demand, capped.
 */

export type ZipSource = Buffer | string

/** Opens a ZIP without reading entries; a file that is not a ZIP is CATALOGUE_ZIP_INVALID. */
export async function openZip(source: ZipSource): Promise<ZipFile> {
  // decodeStrings: false, because yauzl's decoding refuses the whole archive at the first unsafe
  // name and reads names without the UTF-8 flag as CP437 only; both are handled here instead.
  const options = { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false }
  let zip: ZipFile
  try {
    zip = await new Promise<ZipFile>((resolve, reject) => {
      const done = (error: Error | null, opened: ZipFile) => (error ? reject(error) : resolve(opened))
      if (typeof source === 'string') open(source, options, done)
      else fromBuffer(source, options, done)
    })
  } catch (error) {
    throw new AppError('CATALOGUE_ZIP_INVALID', 'not a readable ZIP', undefined, { cause: error })
  }
  // Failures reach callers through readCentralDirectory and the entry streams; an 'error' event
  // nobody listens to at that moment would end the process instead.
  zip.on('error', () => {})
  return zip
}

/**
 * Every entry of the central directory (nothing is inflated). Refuses an archive that declares
 * more than `maxEntries` before reading any of them.
 */
export async function readCentralDirectory(
  zip: ZipFile,
  maxEntries: number,
  tooMany: AppError,
): Promise<Entry[]> {
  if (zip.entryCount > maxEntries) throw tooMany
  const entries: Entry[] = []
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: Entry) => {
        entries.push(entry)
        if (entries.length > maxEntries) reject(tooMany)
        else zip.readEntry()
      })
      zip.once('end', () => resolve())
      zip.once('error', reject)
      zip.readEntry()
    })
  } catch (error) {
    if (error instanceof AppError) throw error
    throw new AppError('CATALOGUE_ZIP_INVALID', 'broken central directory', undefined, { cause: error })
  } finally {
    zip.removeAllListeners('entry')
  }
  return entries
}

export type EntryName = {
  /** The path as best decoded, with `/` between folders. */
  path: string
  /** Other readings of the same bytes, for matching names written in the list. */
  alternates: string[]
}

const utf8Flag = 0x800
const unicodePathExtraField = 0x7075
const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * An entry's name. With the UTF-8 flag or Info-ZIP's Unicode path field the name is UTF-8, as
 * the spec says. Without them the spec says CP437, but Windows' own "Compressed folder" writes
 * the system's OEM code page, which on Turkish Windows is CP857 (ı İ ş Ş ğ Ğ sit where CP437 has
 * ì ÿ ƒ ₧ ª º); macOS and Linux tools write UTF-8 without the flag. So: bytes that are valid UTF-8
 * are UTF-8; else CP857, with CP437 and Windows-1254 kept as alternates for matching.
 */
export function decodeEntryName(entry: Entry): EntryName {
  const raw = entry.fileNameRaw
  const hasUnicodeField = entry.extraFields.some((field) => field.id === unicodePathExtraField)
  let path: string
  let alternates: string[] = []
  if ((entry.generalPurposeBitFlag & utf8Flag) !== 0 || hasUnicodeField) {
    path = getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, true)
  } else if (raw.every((byte) => byte < 0x80)) {
    path = raw.toString('latin1')
  } else {
    try {
      path = strictUtf8.decode(raw)
      alternates = [iconv.decode(raw, 'cp857')]
    } catch {
      path = iconv.decode(raw, 'cp857')
      alternates = [iconv.decode(raw, 'cp437'), iconv.decode(raw, 'windows-1254')]
    }
  }
  const clean = (name: string) => name.normalize('NFC').replace(/\\/g, '/')
  const cleanPath = clean(path)
  return {
    path: cleanPath,
    alternates: [...new Set(alternates.map(clean))].filter((name) => name !== cleanPath),
  }
}

/** A path that would leave the folder it is unpacked in, were it ever unpacked. */
export function isUnsafePath(path: string): boolean {
  return (
    path.startsWith('/') ||
    /^[a-z]:/i.test(path) ||
    path.includes('\0') ||
    path.split('/').some((segment) => segment === '..')
  )
}

export function isDirectory(path: string): boolean {
  return path.endsWith('/')
}

/** Declared uncompressed bytes per compressed byte (an empty entry has ratio 0). */
export function compressionRatio(entry: Entry): number {
  if (entry.uncompressedSize === 0) return 0
  return entry.uncompressedSize / Math.max(entry.compressedSize, 1)
}

/** Entries yauzl can inflate: not encrypted, stored or deflated. */
export function isReadable(entry: Entry): boolean {
  return !entry.isEncrypted() && (entry.compressionMethod === 0 || entry.compressionMethod === 8)
}

/**
 * A stream of one entry's bytes that fails once more than `maxBytes` come out. yauzl already
 * fails when the data runs past the declared size (validateEntrySizes), so a header that lies
 * about the size is caught too; the cap is a second stop that does not depend on the header.
 */
export async function openEntryStream(zip: ZipFile, entry: Entry, maxBytes: number): Promise<Readable> {
  if (entry.uncompressedSize > maxBytes) throw new EntryTooLargeError()
  const source = await new Promise<Readable>((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream)))
  })
  let seen = 0
  const capped = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length
      if (seen > maxBytes) callback(new EntryTooLargeError())
      else callback(null, chunk)
    },
  })
  source.on('error', (error) => capped.destroy(error))
  capped.on('close', () => source.destroy())
  return source.pipe(capped)
}

/** One entry's bytes, read through `openEntryStream`. */
export async function readEntryBytes(zip: ZipFile, entry: Entry, maxBytes: number): Promise<Buffer> {
  const stream = await openEntryStream(zip, entry, maxBytes)
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Inflates an entry to count its bytes, keeping none; fails past `maxBytes` or the declared size. */
export async function drainEntry(zip: ZipFile, entry: Entry, maxBytes: number): Promise<number> {
  const stream = await openEntryStream(zip, entry, maxBytes)
  let total = 0
  for await (const chunk of stream) total += (chunk as Buffer).length
  return total
}

export class EntryTooLargeError extends Error {
  constructor() {
    super('ZIP entry larger than allowed')
    this.name = 'EntryTooLargeError'
  }
}
