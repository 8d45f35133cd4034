import sharp from 'sharp'
import { boxMeans, guidedFilter, upsampleBilinear } from '#server/segmentation/mask-math.ts'
import { maskIoU } from '#server/segmentation/metrics.ts'
import { isCredible, type Segmenter } from '#server/segmentation/segmenter.ts'

// Background separation, exact where it can be: an upload's own transparency, or a flood fill
// over a plain backdrop (estimate the backdrop colour from the border, fill from the border over
// pixels near that colour, drop specks, feather the edge). On a busy backdrop (a wooden table, a
// bed sheet) the segmentation model finds the product instead. When neither gives a believable
// product the whole photo is kept (as a card with rounded corners) rather than shipping a
// half-eaten product.

/**
 * Decoded, upright pixels (RGBA) of a photo, downscaled so the slow JS passes stay fast.
 * `source`: the photo's own bytes and upright size when it is larger than `data`, so the cut can
 * be made at the photo's own resolution (cutAtScale).
 */
export type Photo = {
  data: Buffer
  width: number
  height: number
  hasAlpha: boolean
  source?: { bytes: Buffer; width: number; height: number }
}

/**
 * The subject cut to its bounds, RGBA; `isSeparated` false means the whole photo as a card.
 * `separatedBy` says how: its plain backdrop (or its own transparency), or the model.
 */
export type Subject = {
  data: Buffer
  width: number
  height: number
  isSeparated: boolean
  separatedBy: 'backdrop' | 'model' | null
  /** Where the cut lies in the photo it was cut from (for laying the original back over it). */
  box: SubjectBox
}

/**
 * The cut's top-left corner in the photo at the resolution the cut was made at, and that photo's
 * size at that resolution (the working size, or larger: see cutAtScale).
 */
export type SubjectBox = { left: number; top: number; photoWidth: number; photoHeight: number }

/**
 * Longest side the separation (flood fill, specks, the model) works on. The cut itself is then
 * made at the photo's own resolution, up to maxCutSide (cutAtScale), with the mask scaled up and
 * snapped to the photo's edges there.
 */
export const workingSide = 1600

/**
 * Longest side of a cut: the long side of the largest result (2048, resultSizes in
 * composite.ts); no stage draws a product larger, so more of the photo's pixels would be waste.
 */
export const maxCutSide = 2048

/**
 * Decodes any supported image, applies its EXIF orientation and shrinks it early (JPEG
 * shrink-on-load makes a 12-megapixel photo cheap to open at this size).
 */
export async function loadPhoto(bytes: Buffer, maxSide = workingSide): Promise<Photo> {
  const image = sharp(bytes, { failOn: 'error' })
  const metadata = await image.metadata()
  const { data, info } = await image
    .rotate()
    .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const photo: Photo = { data, width: info.width, height: info.height, hasAlpha: metadata.hasAlpha === true }
  // EXIF orientations 5–8 turn the photo a quarter: its upright width is the stored height.
  const isTurned = (metadata.orientation ?? 1) >= 5
  const width = (isTurned ? metadata.height : metadata.width) ?? info.width
  const height = (isTurned ? metadata.width : metadata.height) ?? info.height
  if (width > info.width) photo.source = { bytes, width, height }
  return photo
}

/**
 * What the separation found; exported for tests and the dominant-colour estimate. `fromAlpha`:
 * the mask is the upload's own transparency (exact, nothing to check).
 */
export type SeparationMask = {
  mask: Uint8Array
  isSeparated: boolean
  backdrop: [number, number, number]
  fromAlpha: boolean
}

/**
 * A binary foreground mask (255 = subject) for the photo, or `isSeparated: false` when the
 * backdrop is not plain enough or the mask covers almost all or almost none of the photo.
 */
export async function findSubjectMask(photo: Photo): Promise<SeparationMask> {
  const { width, height } = photo
  const total = width * height
  const alphaMask = photo.hasAlpha ? maskFromAlpha(photo) : null
  if (alphaMask) return { mask: alphaMask, isSeparated: true, backdrop: [255, 255, 255], fromAlpha: true }

  // Colours are compared on a slightly blurred copy: sensor and JPEG noise would otherwise
  // stop the fill at random pixels or force a tolerance loose enough to eat into the product.
  const data = await sharp(photo.data, { raw: { width, height, channels: 4 } })
    .removeAlpha()
    .blur(1.2)
    .raw()
    .toBuffer()
  const border = borderIndices(width, height)
  const backdrop = medianColour(data, border)
  const distances = border.map((i) => Math.sqrt(squaredDistance(data, i * 3, backdrop))).sort((a, b) => a - b)
  // The tolerance follows how much the backdrop itself varies (vignette, uneven light), within
  // bounds found by measurement: 28–36 separated a noisy studio shot best (IoU 0.93–0.95).
  const spread = distances[Math.floor(distances.length * 0.9)] ?? 0
  const tolerance = Math.min(56, Math.max(24, 14 + spread * 1.3))
  const plainShare = distances.filter((d) => d <= tolerance).length / distances.length
  const fail = { mask: new Uint8Array(total), isSeparated: false, backdrop, fromAlpha: false }
  // A border that is mostly not one colour is a scene, not a backdrop.
  if (plainShare < 0.65) return fail

  // Beyond the tolerance the fill may still creep on through small steps: a vignetted or
  // unevenly lit backdrop changes slowly, while a product's edge is a step. The step limit
  // follows the backdrop's own pixel-to-pixel noise.
  const step = Math.min(14, Math.max(6, 4 + 3 * neighbourNoise(data, width, height)))
  const stepLimit = step * step
  const limit = tolerance * tolerance
  const looseLimit = Math.min(150, tolerance * 3) ** 2
  const mask = new Uint8Array(total).fill(255)
  const queue = new Int32Array(total)
  let head = 0
  let tail = 0
  for (const i of border) {
    if (mask[i] === 255 && squaredDistance(data, i * 3, backdrop) <= limit) {
      mask[i] = 0
      queue[tail++] = i
    }
  }
  // Plain loops, no closures: this runs for every pixel of a 2-megapixel photo.
  const [br, bg, bb] = backdrop
  while (head < tail) {
    const i = queue[head++] as number
    const x = i % width
    const ir = data[i * 3] as number
    const ig = data[i * 3 + 1] as number
    const ib = data[i * 3 + 2] as number
    for (let n = 0; n < 4; n++) {
      let j: number
      if (n === 0) {
        if (x === 0) continue
        j = i - 1
      } else if (n === 1) {
        if (x === width - 1) continue
        j = i + 1
      } else if (n === 2) {
        if (i < width) continue
        j = i - width
      } else {
        if (i >= total - width) continue
        j = i + width
      }
      if (mask[j] !== 255) continue
      const o = j * 3
      const r = data[o] as number
      const g = data[o + 1] as number
      const b = data[o + 2] as number
      const fromBackdrop = (r - br) ** 2 + (g - bg) ** 2 + (b - bb) ** 2
      const fromNeighbour = (r - ir) ** 2 + (g - ig) ** 2 + (b - ib) ** 2
      if (fromBackdrop <= limit || (fromNeighbour <= stepLimit && fromBackdrop <= looseLimit)) {
        mask[j] = 0
        queue[tail++] = j
      }
    }
  }
  dropSpecks(mask, width, height)

  let foreground = 0
  for (let i = 0; i < total; i++) if (mask[i] === 255) foreground++
  const share = foreground / total
  if (share < 0.01 || share > 0.92) return fail
  return { mask, isSeparated: true, backdrop, fromAlpha: false }
}

/** Median colour difference between horizontal neighbours along the top and bottom rows. */
function neighbourNoise(data: Buffer, width: number, height: number): number {
  const steps: number[] = []
  for (const y of [1, height - 2]) {
    for (let x = 1; x < width; x++) {
      const o = (y * width + x) * 3
      steps.push(
        Math.abs((data[o] as number) - (data[o - 3] as number)) +
          Math.abs((data[o + 1] as number) - (data[o - 2] as number)) +
          Math.abs((data[o + 2] as number) - (data[o - 1] as number)),
      )
    }
  }
  steps.sort((a, b) => a - b)
  return steps[Math.floor(steps.length / 2)] ?? 0
}

/**
 * Below this overlap with the model's mask a flood fill is not trusted: on the rocket photo
 * (tests/fixtures/photos/rocket.jpg) it took the dark sky for a backdrop and kept lamps and
 * towers (overlap 0.31); on plain studio backdrops the two agree at 0.93–0.99.
 */
const minAgreement = 0.8

/**
 * The subject with a soft edge, cropped to its bounds; or the whole photo with rounded corners
 * when separation failed. An upload's own transparency is used as it is. Otherwise the flood
 * fill's exact edge is used where the model agrees with it, the model's mask where the flood
 * fill failed or disagrees, and the card where neither is believable. Without a segmenter only
 * plain backdrops and transparency separate.
 */
export async function separateSubject(photo: Photo, segmenter?: Segmenter): Promise<Subject> {
  const found = await findSubjectMask(photo)
  if (found.isSeparated && (found.fromAlpha || !segmenter)) return cutAlongBackdrop(photo, found.mask)
  if (!segmenter) return photoCard(photo)
  const segmentation = await segmenter.segment({
    data: photo.data,
    width: photo.width,
    height: photo.height,
    channels: 4,
  })
  const isModelCredible = isCredible(segmentation)
  if (found.isSeparated && !isModelCredible) return cutAlongBackdrop(photo, found.mask)
  if (found.isSeparated && maskIoU(found.mask, segmentation.alpha) >= minAgreement) {
    dropCastShadow(photo, found.mask, found.backdrop, segmentation.alpha)
    return cutAlongBackdrop(photo, found.mask)
  }
  return isModelCredible ? cutAlongMask(photo, segmentation.alpha) : photoCard(photo)
}

/**
 * A garment laid flat or a product lit from one side casts a soft shadow on its backdrop. The
 * flood fill stops at it (it is darker than the backdrop), so it would travel with the subject
 * and show as a grey halo on the new scene. Pixels the flood fill kept that the model calls
 * background and that are the backdrop's own colour, only darker, are that shadow: they go back
 * to the backdrop. Parts the model misses but that are not shadow-coloured (a thin handle in
 * another colour) stay, so the flood fill's exact edge is kept everywhere else.
 */
function dropCastShadow(
  photo: Photo,
  mask: Uint8Array,
  backdrop: [number, number, number],
  alpha: Uint8Array,
): void {
  const [br, bg, bb] = backdrop
  const backdropSum = Math.max(1, br + bg + bb)
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] !== 255 || (alpha[i] as number) >= shadowModelAlpha) continue
    const r = photo.data[i * 4] as number
    const g = photo.data[i * 4 + 1] as number
    const b = photo.data[i * 4 + 2] as number
    const sum = r + g + b
    // A shadow darkens the backdrop without changing its hue: the same chromaticity, less light.
    if (sum === 0 || sum > backdropSum * 1.02) continue
    const chroma = Math.abs(r / sum - br / backdropSum) + Math.abs(g / sum - bg / backdropSum)
    if (chroma + Math.abs(b / sum - bb / backdropSum) <= shadowChroma) mask[i] = 0
  }
  dropSpecks(mask, photo.width, photo.height)
}

/** Below this model alpha a pixel is background to the model (0–255). */
const shadowModelAlpha = 96
/** Largest chromaticity difference (sum over r, g, b shares) between a shadow and its backdrop. */
const shadowChroma = 0.06

/**
 * Cut along the model's soft mask (already snapped to the photo's edges at the working size, see
 * segmentation/mask-math.ts), made again at the photo's own resolution by cutAtScale.
 */
function cutAlongMask(photo: Photo, alpha: Uint8Array): Promise<Subject> {
  return cutAtScale(photo, alpha, boundsOf(alpha, photo.width, photo.height, 1), 'model')
}

/** Cut along the flood fill's hard mask, its edge found in the photo by cutAtScale. */
function cutAlongBackdrop(photo: Photo, mask: Uint8Array): Promise<Subject> {
  return cutAtScale(photo, mask, boundsOf(mask, photo.width, photo.height), 'backdrop')
}

/**
 * How the mask found at the working size becomes the cut's alpha at full resolution (decision
 * 43): the guided filter's fit (on the working-size grid, where the mask's information is; its
 * coefficients applied to every pixel of the full-size photo), the band around the mask's
 * outline where it may move the edge (in working pixels), and the ramp that clears the faint
 * haze the filter leaves while keeping the edge's true softness.
 */
export const cutRefinement = { radius: 2, epsilon: 0.0004, band: 2, ramp: [0.2, 0.8] as const }

/** How much larger than the working size the cut of `box` is made: the photo's own pixels, up to maxCutSide. */
export function cutScale(
  photo: Photo,
  box: { left: number; top: number; right: number; bottom: number },
): number {
  if (!photo.source) return 1
  const native = photo.source.width / photo.width
  const boxSide = Math.max(box.right - box.left + 1, box.bottom - box.top + 1)
  return Math.max(1, Math.min(native, maxCutSide / boxSide))
}

/**
 * The subject cut at the photo's own resolution (up to maxCutSide), not at the working size the
 * mask was found at: the mask (hard from the flood fill, soft from the model) is scaled up and
 * snapped to the full-size photo's edges with a guided filter, so the outline follows the photo
 * instead of a blurred upscale, anti-aliased edges keep their true softness, and thin parts (a
 * spoon's handle) keep the width they have in the photo. Edge colours are then freed of the old
 * backdrop (decontaminate).
 */
async function cutAtScale(
  photo: Photo,
  mask: Uint8Array,
  box: ReturnType<typeof boundsOf>,
  separatedBy: 'backdrop' | 'model',
): Promise<Subject> {
  const scale = cutScale(photo, box)
  const band = cutRefinement.band
  // Room around the subject for the band the edge may move in.
  const pad = band + 2
  const left = Math.max(0, box.left - pad)
  const top = Math.max(0, box.top - pad)
  const cropWidth = Math.min(photo.width, box.right + pad + 1) - left
  const cropHeight = Math.min(photo.height, box.bottom + pad + 1) - top
  const coarse = new Float32Array(cropWidth * cropHeight)
  for (let y = 0; y < cropHeight; y++) {
    for (let x = 0; x < cropWidth; x++) {
      const source = (y + top) * photo.width + x + left
      coarse[y * cropWidth + x] = Math.min(mask[source] as number, photo.data[source * 4 + 3] as number) / 255
    }
  }

  const fullWidth = Math.round(photo.width * scale)
  const fullHeight = Math.round(photo.height * scale)
  const fullLeft = Math.round(left * scale)
  const fullTop = Math.round(top * scale)
  const width = Math.min(fullWidth, Math.round((left + cropWidth) * scale)) - fullLeft
  const height = Math.min(fullHeight, Math.round((top + cropHeight) * scale)) - fullTop
  const rgba =
    scale === 1
      ? cropRgba(photo, left, top, width, height)
      : await sharp(photo.source?.bytes, { failOn: 'error' })
          .rotate()
          .resize(fullWidth, fullHeight, { fit: 'fill', kernel: 'lanczos3' })
          .extract({ left: fullLeft, top: fullTop, width, height })
          .toColourspace('srgb')
          .ensureAlpha()
          .raw()
          .toBuffer()
  // Partly transparent uploads are flattened on white, like a studio backdrop; their own
  // transparency still bounds the mask.
  const rgb = Buffer.alloc(width * height * 3)
  const ownAlpha = new Float32Array(width * height)
  for (let i = 0; i < width * height; i++) {
    const a = (rgba[i * 4 + 3] as number) / 255
    ownAlpha[i] = a
    for (let c = 0; c < 3; c++) rgb[i * 3 + c] = Math.round((rgba[i * 4 + c] as number) * a + 255 * (1 - a))
  }

  const alpha = refineCutMask(coarse, cropWidth, cropHeight, rgb, width, height)
  for (let i = 0; i < alpha.length; i++) alpha[i] = Math.min(alpha[i] as number, ownAlpha[i] as number)
  const bytes = new Uint8Array(width * height)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.round((alpha[i] as number) * 255)
  settleEdges(rgb, bytes, width, height, Math.max(1, Math.round(scale)))
  const data = Buffer.alloc(width * height * 4)
  for (let i = 0; i < width * height; i++) {
    data[i * 4] = rgb[i * 3] as number
    data[i * 4 + 1] = rgb[i * 3 + 1] as number
    data[i * 4 + 2] = rgb[i * 3 + 2] as number
    data[i * 4 + 3] = bytes[i] as number
  }
  const cut: SubjectBox = { left: fullLeft, top: fullTop, photoWidth: fullWidth, photoHeight: fullHeight }
  return { data, width, height, isSeparated: true, separatedBy, box: cut }
}

/** The working-size photo's RGBA in a rectangle. */
function cropRgba(photo: Photo, left: number, top: number, width: number, height: number): Buffer {
  const out = Buffer.alloc(width * height * 4)
  for (let y = 0; y < height; y++) {
    const from = ((y + top) * photo.width + left) * 4
    photo.data.copy(out, y * width * 4, from, from + width * 4)
  }
  return out
}

/**
 * The mask `coarse` (0–1, coarseWidth×coarseHeight) scaled up to the photo `rgb` (width×height)
 * and snapped to its edges: a guided filter (He, Sun and Tang) fitted on the coarse grid and
 * applied at full resolution decides inside a band along the outline, through a gentle ramp;
 * beyond the band the mask's own in/out stands, so the filter can neither punch holes into the
 * product nor spread onto the backdrop. Exported for the edge tests.
 */
export function refineCutMask(
  coarse: Float32Array,
  coarseWidth: number,
  coarseHeight: number,
  rgb: Uint8Array,
  width: number,
  height: number,
): Float32Array {
  const scaled = upsampleBilinear(coarse, coarseWidth, coarseHeight, width, height)
  const { radius, epsilon, band, ramp } = cutRefinement
  const refined = guidedFilter(rgb, scaled, width, height, {
    radius,
    epsilon,
    fitSide: Math.max(coarseWidth, coarseHeight),
  })
  // The share of the inside within `band` working pixels of each pixel, on the coarse grid.
  const near = new Float32Array(coarse.length)
  for (let i = 0; i < coarse.length; i++) near[i] = (coarse[i] as number) >= 0.5 ? 1 : 0
  boxMeans([near], coarseWidth, coarseHeight, band)
  const nearScaled = upsampleBilinear(near, coarseWidth, coarseHeight, width, height)
  const [low, high] = ramp
  for (let i = 0; i < refined.length; i++) {
    const inside = nearScaled[i] as number
    if (inside >= 0.999) refined[i] = 1
    else if (inside <= 0.001) refined[i] = 0
    else refined[i] = Math.min(1, Math.max(0, ((refined[i] as number) - low) / (high - low)))
  }
  return refined
}

/** The whole photo as the subject, corners rounded so it reads as a deliberate card. */
export async function photoCard(photo: Photo): Promise<Subject> {
  const { width, height } = photo
  const radius = Math.round(Math.min(width, height) * 0.04)
  const corners = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" rx="${radius}" ry="${radius}" fill="#fff"/></svg>`,
  )
  const data = await sharp(photo.data, { raw: { width, height, channels: 4 } })
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .composite([{ input: corners, blend: 'dest-in' }])
    .raw()
    .toBuffer()
  const box: SubjectBox = { left: 0, top: 0, photoWidth: width, photoHeight: height }
  return { data, width, height, isSeparated: false, separatedBy: null, box }
}

/**
 * The edge settled by its two colours, then freed of the old backdrop's. Along the outline each
 * pixel is a mix of the product's colour F and the backdrop's B, I = αF + (1 − α)B: with F the
 * mean of the solid product pixels around it and B that of the clear backdrop pixels, α is where
 * I lies between them, which gives anti-aliased and lens-softened edges their true softness
 * (the guided filter alone, fitted to a hard mask, makes them too hard). Where the two are too
 * alike or the pixel is no mix of them (texture, a third colour), the filter's α stands. Then
 * each pixel the alpha does not hold fully takes F as its colour, so the old backdrop does not
 * show as a rim on the new scene (a pale halo, the launch pad's orange along a rocket). `scale`:
 * how many photo pixels a working pixel became (the reach grows with it). Box means, so the cost
 * does not grow with the reach. In place.
 */
function settleEdges(rgb: Buffer, alpha: Uint8Array, width: number, height: number, scale = 1) {
  const n = width * height
  const edgeRadius = 2 * scale
  const reach = 4 * scale
  // Interior: every pixel within edgeRadius is solid; exterior: every pixel within it is clear.
  const interior = new Float32Array(n)
  const exterior = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    const a = alpha[i] as number
    interior[i] = a >= 128 ? 1 : 0
    exterior[i] = a <= 8 ? 1 : 0
  }
  boxMeans([interior, exterior], width, height, edgeRadius)
  const planes = Array.from({ length: 8 }, () => new Float32Array(n))
  const [fr, fg, fb, fc, br, bg, bb, bc] = planes as [
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
  ]
  for (let i = 0; i < n; i++) {
    if ((interior[i] as number) >= 0.9999) {
      fr[i] = rgb[i * 3] as number
      fg[i] = rgb[i * 3 + 1] as number
      fb[i] = rgb[i * 3 + 2] as number
      fc[i] = 1
    } else if ((exterior[i] as number) >= 0.9999) {
      br[i] = rgb[i * 3] as number
      bg[i] = rgb[i * 3 + 1] as number
      bb[i] = rgb[i * 3 + 2] as number
      bc[i] = 1
    }
  }
  boxMeans(planes, width, height, reach)
  const minContrast = edgeContrast * edgeContrast
  for (let i = 0; i < n; i++) {
    if ((interior[i] as number) >= 0.9999 || (exterior[i] as number) >= 0.9999) continue
    const cf = fc[i] as number
    if (cf <= 0) continue
    const r = (fr[i] as number) / cf
    const g = (fg[i] as number) / cf
    const b = (fb[i] as number) / cf
    const cb = bc[i] as number
    if (cb > 0) {
      const dr = r - (br[i] as number) / cb
      const dg = g - (bg[i] as number) / cb
      const db = b - (bb[i] as number) / cb
      const contrast = dr * dr + dg * dg + db * db
      if (contrast >= minContrast) {
        const ir = (rgb[i * 3] as number) - (br[i] as number) / cb
        const ig = (rgb[i * 3 + 1] as number) - (bg[i] as number) / cb
        const ib = (rgb[i * 3 + 2] as number) - (bb[i] as number) / cb
        const t = (ir * dr + ig * dg + ib * db) / contrast
        // How far the pixel lies off the line from B to F, against the line's length.
        const off = (ir - t * dr) ** 2 + (ig - t * dg) ** 2 + (ib - t * db) ** 2
        if (off <= contrast * offLine * offLine) alpha[i] = Math.round(Math.min(1, Math.max(0, t)) * 255)
      }
    }
    if ((alpha[i] as number) === 0) continue
    rgb[i * 3] = Math.round(r)
    rgb[i * 3 + 1] = Math.round(g)
    rgb[i * 3 + 2] = Math.round(b)
  }
}

/** Least colour distance (RGB) between a product and its backdrop for the two-colour edge. */
const edgeContrast = 40
/** Largest distance off the backdrop–product line, as a share of its length, for a pixel to count as a mix. */
const offLine = 0.3

/** Uses an upload's own transparency when it has a real cut-out (neither all clear nor all solid). */
function maskFromAlpha(photo: Photo): Uint8Array | null {
  const total = photo.width * photo.height
  const mask = new Uint8Array(total)
  let clear = 0
  for (let i = 0; i < total; i++) {
    const alpha = photo.data[i * 4 + 3] as number
    mask[i] = alpha >= 128 ? 255 : 0
    if (alpha < 128) clear++
  }
  const share = clear / total
  return share > 0.02 && share < 0.97 ? mask : null
}

/** Pixel indices of a band along the four edges (about 1 % of the short side, at least 2 px). */
function borderIndices(width: number, height: number): number[] {
  const band = Math.max(2, Math.round(Math.min(width, height) * 0.01))
  const indices: number[] = []
  for (let y = 0; y < height; y++) {
    const isEdgeRow = y < band || y >= height - band
    for (let x = 0; x < width; x++) {
      if (isEdgeRow || x < band || x >= width - band) indices.push(y * width + x)
    }
  }
  return indices
}

function medianColour(data: Buffer, indices: number[]): [number, number, number] {
  const channel = (c: number) => {
    const histogram = new Uint32Array(256)
    for (const i of indices) {
      const value = data[i * 3 + c] as number
      histogram[value] = (histogram[value] as number) + 1
    }
    let seen = 0
    for (let v = 0; v < 256; v++) {
      seen += histogram[v] as number
      if (seen * 2 >= indices.length) return v
    }
    return 255
  }
  return [channel(0), channel(1), channel(2)]
}

function squaredDistance(data: Buffer, offset: number, colour: readonly number[]): number {
  const dr = (data[offset] as number) - (colour[0] as number)
  const dg = (data[offset + 1] as number) - (colour[1] as number)
  const db = (data[offset + 2] as number) - (colour[2] as number)
  return dr * dr + dg * dg + db * db
}

/**
 * Clears foreground islands much smaller than the largest (noise and dust the fill missed),
 * keeping several similar pieces (a pair of earrings).
 */
function dropSpecks(mask: Uint8Array, width: number, height: number) {
  const total = width * height
  const labels = new Int32Array(total)
  const sizes: number[] = [0]
  const queue = new Int32Array(total)
  for (let start = 0; start < total; start++) {
    if (mask[start] !== 255 || labels[start] !== 0) continue
    const label = sizes.length
    let head = 0
    let tail = 0
    queue[tail++] = start
    labels[start] = label
    const visit = (j: number) => {
      if (mask[j] === 255 && labels[j] === 0) {
        labels[j] = label
        queue[tail++] = j
      }
    }
    while (head < tail) {
      const i = queue[head++] as number
      const x = i % width
      if (x > 0) visit(i - 1)
      if (x < width - 1) visit(i + 1)
      if (i >= width) visit(i - width)
      if (i < total - width) visit(i + width)
    }
    sizes.push(tail)
  }
  let largest = 0
  for (const size of sizes) largest = Math.max(largest, size)
  const keep = Math.max(largest * 0.08, total * 0.0015)
  for (let i = 0; i < total; i++) {
    const label = labels[i] as number
    if (label !== 0 && (sizes[label] as number) < keep) mask[i] = 0
  }
}

/** Bounds of the pixels at or above `threshold` (255: the flood fill's hard mask). */
function boundsOf(mask: Uint8Array, width: number, height: number, threshold = 255) {
  let left = width
  let top = height
  let right = -1
  let bottom = -1
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if ((mask[y * width + x] as number) < threshold) continue
      if (x < left) left = x
      if (x > right) right = x
      if (y < top) top = y
      if (y > bottom) bottom = y
    }
  }
  return { left, top, right, bottom }
}
