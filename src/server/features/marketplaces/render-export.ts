import sharp from 'sharp'
import { AppError } from '#shared/errors.ts'
import type { ProductMask } from './measure-image.ts'

// An image re-rendered for a marketplace: exactly the target's pixel size, never stretched and
// never cropped (scaled to fit inside, the rest filled), JPEG in sRGB without metadata, within a
// file-size limit when there is one.
//
// The fill is pure white (255,255,255) for white-background rules; with the product's mask the
// photo's own background is replaced by that white too, so the border is exactly 255 however
// off-white the studio was. Otherwise the photo's own background is extended: the outermost rows
// (or columns) are continued outward and eased, over a short distance, into a heavily smoothed
// version of themselves. A studio backdrop or a table then simply goes on, with its light
// gradient, and no detail is repeated. The other ways were worse for product photos: sharp's
// 'mirror' repeats whatever is near the edge (half a product, a second handle), 'copy' draws
// every speck of the edge row out into long streaks, and a blurred copy of the whole photo behind
// it (the social-video letterbox, src/server/providers/offline-studio/video.ts) puts a ghost of
// the product on either side, which reads as a collage rather than a backdrop.

export type ExportTarget = {
  width: number
  height: number
  background: 'extend' | 'white'
  /** The file-size limit, if the marketplace has one. */
  maxBytes?: number
}

export type RenderOptions = {
  /**
   * The product's mask (0–255), upright, at any size with the photo's ratio (inspectImage's at
   * 640 px will do: it is scaled to the photo, and the edge is softened anyway). Used for white
   * backgrounds only.
   */
  mask?: ProductMask | null
}

export type RenderedExport = {
  bytes: Buffer
  width: number
  height: number
  /** The JPEG quality it was encoded at: the first step that fitted the limit. */
  quality: number
  /** Where the whole photo sits in the output: nothing of it is outside. */
  placement: { left: number; top: number; width: number; height: number }
}

/** JPEG qualities tried in turn until the file fits; below 60 artefacts show on product edges. */
export const qualitySteps = [92, 88, 84, 80, 76, 72, 68, 64, 60] as const
/** The density written into the JFIF header: Trendyol asks for 96 dpi; for others it is inert. */
export const exportDpi = 96
/** The largest side an export may ask for (Amazon's 10,000 px longest side). */
export const maxExportSide = 10_000

/**
 * The mask's soft edge, tightened: the model's edge pixels are part old background (dark wood
 * around a cup), which blended onto white would show as a grey rim. Below `low` the pixel goes
 * to white; above `high` it is the product's; between, a smooth step.
 */
export const whiteEdge = { low: 0.35, high: 0.85 } as const

/** Where a photo of width×height lands when fitted inside the target (contain, centred). */
export function fitInside(
  width: number,
  height: number,
  target: { width: number; height: number },
): RenderedExport['placement'] {
  const scale = Math.min(target.width / width, target.height / height)
  const fittedWidth = Math.max(1, Math.min(target.width, Math.round(width * scale)))
  const fittedHeight = Math.max(1, Math.min(target.height, Math.round(height * scale)))
  return {
    left: Math.floor((target.width - fittedWidth) / 2),
    top: Math.floor((target.height - fittedHeight) / 2),
    width: fittedWidth,
    height: fittedHeight,
  }
}

/** Re-renders an image for a marketplace's target (see the top of this file). */
export async function renderForMarketplace(
  bytes: Buffer,
  target: ExportTarget,
  options: RenderOptions = {},
): Promise<RenderedExport> {
  const { width, height } = target
  const isValidSide = (side: number) => Number.isInteger(side) && side >= 1 && side <= maxExportSide
  if (!isValidSide(width) || !isValidSide(height)) throw new Error(`invalid export size ${width}×${height}`)

  let source: { width: number; height: number }
  try {
    source = (await sharp(bytes, { failOn: 'error' }).metadata()).autoOrient
  } catch (error) {
    throw new AppError('IMAGE_UNREADABLE', 'Image header could not be read', undefined, { cause: error })
  }
  const placement = fitInside(source.width, source.height, target)

  // Upright, in sRGB (sharp converts from an embedded profile or CMYK), transparency on white.
  // The ratio is kept to within the rounding of one pixel; that pixel is not a visible stretch.
  const fitted = await sharp(bytes, { failOn: 'error' })
    .rotate()
    .resize(placement.width, placement.height, { fit: 'fill', kernel: 'lanczos3' })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer()
    .catch((error: unknown) => {
      throw new AppError('IMAGE_UNREADABLE', 'Image could not be decoded', undefined, { cause: error })
    })

  let canvas: Buffer
  if (target.background === 'white') {
    const photo = options.mask ? await onWhite(fitted, placement, options.mask) : fitted
    canvas = place(photo, placement, width, height, true)
  } else {
    canvas = place(fitted, placement, width, height, false)
    extendBackground(canvas, width, height, placement)
  }
  const { bytes: jpeg, quality } = await encodeWithin(canvas, width, height, target.maxBytes)
  return { bytes: jpeg, width, height, quality, placement }
}

/** The fitted photo with everything outside the product's mask made pure white, edges blended. */
async function onWhite(
  rgb: Buffer,
  placement: RenderedExport['placement'],
  mask: ProductMask,
): Promise<Buffer> {
  const alpha = await sharp(mask.alpha, { raw: { width: mask.width, height: mask.height, channels: 1 } })
    .resize(placement.width, placement.height, { fit: 'fill', kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer()
  const { low, high } = whiteEdge
  const curve = new Uint8Array(256)
  for (let v = 0; v < 256; v++) {
    const t = Math.min(1, Math.max(0, (v / 255 - low) / (high - low)))
    curve[v] = Math.round(t * t * (3 - 2 * t) * 255)
  }
  const out = Buffer.alloc(rgb.length)
  for (let i = 0, o = 0; i < alpha.length; i++, o += 3) {
    const a = curve[alpha[i] as number] as number
    if (a === 0) {
      out[o] = 255
      out[o + 1] = 255
      out[o + 2] = 255
    } else if (a === 255) {
      out[o] = rgb[o] as number
      out[o + 1] = rgb[o + 1] as number
      out[o + 2] = rgb[o + 2] as number
    } else {
      for (let c = 0; c < 3; c++)
        out[o + c] = Math.round(((rgb[o + c] as number) * a + 255 * (255 - a)) / 255)
    }
  }
  return out
}

/** A width×height RGB canvas with the photo at its place; the rest white (or to be filled). */
function place(
  rgb: Buffer,
  placement: RenderedExport['placement'],
  width: number,
  height: number,
  isWhite: boolean,
): Buffer {
  const canvas = Buffer.alloc(width * height * 3, isWhite ? 255 : 0)
  const rowBytes = placement.width * 3
  for (let y = 0; y < placement.height; y++) {
    rgb.copy(canvas, ((placement.top + y) * width + placement.left) * 3, y * rowBytes, (y + 1) * rowBytes)
  }
  return canvas
}

/** A running box mean over a line of RGB samples (floats), edges clamped; three passes ≈ a Gaussian. */
function smoothLine(line: Float32Array, radius: number, passes: number): Float32Array {
  const length = line.length / 3
  let current = line
  for (let pass = 0; pass < passes; pass++) {
    const next = new Float32Array(line.length)
    for (let c = 0; c < 3; c++) {
      let sum = 0
      for (let k = -radius; k <= radius; k++)
        sum += current[Math.min(length - 1, Math.max(0, k)) * 3 + c] as number
      for (let i = 0; i < length; i++) {
        next[i * 3 + c] = sum / (2 * radius + 1)
        const leaving = Math.min(length - 1, Math.max(0, i - radius))
        const entering = Math.min(length - 1, i + radius + 1)
        sum += (current[entering * 3 + c] as number) - (current[leaving * 3 + c] as number)
      }
    }
    current = next
  }
  return current
}

/**
 * Fills the canvas outside the photo by continuing its edges: top and bottom over the photo's
 * columns first, then left and right over every row (corners included, from the filled rows).
 */
function extendBackground(
  canvas: Buffer,
  width: number,
  height: number,
  placement: RenderedExport['placement'],
) {
  const { left, top } = placement
  const right = left + placement.width
  const bottom = top + placement.height
  const pixel = (x: number, y: number) => (y * width + x) * 3
  // Vertical extension: `line(i)` reads sample i across the edge, `write(i, d)` writes at distance d.
  const extend = (
    length: number,
    readEdge: (i: number, depth: number) => number,
    padding: number,
    write: (i: number, distance: number) => number,
    extent: number,
  ) => {
    if (padding <= 0 || length <= 0) return
    // The edge: mean of the outermost rows, lightly smoothed against noise; and its far form,
    // smoothed over a sixth of the edge's length so only the broad light and colour remain.
    const depth = Math.max(1, Math.min(extent, Math.round(extent * 0.01)))
    const edge = new Float32Array(length * 3)
    for (let i = 0; i < length; i++) {
      for (let d = 0; d < depth; d++) {
        const o = readEdge(i, d)
        for (let c = 0; c < 3; c++)
          edge[i * 3 + c] = (edge[i * 3 + c] as number) + (canvas[o + c] as number) / depth
      }
    }
    const near = smoothLine(edge, Math.max(1, Math.round(length * 0.004)), 1)
    const far = smoothLine(edge, Math.max(2, Math.round(length / 12)), 3)
    // The ease from near to far runs over a tenth of the photo's extent (at least 12 px).
    const fade = Math.max(12, Math.round(extent * 0.1))
    for (let distance = 1; distance <= padding; distance++) {
      const s = Math.min(1, distance / fade)
      const t = s * s * (3 - 2 * s)
      for (let i = 0; i < length; i++) {
        const o = write(i, distance)
        for (let c = 0; c < 3; c++) {
          const value = (near[i * 3 + c] as number) * (1 - t) + (far[i * 3 + c] as number) * t
          canvas[o + c] = Math.round(value)
        }
      }
    }
  }
  const columns = placement.width
  extend(
    columns,
    (i, d) => pixel(left + i, top + d),
    top,
    (i, d) => pixel(left + i, top - d),
    placement.height,
  )
  extend(
    columns,
    (i, d) => pixel(left + i, bottom - 1 - d),
    height - bottom,
    (i, d) => pixel(left + i, bottom - 1 + d),
    placement.height,
  )
  extend(
    height,
    (i, d) => pixel(left + d, i),
    left,
    (i, d) => pixel(left - d, i),
    placement.width,
  )
  extend(
    height,
    (i, d) => pixel(right - 1 - d, i),
    width - right,
    (i, d) => pixel(right - 1 + d, i),
    placement.width,
  )
}

/**
 * JPEG at the first quality step whose file fits `maxBytes` (the first step without one), with a
 * JFIF header at `exportDpi`. sharp writes no EXIF, XMP or ICC profile unless asked: the pixels
 * are sRGB, which an untagged JPEG means by convention. EXPORT_TOO_LARGE when even the last step
 * is over the limit.
 */
async function encodeWithin(
  rgb: Buffer,
  width: number,
  height: number,
  maxBytes: number | undefined,
): Promise<{ bytes: Buffer; quality: number }> {
  let smallest = Number.POSITIVE_INFINITY
  for (const quality of qualitySteps) {
    const encoded = await sharp(rgb, { raw: { width, height, channels: 3 } })
      .jpeg({ quality, optimiseCoding: true, chromaSubsampling: '4:2:0' })
      .toBuffer()
    const bytes = withJfifDensity(encoded, exportDpi)
    if (maxBytes === undefined || bytes.length <= maxBytes) return { bytes, quality }
    smallest = Math.min(smallest, bytes.length)
  }
  throw new AppError(
    'EXPORT_TOO_LARGE',
    `A ${width}×${height} JPEG is ${smallest} bytes at quality ${qualitySteps.at(-1)}, over the ${maxBytes}-byte limit`,
  )
}

/**
 * The JPEG with a JFIF APP0 segment giving `dpi` as its density: the existing one patched, or
 * one inserted after SOI (libvips writes none when there is no resolution to keep).
 */
export function withJfifDensity(jpeg: Buffer, dpi: number): Buffer {
  const hasJfif =
    jpeg[2] === 0xff && jpeg[3] === 0xe0 && jpeg.toString('latin1', 6, 11) === 'JFIF\0' && jpeg.length > 18
  if (hasJfif) {
    const patched = Buffer.from(jpeg)
    patched[13] = 1
    patched.writeUInt16BE(dpi, 14)
    patched.writeUInt16BE(dpi, 16)
    return patched
  }
  const app0 = Buffer.alloc(18)
  app0.writeUInt16BE(0xffe0, 0)
  app0.writeUInt16BE(16, 2)
  app0.write('JFIF\0', 4, 'latin1')
  app0[9] = 1
  app0[10] = 1
  app0[11] = 1 // density in dots per inch
  app0.writeUInt16BE(dpi, 12)
  app0.writeUInt16BE(dpi, 14)
  // No thumbnail: bytes 16 and 17 stay 0.
  return Buffer.concat([jpeg.subarray(0, 2), app0, jpeg.subarray(2)])
}
