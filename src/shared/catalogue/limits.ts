/**
 * Limits of a catalogue import, shared so the web app can check a file before sending it and
 * show the same numbers the server enforces. The error messages `errors.CATALOGUE_*` name some of
 * these numbers in words (limits.test.ts keeps them in step).
 */

const MB = 1024 * 1024
const GB = 1024 * MB

export type ZipLimits = {
  readonly maxEntries: number
  readonly maxUncompressedBytes: number
  readonly maxCompressionRatio: number
}

export type CatalogueLimits = {
  readonly maxProductRows: number
  readonly maxListFileBytes: number
  readonly maxFieldChars: number
  readonly maxListLines: number
  readonly maxImagesPerRow: number
  readonly maxHeaderSearchRows: number
  readonly maxImageUrlChars: number
  readonly xlsx: ZipLimits
  readonly photoZip: ZipLimits & { readonly maxFileBytes: number; readonly maxPhotoBytes: number }
  readonly ratioCheckFromBytes: number
}

export const catalogueLimits: CatalogueLimits = {
  /** Product rows in one list (one batch); a longer list is refused whole (CATALOGUE_TOO_MANY_ROWS). */
  maxProductRows: 1_000,
  /** Bytes of the list file (CSV or XLSX); a 1,000-row list is far below it (CATALOGUE_FILE_TOO_LARGE). */
  maxListFileBytes: 10 * MB,
  /**
   * Physical lines of a CSV, counted before it is parsed (CATALOGUE_FILE_TOO_COMPLEX): 1,000
   * products whose descriptions run to many lines fit; 10 MB of empty lines does not.
   */
  maxListLines: 20_000,
  /** Characters in one cell; a longer cell makes its row bad (`fieldTooLong`), not the file. */
  maxFieldChars: 5_000,
  /** Photos per product: what the marketplaces take (Trendyol's and Hepsiburada's templates have 8). */
  maxImagesPerRow: 8,
  /** How far down the header row is looked for (templates put a title or notes above it). */
  maxHeaderSearchRows: 10,
  /** An http(s) image address longer than this is refused as a bad URL. */
  maxImageUrlChars: 2_048,
  /**
   * An XLSX is a ZIP: its central directory is checked before anything is inflated. A real
   * workbook has a few dozen parts and compresses its XML about 5–20×.
   */
  xlsx: {
    maxEntries: 1_000,
    maxUncompressedBytes: 100 * MB,
    maxCompressionRatio: 100,
  },
  /** The ZIP of photos named in the list. */
  photoZip: {
    /** Bytes of the uploaded ZIP; photos hardly compress, so it matches the unpacked cap. */
    maxFileBytes: 2 * GB,
    /** Entries of any kind (folders and macOS `__MACOSX/` copies count too). */
    maxEntries: 10_000,
    /** One photo unpacked; the same cap as a single upload. A larger entry is a bad photo. */
    maxPhotoBytes: 10 * MB,
    /** All entries unpacked, as their headers declare (reads are capped at the declared size). */
    maxUncompressedBytes: 2 * GB,
    /** Photos barely compress; an entry packed more than this is treated as a bomb. */
    maxCompressionRatio: 100,
  },
  /**
   * The compression ratio is only judged for entries that unpack to at least this much: tiny
   * files (an empty sheet, a folder) can have any ratio and harm no one.
   */
  ratioCheckFromBytes: 1 * MB,
}

/** File name endings the list picker offers; the server decides by the bytes, not the name. */
export const productListExtensions = ['.csv', '.txt', '.xlsx'] as const
