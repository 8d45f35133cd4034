import { createReadStream } from 'node:fs'
import { open as openFile } from 'node:fs/promises'
import { PassThrough, pipeline, type Readable, Transform } from 'node:stream'
import { createInflateRaw } from 'node:zlib'
import type { Entry } from 'yauzl'
import { type CatalogueLimits, catalogueLimits } from '#shared/catalogue/limits.ts'
import type { PhotoEntryProblemCode } from '#shared/catalogue/row-problems.ts'
import { AppError } from '#shared/errors.ts'
import {
  compressionRatio,
  decodeEntryName,
  EntryTooLargeError,
  isDirectory,
  isReadable,
  isUnsafePath,
  openZip,
  readCentralDirectory,
  type ZipSource,
} from './zip-inspect.ts'

/** A file in the photo ZIP, known from the central directory alone (nothing inflated). */
export type PhotoZipEntry = {
  /** The path in the ZIP, decoded (see decodeEntryName), folders separated by `/`. */
  path: string
  /** Other decodings of the same name bytes, also matched against the list. */
  alternates: readonly string[]
  /** Declared unpacked bytes (reads stop there). */
  size: number
  compressedSize: number
  /** Why the entry cannot be used as a photo, if it cannot. */
  problem?: PhotoEntryProblemCode
  /** Where its data starts (its local header) and how it is packed: 0 stored, 8 deflated. */
  localHeaderOffset: number
  compressionMethod: number
}

export type PhotoZipProblem = { path: string; code: PhotoEntryProblemCode }

export type PhotoLookup =
  | { status: 'found'; entry: PhotoZipEntry }
  | { status: 'missing' }
  | { status: 'ambiguous'; entries: PhotoZipEntry[] }

/** What row validation needs of a photo source: finding a file named in the list. */
export interface PhotoFinder {
  find(reference: string): PhotoLookup
}

/**
 * What the central directory says, as plain data: made on a worker thread (the list reader's
 * pool) for an uploaded ZIP, so ten thousand entries are never walked on the request thread,
 * and sent back whole.
 */
export type PhotoZipIndex = {
  /** Files that can be named in the list, in ZIP order (with their problem, if any). */
  entries: readonly PhotoZipEntry[]
  /** Every entry with a problem, including unsafe paths, which are not in `entries`. */
  problems: readonly PhotoZipProblem[]
  /** Folders, `__MACOSX/` copies, dotfiles, Thumbs.db and desktop.ini: skipped. */
  ignoredCount: number
  /** Declared unpacked bytes of all entries. */
  totalBytes: number
  /** Bytes of the ZIP itself (no entry's data may reach past it). */
  fileSize: number
}

export type PhotoZip = PhotoFinder &
  PhotoZipIndex & {
    /** One photo's bytes, inflated now, capped at the photo limit (FILE_TOO_LARGE / IMAGE_UNREADABLE). */
    readPhoto(entry: PhotoZipEntry): Promise<Buffer>
    /** The same as a stream, for piping into storage; it errors past the cap. */
    openPhotoStream(entry: PhotoZipEntry): Promise<Readable>
    /** Nothing stays open between reads; kept so callers end their use in one place. */
    close(): void
  }

export type OpenPhotoZipOptions = {
  /** Tests only: smaller limits to reach them with small files. */
  limits?: CatalogueLimits
}

/**
 * Indexes a ZIP of photos from its central directory, inflating nothing. Whole-archive problems
 * throw: not a ZIP (CATALOGUE_ZIP_INVALID), more entries than allowed
 * (CATALOGUE_ZIP_TOO_MANY_ENTRIES, checked from the end record before any entry is read), or more
 * bytes than allowed, packed or unpacked (CATALOGUE_ZIP_TOO_LARGE). A bad entry only marks that
 * photo: an unsafe path (`../`, `/`, `C:`) is reported and left out, a photo over the size limit,
 * one packed like a bomb, or an encrypted one is listed with its problem.
 */
export async function indexPhotoZip(
  source: ZipSource,
  options: OpenPhotoZipOptions = {},
): Promise<PhotoZipIndex> {
  const limits = (options.limits ?? catalogueLimits).photoZip
  const ratioFrom = (options.limits ?? catalogueLimits).ratioCheckFromBytes
  if (Buffer.isBuffer(source) && source.length > limits.maxFileBytes) {
    throw new AppError('CATALOGUE_ZIP_TOO_LARGE', 'photo ZIP too large')
  }
  const zip = await openZip(source)
  try {
    if (zip.fileSize > limits.maxFileBytes)
      throw new AppError('CATALOGUE_ZIP_TOO_LARGE', 'photo ZIP too large')
    const raw = await readCentralDirectory(
      zip,
      limits.maxEntries,
      new AppError('CATALOGUE_ZIP_TOO_MANY_ENTRIES', 'too many entries'),
    )
    const entries: PhotoZipEntry[] = []
    const problems: PhotoZipProblem[] = []
    let ignoredCount = 0
    let totalBytes = 0
    for (const entry of raw) {
      totalBytes += entry.uncompressedSize
      if (totalBytes > limits.maxUncompressedBytes) {
        throw new AppError('CATALOGUE_ZIP_TOO_LARGE', 'photo ZIP unpacks past the limit')
      }
      const name = decodeEntryName(entry)
      if (isUnsafePath(name.path)) {
        problems.push({ path: name.path, code: 'unsafePath' })
        continue
      }
      if (isIgnored(name.path)) {
        ignoredCount += 1
        continue
      }
      const problem = problemOf(entry, limits.maxPhotoBytes, limits.maxCompressionRatio, ratioFrom)
      entries.push({
        path: name.path,
        alternates: name.alternates,
        size: entry.uncompressedSize,
        compressedSize: entry.compressedSize,
        ...(problem ? { problem } : {}),
        localHeaderOffset: entry.relativeOffsetOfLocalHeader,
        compressionMethod: entry.compressionMethod,
      })
      if (problem) problems.push({ path: name.path, code: problem })
    }
    return { entries, problems, ignoredCount, totalBytes, fileSize: zip.fileSize }
  } finally {
    zip.close()
  }
}

/** Indexes the ZIP here and opens it for reading photos (tests, and ZIPs held in memory). */
export async function openPhotoZip(source: ZipSource, options: OpenPhotoZipOptions = {}): Promise<PhotoZip> {
  return photoZipFromIndex(source, await indexPhotoZip(source, options), options)
}

function problemOf(
  entry: Entry,
  maxBytes: number,
  maxRatio: number,
  ratioFrom: number,
): PhotoEntryProblemCode | undefined {
  if (!isReadable(entry)) return 'unsupported'
  if (entry.uncompressedSize > maxBytes) return 'tooLarge'
  if (entry.uncompressedSize >= ratioFrom && compressionRatio(entry) > maxRatio)
    return 'suspiciousCompression'
  return undefined
}

const ignoredNames = new Set(['thumbs.db', 'desktop.ini'])

function isIgnored(path: string): boolean {
  if (isDirectory(path)) return true
  const segments = path.split('/')
  const base = segments.at(-1) ?? ''
  return (
    segments.some((segment) => segment === '__MACOSX' || segment.startsWith('.')) ||
    ignoredNames.has(base.toLowerCase())
  )
}

/**
 * Reads photos of a ZIP indexed before (on a thread, see PhotoZipIndex): each read finds the
 * entry's data from its local header and inflates it on zlib's thread pool, capped at the photo
 * limit and at the size the directory declared.
 */
export function photoZipFromIndex(
  source: ZipSource,
  index: PhotoZipIndex,
  options: OpenPhotoZipOptions = {},
): PhotoZip {
  const maxPhotoBytes = (options.limits ?? catalogueLimits).photoZip.maxPhotoBytes
  const byPath = new Map<string, Set<PhotoZipEntry>>()
  const byBase = new Map<string, Set<PhotoZipEntry>>()
  const add = (map: Map<string, Set<PhotoZipEntry>>, key: string, entry: PhotoZipEntry) => {
    const found = map.get(key)
    if (found) found.add(entry)
    else map.set(key, new Set([entry]))
  }
  for (const entry of index.entries) {
    for (const path of [entry.path, ...entry.alternates]) {
      const key = foldName(path)
      add(byPath, key, entry)
      add(byBase, key.slice(key.lastIndexOf('/') + 1), entry)
    }
  }
  const known = new Set(index.entries)

  const usable = (entry: PhotoZipEntry): PhotoZipEntry => {
    if (!known.has(entry)) throw new AppError('NOT_FOUND', 'not an entry of this ZIP')
    if (entry.problem === 'tooLarge') throw new AppError('FILE_TOO_LARGE', 'photo in ZIP too large')
    if (entry.problem) throw new AppError('IMAGE_UNREADABLE', `photo in ZIP: ${entry.problem}`)
    return entry
  }
  const open = (entry: PhotoZipEntry) => openEntryData(source, index.fileSize, usable(entry), maxPhotoBytes)

  return {
    ...index,
    find(reference) {
      return findPhoto(byPath, byBase, reference)
    },
    async readPhoto(entry) {
      try {
        const chunks: Buffer[] = []
        for await (const chunk of await open(entry)) chunks.push(chunk as Buffer)
        return Buffer.concat(chunks)
      } catch (error) {
        throw photoReadError(error)
      }
    },
    async openPhotoStream(entry) {
      try {
        return await open(entry)
      } catch (error) {
        throw photoReadError(error)
      }
    },
    close() {},
  }
}

const localHeaderBytes = 30
const localHeaderSignature = 0x04034b50

/** `length` bytes of the ZIP from `position` (fewer at its end). */
async function readRange(source: ZipSource, position: number, length: number): Promise<Buffer> {
  if (Buffer.isBuffer(source)) return source.subarray(position, position + length)
  const file = await openFile(source, 'r')
  try {
    const buffer = Buffer.alloc(length)
    const { bytesRead } = await file.read(buffer, 0, length, position)
    return buffer.subarray(0, bytesRead)
  } finally {
    await file.close()
  }
}

/**
 * One entry's unpacked bytes as a stream: its local header gives where the data starts; stored
 * data is passed through, deflated data inflated. The stream fails past `maxBytes`, and when the
 * data unpacks to more or fewer bytes than the directory declared (a lying header).
 */
async function openEntryData(
  source: ZipSource,
  fileSize: number,
  entry: PhotoZipEntry,
  maxBytes: number,
): Promise<Readable> {
  if (entry.size > maxBytes) throw new EntryTooLargeError()
  const header = await readRange(source, entry.localHeaderOffset, localHeaderBytes)
  if (header.length < localHeaderBytes || header.readUInt32LE(0) !== localHeaderSignature) {
    throw new Error('invalid local file header')
  }
  const start = entry.localHeaderOffset + localHeaderBytes + header.readUInt16LE(26) + header.readUInt16LE(28)
  const end = start + entry.compressedSize
  if (end > fileSize) throw new Error('entry data runs past the end of the ZIP')
  const packed: Readable =
    entry.compressedSize === 0
      ? new PassThrough().end()
      : Buffer.isBuffer(source)
        ? new PassThrough().end(source.subarray(start, end))
        : createReadStream(source, { start, end: end - 1 })
  let seen = 0
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length
      if (seen > maxBytes) callback(new EntryTooLargeError())
      else if (seen > entry.size) callback(new Error('entry unpacks past its declared size'))
      else callback(null, chunk)
    },
    flush(callback) {
      callback(seen === entry.size ? null : new Error('entry unpacks short of its declared size'))
    },
  })
  const stages: NodeJS.ReadWriteStream[] = entry.compressionMethod === 8 ? [createInflateRaw()] : []
  // pipeline destroys every stage with the first error, so the reader of `counted` sees it.
  pipeline([packed, ...stages, counted], () => {})
  return counted
}

function photoReadError(error: unknown): AppError {
  if (error instanceof AppError) return error
  if (error instanceof EntryTooLargeError) return new AppError('FILE_TOO_LARGE', 'photo in ZIP too large')
  // Damaged data, or more or fewer bytes than the header declared.
  return new AppError('IMAGE_UNREADABLE', 'photo in ZIP could not be read', undefined, { cause: error })
}

/**
 * A name as compared: composed Unicode (macOS writes names decomposed), and case folded so that
 * I, İ, ı and i are all one letter: a list written "IŞIK.JPG" finds "ışık.jpg" whatever the
 * casing rules of the machine that wrote either.
 */
export function foldName(name: string): string {
  return name.normalize('NFC').replace(/[İIı]/g, 'i').toLowerCase()
}

/** A name as written in a list cell: `\` as `/`, no leading `./` or `/`. */
function cleanReference(reference: string): string {
  return reference
    .trim()
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
    .replace(/^(?:\.\/|\/)+/, '')
}

/**
 * The file a list names: the whole path if it matches one; else by file name alone (the list
 * names "a.jpg", the ZIP has "photos/a.jpg", or the reverse). When several files share the file
 * name, those whose path and the list's path end alike (one is the other under more folders)
 * win; more than one left is ambiguous.
 */
function findPhoto(
  byPath: Map<string, Set<PhotoZipEntry>>,
  byBase: Map<string, Set<PhotoZipEntry>>,
  reference: string,
): PhotoLookup {
  const key = foldName(cleanReference(reference))
  if (key === '') return { status: 'missing' }
  const exact = [...(byPath.get(key) ?? [])]
  const pick = (found: PhotoZipEntry[]): PhotoLookup => {
    const [first] = found
    if (!first) return { status: 'missing' }
    return found.length === 1 ? { status: 'found', entry: first } : { status: 'ambiguous', entries: found }
  }
  if (exact.length > 0) return pick(exact)
  const sameName = [...(byBase.get(key.slice(key.lastIndexOf('/') + 1)) ?? [])]
  if (sameName.length <= 1 || !key.includes('/')) return pick(sameName)
  const endsAlike = sameName.filter((entry) =>
    [entry.path, ...entry.alternates].some((path) => {
      const folded = foldName(path)
      return folded.endsWith(`/${key}`) || key.endsWith(`/${folded}`)
    }),
  )
  return pick(endsAlike.length > 0 ? endsAlike : sameName)
}
