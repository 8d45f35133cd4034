import sharp from 'sharp'
import { maskIoU } from '#server/segmentation/metrics.ts'
import { isCredible, type Segmenter } from '#server/segmentation/segmenter.ts'

// Background separation, exact where it can be: an upload's own transparency, or a flood fill
// over a plain backdrop (estimate the backdrop colour from the border, fill from the border over
// pixels near that colour, drop specks, feather the edge). On a busy backdrop (a wooden table, a
// bed sheet) the segmentation model finds the product instead. When neither gives a believable
// product the whole photo is kept (as a card with rounded corners) rather than shipping a
// half-eaten product.

/** Decoded, upright pixels (RGBA) of a photo, downscaled so the slow JS passes stay fast. */
export type Photo = { data: Buffer; width: number; height: number; hasAlpha: boolean }

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

/** The cut's top-left corner in the (working-size) photo, and that photo's size. */
export type SubjectBox = { left: number; top: number; photoWidth: number; photoHeight: number }

/** Longest side the separation works on: beyond what any output needs (the subject is at most ~1000 px). */
export const workingSide = 1600

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
  return { data, width: info.width, height: info.height, hasAlpha: metadata.hasAlpha === true }
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

/** The photo's pixels in `box` (RGB, partly transparent pixels flattened on white) and its mask there. */
function cropWithMask(photo: Photo, mask: Uint8Array, box: ReturnType<typeof boundsOf>, pad: number) {
  const { width, height } = photo
  const left = Math.max(0, box.left - pad)
  const top = Math.max(0, box.top - pad)
  const cropWidth = Math.min(width, box.right + pad + 1) - left
  const cropHeight = Math.min(height, box.bottom + pad + 1) - top
  const crop = Buffer.alloc(cropWidth * cropHeight * 3)
  const cropMask = Buffer.alloc(cropWidth * cropHeight)
  for (let y = 0; y < cropHeight; y++) {
    for (let x = 0; x < cropWidth; x++) {
      const source = (y + top) * width + (x + left)
      const target = y * cropWidth + x
      // Partly transparent uploads are flattened on white, like a studio backdrop.
      const alpha = (photo.data[source * 4 + 3] as number) / 255
      for (let c = 0; c < 3; c++) {
        crop[target * 3 + c] = Math.round((photo.data[source * 4 + c] as number) * alpha + 255 * (1 - alpha))
      }
      cropMask[target] = Math.min(mask[source] as number, photo.data[source * 4 + 3] as number)
    }
  }
  const cut: SubjectBox = { left, top, photoWidth: width, photoHeight: height }
  return { crop, cropMask, cropWidth, cropHeight, cut }
}

/**
 * Cut along the model's soft mask. It is already refined to the photo's edges (see
 * segmentation/mask-math.ts), so it is used as it is; the edge's colours are replaced by the
 * product's own so none of the old surface (wood, a sheet) shows as a rim on the new scene.
 */
async function cutAlongMask(photo: Photo, alpha: Uint8Array): Promise<Subject> {
  const { crop, cropMask, cropWidth, cropHeight, cut } = cropWithMask(
    photo,
    alpha,
    boundsOf(alpha, photo.width, photo.height, 1),
    2,
  )
  decontaminateEdges(crop, cropMask, cropWidth, cropHeight)
  // A touch of blur: the refined edge is about a pixel wide, and scaled up onto the scene it
  // would show steps.
  const smoothed = await sharp(cropMask, { raw: { width: cropWidth, height: cropHeight, channels: 1 } })
    .blur(0.8)
    .extractChannel(0)
    .raw()
    .toBuffer()
  const data = await sharp(crop, { raw: { width: cropWidth, height: cropHeight, channels: 3 } })
    .joinChannel(smoothed, { raw: { width: cropWidth, height: cropHeight, channels: 1 } })
    .raw()
    .toBuffer()
  return { data, width: cropWidth, height: cropHeight, isSeparated: true, separatedBy: 'model', box: cut }
}

/** Cut along the flood fill's hard mask, feathered. */
async function cutAlongBackdrop(photo: Photo, mask: Uint8Array): Promise<Subject> {
  // A little room around the subject so the feathered edge is not cut off.
  const { crop, cropMask, cropWidth, cropHeight, cut } = cropWithMask(
    photo,
    mask,
    boundsOf(mask, photo.width, photo.height),
    3,
  )
  decontaminateEdges(crop, cropMask, cropWidth, cropHeight)
  // Feather by ~1 px, then choke a little so the rim of backdrop colour around the edge (a light
  // halo on dark scenes) goes with the backdrop.
  const feathered = await sharp(cropMask, { raw: { width: cropWidth, height: cropHeight, channels: 1 } })
    .blur(1.2)
    .linear(1.35, -0.35 * 255)
    .extractChannel(0)
    .raw()
    .toBuffer()
  const data = await sharp(crop, { raw: { width: cropWidth, height: cropHeight, channels: 3 } })
    .joinChannel(feathered, { raw: { width: cropWidth, height: cropHeight, channels: 1 } })
    .raw()
    .toBuffer()
  return { data, width: cropWidth, height: cropHeight, isSeparated: true, separatedBy: 'backdrop', box: cut }
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
 * Edge pixels are a mix of product and backdrop colour; on a dark scene that mix shows as a
 * pale rim. Each pixel near the edge takes the mean colour of the solid product pixels around
 * it instead, so the feathered edge fades from product colour to transparent.
 */
function decontaminateEdges(rgb: Buffer, mask: Buffer, width: number, height: number) {
  const stride = width + 1
  const integral = new Uint32Array(stride * (height + 1))
  for (let y = 0; y < height; y++) {
    let row = 0
    for (let x = 0; x < width; x++) {
      row += (mask[y * width + x] as number) >= 128 ? 1 : 0
      integral[(y + 1) * stride + x + 1] = (integral[y * stride + x + 1] as number) + row
    }
  }
  const solidIn = (x0: number, y0: number, x1: number, y1: number) => {
    const a = Math.max(0, x0)
    const b = Math.max(0, y0)
    const c = Math.min(width, x1 + 1)
    const d = Math.min(height, y1 + 1)
    return {
      solid:
        (integral[d * stride + c] as number) -
        (integral[b * stride + c] as number) -
        (integral[d * stride + a] as number) +
        (integral[b * stride + a] as number),
      area: (c - a) * (d - b),
    }
  }
  const edgeRadius = 2
  const isInterior = new Uint8Array(width * height)
  const edges: number[] = []
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const { solid, area } = solidIn(x - edgeRadius, y - edgeRadius, x + edgeRadius, y + edgeRadius)
      if (solid === area) isInterior[y * width + x] = 1
      else if (solid > 0) edges.push(y * width + x)
    }
  }
  const reach = 4
  for (const i of edges) {
    const x = i % width
    const y = (i - x) / width
    let r = 0
    let g = 0
    let b = 0
    let n = 0
    for (let yy = Math.max(0, y - reach); yy <= Math.min(height - 1, y + reach); yy++) {
      for (let xx = Math.max(0, x - reach); xx <= Math.min(width - 1, x + reach); xx++) {
        const j = yy * width + xx
        if (isInterior[j] !== 1) continue
        r += rgb[j * 3] as number
        g += rgb[j * 3 + 1] as number
        b += rgb[j * 3 + 2] as number
        n++
      }
    }
    if (n === 0) continue
    rgb[i * 3] = Math.round(r / n)
    rgb[i * 3 + 1] = Math.round(g / n)
    rgb[i * 3 + 2] = Math.round(b / n)
  }
}

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
