import { readFile } from 'node:fs/promises'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { composeOnBackdrop } from '#server/providers/offline-studio/composite.ts'
import { renderProductScene, whiteStudio } from '#server/providers/offline-studio/scene-backgrounds.ts'
import { loadPhoto, type Subject, separateSubject } from '#server/providers/offline-studio/separate.ts'
import { createSegmenter } from '#server/segmentation/segmenter.ts'
import { checkImage } from '#shared/marketplaces/check.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import { productPhoto, thinProductPhoto } from '#tests/support/test-photos.ts'
import { backgroundWhiteness, type ImageInspection, inspectImage } from './measure-image.ts'

// The offline studio's white background, as a marketplace sees it: measured on the result with
// the checker's own measurement (the product's mask from the segmentation model), never by eye.
// Two real photos (a top-down cup on a wooden table, a thin rocket at night) and two generated
// ones (a bottle, a thin pen on a vignetted studio backdrop), each cut out once and composed at
// the 1:1 default and at Trendyol's 1200×1800.

const photosDir = new URL('../../../../tests/fixtures/photos/', import.meta.url)
const segmenter = createSegmenter()
afterAll(() => segmenter.close())

/** Outside the product's mask and this rim (about 1 % of a 1080 px side), 98 % must be 255,255,255. */
const rim = 10
const minWhite = 0.98

type Measured = { jpeg: Buffer; inspection: ImageInspection; white: number }

async function measured(jpeg: Buffer): Promise<Measured> {
  const inspection = await inspectImage(jpeg, { isGenerated: true, segmenter })
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true })
  const mask = inspection.mask
  if (!mask) throw new Error('no product found on the result')
  const white = await backgroundWhiteness(
    { data, width: info.width, height: info.height, channels: info.channels },
    mask,
    rim,
  )
  return { jpeg, inspection, white }
}

const photos: { name: string; bytes: () => Promise<Buffer> }[] = [
  { name: 'coffee (real, top-down)', bytes: () => readFile(new URL('coffee.png', photosDir)) },
  { name: 'rocket (real, thin)', bytes: () => readFile(new URL('rocket.jpg', photosDir)) },
  { name: 'bottle (generated)', bytes: () => productPhoto({ width: 900, height: 900 }) },
  { name: 'pen (generated, thin)', bytes: () => thinProductPhoto() },
]

describe.each(photos)('the white studio: $name', ({ bytes }) => {
  let subject: Subject
  let square: Measured
  beforeAll(async () => {
    subject = await separateSubject(await loadPhoto(await bytes()), segmenter)
    square = await measured(await composeOnBackdrop(await renderProductScene('white-studio', '1:1'), subject))
  }, 120_000)

  it('is #FFFFFF outside the product and its contact shadow', () => {
    expect(subject.isSeparated).toBe(true)
    expect(square.white).toBeGreaterThanOrEqual(minWhite)
    // The frame's border band too, as the checker reads it.
    expect(square.inspection.facts.borderPureWhiteShare).toBe(1)
  })

  it("fills 85 % of the frame along the product's longer side, with a margin to the frame", () => {
    const product = square.inspection.facts.product
    expect(product).not.toBeNull()
    expect(product?.fillShare).toBeGreaterThanOrEqual(0.85)
    expect(product?.fillShare).toBeLessThanOrEqual(0.95)
    expect(product?.touchesEdge).toBe(false)
  })

  it("passes Amazon's main-image rules for background, fill and cut-off", () => {
    const results = checkImage(getProfile('amazon-tr'), square.inspection.facts, 'main')
    for (const rule of ['image.background', 'image.fill', 'image.cutOff'] as const) {
      expect(results.find((r) => r.ruleId === rule)?.status, rule).toBe('pass')
    }
  })

  it("is composed at Trendyol's 1200×1800, white and filled, not padded from the square", async () => {
    const frame = { width: 1200, height: 1800, isTall: true }
    const tall = await measured(await composeOnBackdrop(whiteStudio(frame), subject))
    expect(tall.inspection.facts).toMatchObject({ width: 1200, height: 1800 })
    expect(tall.white).toBeGreaterThanOrEqual(minWhite)
    expect(tall.inspection.facts.product?.fillShare).toBeGreaterThanOrEqual(0.85)
    expect(tall.inspection.facts.product?.touchesEdge).toBe(false)
  }, 60_000)
})
