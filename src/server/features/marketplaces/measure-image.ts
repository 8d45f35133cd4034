import sharp, { type Metadata } from 'sharp'
import { summariseMask } from '#server/segmentation/mask-math.ts'
import { isCredible, type Segmenter } from '#server/segmentation/segmenter.ts'
import { AppError } from '#shared/errors.ts'
import type { ColourSpace, ImageFacts, ImageFormat } from '#shared/marketplaces/facts.ts'
import { isSrgbProfile } from './icc-profile.ts'

// What the pre-publish checker needs to know about an image (src/shared/marketplaces/facts.ts),
// measured from its bytes: size, format and colour space from the header; the purity of the
// border band from the full-resolution pixels; the product's fill and whether it is cut off from
// the separation mask (src/server/segmentation); text on the image from OCR (read-text.ts) when a
// reader is given, else `text` is null and the text-on-image rule reads "check by eye".

/** The outer share of each side that forms the border band (2 %: Amazon's "no shadow at the frame edge"). */
export const borderBandShare = 0.02
/** A channel at or above this counts as white "within a small tolerance". */
export const nearWhiteLevel = 250
/**
 * The side the photo is segmented at. The model sees 320×320 whatever it is given; only the
 * guided filter that snaps its mask to the photo's edges works at this size. Measured on a
 * 1080 px result on the 2-core machine: segmenting at 1024 px took about 1.5× as long as at
 * 640 px, and 640 px no longer than 320 px (the model's own run is the rest). Fill shares are
 * ratios, so at 640 px they move by less than 0.2 %; the edge test reads 2 rows here, 3–6 px
 * of a 1200–2000 px image.
 */
export const measureSide = 640
/**
 * The product touches an edge when, along one side, the mask covers at least this share of the
 * outermost two pixel rows (or columns), and at least `minPixels` of them: a cut-off product
 * meets the frame along its whole cross-section, while a soft mask's stray pixels are a few.
 */
export const edgeTouch = { rows: 2, minShare: 0.005, minPixels: 4 } as const

/** The product mask a measurement used, upright, at most `measureSide` on its long side (for an export to white). */
export type ProductMask = { alpha: Uint8Array; width: number; height: number }

export type MeasureImageOptions = {
  /** The image is a generated scene (an AI edit or a composite), not the seller's photo. */
  isGenerated: boolean
  /** Finds the product; the process's shared segmenter in the app, a fake mask in tests. */
  segmenter: Pick<Segmenter, 'segment'>
  /** Reads the words on the image (TextReader.read); without it, or when it gives null, `text` is null. */
  readText?: (bytes: Buffer) => Promise<string[] | null>
}

/** The image's type by its first bytes, whatever its name says. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat {
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1')
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'png'
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp'
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif'
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return 'tiff'
  // ISO-BMFF with an HEIF brand (HEIC from phones; AVIF is HEIF too but a format of its own).
  if (ascii(4, 8) === 'ftyp' && /^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(ascii(8, 12)))
    return 'heic'
  return 'other'
}

/**
 * The colour space the pixels are in: the header's space, and for RGB the embedded profile's
 * (an RGB file tagged Display P3 or Adobe RGB is not sRGB, whatever its channels). An untagged
 * RGB file is sRGB by the web's convention.
 */
export function colourSpaceOf(metadata: Pick<Metadata, 'space' | 'icc'>): ColourSpace {
  switch (metadata.space) {
    case 'srgb':
    case 'rgb':
    case 'rgb16':
    case 'scrgb':
      return !metadata.icc || isSrgbProfile(metadata.icc) ? 'srgb' : 'other'
    case 'cmyk':
      return 'cmyk'
    case 'b-w':
    case 'grey16':
      return 'grey'
    default:
      return 'other'
  }
}

/** Rows and columns of the border band: the outer `borderBandShare` of each side, at least one pixel. */
export function borderBand(width: number, height: number): { rows: number; columns: number } {
  return {
    rows: Math.max(1, Math.round(height * borderBandShare)),
    columns: Math.max(1, Math.round(width * borderBandShare)),
  }
}

/**
 * Shares of the border band's pixels (RGB, `channels` bytes each) that are near-white (every
 * channel ≥ nearWhiteLevel) and exactly 255,255,255.
 */
export function borderWhiteness(
  data: Uint8Array,
  width: number,
  height: number,
  channels: number,
): { white: number; pure: number } {
  const { rows, columns } = borderBand(width, height)
  let total = 0
  let white = 0
  let pure = 0
  for (let y = 0; y < height; y++) {
    const isBandRow = y < rows || y >= height - rows
    for (let x = 0; x < width; x++) {
      if (!isBandRow && x >= columns && x < width - columns) {
        // Jump over the inside of the row.
        x = width - columns - 1
        continue
      }
      const o = (y * width + x) * channels
      const r = data[o] as number
      const g = data[o + 1] as number
      const b = data[o + 2] as number
      total++
      if (r >= nearWhiteLevel && g >= nearWhiteLevel && b >= nearWhiteLevel) {
        white++
        if (r === 255 && g === 255 && b === 255) pure++
      }
    }
  }
  return total === 0 ? { white: 0, pure: 0 } : { white: white / total, pure: pure / total }
}

/**
 * The product's place in the frame, from a mask (0–255, inside at ≥ 128):
 * - `fillShare`: the larger of the mask's bounding box's width share and height share, i.e. how
 *   far the product reaches across the frame along the side where it comes closest to filling
 *   it (its longer side on a square image). This is what "the product fills 85 % of the image"
 *   means: scaled up by 1 / fillShare it would touch the frame.
 * - `areaShare`: the share of the image's pixels inside the mask.
 * - `touchesEdge`: the mask meets a side along its cross-section (see `edgeTouch`).
 * Null when the mask is empty.
 */
export function productPlacement(
  alpha: Uint8Array,
  width: number,
  height: number,
): { fillShare: number; areaShare: number; touchesEdge: boolean } | null {
  let left = width
  let right = -1
  let top = height
  let bottom = -1
  let inside = 0
  const strip = Math.min(edgeTouch.rows, width, height)
  const edges = { top: 0, bottom: 0, left: 0, right: 0 }
  for (let y = 0; y < height; y++) {
    const row = y * width
    for (let x = 0; x < width; x++) {
      if ((alpha[row + x] as number) < 128) continue
      inside++
      if (x < left) left = x
      if (x > right) right = x
      if (y < top) top = y
      if (y > bottom) bottom = y
      if (y < strip) edges.top++
      if (y >= height - strip) edges.bottom++
      if (x < strip) edges.left++
      if (x >= width - strip) edges.right++
    }
  }
  if (inside === 0) return null
  const touches = (count: number, length: number) =>
    count >= edgeTouch.minPixels && count >= length * strip * edgeTouch.minShare
  return {
    fillShare: Math.max((right - left + 1) / width, (bottom - top + 1) / height),
    areaShare: inside / (width * height),
    touchesEdge:
      touches(edges.top, width) ||
      touches(edges.bottom, width) ||
      touches(edges.left, height) ||
      touches(edges.right, height),
  }
}

/**
 * The share of the background that is exactly white (255,255,255): every pixel outside the
 * product's mask (scaled to the image, counting any trace of it, with `edge` pixels around it
 * for the product's anti-aliased rim and the JPEG's ringing next to it). A soft contact shadow
 * under the product counts as background, so it has to stay small.
 */
export async function backgroundWhiteness(
  image: { data: Uint8Array; width: number; height: number; channels: number },
  mask: ProductMask,
  edge: number,
): Promise<number> {
  const { width, height, channels } = image
  const scaled = await sharp(mask.alpha, { raw: { width: mask.width, height: mask.height, channels: 1 } })
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer()
  // The product and its rim: dilated by `edge` with a separable running maximum.
  const inside = new Uint8Array(width * height)
  for (let i = 0; i < inside.length; i++) inside[i] = (scaled[i] as number) >= 8 ? 1 : 0
  const across = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    let last = -Infinity
    for (let x = 0; x < width; x++) {
      if (inside[y * width + x]) last = x
      if (x - last <= edge) across[y * width + x] = 1
    }
    last = Infinity
    for (let x = width - 1; x >= 0; x--) {
      if (inside[y * width + x]) last = x
      if (last - x <= edge) across[y * width + x] = 1
    }
  }
  let background = 0
  let white = 0
  for (let x = 0; x < width; x++) {
    let above = -Infinity
    const near = new Uint8Array(height)
    for (let y = 0; y < height; y++) {
      if (across[y * width + x]) above = y
      if (y - above <= edge) near[y] = 1
    }
    let below = Infinity
    for (let y = height - 1; y >= 0; y--) {
      if (across[y * width + x]) below = y
      if (below - y <= edge) near[y] = 1
    }
    for (let y = 0; y < height; y++) {
      if (near[y]) continue
      background++
      const o = (y * width + x) * channels
      if (image.data[o] === 255 && image.data[o + 1] === 255 && image.data[o + 2] === 255) white++
    }
  }
  return background === 0 ? 0 : white / background
}

/** The facts of an image and the product mask they were measured from (null when not credible). */
export type ImageInspection = { facts: ImageFacts; mask: ProductMask | null }

/**
 * Measures an image for the checker, and keeps the product mask so an export to a white
 * background (render-export.ts) need not segment the photo again. Throws IMAGE_UNREADABLE when
 * the bytes are not an image sharp can decode.
 */
export async function inspectImage(bytes: Buffer, options: MeasureImageOptions): Promise<ImageInspection> {
  let metadata: Metadata
  try {
    metadata = await sharp(bytes, { failOn: 'error' }).metadata()
  } catch (error) {
    throw new AppError('IMAGE_UNREADABLE', 'Image header could not be read', undefined, { cause: error })
  }
  // Upright, as a marketplace shows it; a transparent part counts as white, as it is shown there.
  const upright = () => sharp(bytes, { failOn: 'error' }).rotate().flatten({ background: '#ffffff' })
  const [full, small] = await Promise.all([
    upright().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true }),
    upright()
      .resize({ width: measureSide, height: measureSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true }),
  ]).catch((error: unknown) => {
    throw new AppError('IMAGE_UNREADABLE', 'Image could not be decoded', undefined, { cause: error })
  })
  const border = borderWhiteness(full.data, full.info.width, full.info.height, full.info.channels)

  const { width, height } = small.info
  // OCR runs on its own thread meanwhile; a reader never throws (null when it cannot read).
  const reading = options.readText ? options.readText(bytes) : Promise.resolve(null)
  const segmentation = await options.segmenter.segment({
    data: small.data,
    width,
    height,
    channels: small.info.channels === 4 ? 4 : 3,
  })
  const text = await reading
  // The sanity checks run on the mask as given (a fake in tests gives only its alpha honestly).
  const summary = summariseMask(segmentation.alpha, width, height)
  const isUsable =
    segmentation.alpha.length === width * height &&
    isCredible({ ...summary, confidence: segmentation.confidence })
  const placement = isUsable ? productPlacement(segmentation.alpha, width, height) : null

  return {
    facts: {
      width: full.info.width,
      height: full.info.height,
      bytes: bytes.length,
      format: sniffImageFormat(bytes),
      colourSpace: colourSpaceOf(metadata),
      borderWhiteShare: border.white,
      borderPureWhiteShare: border.pure,
      product: placement,
      isGenerated: options.isGenerated,
      text,
    },
    mask: placement ? { alpha: segmentation.alpha, width, height } : null,
  }
}

/** The checker's facts about an image (see inspectImage). */
export async function measureImage(bytes: Buffer, options: MeasureImageOptions): Promise<ImageFacts> {
  return (await inspectImage(bytes, options)).facts
}
