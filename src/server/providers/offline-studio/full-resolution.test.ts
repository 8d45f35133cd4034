import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { upsampleBilinear } from '#server/segmentation/mask-math.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { parseOfflineNote } from '#shared/offline-note.ts'
import { imageSize } from '#shared/scenes.ts'
import type { ImageEditRequest } from '../types.ts'
import { createOfflineStudio } from './index.ts'
import { doneResult, testContext } from './measure.ts'
import { resultSizeFor, resultSizes } from './result-size.ts'
import { findSubjectMask, loadPhoto, type Photo, type Subject, separateSubject } from './separate.ts'

// Results composed at up to 2048 px from the product's own pixels, and the cut's edge at that
// resolution (decision 43). Photos are generated here with a known alpha, so edges and colours
// are measured against the truth, not eyeballed.

const studio = createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath: '/usr/bin/ffmpeg' })

function request(image: Buffer, prompt: string, aspectRatio: '1:1' | '2:3' = '1:1'): ImageEditRequest {
  return { tool: 'product', image: { bytes: image, mime: 'image/png' }, prompt, aspectRatio }
}

type Rgb = readonly [number, number, number]

/**
 * A photo of `shape` (SVG elements drawn white on black give its alpha) in colour `fill` on a
 * plain `backdrop`, mixed exactly by that alpha (softened by `soften` px, like a lens), so the
 * true alpha of every pixel is known. PNG: no compression noise in the measurement.
 */
async function knownAlphaPhoto(
  width: number,
  height: number,
  shape: string,
  fill: Rgb,
  backdrop: Rgb,
  soften = 0,
): Promise<{ bytes: Buffer; alpha: Float32Array }> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="#000"/>${shape}</svg>`
  let image = sharp(Buffer.from(svg)).extractChannel(0)
  if (soften > 0) image = image.blur(soften)
  const grey = await image.raw().toBuffer()
  const alpha = new Float32Array(width * height)
  const rgb = Buffer.alloc(width * height * 3)
  for (let i = 0; i < alpha.length; i++) {
    const a = (grey[i] as number) / 255
    alpha[i] = a
    for (let c = 0; c < 3; c++)
      rgb[i * 3 + c] = Math.round((fill[c] as number) * a + (backdrop[c] as number) * (1 - a))
  }
  const bytes = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer()
  return { bytes, alpha }
}

function alphaOf(subject: Subject): Float32Array {
  const out = new Float32Array(subject.width * subject.height)
  for (let i = 0; i < out.length; i++) out[i] = (subject.data[i * 4 + 3] as number) / 255
  return out
}

/** The true alpha under the subject's cut (the cut is at the photo's full resolution here). */
function truthUnder(subject: Subject, truth: Float32Array, photoWidth: number): Float32Array {
  const out = new Float32Array(subject.width * subject.height)
  for (let y = 0; y < subject.height; y++) {
    for (let x = 0; x < subject.width; x++) {
      out[y * subject.width + x] = truth[(y + subject.box.top) * photoWidth + x + subject.box.left] as number
    }
  }
  return out
}

/**
 * The working-size mask scaled up to the cut bilinearly and nothing more: what a cut would have
 * without the refinement.
 */
function plainUpsample(photo: Photo, mask: Uint8Array, subject: Subject): Float32Array {
  const scale = subject.box.photoWidth / photo.width
  const full = upsampleBilinear(
    Float32Array.from(mask, (v) => v / 255),
    photo.width,
    photo.height,
    subject.box.photoWidth,
    subject.box.photoHeight,
  )
  expect(scale).toBeGreaterThan(1.5)
  const out = new Float32Array(subject.width * subject.height)
  for (let y = 0; y < subject.height; y++) {
    for (let x = 0; x < subject.width; x++) {
      out[y * subject.width + x] = full[
        (y + subject.box.top) * subject.box.photoWidth + x + subject.box.left
      ] as number
    }
  }
  return out
}

/** Mean absolute difference over the band where any of the alphas is neither 0 nor 1. */
function edgeError(candidate: Float32Array, truth: Float32Array, other: Float32Array): number {
  let sum = 0
  let count = 0
  const soft = (v: number) => v > 0.004 && v < 0.996
  for (let i = 0; i < truth.length; i++) {
    if (!soft(truth[i] as number) && !soft(candidate[i] as number) && !soft(other[i] as number)) continue
    sum += Math.abs((candidate[i] as number) - (truth[i] as number))
    count++
  }
  return sum / Math.max(1, count)
}

/** Hue in degrees (0–360) of an RGB colour. */
function hueOf(r: number, g: number, b: number): number {
  const max = Math.max(r, g, b)
  const min = Math.min(r, g, b)
  if (max === min) return 0
  const d = max - min
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4
  return (h * 60 + 360) % 360
}

function hueDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360
  return d > 180 ? 360 - d : d
}

describe('result size follows the product’s own pixels', () => {
  it('offers the standard size, a middle step for 1:1 and 2048 on the long side, all of one shape', () => {
    expect(resultSizes('1:1')).toEqual([
      imageSize['1:1'],
      { width: 1536, height: 1536 },
      { width: 2048, height: 2048 },
    ])
    expect(resultSizes('2:3')).toEqual([imageSize['2:3'], { width: 1365, height: 2048 }])
    expect(resultSizes('9:16')).toEqual([imageSize['9:16'], { width: 1152, height: 2048 }])
    // Enlarged at the standard size: stays there. Half the standard enlargement: as large as allowed.
    expect(resultSizeFor('1:1', 1.4)).toEqual(imageSize['1:1'])
    expect(resultSizeFor('1:1', 0.6)).toEqual({ width: 1536, height: 1536 })
    expect(resultSizeFor('1:1', 0.5)).toEqual({ width: 2048, height: 2048 })
    expect(resultSizeFor('2:3', 0.95)).toEqual(imageSize['2:3'])
  })

  let large: Buffer
  let small: Buffer
  beforeAll(async () => {
    // A 12-megapixel photo whose product is 2400 px tall, and a 600×450 one whose product is 300 px.
    const box = (w: number, h: number, s: number) =>
      `<rect x="${w / 2 - 260 * s}" y="${h / 2 - 600 * s}" width="${520 * s}" height="${1200 * s}" rx="${60 * s}" fill="#fff"/>`
    large = (await knownAlphaPhoto(4000, 3000, box(4000, 3000, 2), [40, 90, 160], [226, 226, 222])).bytes
    small = (await knownAlphaPhoto(600, 450, box(600, 450, 0.25), [40, 90, 160], [226, 226, 222])).bytes
  }, 60_000)

  it('composes a large photo’s product at 2048 px, never enlarged, with no note about size', async () => {
    for (const [ratio, expected] of [
      ['1:1', { width: 2048, height: 2048 }],
      ['2:3', { width: 1365, height: 2048 }],
    ] as const) {
      const result = doneResult(
        await studio.startImageEdit(request(large, 'white studio background', ratio), testContext()),
      )
      const meta = await sharp(result.image.bytes).metadata()
      expect({ width: meta.width, height: meta.height }).toEqual(expected)
      expect(parseOfflineNote(result.description)?.smallPhoto).toBeUndefined()
      // The placement says how large the product was drawn: not larger than its 2400 px.
      expect(result.placement?.height).toBeLessThanOrEqual(3000 * 1.01)
    }
  }, 120_000)

  it('keeps a small photo at the standard size and says how much it was enlarged and what would help', async () => {
    const result = doneResult(
      await studio.startImageEdit(request(small, 'marble countertop', '2:3'), testContext()),
    )
    const meta = await sharp(result.image.bytes).metadata()
    expect({ width: meta.width, height: meta.height }).toEqual(imageSize['2:3'])
    const note = parseOfflineNote(result.description)?.smallPhoto
    expect(note).toBeDefined()
    // The product is 300 px tall (its cut a few pixels more); it is drawn several times larger.
    expect(note?.productSide).toBeGreaterThanOrEqual(300)
    expect(note?.productSide).toBeLessThan(330)
    expect(note?.enlargement).toBeGreaterThan(2)
    // A photo that large would have needed no enlargement at the standard size.
    expect(note?.photoSide).toBeGreaterThanOrEqual(Math.round(600 * (note?.enlargement ?? 0)) - 100)
    expect(note?.photoSide).toBeLessThanOrEqual(Math.round(600 * (note?.enlargement ?? 0)) + 100)
  }, 60_000)
})

describe('the cut at full resolution', () => {
  it('follows a soft edge closer than the working mask scaled up', async () => {
    // An anti-aliased, lens-softened bottle shape, 3200×2400: the cut is made at twice the
    // working size.
    const shape = `<path d="M1350 500 Q1600 380 1850 500 L1900 1900 Q1600 2000 1300 1900 Z" fill="#fff"/>
      <circle cx="1600" cy="420" r="120" fill="#fff"/>`
    const { bytes, alpha } = await knownAlphaPhoto(3200, 2400, shape, [150, 40, 60], [232, 232, 228], 1.2)
    const photo = await loadPhoto(bytes)
    const found = await findSubjectMask(photo)
    expect(found.isSeparated).toBe(true)
    const subject = await separateSubject(photo)
    expect(subject.box.photoWidth).toBe(3200)
    const truth = truthUnder(subject, alpha, 3200)
    const refined = alphaOf(subject)
    const plain = plainUpsample(photo, found.mask, subject)
    const refinedError = edgeError(refined, truth, plain)
    const plainError = edgeError(plain, truth, refined)
    expect(refinedError).toBeLessThan(plainError * 0.75)
  }, 60_000)

  it('frees the edge of the old backdrop’s colour: the edge band moves away from its hue', async () => {
    // A blue product on an orange backdrop (a launch pad's light), softened edges.
    const shape = `<rect x="700" y="400" width="1000" height="1600" rx="140" fill="#fff"/>`
    const orange: Rgb = [226, 120, 40]
    const { bytes, alpha } = await knownAlphaPhoto(2400, 2400, shape, [60, 90, 170], orange, 2)
    const photo = await loadPhoto(bytes)
    const subject = await separateSubject(photo)
    expect(subject.isSeparated).toBe(true)
    const truth = truthUnder(subject, alpha, 2400)
    const backdropHue = hueOf(...orange)
    const raw = await sharp(bytes)
      .extract({ left: subject.box.left, top: subject.box.top, width: subject.width, height: subject.height })
      .removeAlpha()
      .raw()
      .toBuffer()
    let before = 0
    let after = 0
    let count = 0
    for (let i = 0; i < truth.length; i++) {
      const a = subject.data[i * 4 + 3] as number
      if (a < 25 || a > 230) continue
      before += hueDistance(
        hueOf(raw[i * 3] as number, raw[i * 3 + 1] as number, raw[i * 3 + 2] as number),
        backdropHue,
      )
      after += hueDistance(
        hueOf(
          subject.data[i * 4] as number,
          subject.data[i * 4 + 1] as number,
          subject.data[i * 4 + 2] as number,
        ),
        backdropHue,
      )
      count++
    }
    expect(count).toBeGreaterThan(1000)
    // The blue product's hue is about 180° from the orange: the band's colours should be the
    // product's, not halfway.
    expect(after / count).toBeGreaterThan(before / count + 20)
    expect(after / count).toBeGreaterThan(160)
  }, 60_000)

  it('keeps a 6 px wide spoon handle along its whole length', async () => {
    // A 12-megapixel photo of a spoon: a bowl and a 6 px handle 1100 px long, steel on a light backdrop.
    const shape = `<ellipse cx="2000" cy="700" rx="230" ry="340" fill="#fff"/>
      <rect x="1997" y="1020" width="6" height="1100" fill="#fff"/>`
    const { bytes } = await knownAlphaPhoto(4000, 3000, shape, [92, 96, 104], [236, 236, 232])
    const photo = await loadPhoto(bytes)
    const subject = await separateSubject(photo)
    expect(subject.isSeparated).toBe(true)
    // Cut at the photo's own resolution (the spoon is under 2048 px tall).
    expect(subject.box.photoWidth).toBe(4000)
    const handleX = 2000 - subject.box.left
    let thinnest = Number.POSITIVE_INFINITY
    let widest = 0
    for (let y = 1100; y < 2100; y++) {
      const row = y - subject.box.top
      let solid = 0
      for (let x = handleX - 12; x <= handleX + 12; x++) {
        if ((subject.data[(row * subject.width + x) * 4 + 3] as number) >= 128) solid++
      }
      thinnest = Math.min(thinnest, solid)
      widest = Math.max(widest, solid)
    }
    // Kept along its whole length. Too thin for a solid core, its edge is the guided filter's
    // (not the two-colour one), so it may come out a few pixels wider, never twice as wide.
    expect(thinnest).toBeGreaterThanOrEqual(5)
    expect(widest).toBeLessThanOrEqual(12)
    // The cut reaches the handle's end.
    expect(subject.box.top + subject.height).toBeGreaterThanOrEqual(2115)
  }, 60_000)
})
