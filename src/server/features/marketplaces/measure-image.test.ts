import { readFile } from 'node:fs/promises'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { AppError } from '#shared/errors.ts'
import { inspectImage, measureImage, productPlacement, sniffImageFormat } from './measure-image.ts'

// Measuring images for the checker. Crafted pictures go through a stand-in segmenter whose mask
// is exactly "not the backdrop colour", so the figures test the measuring, not the model; one
// real photo goes through the real model.

// These tests never touch the database: the PostgreSQL run of the server suite skips them.
const isPostgresRun = process.env.VITRIN_TEST_ENGINE === 'postgres'

/** A segmenter whose product is every pixel further than 40 from `backdrop` (any channel). */
function thresholdSegmenter(
  backdrop: [number, number, number],
  confidence = 0.99,
): Pick<Segmenter, 'segment'> {
  return {
    async segment(image) {
      const alpha = new Uint8Array(image.width * image.height)
      for (let i = 0; i < alpha.length; i++) {
        const o = i * image.channels
        const isProduct = [0, 1, 2].some(
          (c) => Math.abs((image.data[o + c] as number) - (backdrop[c] as number)) > 40,
        )
        alpha[i] = isProduct ? 255 : 0
      }
      // Figures the measurement must not trust: it summarises the alpha itself.
      return {
        alpha,
        width: image.width,
        height: image.height,
        confidence,
        foregroundShare: 0.5,
        borderCoverage: 0,
        centroid: { x: 0.5, y: 0.5 },
      }
    },
  }
}

/** A width×height picture on `backdrop` with a dark rectangle (the product) at the given box. */
function picture(
  width: number,
  height: number,
  backdrop: string,
  box: { left: number; top: number; width: number; height: number } | null,
) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="${backdrop}"/>
    ${box ? `<rect x="${box.left}" y="${box.top}" width="${box.width}" height="${box.height}" fill="#6b3209"/>` : ''}
  </svg>`
  return sharp(Buffer.from(svg))
}

const white = thresholdSegmenter([255, 255, 255])

describe('measureImage on crafted images', () => {
  it('reads size, bytes, format and colour space from the file', async () => {
    const bytes = await picture(1200, 1800, '#ffffff', { left: 300, top: 400, width: 600, height: 900 })
      .jpeg()
      .toBuffer()
    const facts = await measureImage(bytes, { isGenerated: true, segmenter: white })
    expect(facts).toMatchObject({
      width: 1200,
      height: 1800,
      bytes: bytes.length,
      format: 'jpeg',
      colourSpace: 'srgb',
      isGenerated: true,
      text: null,
    })
  })

  it('counts a white border as white and pure, an off-white (245) one as neither, 252 as white but not pure', async () => {
    const measure = async (backdrop: string) =>
      measureImage(await picture(1000, 1000, backdrop, null).png().toBuffer(), {
        isGenerated: false,
        segmenter: white,
      })
    const pure = await measure('#ffffff')
    expect(pure.borderWhiteShare).toBe(1)
    expect(pure.borderPureWhiteShare).toBe(1)
    const offWhite = await measure('rgb(245,245,245)')
    expect(offWhite.borderWhiteShare).toBe(0)
    expect(offWhite.borderPureWhiteShare).toBe(0)
    const nearly = await measure('rgb(252,252,252)')
    expect(nearly.borderWhiteShare).toBe(1)
    expect(nearly.borderPureWhiteShare).toBe(0)
  })

  it('measures only the outer 2 % of each side as the border', async () => {
    // A grey frame 10 px wide on a 1000 px image: half of the 20 px band.
    const bytes = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#808080' } })
      .composite([
        {
          input: { create: { width: 980, height: 980, channels: 3, background: '#ffffff' } },
          left: 10,
          top: 10,
        },
      ])
      .png()
      .toBuffer()
    const facts = await measureImage(bytes, { isGenerated: false, segmenter: white })
    // Band: 1000² − 960² pixels; grey: 1000² − 980².
    expect(facts.borderWhiteShare).toBeCloseTo(1 - (1000 ** 2 - 980 ** 2) / (1000 ** 2 - 960 ** 2), 3)
  })

  it('gives a product filling 60 % of the frame a fill share of about 0.6, with its area share', async () => {
    const bytes = await picture(1000, 1000, '#ffffff', { left: 200, top: 300, width: 600, height: 400 })
      .jpeg({ quality: 95 })
      .toBuffer()
    const facts = await measureImage(bytes, { isGenerated: false, segmenter: white })
    expect(facts.product?.fillShare).toBeCloseTo(0.6, 2)
    expect(facts.product?.areaShare).toBeCloseTo(0.24, 2)
    expect(facts.product?.touchesEdge).toBe(false)
  })

  it('takes the side along which the product comes closest to the frame on a portrait image', async () => {
    // 1200×1800, product 1020 wide (85 %) and 900 tall (50 %).
    const bytes = await picture(1200, 1800, '#ffffff', { left: 90, top: 450, width: 1020, height: 900 })
      .png()
      .toBuffer()
    const facts = await measureImage(bytes, { isGenerated: false, segmenter: white })
    expect(facts.product?.fillShare).toBeCloseTo(0.85, 2)
  })

  it('flags a product cut off at an edge, and not one a few pixels short of it', async () => {
    const touching = await picture(1000, 1000, '#ffffff', { left: 600, top: 300, width: 400, height: 400 })
      .png()
      .toBuffer()
    const near = await picture(1000, 1000, '#ffffff', { left: 590, top: 300, width: 400, height: 400 })
      .png()
      .toBuffer()
    expect(
      (await measureImage(touching, { isGenerated: false, segmenter: white })).product?.touchesEdge,
    ).toBe(true)
    expect((await measureImage(near, { isGenerated: false, segmenter: white })).product?.touchesEdge).toBe(
      false,
    )
  })

  it('reports no product when the mask is not believable: empty, nearly everything, or unsure', async () => {
    const empty = await picture(800, 800, '#ffffff', null).png().toBuffer()
    expect((await measureImage(empty, { isGenerated: false, segmenter: white })).product).toBeNull()
    const full = await picture(800, 800, '#ffffff', { left: 0, top: 0, width: 800, height: 800 })
      .png()
      .toBuffer()
    expect((await measureImage(full, { isGenerated: false, segmenter: white })).product).toBeNull()
    const fine = await picture(800, 800, '#ffffff', { left: 200, top: 200, width: 400, height: 400 })
      .png()
      .toBuffer()
    const unsure = thresholdSegmenter([255, 255, 255], 0.5)
    const inspection = await inspectImage(fine, { isGenerated: false, segmenter: unsure })
    expect(inspection.facts.product).toBeNull()
    expect(inspection.mask).toBeNull()
  })

  it('measures the image as shown: EXIF orientation applied', async () => {
    const bytes = await picture(1200, 800, '#ffffff', { left: 100, top: 100, width: 300, height: 300 })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer()
    const facts = await measureImage(bytes, { isGenerated: false, segmenter: white })
    expect([facts.width, facts.height]).toEqual([800, 1200])
  })

  it('tells colour spaces apart: sRGB, CMYK, grey, and RGB tagged with another profile', async () => {
    const base = () => sharp({ create: { width: 64, height: 64, channels: 3, background: '#c08040' } })
    const space = async (bytes: Buffer) =>
      (await measureImage(bytes, { isGenerated: false, segmenter: white })).colourSpace
    expect(await space(await base().withIccProfile('srgb').jpeg().toBuffer())).toBe('srgb')
    expect(await space(await base().toColourspace('cmyk').jpeg().toBuffer())).toBe('cmyk')
    expect(await space(await base().toColourspace('b-w').jpeg().toBuffer())).toBe('grey')
    expect(await space(await base().withIccProfile('p3').jpeg().toBuffer())).toBe('other')
  })

  it('sniffs the format by content', async () => {
    const base = () => sharp({ create: { width: 16, height: 16, channels: 3, background: '#c08040' } })
    expect(sniffImageFormat(await base().png().toBuffer())).toBe('png')
    expect(sniffImageFormat(await base().webp().toBuffer())).toBe('webp')
    expect(sniffImageFormat(await base().gif().toBuffer())).toBe('gif')
    expect(sniffImageFormat(await base().tiff().toBuffer())).toBe('tiff')
    expect(sniffImageFormat(Buffer.from('\0\0\0\x18ftypheic\0\0\0\0', 'latin1'))).toBe('heic')
    expect(sniffImageFormat(Buffer.from('not an image'))).toBe('other')
  })

  it('refuses bytes that are not an image with IMAGE_UNREADABLE', async () => {
    await expect(
      measureImage(Buffer.from('nope'), { isGenerated: false, segmenter: white }),
    ).rejects.toSatisfy((error) => error instanceof AppError && error.code === 'IMAGE_UNREADABLE')
  })
})

describe('productPlacement', () => {
  it('measures the bounding box, not the area, for the fill share', () => {
    // A 10×10 mask with a diagonal line from corner to corner: fills the whole frame, tiny area.
    const alpha = new Uint8Array(100)
    for (let i = 0; i < 10; i++) alpha[i * 10 + i] = 255
    expect(productPlacement(alpha, 10, 10)).toMatchObject({ fillShare: 1, areaShare: 0.1 })
  })

  it('ignores a few stray pixels on the edge', () => {
    const width = 400
    const alpha = new Uint8Array(width * width)
    for (let y = 100; y < 300; y++) for (let x = 100; x < 300; x++) alpha[y * width + x] = 255
    alpha[0] = 255
    alpha[1] = 255
    expect(productPlacement(alpha, width, width)?.touchesEdge).toBe(false)
  })
})

describe.skipIf(isPostgresRun)('measureImage with the real model on a real photo', () => {
  it('finds the cup and saucer on the wooden table, inside the frame', async () => {
    const bytes = await readFile(new URL('../../../../tests/fixtures/photos/coffee.png', import.meta.url))
    const { facts, mask } = await inspectImage(bytes, { isGenerated: false, segmenter: sharedSegmenter() })
    expect(facts).toMatchObject({ width: 600, height: 400, format: 'png', colourSpace: 'srgb' })
    // The saucer spans most of the photo's height; the table shows all round it.
    expect(facts.product?.fillShare).toBeGreaterThan(0.8)
    expect(facts.product?.fillShare).toBeLessThan(0.99)
    expect(facts.product?.areaShare).toBeGreaterThan(0.3)
    expect(facts.product?.areaShare).toBeLessThan(0.7)
    expect(facts.product?.touchesEdge).toBe(false)
    expect(facts.borderWhiteShare).toBe(0)
    expect(mask?.width).toBe(600)
  })
})

describe('measureImage with a text reader', () => {
  it('stores the words the reader gives, and null when it cannot read', async () => {
    const bytes = await picture(600, 600, '#ffffff', { left: 100, top: 100, width: 400, height: 400 })
      .png()
      .toBuffer()
    const read: Buffer[] = []
    const facts = await measureImage(bytes, {
      isGenerated: true,
      segmenter: white,
      readText: async (image) => {
        read.push(image)
        return ['İNDİRİM']
      },
    })
    expect(facts.text).toEqual(['İNDİRİM'])
    expect(read).toEqual([bytes])
    const unread = await measureImage(bytes, {
      isGenerated: true,
      segmenter: white,
      readText: async () => null,
    })
    expect(unread.text).toBeNull()
  })
})
