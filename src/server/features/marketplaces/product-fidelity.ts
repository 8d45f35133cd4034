import sharp from 'sharp'
import { summariseMask } from '#server/segmentation/mask-math.ts'
import { isCredible, type Segmenter } from '#server/segmentation/segmenter.ts'
import type { ProductFidelity } from '#shared/marketplaces/facts.ts'
import { deltaE2000, gaussianBlur, type Lab, luma, srgbToLab, ssimMap } from './image-similarity.ts'
import { measureSide, type ProductMask } from './measure-image.ts'

// Did an AI edit change the product itself (its label, logo, shape or colour)? The seller's
// photo and the result are each segmented (the result's mask comes from its inspection, so it is
// not segmented twice), cropped to the product's bounding box and scaled to one size, and then
// compared inside the part both outlines cover: SSIM on luminance for structure (a label's text
// or a logo), CIEDE2000 for colour, and the outlines' overlap for shape. The thresholds are
// calibrated on test images (product-fidelity.test.ts; docs/decisions/0026-product-fidelity-check.md).

/** The crops are compared on a canvas of this side squared in area: enough for a label's lines, small enough for ~10 ms of SSIM. */
export const fidelitySide = 256
/** Colour is compared between the mean colours of blocks this size, so a one-pixel misalignment of an edge does not count as a colour change. */
export const colourBlock = 8

/**
 * Past any of these the product counts as changed, chosen on the calibration set
 * (tests/support/fidelity-cases.ts; figures in docs/decisions/0026-product-fidelity-check.md):
 * the kept products scored structure ≥ 0.84, colour ≤ 5.3 and shape ≥ 0.96; the changed ones
 * structure ≤ 0.48 (a recoloured ink keeps its structure, 0.84, and is caught by colour), colour
 * ≥ 18.2, and the stretched body shape 0.84. Each threshold sits near the middle of its gap.
 */
export const fidelityThresholds = { minStructure: 0.65, maxColourDelta: 11, minShape: 0.9 } as const

/** An image's pixels (RGB) and the product's mask (0–255) at the same size. */
export type ProductView = { rgb: Uint8Array; mask: Uint8Array; width: number; height: number }

type Box = { left: number; top: number; width: number; height: number }

/** The bounding box of the mask's inside (≥ 128); null when empty. */
export function maskBox(mask: Uint8Array, width: number, height: number): Box | null {
  let left = width
  let right = -1
  let top = height
  let bottom = -1
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((mask[y * width + x] as number) < 128) continue
      if (x < left) left = x
      if (x > right) right = x
      if (y < top) top = y
      if (y > bottom) bottom = y
    }
  }
  return right < 0 ? null : { left, top, width: right - left + 1, height: bottom - top + 1 }
}

/** Rec. 601 luma of every pixel of an RGB picture. */
function lumaPlane(rgb: Uint8Array, width: number, height: number): Float32Array {
  const out = new Float32Array(width * height)
  for (let i = 0; i < out.length; i++) {
    out[i] = luma(rgb[i * 3] as number, rgb[i * 3 + 1] as number, rgb[i * 3 + 2] as number)
  }
  return out
}

/** Bilinear sample of `plane` (width×height, `channels` bytes a pixel) at (x, y); edges repeat. */
function sample(
  plane: Uint8Array,
  width: number,
  height: number,
  x: number,
  y: number,
  channels = 1,
  channel = 0,
): number {
  const cx = Math.min(Math.max(x, 0), width - 1)
  const cy = Math.min(Math.max(y, 0), height - 1)
  const x0 = cx | 0
  const y0 = cy | 0
  const x1 = x0 + 1 < width ? x0 + 1 : x0
  const y1 = y0 + 1 < height ? y0 + 1 : y0
  const fx = cx - x0
  const fy = cy - y0
  const p00 = plane[(y0 * width + x0) * channels + channel] as number
  const p01 = plane[(y0 * width + x1) * channels + channel] as number
  const p10 = plane[(y1 * width + x0) * channels + channel] as number
  const p11 = plane[(y1 * width + x1) * channels + channel] as number
  const top = p00 + (p01 - p00) * fx
  return top + (p10 + (p11 - p10) * fx - top) * fy
}

/** original → result coordinates: (x, y) ↦ (scale·x + dx, scale·y + dy). */
export type Alignment = { scale: number; dx: number; dy: number }

function centroidAndArea(mask: Uint8Array, width: number, height: number) {
  let sx = 0
  let sy = 0
  let n = 0
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((mask[y * width + x] as number) < 128) continue
      sx += x
      sy += y
      n++
    }
  }
  return { x: sx / n, y: sy / n, area: n }
}

/**
 * Where the original's product lies in the result: the scale and shift that best match the
 * original's product pixels (luminance, normalised cross-correlation, so a relit scene still
 * matches) with the result's. Starts from the masks' sizes and centres (which shadows and
 * reflections in the result's mask pull off a little), then searches coarse and fine around it.
 */
export function alignProducts(original: ProductView, result: ProductView, boxA: Box, boxB: Box): Alignment {
  const a = centroidAndArea(original.mask, original.width, original.height)
  const b = centroidAndArea(result.mask, result.width, result.height)
  const guesses = [boxB.width / boxA.width, boxB.height / boxA.height, Math.sqrt(b.area / a.area)].sort(
    (x, y) => x - y,
  )
  const scale0 = guesses[1] as number
  const lumaA = lumaPlane(original.rgb, original.width, original.height)
  const lumaB = lumaPlane(result.rgb, result.width, result.height)
  // About 3,000 points of the original's product on a grid.
  const step = Math.max(1, Math.sqrt(a.area / 3000))
  const xList: number[] = []
  const yList: number[] = []
  const valueList: number[] = []
  for (let y = boxA.top; y < boxA.top + boxA.height; y += step) {
    for (let x = boxA.left; x < boxA.left + boxA.width; x += step) {
      const xi = Math.round(x)
      const yi = Math.round(y)
      if ((original.mask[yi * original.width + xi] as number) < 128) continue
      xList.push(xi)
      yList.push(yi)
      valueList.push(lumaA[yi * original.width + xi] as number)
    }
  }
  const xs = Float64Array.from(xList)
  const ys = Float64Array.from(yList)
  const values = Float64Array.from(valueList)
  const count = values.length
  let meanA = 0
  for (const v of values) meanA += v / count
  let normA = 0
  for (const v of values) normA += (v - meanA) ** 2
  const score = (t: Alignment): number => {
    let sum = 0
    let sumSq = 0
    let cross = 0
    const w = result.width
    const maxX = w - 1
    const maxY = result.height - 1
    for (let i = 0; i < count; i++) {
      // Bilinear, inlined: this loop runs about a million times per comparison.
      let x = t.scale * (xs[i] as number) + t.dx
      let y = t.scale * (ys[i] as number) + t.dy
      x = Math.min(Math.max(x, 0), maxX)
      y = Math.min(Math.max(y, 0), maxY)
      const x0 = x | 0
      const y0 = y | 0
      const x1 = x0 < maxX ? x0 + 1 : x0
      const y1 = y0 < maxY ? y0 + 1 : y0
      const fx = x - x0
      const fy = y - y0
      const p00 = lumaB[y0 * w + x0] as number
      const p01 = lumaB[y0 * w + x1] as number
      const p10 = lumaB[y1 * w + x0] as number
      const p11 = lumaB[y1 * w + x1] as number
      const top = p00 + (p01 - p00) * fx
      const v = top + (p10 + (p11 - p10) * fx - top) * fy
      sum += v
      sumSq += v * v
      cross += v * ((values[i] as number) - meanA)
    }
    const normB = sumSq - (sum * sum) / count
    return normA > 0 && normB > 0 ? cross / Math.sqrt(normA * normB) : -1
  }
  const around = (scale: number) => ({ scale, dx: b.x - scale * a.x, dy: b.y - scale * a.y })
  let best = around(scale0)
  let bestScore = score(best)
  // Coarse: scale ±15 % in 2.5 % steps, shifts up to 8 % of the product's size; then fine.
  const rounds = [
    { scales: 6, scaleStep: 0.025, shifts: 4, shiftStep: (boxB.width + boxB.height) / 2 / 50 },
    { scales: 2, scaleStep: 0.01, shifts: 2, shiftStep: Math.max(0.5, (boxB.width + boxB.height) / 2 / 200) },
  ]
  for (const round of rounds) {
    const centre = best
    for (let si = -round.scales; si <= round.scales; si++) {
      const scale = centre.scale * (1 + si * round.scaleStep)
      // Scaling about the product's centre keeps the shift search centred.
      const base =
        round === rounds[0]
          ? around(scale)
          : {
              scale,
              dx: centre.dx + (centre.scale - scale) * a.x,
              dy: centre.dy + (centre.scale - scale) * a.y,
            }
      for (let yi = -round.shifts; yi <= round.shifts; yi++) {
        for (let xi = -round.shifts; xi <= round.shifts; xi++) {
          const t = { scale, dx: base.dx + xi * round.shiftStep, dy: base.dy + yi * round.shiftStep }
          const value = score(t)
          if (value > bestScore) {
            bestScore = value
            best = t
          }
        }
      }
    }
  }
  return best
}

/** A little room around the original's product box, so a result's product that grew is seen whole. */
const canvasMargin = 0.12

/**
 * Compares the product in `result` with the product in `original`: the result is aligned to the
 * original (alignProducts), then both are sampled on one canvas around the original's product
 * (`fidelitySide`² in area). Structure is SSIM on luminance, smoothed by one product pixel, and
 * colour CIEDE2000 between block means, both inside the part both outlines cover less its
 * outline band (`outlineBand`), each summarised by its worst blocks (a changed label is a small part of a product); shape is the outlines'
 * intersection over union, a pixel apart counted as agreeing (tolerantOverlap).
 * Null when either mask is empty.
 */
export async function compareProducts(
  original: ProductView,
  result: ProductView,
): Promise<ProductFidelity | null> {
  const boxA = maskBox(original.mask, original.width, original.height)
  const boxB = maskBox(result.mask, result.width, result.height)
  if (!boxA || !boxB) return null
  const t = alignProducts(original, result, boxA, boxB)
  const marginX = boxA.width * canvasMargin
  const marginY = boxA.height * canvasMargin
  const spanX = boxA.width + 2 * marginX
  const spanY = boxA.height + 2 * marginY
  // As many canvas pixels as a 256² square, so a thin product (a pen) is not a strip a few
  // pixels wide; its long side at most four times that.
  const k = Math.min((4 * fidelitySide) / Math.max(spanX, spanY), fidelitySide / Math.sqrt(spanX * spanY))
  // One pixel of the coarser of the two products, in canvas pixels: finer detail is the photo's
  // grain and the resampling's, not the product's, and the two outlines may part by as much.
  const pixel = k * Math.max(1, 1 / t.scale)
  const width = Math.max(colourBlock, Math.round(spanX * k))
  const height = Math.max(colourBlock, Math.round(spanY * k))
  const n = width * height
  const rgbA = new Uint8Array(n * 3)
  const rgbB = new Uint8Array(n * 3)
  const both = new Uint8Array(n)
  const maskA = new Uint8Array(n)
  const maskB = new Uint8Array(n)
  let inter = 0
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const i = v * width + u
      const xo = boxA.left - marginX + (u + 0.5) / k - 0.5
      const yo = boxA.top - marginY + (v + 0.5) / k - 0.5
      const xr = t.scale * xo + t.dx
      const yr = t.scale * yo + t.dy
      const inA = sample(original.mask, original.width, original.height, xo, yo) >= 128
      const inB = sample(result.mask, result.width, result.height, xr, yr) >= 128
      for (let c = 0; c < 3; c++) {
        rgbA[i * 3 + c] = sample(original.rgb, original.width, original.height, xo, yo, 3, c)
        rgbB[i * 3 + c] = sample(result.rgb, result.width, result.height, xr, yr, 3, c)
      }
      if (inA) maskA[i] = 1
      if (inB) maskB[i] = 1
      if (inA && inB) {
        both[i] = 1
        inter++
      }
    }
  }
  const shape = tolerantOverlap(maskA, maskB, width, height, Math.max(1, Math.round(pixel)))
  if (inter === 0) return { structure: 0, colourDelta: 100, shape, changed: true }

  // Luminance, with everything outside the shared part set to that part's mean in each picture,
  // so the two backgrounds (which an edit is meant to change) do not enter the windows.
  const lumaOf = (rgb: Uint8Array) => {
    const out = lumaPlane(rgb, width, height)
    let sum = 0
    for (let i = 0; i < n; i++) if (both[i]) sum += out[i] as number
    const mean = sum / inter
    for (let i = 0; i < n; i++) if (!both[i]) out[i] = mean
    return out
  }
  const smooth = (plane: Float32Array) => gaussianBlur(plane, width, height, Math.max(0.5, pixel))
  const map = ssimMap(smooth(lumaOf(rgbA)), smooth(lumaOf(rgbB)), width, height)
  // Structure and colour inside the product: its outline band is the cut's (a soft matte, colour
  // taken off the old backdrop, the resampling), and the outline is the shape's to judge.
  const inner = erode(both, width, height, Math.max(1, Math.round(pixel * outlineBand)))
  const structure = worstBlocks(map, inner, width, height, structureBlock, worstShare, 'low')
  const colour = blockColourDeltas(rgbA, rgbB, inner, width, height)
  const colourDelta = worstOf(colour, worstShare, 'high')
  const changed =
    structure < fidelityThresholds.minStructure ||
    colourDelta > fidelityThresholds.maxColourDelta ||
    shape < fidelityThresholds.minShape
  return { structure: round(structure), colourDelta: round(colourDelta), shape: round(shape), changed }
}

/**
 * Intersection over union of two outlines (0/1 per pixel), where a pixel only one of them holds
 * still agrees when the other's outline is within `tolerance` pixels: two segmentations of the
 * same product part by about a pixel, which is nothing on a cup and a tenth of a pen.
 */
export function tolerantOverlap(
  a: Uint8Array,
  b: Uint8Array,
  width: number,
  height: number,
  tolerance: number,
): number {
  const nearA = dilate(a, width, height, tolerance)
  const nearB = dilate(b, width, height, tolerance)
  let union = 0
  let apart = 0
  for (let i = 0; i < a.length; i++) {
    if (!a[i] && !b[i]) continue
    union++
    if ((a[i] && !nearB[i]) || (b[i] && !nearA[i])) apart++
  }
  return union === 0 ? 0 : 1 - apart / union
}

/** Product pixels, of the coarser product, left out along the shared outline for structure and colour. */
export const outlineBand = 2

/** The set pixels of `mask` shrunk by `radius` pixels (a square), as a new mask. */
function erode(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const outside = dilate(
    mask.map((value) => (value ? 0 : 1)),
    width,
    height,
    radius,
  )
  return outside.map((value) => (value ? 0 : 1))
}

/** The set pixels of `mask` grown by `radius` pixels (a square), as a new mask. */
function dilate(mask: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  // A square is a row's dilation followed by a column's: each marks what lies within `radius` of
  // a set pixel before or after it on its line.
  const line = (
    source: Uint8Array,
    count: number,
    length: number,
    at: (line: number, i: number) => number,
  ) => {
    const out = new Uint8Array(source.length)
    for (let l = 0; l < count; l++) {
      let last = -Infinity
      for (let i = 0; i < length; i++) {
        const index = at(l, i)
        if (source[index]) last = i
        if (i - last <= radius) out[index] = 1
      }
      last = Infinity
      for (let i = length - 1; i >= 0; i--) {
        const index = at(l, i)
        if (source[index]) last = i
        if (last - i <= radius) out[index] = 1
      }
    }
    return out
  }
  const rows = line(mask, height, width, (y, x) => y * width + x)
  return line(rows, width, height, (x, y) => y * width + x)
}

/** Structure is summarised over 16-px blocks of the canvas, colour over `colourBlock` ones: the worst 5 % of each. */
export const structureBlock = 16
export const worstShare = 0.05

/** The mean of the worst `share` of the values (the lowest, or the highest). */
function worstOf(values: number[], share: number, side: 'low' | 'high'): number {
  if (values.length === 0) return side === 'low' ? 1 : 0
  const sorted = [...values].sort((x, y) => (side === 'low' ? x - y : y - x))
  const take = Math.max(1, Math.round(sorted.length * share))
  let sum = 0
  for (let i = 0; i < take; i++) sum += sorted[i] as number
  return sum / take
}

/** Per-block means of `map` over blocks at least half inside `region`, summarised by the worst share. */
function worstBlocks(
  map: Float64Array,
  region: Uint8Array,
  width: number,
  height: number,
  block: number,
  share: number,
  side: 'low' | 'high',
): number {
  const means: number[] = []
  for (let by = 0; by < height; by += block) {
    for (let bx = 0; bx < width; bx += block) {
      let sum = 0
      let inside = 0
      let pixels = 0
      for (let y = by; y < Math.min(height, by + block); y++) {
        for (let x = bx; x < Math.min(width, bx + block); x++) {
          pixels++
          const i = y * width + x
          if (!region[i]) continue
          inside++
          sum += map[i] as number
        }
      }
      if (inside * 2 >= pixels) means.push(sum / inside)
    }
  }
  return worstOf(means, share, side)
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000
}

/**
 * CIEDE2000 differences between the two pictures' mean colours in `colourBlock`-sized blocks,
 * for the blocks at least half inside `region` (each mean taken over its pixels inside it).
 */
export function blockColourDeltas(
  a: Uint8Array,
  b: Uint8Array,
  region: Uint8Array,
  width: number,
  height: number,
): number[] {
  const deltas: number[] = []
  for (let by = 0; by < height; by += colourBlock) {
    for (let bx = 0; bx < width; bx += colourBlock) {
      const sumA = [0, 0, 0]
      const sumB = [0, 0, 0]
      let inside = 0
      let pixels = 0
      for (let y = by; y < Math.min(height, by + colourBlock); y++) {
        for (let x = bx; x < Math.min(width, bx + colourBlock); x++) {
          pixels++
          const i = y * width + x
          if (!region[i]) continue
          inside++
          for (let c = 0; c < 3; c++) {
            sumA[c] = (sumA[c] as number) + (a[i * 3 + c] as number)
            sumB[c] = (sumB[c] as number) + (b[i * 3 + c] as number)
          }
        }
      }
      if (inside * 2 < pixels) continue
      const mean = (sum: number[]): Lab =>
        srgbToLab((sum[0] as number) / inside, (sum[1] as number) / inside, (sum[2] as number) / inside)
      deltas.push(deltaE2000(mean(sumA), mean(sumB)))
    }
  }
  return deltas
}

/** An image decoded upright at most `measureSide` on its long side, as the inspection segments it (RGB). */
export async function decodeForMeasure(
  bytes: Buffer,
): Promise<{ rgb: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(bytes, { failOn: 'error' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width: measureSide, height: measureSide, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return { rgb: data, width: info.width, height: info.height }
}

/** The seller's photo with its product found by the segmenter; null when the mask is not credible. */
export async function productViewOf(
  bytes: Buffer,
  segmenter: Pick<Segmenter, 'segment'>,
): Promise<ProductView | null> {
  const { rgb, width, height } = await decodeForMeasure(bytes)
  const segmentation = await segmenter.segment({ data: rgb, width, height, channels: 3 })
  if (segmentation.alpha.length !== width * height) return null
  const summary = summariseMask(segmentation.alpha, width, height)
  if (!isCredible({ ...summary, confidence: segmentation.confidence })) return null
  return { rgb, mask: segmentation.alpha, width, height }
}

/**
 * The fidelity of a result to the seller's photo: `original` as its product view (null when its
 * mask was not credible), the result's bytes and the mask its inspection made (null when not
 * credible). Null when either product could not be found.
 */
export async function measureProductFidelity(
  original: ProductView | null,
  result: { bytes: Buffer; mask: ProductMask | null },
): Promise<ProductFidelity | null> {
  if (!original || !result.mask) return null
  const decoded = await decodeForMeasure(result.bytes)
  if (decoded.width !== result.mask.width || decoded.height !== result.mask.height) return null
  return compareProducts(original, { ...decoded, mask: result.mask.alpha })
}
