import sharp, { type Metadata } from 'sharp'
import type { ImageMime } from '#server/providers/types.ts'
import { AppError } from '#shared/errors.ts'
import { stripJpegMetadata } from './jpeg-segments.ts'

/** Uploads may be at most 10 MB. */
export const maxUploadBytes = 10 * 1024 * 1024
/** Decoded images may have at most 50 megapixels (a decompression bomb has far more). */
export const maxInputPixels = 50_000_000
/** Stored uploads are at most this long on their long side; models gain nothing from more. */
export const maxStoredSide = 4096

/** The type of an image by its first bytes, whatever its name or declared type says. */
export function sniffImageType(bytes: Buffer): ImageMime | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'image/png'
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  if (
    bytes.length >= 12 &&
    bytes.toString('ascii', 0, 4) === 'RIFF' &&
    bytes.toString('ascii', 8, 12) === 'WEBP'
  ) {
    return 'image/webp'
  }
  return null
}

export type NormalizedImage = { bytes: Buffer; mime: ImageMime; width: number; height: number }

/**
 * Checks and cleans an uploaded photo: type by content, pixel cap before decoding, fully
 * decodable (a truncated file is refused), EXIF orientation applied, metadata stripped, long
 * side capped. Re-encoded in its own format, except a JPEG that needs no pixel work (see
 * uprightJpegWithoutMetadata).
 */
export async function normalizeUploadedImage(bytes: Buffer): Promise<NormalizedImage> {
  if (bytes.length === 0) throw new AppError('FILE_TYPE_INVALID', 'Empty file')
  const mime = sniffImageType(bytes)
  if (!mime) throw new AppError('FILE_TYPE_INVALID', 'Not a PNG, JPEG or WEBP image')

  let metadata: Metadata
  try {
    // Reading the header is cheap and does not decode pixels.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata()
  } catch (error) {
    throw new AppError('IMAGE_UNREADABLE', 'Image header could not be read', undefined, { cause: error })
  }
  const pixels = (metadata.width ?? 0) * (metadata.height ?? 0)
  if (pixels === 0) throw new AppError('IMAGE_UNREADABLE', 'Image has no size')
  if (pixels > maxInputPixels) throw new AppError('IMAGE_TOO_LARGE', `Image has ${pixels} pixels`)

  if (mime === 'image/jpeg') {
    const clean = await uprightJpegWithoutMetadata(bytes, metadata)
    if (clean) return clean
  }

  try {
    const pipeline = sharp(bytes, { limitInputPixels: maxInputPixels, failOn: 'truncated' })
      .rotate()
      .resize({ width: maxStoredSide, height: maxStoredSide, fit: 'inside', withoutEnlargement: true })
    const encoded =
      mime === 'image/png'
        ? pipeline.png({ compressionLevel: 6 })
        : mime === 'image/webp'
          ? pipeline.webp({ quality: 92 })
          : pipeline.jpeg({ quality: 92, mozjpeg: false })
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true })
    return { bytes: data, mime, width: info.width, height: info.height }
  } catch (error) {
    throw new AppError('IMAGE_UNREADABLE', 'Image could not be decoded', undefined, { cause: error })
  }
}

/**
 * A JPEG that is already upright (no EXIF orientation, or 1), within the stored size and in
 * RGB or grey, with its metadata segments dropped and its compressed pixels kept as they are
 * (jpeg-segments.ts): what decoding and re-encoding would give, less the quality lost and ~30 ms
 * of CPU per camera photo (a catalogue's 1,000 photos are checked in one request). Only a
 * single-scan sequential file whose scan ends in EOI qualifies; for those, EOI is what the full
 * decode's truncation check amounts to (libjpeg reports a file cut short only when its data runs
 * out before EOI; damage inside the scan is a warning it decodes through either way). Null for
 * anything else, which then takes the full decode.
 */
async function uprightJpegWithoutMetadata(
  bytes: Buffer,
  metadata: Metadata,
): Promise<NormalizedImage | null> {
  const width = metadata.width ?? 0
  const height = metadata.height ?? 0
  const isPlain =
    (metadata.orientation ?? 1) === 1 &&
    !metadata.isProgressive &&
    Math.max(width, height) <= maxStoredSide &&
    (metadata.space === 'srgb' || metadata.space === 'b-w') &&
    (metadata.channels === 3 || metadata.channels === 1)
  if (!isPlain) return null
  const stripped = stripJpegMetadata(bytes)
  if (!stripped) return null
  // The rewritten header must still read as the same image.
  const check = await sharp(stripped, { limitInputPixels: false })
    .metadata()
    .catch(() => null)
  if (check?.width !== width || check.height !== height || check.exif || check.xmp) return null
  return { bytes: stripped, mime: 'image/jpeg', width, height }
}
