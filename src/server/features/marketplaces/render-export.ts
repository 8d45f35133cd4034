import sharp from 'sharp'
import { AppError } from '#shared/errors.ts'
import type { ProductMask } from './measure-image.ts'

// An image re-rendered for a marketplace: exactly the target's pixel size, never stretched (the
// photo is scaled as a whole, the rest filled), JPEG in sRGB without metadata, within a
// file-size limit when there is one.
//
// The fill is pure white (255,255,255) for white-background rules; with the product's mask the
// photo's own background is replaced by that white too, so the border is exactly 255 however
// off-white the studio was, and where the rule asks the product to fill the frame (Amazon's
// main image) the photo is scaled and cropped around the product until it does. Otherwise the
// photo's own background is continued: a band along each edge is mirrored outward (so the
// texture goes on, with the same grain and light, instead of one row drawn out into streaks) and
// eased into a blurred copy of itself within a short distance, so nothing sharp is repeated.
// The whole-photo blur behind it (the social-video letterbox,
// src/server/providers/offline-studio/video.ts) was worse: it puts a ghost of the product on
// either side, which reads as a collage rather than a backdrop.

export type ExportTarget = {
  width: number
  height: number
  background: 'extend' | 'white'
  /** The file-size limit, if the marketplace has one. */
  maxBytes?: number
  /**
   * On white with the product's mask: the share of the frame the product is scaled to fill along
   * the side where it comes closest to the frame (the checker's fill measure), the photo cropped
   * to it. Without a mask the photo is only fitted.
   */
  fillShare?: number
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
  /**
   * Where the whole photo sits in the output: inside it when fitted; reaching past the frame
   * when it was cropped so the product fills it (`fillShare`).
   */
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
  const fillBox =
    target.background === 'white' && target.fillShare && options.mask
      ? productBox(options.mask, source)
      : null
  const placement = fillBox
    ? fillAround(fillBox, source, target, target.fillShare as number)
    : fitInside(source.width, source.height, target)
  // Cropped to fill, only the part inside the frame is scaled (a small product scaled up whole
  // would be a photo many times the frame's size); fitted, that part is the whole photo.
  const visible = visiblePart(placement, source, target)

  // Upright, in sRGB (sharp converts from an embedded profile or CMYK), transparency on white.
  // The ratio is kept to within the rounding of one pixel; that pixel is not a visible stretch.
  const decode = async () => {
    const upright = sharp(bytes, { failOn: 'error' }).rotate()
    if (!visible.isCropped) return upright
    // Upright first, then cut: sharp crops before it rotates within one pipeline.
    const { data, info } = await upright.raw().toBuffer({ resolveWithObject: true })
    return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).extract(
      visible.source,
    )
  }
  const fitted = await decode()
    .then((image) =>
      image
        .resize(visible.placement.width, visible.placement.height, { fit: 'fill', kernel: 'lanczos3' })
        .flatten({ background: '#ffffff' })
        .toColourspace('srgb')
        .removeAlpha()
        .raw()
        .toBuffer(),
    )
    .catch((error: unknown) => {
      throw new AppError('IMAGE_UNREADABLE', 'Image could not be decoded', undefined, { cause: error })
    })

  let canvas: Buffer
  if (target.background === 'white') {
    const mask =
      options.mask && visible.isCropped ? cropMask(options.mask, visible.source, source) : options.mask
    const photo = mask ? await onWhite(fitted, visible.placement, mask) : fitted
    canvas = place(photo, visible.placement, width, height, true)
  } else {
    canvas = place(fitted, placement, width, height, false)
    await extendBackground(canvas, width, height, placement)
  }
  const { bytes: jpeg, quality } = await encodeWithin(canvas, width, height, target.maxBytes)
  return { bytes: jpeg, width, height, quality, placement }
}

type Rect = { left: number; top: number; width: number; height: number }

/**
 * The part of a placed photo inside the frame: the photo's pixels it comes from (`source`) and
 * where they land (`placement`). The whole photo when the placement is inside the frame.
 */
function visiblePart(
  placement: Rect,
  photo: { width: number; height: number },
  target: { width: number; height: number },
): { isCropped: boolean; source: Rect; placement: Rect } {
  const isInside =
    placement.left >= 0 &&
    placement.top >= 0 &&
    placement.left + placement.width <= target.width &&
    placement.top + placement.height <= target.height
  if (isInside) return { isCropped: false, source: { left: 0, top: 0, ...photo }, placement }
  const sx = placement.width / photo.width
  const sy = placement.height / photo.height
  const x0 = Math.max(0, Math.floor(-placement.left / sx))
  const y0 = Math.max(0, Math.floor(-placement.top / sy))
  const x1 = Math.min(photo.width, Math.ceil((target.width - placement.left) / sx))
  const y1 = Math.min(photo.height, Math.ceil((target.height - placement.top) / sy))
  const source = { left: x0, top: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) }
  return {
    isCropped: true,
    source,
    placement: {
      left: Math.round(placement.left + x0 * sx),
      top: Math.round(placement.top + y0 * sy),
      width: Math.max(1, Math.round(source.width * sx)),
      height: Math.max(1, Math.round(source.height * sy)),
    },
  }
}

/** The mask's part over `rect` of the photo (in the photo's pixels), at the mask's own scale. */
function cropMask(mask: ProductMask, rect: Rect, photo: { width: number; height: number }): ProductMask {
  const sx = mask.width / photo.width
  const sy = mask.height / photo.height
  const left = Math.min(mask.width - 1, Math.floor(rect.left * sx))
  const top = Math.min(mask.height - 1, Math.floor(rect.top * sy))
  const width = Math.max(1, Math.min(mask.width - left, Math.round(rect.width * sx)))
  const height = Math.max(1, Math.min(mask.height - top, Math.round(rect.height * sy)))
  const alpha = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    alpha.set(
      mask.alpha.subarray((top + y) * mask.width + left, (top + y) * mask.width + left + width),
      y * width,
    )
  }
  return { alpha, width, height }
}

/** The product's bounds in the photo's pixels, from the mask (inside at ≥ 128); null when empty. */
export function productBox(
  mask: ProductMask,
  photo: { width: number; height: number },
): { left: number; top: number; width: number; height: number } | null {
  let left = mask.width
  let right = -1
  let top = mask.height
  let bottom = -1
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      if ((mask.alpha[y * mask.width + x] as number) < 128) continue
      if (x < left) left = x
      if (x > right) right = x
      if (y < top) top = y
      if (y > bottom) bottom = y
    }
  }
  if (right < 0) return null
  const sx = photo.width / mask.width
  const sy = photo.height / mask.height
  return { left: left * sx, top: top * sy, width: (right - left + 1) * sx, height: (bottom - top + 1) * sy }
}

/**
 * Where the photo goes so the product, centred, fills `share` of the target along the side
 * where it comes closest to the frame: "cropped to fill". The photo may reach past the frame;
 * what lies outside is only its (white) background, as the product is inside by construction.
 */
export function fillAround(
  box: { left: number; top: number; width: number; height: number },
  photo: { width: number; height: number },
  target: { width: number; height: number },
  share: number,
): RenderedExport['placement'] {
  const scale = Math.min((target.width * share) / box.width, (target.height * share) / box.height)
  const width = Math.max(1, Math.round(photo.width * scale))
  const height = Math.max(1, Math.round(photo.height * scale))
  const centreX = (box.left + box.width / 2) * scale
  const centreY = (box.top + box.height / 2) * scale
  return {
    left: Math.round(target.width / 2 - centreX),
    top: Math.round(target.height / 2 - centreY),
    width,
    height,
  }
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
  // The part of the photo inside the frame (all of it unless cropped to fill).
  const x0 = Math.max(0, -placement.left)
  const x1 = Math.min(placement.width, width - placement.left)
  const y0 = Math.max(0, -placement.top)
  const y1 = Math.min(placement.height, height - placement.top)
  if (x1 <= x0) return canvas
  for (let y = y0; y < y1; y++) {
    rgb.copy(
      canvas,
      ((placement.top + y) * width + placement.left + x0) * 3,
      y * rowBytes + x0 * 3,
      y * rowBytes + x1 * 3,
    )
  }
  return canvas
}

/**
 * Fills the canvas outside the photo by continuing it: top and bottom over the photo's columns
 * first, then left and right over every row (corners included, from the filled rows). Each band
 * is the photo's edge mirrored (a reflection that folds back and forth when the band is deeper
 * than the part of the photo it may mirror), eased into a blurred copy within `fadeShare` of the
 * band; so the backdrop's grain and light go on, and nothing of it is repeated sharply.
 */
async function extendBackground(
  canvas: Buffer,
  width: number,
  height: number,
  placement: RenderedExport['placement'],
) {
  const { left, top } = placement
  const right = left + placement.width
  const bottom = top + placement.height
  if (left <= 0 && top <= 0 && right >= width && bottom >= height) return
  const pixel = (x: number, y: number) => (y * width + x) * 3
  /** Source index for distance d (1, 2, …) past an edge, mirroring within `depth` samples. */
  const mirror = (d: number, depth: number) => {
    const period = 2 * depth
    const m = (d - 1) % period
    return m < depth ? m : period - 1 - m
  }
  // The mirrored depth: a band of the photo near the edge, at most 12 % of it, and ending
  // before the product (or anything else that is not the backdrop) so it is not reflected into
  // the band (a white studio's cup at 88 % fill would be a pink ghost below it).
  const maxVertical = Math.max(1, Math.min(placement.height, Math.round(placement.height * 0.12)))
  const maxHorizontal = Math.max(1, Math.min(placement.width, Math.round(placement.width * 0.12)))
  const across = (along: number, line: number) => pixel(left + along, top + line)
  const down = (along: number, line: number) => pixel(left + line, top + along)
  const topDepth = backdropDepth(canvas, placement.width, maxVertical, (a, i) => across(a, i))
  const bottomDepth = backdropDepth(canvas, placement.width, maxVertical, (a, i) =>
    across(a, placement.height - 1 - i),
  )
  const leftDepth = backdropDepth(canvas, placement.height, maxHorizontal, (a, i) => down(a, i))
  const rightDepth = backdropDepth(canvas, placement.height, maxHorizontal, (a, i) =>
    down(a, placement.width - 1 - i),
  )
  for (let d = 1; d <= top; d++) {
    canvas.copy(
      canvas,
      pixel(left, top - d),
      pixel(left, top + mirror(d, topDepth)),
      pixel(right, top + mirror(d, topDepth)),
    )
  }
  for (let d = 1; d <= height - bottom; d++) {
    const from = bottom - 1 - mirror(d, bottomDepth)
    canvas.copy(canvas, pixel(left, bottom - 1 + d), pixel(left, from), pixel(right, from))
  }
  for (let y = 0; y < height; y++) {
    for (let d = 1; d <= left; d++) {
      canvas.copy(
        canvas,
        pixel(left - d, y),
        pixel(left + mirror(d, leftDepth), y),
        pixel(left + mirror(d, leftDepth), y) + 3,
      )
    }
    for (let d = 1; d <= width - right; d++) {
      const from = right - 1 - mirror(d, rightDepth)
      canvas.copy(canvas, pixel(right - 1 + d, y), pixel(from, y), pixel(from, y) + 3)
    }
  }
  // The blur grows with the band, so a deep band is as soft far out as a shallow one.
  const band = Math.max(top, height - bottom, left, width - right)
  const sigma = Math.max(2, band * extendBlur.sigmaShare)
  const blurred = await sharp(canvas, { raw: { width, height, channels: 3 } })
    .blur({ sigma, precision: 'float' })
    .raw()
    .toBuffer()
  const fade = Math.max(4, Math.round(band * extendBlur.fadeShare))
  for (let y = 0; y < height; y++) {
    const dy = y < top ? top - y : y >= bottom ? y - bottom + 1 : 0
    for (let x = 0; x < width; x++) {
      const dx = x < left ? left - x : x >= right ? x - right + 1 : 0
      const d = Math.max(dx, dy)
      if (d === 0) continue
      const s = Math.min(1, d / fade)
      const t = s * s * (3 - 2 * s)
      const o = pixel(x, y)
      for (let c = 0; c < 3; c++) {
        canvas[o + c] = Math.round((canvas[o + c] as number) * (1 - t) + (blurred[o + c] as number) * t)
      }
    }
  }
}

/**
 * How many lines in from an edge the photo is still its backdrop (at least 8, at most
 * `maxDepth`): lines are compared with the edge line in blocks of a sixteenth of its length,
 * after taking out the line's overall change (a plank seam or a light gradient darkens the
 * whole line and is backdrop); a block that moves more than 20 levels apart from the rest (or
 * 2.5 times what the backdrop's own texture moves in its first lines) is
 * something standing in front of the backdrop, and the depth stops well short of where it was
 * seen (its first, faint rows are not yet 20 levels). `at(along, line)` is a pixel's byte offset.
 */
function backdropDepth(
  canvas: Buffer,
  length: number,
  maxDepth: number,
  at: (along: number, line: number) => number,
): number {
  const blocks = Math.max(1, Math.min(16, length))
  const means = (line: number) => {
    const sums = new Float64Array(blocks * 3)
    const counts = new Float64Array(blocks)
    for (let a = 0; a < length; a++) {
      const b = Math.min(blocks - 1, Math.floor((a * blocks) / length))
      const o = at(a, line)
      for (let c = 0; c < 3; c++) sums[b * 3 + c] = (sums[b * 3 + c] as number) + (canvas[o + c] as number)
      counts[b] = (counts[b] as number) + 1
    }
    for (let b = 0; b < blocks; b++)
      for (let c = 0; c < 3; c++) sums[b * 3 + c] = (sums[b * 3 + c] as number) / (counts[b] as number)
    return sums
  }
  const edge = means(0)
  /** The largest move of one block apart from the line's overall change. */
  const movedAt = (line: number) => {
    const current = means(line)
    const shift = [0, 0, 0]
    for (let b = 0; b < blocks; b++)
      for (let c = 0; c < 3; c++)
        shift[c] =
          (shift[c] as number) + ((current[b * 3 + c] as number) - (edge[b * 3 + c] as number)) / blocks
    let largest = 0
    for (let b = 0; b < blocks; b++)
      for (let c = 0; c < 3; c++)
        largest = Math.max(
          largest,
          Math.abs((current[b * 3 + c] as number) - (edge[b * 3 + c] as number) - (shift[c] as number)),
        )
    return largest
  }
  // A textured backdrop (wood grain, foliage) moves by itself within its first lines: the limit
  // follows that, so only something clearly apart from it stops the depth.
  let texture = 0
  for (let line = 1; line <= Math.min(4, maxDepth - 1); line++) texture = Math.max(texture, movedAt(line))
  const limit = Math.max(20, texture * 2.5)
  for (let line = 1; line < maxDepth; line++) {
    if (movedAt(line) > limit) return Math.max(Math.min(8, maxDepth), Math.floor(line * 0.7))
  }
  return maxDepth
}

/** How soft an extension gets: the blur's sigma and the ease into it, as shares of the band's depth. */
export const extendBlur = { sigmaShare: 0.04, fadeShare: 0.25 } as const

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
