import sharp from 'sharp'
import { boxMeans, fitGuidedCoefficients } from '#server/segmentation/mask-math.ts'
import { maskIoU } from '#server/segmentation/metrics.ts'
import { isCredible, type Segmentation, type Segmenter } from '#server/segmentation/segmenter.ts'

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
  /**
   * The share of the cut's width and height the segmentation model sees as product, when the cut
   * keeps parts it calls background (a pale steel tip): what a marketplace's checker, measuring
   * with the model, will take for the product (placeSubject).
   */
  seenShare?: { width: number; height: number }
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
  // A typed array sorts numerically, and far faster than an array with a comparator.
  const distances = Float64Array.from(border, (i) => Math.sqrt(squaredDistance(data, i * 3, backdrop))).sort()
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
  keepLocalSteps(data, mask, border, width, height, queue)
  dropSpecks(mask, width, height)

  let foreground = 0
  for (let i = 0; i < total; i++) if (mask[i] === 255) foreground++
  const share = foreground / total
  if (share < 0.01 || share > 0.92) return fail
  return { mask, isSeparated: true, backdrop, fromAlpha: false }
}

/**
 * The fill compares each pixel with one backdrop colour, within a tolerance wide enough for a
 * vignette; a part of the product only a few steps from its backdrop (a light steel clip or tip
 * on a light grey backdrop: 13 and 24 RGB levels from it, within a tolerance of 24–32) is filled
 * with it. Here each filled pixel is compared with the backdrop's own colour around it instead
 * (the mean of the filled pixels within about `localRadius`, which follows a vignette), and the fill is
 * made again from the border over only the pixels near that local colour; the filled pixels it
 * no longer reaches, where they make a part at least five pixels thick, go back to the subject.
 */
function keepLocalSteps(
  data: Buffer,
  mask: Uint8Array,
  border: Int32Array,
  width: number,
  height: number,
  queue: Int32Array,
) {
  const total = width * height
  // The local colour is kept per block of `localBlock`² pixels (a mean over the blocks around it),
  // which a vignette's slow change allows; a plane per pixel would cost 30 MB on a 2-megapixel photo.
  const blocksWide = Math.ceil(width / localBlock)
  const blocksHigh = Math.ceil(height / localBlock)
  const blockCount = blocksWide * blocksHigh
  // Each pixel's block: its row's first block plus its column's.
  const blockRows = Int32Array.from({ length: height }, (_, y) => Math.floor(y / localBlock) * blocksWide)
  const blockColumns = Int32Array.from({ length: width }, (_, x) => Math.floor(x / localBlock))
  const blockOf = (i: number) => {
    const x = i % width
    return (blockRows[(i - x) / width] as number) + (blockColumns[x] as number)
  }
  const planes = Array.from({ length: 4 }, () => new Float32Array(blockCount))
  const [pr, pg, pb, pc] = planes as [Float32Array, Float32Array, Float32Array, Float32Array]
  const local = new Float32Array(blockCount * 3)
  // Squared distance from the local colour; Infinity where no backdrop is near.
  const residual = (i: number) => {
    const k = blockOf(i) * 3
    const r = local[k] as number
    if (Number.isNaN(r)) return Number.POSITIVE_INFINITY
    return (
      ((data[i * 3] as number) - r) ** 2 +
      ((data[i * 3 + 1] as number) - (local[k + 1] as number)) ** 2 +
      ((data[i * 3 + 2] as number) - (local[k + 2] as number)) ** 2
    )
  }
  // The local colour is taken twice: the second time without the pixels the first found far from
  // it (the light part itself would otherwise pull its surroundings' colour towards its own).
  let localLimit = Number.POSITIVE_INFINITY
  for (let pass = 0; pass < 2; pass++) {
    for (const plane of planes) plane.fill(0)
    for (let y = 0; y < height; y++) {
      const row = blockRows[y] as number
      for (let x = 0, i = y * width; x < width; x++, i++) {
        if (mask[i] !== 0 || (pass === 1 && residual(i) > localLimit)) continue
        const k = row + (blockColumns[x] as number)
        pr[k] = (pr[k] as number) + (data[i * 3] as number)
        pg[k] = (pg[k] as number) + (data[i * 3 + 1] as number)
        pb[k] = (pb[k] as number) + (data[i * 3 + 2] as number)
        pc[k] = (pc[k] as number) + 1
      }
    }
    boxMeans(planes, blocksWide, blocksHigh, Math.round(localRadius / localBlock))
    for (let k = 0; k < blockCount; k++) {
      const c = pc[k] as number
      local[k * 3] = c > 0 ? (pr[k] as number) / c : Number.NaN
      local[k * 3 + 1] = c > 0 ? (pg[k] as number) / c : Number.NaN
      local[k * 3 + 2] = c > 0 ? (pb[k] as number) / c : Number.NaN
    }
    if (pass === 0) {
      const sample: number[] = []
      for (let i = 0; i < total; i += 7) if (mask[i] === 0) sample.push(residual(i))
      const sorted = Float64Array.from(sample).sort()
      const q = (p: number) => Math.sqrt(sorted[Math.floor(sorted.length * p)] ?? 0)
      localLimit = Math.max(localStep, localNoise * q(0.99)) ** 2
      // A backdrop this uneven is a surface (wood, fabric), not a studio backdrop: the model
      // decides there, and the local fill would only find its grain.
      if (localLimit > localMaxStep ** 2) return
    }
  }
  const reached = new Uint8Array(total)
  let head = 0
  let tail = 0
  for (const i of border) {
    if (mask[i] === 0 && reached[i] === 0 && residual(i) <= localLimit) {
      reached[i] = 1
      queue[tail++] = i
    }
  }
  while (head < tail) {
    const i = queue[head++] as number
    const x = i % width
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
      if (reached[j] !== 0 || mask[j] !== 0 || residual(j) > localLimit) continue
      reached[j] = 1
      queue[tail++] = j
    }
  }
  // The pixels the fill no longer reaches are kept where they make a part of their own, at least
  // five pixels thick (an opening: what lies within two pixels of their core). A ring of a few
  // pixels along the subject's edge is its anti-aliasing or lens blur, which the cut's edge
  // places (cutAtScale); moved into the mask it would shift the edge's band off the edge.
  const fresh = new Uint8Array(total)
  for (let i = 0; i < total; i++) if (mask[i] === 0 && reached[i] === 0) fresh[i] = 1
  const depth = cityBlockDistance(fresh, width, height)
  const core = new Uint8Array(total)
  for (let i = 0; i < total; i++) core[i] = (depth[i] as number) > partDepth ? 0 : 1
  const fromCore = cityBlockDistance(core, width, height, false)
  for (let i = 0; i < total; i++) if (fresh[i] === 1 && (fromCore[i] as number) <= partDepth) mask[i] = 255
}

/** How far (working pixels) a part the local fill finds must reach beyond its core on every side. */
const partDepth = 2

/**
 * Each pixel's city-block distance to the nearest pixel outside `inside` (1 marks inside; the
 * photo's edge counts as outside unless `isEdgeOutside` is false): 0 outside, 1 on the edge of
 * a part, and so on. Two passes.
 */
function cityBlockDistance(
  inside: Uint8Array,
  width: number,
  height: number,
  isEdgeOutside = true,
): Uint16Array {
  const distance = new Uint16Array(width * height)
  const far = 65535
  const edge = isEdgeOutside ? 0 : far
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x
      if (inside[i] !== 1) continue
      const up = y === 0 ? edge : (distance[i - width] as number)
      const left = x === 0 ? edge : (distance[i - 1] as number)
      distance[i] = Math.min(far, Math.min(up, left) + 1)
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x
      if (inside[i] !== 1) continue
      const down = y === height - 1 ? edge : (distance[i + width] as number)
      const right = x === width - 1 ? edge : (distance[i + 1] as number)
      distance[i] = Math.min(distance[i] as number, Math.min(down, right) + 1)
    }
  }
  return distance
}

/**
 * The local fill (keepLocalSteps): the radius of the local backdrop colour (working pixels; kept
 * per block of `localBlock`² pixels), and
 * how far from it a filled pixel may be, in RGB levels: `localNoise` times the 99th percentile
 * of the filled pixels' own distances (the backdrop's noise), at least `localStep`. On the
 * generated pen (noise 4.1 at the 99th percentile: a limit of 6.2) the clip's outer columns
 * are 7–10 from the backdrop beside them, its tip 27. Above `localMaxStep` the backdrop is a
 * surface and the local fill changes nothing (the benchmark's photo on wood: 51).
 */
const localRadius = 12
const localBlock = 4
const localStep = 6
const localMaxStep = 16
const localNoise = 1.5

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
 * What the cut will be, known once the flood fill has found the subject and while the model still
 * runs: its outline at the working size (enough to read the camera's view from) and the size the
 * cut will have. A draft the model then overrules is simply not the cut.
 */
export type SubjectDraft = {
  outline: Pick<Subject, 'data' | 'width' | 'height' | 'isSeparated'>
  cutWidth: number
  cutHeight: number
}

/**
 * The subject with a soft edge, cropped to its bounds; or the whole photo with rounded corners
 * when separation failed. An upload's own transparency is used as it is. Otherwise the flood
 * fill's exact edge is used where the model agrees with it, the model's mask where the flood
 * fill failed or disagrees, and the card where neither is believable. Without a segmenter only
 * plain backdrops and transparency separate. `onDraft` hears of the flood fill's cut before the
 * model has answered (SubjectDraft).
 */
export async function separateSubject(
  photo: Photo,
  segmenter?: Segmenter,
  onDraft?: (draft: SubjectDraft) => void,
): Promise<Subject> {
  const ownCut = photo.hasAlpha ? maskFromAlpha(photo) : null
  if (ownCut) return cutAlongBackdrop(photo, ownCut)
  // Without a cut of its own, a photo always goes to the model when there is one (to confirm the
  // flood fill or to stand in for it): it goes now, and the flood fill runs here while the model
  // runs in its process. The flood fill waits until the photo has been handed to it (a segmenter that
  // does not say so is simply waited for), or it would hold up the request.
  let onThread: Promise<unknown> = Promise.resolve()
  let answer: Promise<Segmentation> | null = null
  if (segmenter) {
    let queued = () => {}
    onThread = new Promise<void>((resolve) => {
      queued = resolve
    })
    answer = segmenter.segment(
      { data: photo.data, width: photo.width, height: photo.height, channels: 4 },
      { onQueued: queued },
    )
    answer.then(queued, queued)
  }
  await onThread
  const found = await findSubjectMask(photo).catch(async (error: unknown) => {
    // The model's answer is not wanted any more; it must not end as an unhandled rejection.
    await answer?.catch(() => null)
    throw error
  })
  if (found.isSeparated && !answer) return cutAlongBackdrop(photo, found.mask)
  if (!answer) return photoCard(photo)
  // The model usually confirms the flood fill: what comes after the cut (a scene to paint) may
  // start on the draft while the model runs in its process.
  if (found.isSeparated && onDraft) onDraft(draftOf(photo, found.mask))
  const segmentation = await answer
  const isModelCredible = isCredible(segmentation)
  if (found.isSeparated && !isModelCredible) return cutAlongBackdrop(photo, found.mask)
  if (found.isSeparated && maskIoU(found.mask, segmentation.alpha) >= minAgreement) {
    dropCastShadow(photo, found.mask, found.backdrop, segmentation.alpha)
    const subject = await cutAlongBackdrop(photo, found.mask)
    const seenShare = seenShareOf(photo, found.mask, segmentation.alpha)
    return seenShare ? { ...subject, seenShare } : subject
  }
  return isModelCredible ? cutAlongMask(photo, segmentation.alpha) : photoCard(photo)
}

/**
 * The share of the mask's bounds (width, height) that the model's mask covers within it, when it
 * is less than `unseenShare` short of the whole along a side; undefined otherwise.
 */
function seenShareOf(photo: Photo, mask: Uint8Array, alpha: Uint8Array): Subject['seenShare'] {
  const { width, height } = photo
  const all = boundsOf(mask, width, height)
  const both = new Uint8Array(mask.length)
  for (let i = 0; i < mask.length; i++) both[i] = mask[i] === 255 && (alpha[i] as number) >= 128 ? 255 : 0
  const seen = boundsOf(both, width, height)
  if (seen.right < seen.left || all.right < all.left) return undefined
  const share = {
    width: (seen.right - seen.left + 1) / (all.right - all.left + 1),
    height: (seen.bottom - seen.top + 1) / (all.bottom - all.top + 1),
  }
  return Math.min(share.width, share.height) < 1 - unseenShare ? share : undefined
}

/** Parts of the cut the model does not see count once they add more than this share to a side. */
const unseenShare = 0.02

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
  const { width, height } = photo
  const total = width * height
  const [br, bg, bb] = backdrop
  const backdropSum = Math.max(1, br + bg + bb)
  const shadow = new Uint8Array(total)
  for (let i = 0; i < total; i++) {
    if (mask[i] !== 255 || (alpha[i] as number) >= shadowModelAlpha) continue
    const r = photo.data[i * 4] as number
    const g = photo.data[i * 4 + 1] as number
    const b = photo.data[i * 4 + 2] as number
    const sum = r + g + b
    // A shadow darkens the backdrop without changing its hue: the same chromaticity, less light.
    if (sum === 0 || sum > backdropSum * 1.02) continue
    const chroma = Math.abs(r / sum - br / backdropSum) + Math.abs(g / sum - bg / backdropSum)
    if (chroma + Math.abs(b / sum - bb / backdropSum) <= shadowChroma) shadow[i] = 1
  }
  // Each shadow-coloured part is looked at as a whole: a cast shadow fades out into its backdrop
  // and keeps darkening inside, while a part of the product in the backdrop's own hue (a steel
  // tip on a grey backdrop) ends in a step and is even inside. Such a part stays.
  const queue = new Int32Array(total)
  for (let start = 0; start < total; start++) {
    if (shadow[start] !== 1) continue
    let head = 0
    let tail = 0
    queue[tail++] = start
    shadow[start] = 2
    const steps: number[] = []
    const insides: number[] = []
    while (head < tail) {
      const i = queue[head++] as number
      const x = i % width
      const y = (i - x) / width
      for (let n = 0; n < 4; n++) {
        const dx = n === 0 ? -1 : n === 1 ? 1 : 0
        const dy = n === 2 ? -1 : n === 3 ? 1 : 0
        const at = (k: number) => {
          const px = x + k * dx
          const py = y + k * dy
          return px < 0 || py < 0 || px >= width || py >= height ? -1 : py * width + px
        }
        const j = at(1)
        if (j < 0) continue
        if (shadow[j] === 1) {
          shadow[j] = 2
          queue[tail++] = j
          continue
        }
        if (mask[j] !== 0) continue
        // Across the border: from two pixels out in the backdrop to one pixel in; inside: from
        // one pixel in to three.
        const out = at(2)
        const outer = out >= 0 && mask[out] === 0 ? out : j
        const into = at(-1)
        const inner = into >= 0 && mask[into] === 255 ? into : i
        steps.push(colourStep(photo.data, outer, inner))
        const deep = at(-3)
        if (inner === into && shadow[inner] !== 0 && deep >= 0 && shadow[deep] !== 0) {
          insides.push(colourStep(photo.data, inner, deep))
        }
      }
    }
    const step = median(steps)
    const isCrisp = insides.length >= 8 && step >= crispStep && median(insides) <= step * crispShare
    if (isCrisp) continue
    for (let k = 0; k < tail; k++) mask[queue[k] as number] = 0
  }
  dropSpecks(mask, photo.width, photo.height)
}

/** Distance between two pixels' colours in RGBA data. */
function colourStep(data: Buffer, a: number, b: number): number {
  const dr = (data[a * 4] as number) - (data[b * 4] as number)
  const dg = (data[a * 4 + 1] as number) - (data[b * 4 + 1] as number)
  const db = (data[a * 4 + 2] as number) - (data[b * 4 + 2] as number)
  return Math.sqrt(dr * dr + dg * dg + db * db)
}

function median(values: number[]): number {
  if (values.length === 0) return 0
  return Float64Array.from(values).sort()[Math.floor(values.length / 2)] as number
}

/**
 * A shadow-coloured part the model calls background stays when the step across its border with
 * the backdrop (three pixels) is at least `crispStep` and the change inside it (over two pixels)
 * at most `crispShare` of that step. Measured on the generated photos: the pen's steel tip, a
 * step of 29 and 8 inside (0.27); a garment's soft cast shadow, 18–35 with 14–28 inside
 * (0.72–0.86), at two sizes.
 */
const crispStep = 12
const crispShare = 0.4

/** Below this model alpha a pixel is background to the model (0–255). */
const shadowModelAlpha = 96
/** Largest chromaticity difference (sum over r, g, b shares) between a shadow and its backdrop. */
const shadowChroma = 0.06

/**
 * Cut along the model's soft mask (already snapped to the photo's edges at the working size, see
 * segmentation/mask-math.ts), made again at the photo's own resolution by cutAtScale.
 */
function cutAlongMask(photo: Photo, alpha: Uint8Array): Promise<Subject> {
  const { width, height } = photo
  // Only the mask's bounds (and room for the fringe's reach) are looked at.
  const box = boundsOf(alpha, width, height, 1)
  const trimmed = alpha.slice()
  if (box.right >= box.left) {
    const pad = fringe.width + fringe.reach + 1
    const left = Math.max(0, box.left - pad)
    const top = Math.max(0, box.top - pad)
    const w = Math.min(width, box.right + pad + 1) - left
    const h = Math.min(height, box.bottom + pad + 1) - top
    const crop = new Uint8Array(w * h)
    for (let y = 0; y < h; y++)
      crop.set(alpha.subarray((top + y) * width + left, (top + y) * width + left + w), y * w)
    const cleared = dropFringe(crop, w, h)
    for (let y = 0; y < h; y++) trimmed.set(cleared.subarray(y * w, (y + 1) * w), (top + y) * width + left)
  }
  return cutAtScale(photo, trimmed, boundsOf(trimmed, width, height, 1), 'model')
}

/**
 * The model's mask without the thin fringe it keeps along a product from what stood beside it:
 * a rocket's gantry, a strip of shelf by a bottle. Such a fringe is thinner than
 * `fringe.width` working pixels and never leaves the product's side: every pixel of it lies
 * within `fringe.reach` of the product's thick body (the mask opened by a square of side
 * `fringe.width` + 1). It showed as a ragged, tinted edge, and its colour went into the edge's
 * product colour (fitEdge's solid means). A thin part of the product itself (a chair leg, an
 * aerial, a spoon's handle) reaches out further and is kept whole. Returns a copy.
 */
export function dropFringe(alpha: Uint8Array, width: number, height: number): Uint8Array {
  const total = width * height
  const solid = new Uint8Array(total)
  for (let i = 0; i < total; i++) solid[i] = (alpha[i] as number) >= 128 ? 1 : 0
  const radius = fringe.width >> 1
  const body = squareDilate(squareDilate(solid, width, height, radius, true), width, height, radius, false)
  const nearBody = squareDilate(body, width, height, fringe.reach, false)
  // The rest of the solid mask, by 8-connected part: a part wholly near the body is fringe.
  const out = alpha.slice()
  const seen = new Uint8Array(total)
  const queue = new Int32Array(total)
  for (let start = 0; start < total; start++) {
    if (solid[start] !== 1 || body[start] === 1 || seen[start] === 1) continue
    let head = 0
    let tail = 0
    queue[tail++] = start
    seen[start] = 1
    let isNear = true
    // Pixels of the part that touch the body: a rim along it (a saucer's lip) touches it all
    // along; something that stood beside the product is seen apart from it, through a gap.
    let touching = 0
    while (head < tail) {
      const i = queue[head++] as number
      if (nearBody[i] !== 1) isNear = false
      const x = i % width
      const y = (i - x) / width
      let touches = false
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy
        if (ny < 0 || ny >= height) continue
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx
          if (nx < 0 || nx >= width) continue
          const j = ny * width + nx
          if (body[j] === 1) touches = true
          if (solid[j] !== 1 || body[j] === 1 || seen[j] === 1) continue
          seen[j] = 1
          queue[tail++] = j
        }
      }
      if (touches) touching++
    }
    if (!isNear || touching > tail * fringe.touching) continue
    for (let k = 0; k < tail; k++) out[queue[k] as number] = 0
  }
  // The fringe's faint surroundings (its anti-aliasing outside the solid mask) go with it.
  for (let i = 0; i < total; i++) {
    if (solid[i] === 0 && body[i] === 0 && (alpha[i] as number) > 0 && nearBody[i] === 1) {
      const x = i % width
      const y = (i - x) / width
      let touchesBody = false
      for (let dy = -1; dy <= 1 && !touchesBody; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx
          const ny = y + dy
          if (nx >= 0 && ny >= 0 && nx < width && ny < height && body[ny * width + nx] === 1) {
            touchesBody = true
            break
          }
        }
      }
      if (!touchesBody) out[i] = 0
    }
  }
  return out
}

/**
 * The thin fringe dropFringe clears: parts of the model's mask at most `width` working pixels
 * thick (what an opening by a square of side width + 1 removes) lying wholly within `reach` of
 * the product's thick body. On the rocket photo the gantry's uprights beside the rocket measure
 * 1–2 pixels, within 4 of it.
 */
const fringe = { width: 4, reach: 6, touching: 0.25 }

/**
 * A binary mask (1 = inside) dilated by a square of side 2 × radius + 1, or eroded when `erode`
 * (the photo's edge counts as outside). Separable: rows, then columns, each a running count.
 */
function squareDilate(
  mask: Uint8Array,
  width: number,
  height: number,
  radius: number,
  erode: boolean,
): Uint8Array {
  if (radius <= 0) return mask.slice()
  const rows = new Uint8Array(mask.length)
  squarePass(mask, rows, width, height, 1, width, radius, erode)
  const out = new Uint8Array(mask.length)
  squarePass(rows, out, height, width, width, 1, radius, erode)
  return out
}

/**
 * One direction of squareDilate: along `lines` lines of `length` pixels (`step` apart; lines
 * `lineStep` apart), each pixel set when any (all, when eroding) of those within `radius` are.
 */
function squarePass(
  from: Uint8Array,
  to: Uint8Array,
  length: number,
  lines: number,
  step: number,
  lineStep: number,
  radius: number,
  erode: boolean,
) {
  const full = 2 * radius + 1
  for (let line = 0; line < lines; line++) {
    const start = line * lineStep
    // Inside pixels in the window [k − radius, k + radius].
    let count = 0
    for (let k = 0; k < Math.min(radius, length); k++) count += from[start + k * step] as number
    for (let k = 0; k < length; k++) {
      if (k + radius < length) count += from[start + (k + radius) * step] as number
      if (k - radius - 1 >= 0) count -= from[start + (k - radius - 1) * step] as number
      // Eroding, the photo's edge counts as outside: a window reaching past it is not full.
      const isSet = erode ? count === full && k >= radius && k + radius < length : count > 0
      to[start + k * step] = isSet ? 1 : 0
    }
  }
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
 * haze the filter leaves; `reach`: how far (working pixels) the product's and backdrop's own
 * colours are looked for around an edge pixel (fitEdge).
 */
export const cutRefinement = { radius: 2, epsilon: 0.0004, band: 2, reach: 4, ramp: [0.2, 0.8] as const }

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
  const { scale, left, top, cropWidth, cropHeight, fullWidth, fullHeight, fullLeft, fullTop, width, height } =
    cutGeometry(photo, box)
  // The full-size photo is decoded by sharp on its own threads while the edge's windows are
  // fitted on the working grid here.
  const decoded =
    scale === 1
      ? null
      : sourceCrop(photo, fullWidth, fullHeight, { left: fullLeft, top: fullTop, width, height })
  const edge = fitEdge(photo, mask, { left, top, width: cropWidth, height: cropHeight })
  const rgba = decoded ? await decoded : cropRgba(photo, left, top, width, height)
  // Partly transparent uploads are flattened on white, like a studio backdrop; their own
  // transparency still bounds the mask. `data` is the cut's RGBA; its alpha is set below.
  const data = Buffer.from(rgba)
  for (let o = 0; o < data.length; o += 4) {
    const alpha = rgba[o + 3] as number
    if (alpha === 255) continue
    const a = alpha / 255
    for (let c = 0; c < 3; c++) data[o + c] = Math.round((rgba[o + c] as number) * a + 255 * (1 - a))
  }
  const cutAlpha = applyEdge(edge, data, width, height)
  // A touch of blur: single pixels the colour steps left on or off along a busy edge would
  // otherwise show as specks and pits once the cut is enlarged (and its edge re-tightened).
  const smoothed = await sharp(Buffer.from(cutAlpha.buffer, cutAlpha.byteOffset, cutAlpha.length), {
    raw: { width, height, channels: 1 },
  })
    .blur(0.7)
    .extractChannel(0)
    .raw()
    .toBuffer()
  for (let i = 0, o = 3; i < width * height; i++, o += 4) {
    data[o] = Math.min(smoothed[i] as number, rgba[o] as number)
  }
  const cut: SubjectBox = { left: fullLeft, top: fullTop, photoWidth: fullWidth, photoHeight: fullHeight }
  return { data, width, height, isSeparated: true, separatedBy, box: cut }
}

/** Where the cut of `box` lies: its crop on the working grid (with room for the edge's band) and at full size. */
function cutGeometry(photo: Photo, box: ReturnType<typeof boundsOf>) {
  const scale = cutScale(photo, box)
  // Room around the subject for the band the edge may move in.
  const pad = cutRefinement.band + 2
  const left = Math.max(0, box.left - pad)
  const top = Math.max(0, box.top - pad)
  const cropWidth = Math.min(photo.width, box.right + pad + 1) - left
  const cropHeight = Math.min(photo.height, box.bottom + pad + 1) - top
  const fullWidth = Math.round(photo.width * scale)
  const fullHeight = Math.round(photo.height * scale)
  const fullLeft = Math.round(left * scale)
  const fullTop = Math.round(top * scale)
  const width = Math.min(fullWidth, Math.round((left + cropWidth) * scale)) - fullLeft
  const height = Math.min(fullHeight, Math.round((top + cropHeight) * scale)) - fullTop
  return { scale, left, top, cropWidth, cropHeight, fullWidth, fullHeight, fullLeft, fullTop, width, height }
}

/** The draft of the cut along the flood fill's mask: its outline cropped at the working size, and the cut's size. */
function draftOf(photo: Photo, mask: Uint8Array): SubjectDraft {
  const geometry = cutGeometry(photo, boundsOf(mask, photo.width, photo.height))
  const { left, top, cropWidth, cropHeight } = geometry
  const data = Buffer.alloc(cropWidth * cropHeight * 4)
  for (let y = 0; y < cropHeight; y++) {
    for (let x = 0; x < cropWidth; x++) {
      data[(y * cropWidth + x) * 4 + 3] = mask[(top + y) * photo.width + left + x] as number
    }
  }
  return {
    outline: { data, width: cropWidth, height: cropHeight, isSeparated: true },
    cutWidth: geometry.width,
    cutHeight: geometry.height,
  }
}

/**
 * A rectangle of the photo decoded at fullWidth×fullHeight, RGBA. At the photo's own size it is
 * cut out before anything else (no resampling pass over the whole photo).
 */
async function sourceCrop(
  photo: Photo,
  fullWidth: number,
  fullHeight: number,
  region: { left: number; top: number; width: number; height: number },
): Promise<Buffer> {
  const source = photo.source
  let image = sharp(source?.bytes, { failOn: 'error' }).rotate()
  if (source?.width !== fullWidth || source.height !== fullHeight) {
    image = image.resize(fullWidth, fullHeight, { fit: 'fill', kernel: 'lanczos3' })
  }
  return image.extract(region).toColourspace('srgb').ensureAlpha().raw().toBuffer()
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
 * Side of the tiles the edge is fitted in (working pixels). Only tiles the band along the outline
 * crosses are fitted: on a 12-megapixel photo that is about a twentieth of the cut's grid.
 */
const edgeTile = 16

/**
 * What the edge needs from the working grid, fitted once (fitEdge) and applied at the cut's
 * resolution (applyEdge). Planes over the crop of the working photo (`grid` wide and high):
 * `near`, the share of the inside within the band of each cell; `cells`, each grid cell (its four
 * corners) 0 clear, 1 solid, 2 in the band. For every tile the band crosses, `tiles` holds the
 * tile's window (the tile and a margin) and 12 planes over it: the guided filter's coefficients
 * [a_r, a_g, a_b, b] and the sums of the solid product's colour [r, g, b, count] and of the clear
 * backdrop's around each cell.
 */
type FittedEdge = {
  gridWidth: number
  gridHeight: number
  near: Float32Array
  cells: Uint8Array
  tiles: {
    /** The tile's cells (right and bottom exclusive). */
    x0: number
    y0: number
    x1: number
    y1: number
    /** Its window's top-left cell and width. */
    left: number
    top: number
    width: number
    planes: Float32Array[]
  }[]
}

/**
 * The working-grid half of the cut's edge (decision 43): everything that needs windows is
 * computed on the working-size grid, where the mask's information is, and only in tiles the band
 * along the outline crosses (the rest of the cut is solid or clear):
 *
 * - a band of `cutRefinement.band` working pixels along the mask's outline; beyond it the mask's
 *   own in/out stands, so nothing can punch holes into the product or spread onto the backdrop;
 * - in the band, a guided filter (He, Sun and Tang; fitted on the working grid, its coefficients
 *   applied to the full-resolution pixel: the fast guided filter) places the edge where the
 *   photo's colour changes;
 * - the mean colours of the solid product (beyond the band inside) and of the clear backdrop
 *   around each cell, for the two-colour step (applyEdge).
 *
 * Each tile is fitted in a window with a margin as wide as the windows reach (the filter's two
 * box means, the colour means, and the next cell the bilinear sampling reads), so its values are
 * the same as a fit over the whole grid.
 */
function fitEdge(
  photo: Photo,
  mask: Uint8Array,
  crop: { left: number; top: number; width: number; height: number },
): FittedEdge {
  const { width: cw, height: ch } = crop
  const n = cw * ch
  const { radius, epsilon, band, reach } = cutRefinement
  // The guide (the working photo flattened on white, 0–1) and the mask (0–1) at a crop cell.
  const photoIndex = (x: number, y: number) => (y + crop.top) * photo.width + x + crop.left
  // Where the band is: the share of the inside within `band` of each working pixel.
  const near = new Float32Array(n)
  for (let y = 0; y < ch; y++) {
    const row = photoIndex(0, y)
    for (let x = 0; x < cw; x++) {
      if ((mask[row + x] as number) >= 128 && (photo.data[(row + x) * 4 + 3] as number) >= 128)
        near[y * cw + x] = 1
    }
  }
  // The product's core: cells with all of the inside within `core.depth` of them.
  const deep = Float32Array.from(near)
  boxMeans([near], cw, ch, band)
  boxMeans([deep], cw, ch, core.depth)
  // Each grid cell (its four corners): 0 clear, 1 solid, 2 in the band. Most of the cut's
  // pixels are in cells that are wholly solid or clear and need no fitting or sampling.
  const cells = new Uint8Array(n)
  for (let y = 0; y < ch; y++) {
    const y1 = Math.min(ch - 1, y + 1)
    for (let x = 0; x < cw; x++) {
      const x1 = Math.min(cw - 1, x + 1)
      const a = near[y * cw + x] as number
      const b = near[y * cw + x1] as number
      const c = near[y1 * cw + x] as number
      const d = near[y1 * cw + x1] as number
      const least = Math.min(a, b, c, d)
      const most = Math.max(a, b, c, d)
      cells[y * cw + x] = least >= 0.999 ? 1 : most <= 0.001 ? 0 : 2
    }
  }

  const margin = Math.max(2 * radius, reach, core.reach) + 1
  const side = edgeTile + 2 * margin
  const windowPlanes = () => Array.from({ length: 14 }, () => new Float32Array(side * side))
  const scratch = windowPlanes()
  const guide = windowPlanes().slice(0, 4) as [Float32Array, Float32Array, Float32Array, Float32Array]
  const tiles: FittedEdge['tiles'] = []
  for (let ty = 0; ty < ch; ty += edgeTile) {
    for (let tx = 0; tx < cw; tx += edgeTile) {
      const x1 = Math.min(cw, tx + edgeTile)
      const y1 = Math.min(ch, ty + edgeTile)
      let isCrossed = false
      for (let y = ty; y < y1 && !isCrossed; y++) {
        for (let x = tx; x < x1; x++) {
          if (cells[y * cw + x] === 2) {
            isCrossed = true
            break
          }
        }
      }
      if (!isCrossed) continue
      const left = Math.max(0, tx - margin)
      const top = Math.max(0, ty - margin)
      const w = Math.min(cw, x1 + margin) - left
      const h = Math.min(ch, y1 + margin) - top
      const m = w * h
      const [r, g, b, q] = guide.map((plane) => plane.subarray(0, m)) as [
        Float32Array,
        Float32Array,
        Float32Array,
        Float32Array,
      ]
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const source = photoIndex(x + left, y + top)
          const o = source * 4
          const alpha = photo.data[o + 3] as number
          const a = alpha / 255
          const j = y * w + x
          r[j] = ((photo.data[o] as number) * a + 255 * (1 - a)) / 255
          g[j] = ((photo.data[o + 1] as number) * a + 255 * (1 - a)) / 255
          b[j] = ((photo.data[o + 2] as number) * a + 255 * (1 - a)) / 255
          q[j] = Math.min(mask[source] as number, alpha) / 255
        }
      }
      const fitted = fitGuidedCoefficients(r, g, b, q, w, h, radius, epsilon, scratch)
      const store = new Float32Array(16 * m)
      const planes = Array.from({ length: 16 }, (_, k) => store.subarray(k * m, (k + 1) * m))
      for (let k = 0; k < 4; k++) (planes[k] as Float32Array).set(fitted[k] as Float32Array)
      // Mean colours of the solid product (beyond the band inside) and of the clear backdrop around.
      const [fr, fg, fb, fc, br, bg, bb, bc, kr, kg, kb, kc] = planes.slice(4) as [
        Float32Array,
        Float32Array,
        Float32Array,
        Float32Array,
        Float32Array,
        Float32Array,
        Float32Array,
        Float32Array,
        Float32Array,
        Float32Array,
        Float32Array,
        Float32Array,
      ]
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const j = y * w + x
          const inside = near[(y + top) * cw + x + left] as number
          if (inside >= 0.999) {
            fr[j] = r[j] as number
            fg[j] = g[j] as number
            fb[j] = b[j] as number
            fc[j] = 1
            if ((deep[(y + top) * cw + x + left] as number) >= 0.999) {
              kr[j] = r[j] as number
              kg[j] = g[j] as number
              kb[j] = b[j] as number
              kc[j] = 1
            }
          } else if (inside <= 0.001) {
            br[j] = r[j] as number
            bg[j] = g[j] as number
            bb[j] = b[j] as number
            bc[j] = 1
          }
        }
      }
      boxMeans(planes.slice(4, 12), w, h, reach, scratch[13])
      boxMeans(planes.slice(12), w, h, core.reach, scratch[13])
      tiles.push({ x0: tx, y0: ty, x1, y1, left, top, width: w, planes })
    }
  }
  return { gridWidth: cw, gridHeight: ch, near, cells, tiles }
}

/**
 * The cut's alpha at full resolution (decision 43), and its edge colours freed of the old
 * backdrop, from the working grid's fit (fitEdge), sampled bilinearly only for the pixels of the
 * cut (`data`, RGBA at width×height) that lie in the band:
 *
 * - the guided filter's α: its coefficients applied to the full-resolution pixel's colour;
 * - then each band pixel is a mix of the product's colour F (the mean solid product colour
 *   around it) and the backdrop's B (the mean clear backdrop colour): I = αF + (1 − α)B, so where
 *   F and B differ and the pixel lies near the line between them, α is where it lies on it. This
 *   gives anti-aliased and lens-softened edges their true softness (the filter, fitted to a hard
 *   mask, makes them too hard). Elsewhere (texture, a third colour) the filter's α stands;
 * - every band pixel the alpha does not clear takes F as its colour, so the old backdrop does not
 *   show as a rim on the new scene (a pale halo, a launch pad's orange along a rocket).
 */
function applyEdge(edge: FittedEdge, data: Buffer, width: number, height: number): Uint8Array {
  const { gridWidth: cw, gridHeight: ch, near, cells } = edge
  const [low, high] = cutRefinement.ramp
  const minContrast = (edgeContrast / 255) ** 2
  const sx = cw / width
  const sy = ch / height
  // Each full-resolution column's and row's grid cell and weight, and the first column (row)
  // whose cell is a given grid column (row).
  const x0s = new Int32Array(width)
  const wxs = new Float32Array(width)
  const firstX = new Int32Array(cw + 1).fill(width)
  for (let x = width - 1; x >= 0; x--) {
    const fx = Math.min(cw - 1, Math.max(0, (x + 0.5) * sx - 0.5))
    const x0 = Math.floor(fx)
    x0s[x] = x0
    wxs[x] = fx - x0
    firstX[x0] = x
  }
  const y0s = new Int32Array(height)
  const wys = new Float32Array(height)
  const firstY = new Int32Array(ch + 1).fill(height)
  for (let y = height - 1; y >= 0; y--) {
    const fy = Math.min(ch - 1, Math.max(0, (y + 0.5) * sy - 0.5))
    const y0 = Math.floor(fy)
    y0s[y] = y0
    wys[y] = fy - y0
    firstY[y0] = y
  }
  for (let c = cw - 1; c >= 0; c--) firstX[c] = Math.min(firstX[c] as number, firstX[c + 1] as number)
  for (let c = ch - 1; c >= 0; c--) firstY[c] = Math.min(firstY[c] as number, firstY[c + 1] as number)

  // Outside the band: solid or clear, by the cell the pixel lies in.
  const alpha = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    const row = (y0s[y] as number) * cw
    const o = y * width
    for (let x = 0; x < width; x++) if (cells[row + (x0s[x] as number)] === 1) alpha[o + x] = 255
  }

  const sample = (
    plane: Float32Array,
    a: number,
    bIndex: number,
    c: number,
    d: number,
    wx: number,
    wy: number,
  ) =>
    ((plane[a] as number) * (1 - wx) + (plane[bIndex] as number) * wx) * (1 - wy) +
    ((plane[c] as number) * (1 - wx) + (plane[d] as number) * wx) * wy
  for (const tile of edge.tiles) {
    const [ar, ag, ab, bias, fr, fg, fb, fc, br, bg, bb, bc, kr, kg, kb, kc] = tile.planes as [
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
      Float32Array,
    ]
    const tw = tile.width
    const xEnd = firstX[tile.x1] as number
    const yEnd = firstY[tile.y1] as number
    for (let y = firstY[tile.y0] as number; y < yEnd; y++) {
      const y0 = y0s[y] as number
      const y1 = Math.min(ch - 1, y0 + 1)
      const wy = wys[y] as number
      // Rows of the grid (global, for `near`) and of the tile's window.
      const g0 = y0 * cw
      const g1 = y1 * cw
      const l0 = (y0 - tile.top) * tw - tile.left
      const l1 = (y1 - tile.top) * tw - tile.left
      for (let x = firstX[tile.x0] as number; x < xEnd; x++) {
        const x0 = x0s[x] as number
        if (cells[g0 + x0] !== 2) continue
        const i = y * width + x
        const x1 = Math.min(cw - 1, x0 + 1)
        const wx = wxs[x] as number
        const inside = sample(near, g0 + x0, g0 + x1, g1 + x0, g1 + x1, wx, wy)
        if (inside >= 0.999) {
          alpha[i] = 255
          continue
        }
        if (inside <= 0.001) continue
        const i00 = l0 + x0
        const i01 = l0 + x1
        const i10 = l1 + x0
        const i11 = l1 + x1
        const o = i * 4
        const pr = (data[o] as number) / 255
        const pg = (data[o + 1] as number) / 255
        const pb = (data[o + 2] as number) / 255
        const filtered =
          sample(ar, i00, i01, i10, i11, wx, wy) * pr +
          sample(ag, i00, i01, i10, i11, wx, wy) * pg +
          sample(ab, i00, i01, i10, i11, wx, wy) * pb +
          sample(bias, i00, i01, i10, i11, wx, wy)
        let a = Math.min(1, Math.max(0, (filtered - low) / (high - low)))
        const cf = sample(fc, i00, i01, i10, i11, wx, wy)
        if (cf <= 1e-6) {
          alpha[i] = Math.round(a * 255)
          continue
        }
        const productR = sample(fr, i00, i01, i10, i11, wx, wy) / cf
        const productG = sample(fg, i00, i01, i10, i11, wx, wy) / cf
        const productB = sample(fb, i00, i01, i10, i11, wx, wy) / cf
        const cb = sample(bc, i00, i01, i10, i11, wx, wy)
        if (cb > 1e-6) {
          const backR = sample(br, i00, i01, i10, i11, wx, wy) / cb
          const backG = sample(bg, i00, i01, i10, i11, wx, wy) / cb
          const backB = sample(bb, i00, i01, i10, i11, wx, wy) / cb
          const dr = productR - backR
          const dg = productG - backG
          const db = productB - backB
          const contrast = dr * dr + dg * dg + db * db
          if (contrast >= minContrast) {
            const ir = pr - backR
            const ig = pg - backG
            const ib = pb - backB
            const t = (ir * dr + ig * dg + ib * db) / contrast
            // How far the pixel lies off the line from B to F, against the line's length.
            const off = (ir - t * dr) ** 2 + (ig - t * dg) ** 2 + (ib - t * db) ** 2
            // Within `twoColourReach` of the filter's alpha: a product colour that happens to lie
            // near the backdrop's (a pale patch by a pale sky) must not punch a hole.
            if (off <= contrast * offLine * offLine) {
              a = Math.min(1, Math.max(0, a - twoColourReach, Math.min(a + twoColourReach, t)))
            }
          }
        }
        alpha[i] = Math.round(a * 255)
        if (alpha[i] === 0) continue
        // The edge's colour comes from the product's core where it has one near: the rim just
        // inside the band still carries the old backdrop's light (a launch pad's orange along a
        // rocket's side). A part too thin for a core takes the solid colour beside the band.
        const ck = sample(kc, i00, i01, i10, i11, wx, wy)
        const isCore = ck >= core.least
        data[o] = Math.round((isCore ? sample(kr, i00, i01, i10, i11, wx, wy) / ck : productR) * 255)
        data[o + 1] = Math.round((isCore ? sample(kg, i00, i01, i10, i11, wx, wy) / ck : productG) * 255)
        data[o + 2] = Math.round((isCore ? sample(kb, i00, i01, i10, i11, wx, wy) / ck : productB) * 255)
      }
    }
  }
  return alpha
}

/**
 * The product's core, whose colour the edge takes (applyEdge): cells with the whole inside within
 * `depth` working pixels of them (`band` + 2: beyond the rim the old backdrop's light reaches),
 * averaged within `reach`; used where they make at least `least` of that window (about 4 cells).
 */
const core = { depth: 4, reach: 6, least: 0.025 }

/** Least colour distance (RGB levels) between a product and its backdrop for the two-colour edge. */
const edgeContrast = 40
/** How far the two-colour alpha may move the guided filter's (0–1). */
const twoColourReach = 0.4
/** Largest distance off the backdrop–product line, as a share of its length, for a pixel to count as a mix. */
const offLine = 0.3

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
function borderIndices(width: number, height: number): Int32Array {
  const band = Math.max(2, Math.round(Math.min(width, height) * 0.01))
  const indices: number[] = []
  for (let y = 0; y < height; y++) {
    if (y < band || y >= height - band) {
      for (let x = 0; x < width; x++) indices.push(y * width + x)
      continue
    }
    for (let x = 0; x < Math.min(band, width); x++) indices.push(y * width + x)
    for (let x = Math.max(band, width - band); x < width; x++) indices.push(y * width + x)
  }
  return Int32Array.from(indices)
}

function medianColour(data: Buffer, indices: Int32Array): [number, number, number] {
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
  // Plain loops, no closures: this runs over every pixel of a 2-megapixel photo.
  for (let start = 0; start < total; start++) {
    if (mask[start] !== 255 || labels[start] !== 0) continue
    const label = sizes.length
    let head = 0
    let tail = 0
    queue[tail++] = start
    labels[start] = label
    while (head < tail) {
      const i = queue[head++] as number
      const x = i % width
      if (x > 0 && mask[i - 1] === 255 && labels[i - 1] === 0) {
        labels[i - 1] = label
        queue[tail++] = i - 1
      }
      if (x < width - 1 && mask[i + 1] === 255 && labels[i + 1] === 0) {
        labels[i + 1] = label
        queue[tail++] = i + 1
      }
      if (i >= width && mask[i - width] === 255 && labels[i - width] === 0) {
        labels[i - width] = label
        queue[tail++] = i - width
      }
      if (i < total - width && mask[i + width] === 255 && labels[i + width] === 0) {
        labels[i + width] = label
        queue[tail++] = i + width
      }
    }
    sizes.push(tail)
  }
  let largest = 0
  for (const size of sizes) largest = Math.max(largest, size)
  const keep = Math.max(largest * 0.08, total * 0.0015)
  // Only labels smaller than `keep` are cleared; with one part (the usual case) nothing is.
  if (sizes.every((size, label) => label === 0 || size >= keep)) return
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
