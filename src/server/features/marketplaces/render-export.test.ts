import { readFile } from 'node:fs/promises'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import { AppError } from '#shared/errors.ts'
import { exportFileName } from './export-file-name.ts'
import { borderWhiteness, inspectImage } from './measure-image.ts'
import { type ExportTarget, exportDpi, fitInside, renderForMarketplace } from './render-export.ts'

// Exports for marketplaces, checked on what a marketplace would see: the decoded JPEG's size,
// where the product ended up in it, the border's pixels, the file's bytes and its headers.

const photosDir = new URL('../../../../tests/fixtures/photos/', import.meta.url)

/** The product: a brown rectangle (with a cream label) at a known box, on a plain backdrop. */
type Box = { left: number; top: number; width: number; height: number }

async function productShot(width: number, height: number, backdrop: string, box: Box): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="${backdrop}"/>
    <rect x="${box.left}" y="${box.top}" width="${box.width}" height="${box.height}" fill="#6b3209"/>
    <rect x="${box.left + box.width * 0.2}" y="${box.top + box.height * 0.4}" width="${box.width * 0.6}" height="${box.height * 0.2}" fill="#f1e6cf"/>
  </svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 95 }).toBuffer()
}

/** The bounding box of the dark product pixels (every channel below 150 and red above blue). */
async function productBox(jpeg: Buffer): Promise<Box & { width: number }> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true })
  let left = info.width
  let right = -1
  let top = info.height
  let bottom = -1
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const o = (y * info.width + x) * info.channels
      const r = data[o] as number
      const b = data[o + 2] as number
      if (r < 150 && b < 60 && r > b + 40) {
        left = Math.min(left, x)
        right = Math.max(right, x)
        top = Math.min(top, y)
        bottom = Math.max(bottom, y)
      }
    }
  }
  return { left, top, width: right - left + 1, height: bottom - top + 1 }
}

async function decoded(jpeg: Buffer) {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

/** The product's box in the input, scaled as the export fits the input inside the target. */
function expectedBox(input: { width: number; height: number }, box: Box, target: ExportTarget): Box {
  const place = fitInside(input.width, input.height, target)
  const scale = place.width / input.width
  return {
    left: place.left + box.left * scale,
    top: place.top + box.top * scale,
    width: box.width * scale,
    height: box.height * scale,
  }
}

const inputs = {
  '1:1': { width: 1080, height: 1080, box: { left: 340, top: 240, width: 400, height: 600 } },
  '9:16': { width: 1080, height: 1920, box: { left: 290, top: 560, width: 500, height: 800 } },
} as const

const targets: ExportTarget[] = [
  { width: 1200, height: 1800, background: 'extend' },
  { width: 2000, height: 2000, background: 'white', maxBytes: 10 * 1024 * 1024 },
  { width: 1080, height: 1350, background: 'extend' },
]

describe('renderForMarketplace: size, product and border', () => {
  for (const [ratio, input] of Object.entries(inputs)) {
    for (const target of targets) {
      it(`${ratio} → ${target.width}×${target.height} ${target.background}: exact size, product whole and unstretched`, async () => {
        const bytes = await productShot(input.width, input.height, '#ffffff', input.box)
        const out = await renderForMarketplace(bytes, target)
        const meta = await sharp(out.bytes).metadata()
        expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', target.width, target.height])
        expect([out.width, out.height]).toEqual([target.width, target.height])
        if (target.maxBytes) expect(out.bytes.length).toBeLessThanOrEqual(target.maxBytes)

        // The whole photo is inside the frame, touching it on two opposite sides (contain).
        const { placement } = out
        expect(placement.left).toBeGreaterThanOrEqual(0)
        expect(placement.top).toBeGreaterThanOrEqual(0)
        expect(placement.left + placement.width).toBeLessThanOrEqual(target.width)
        expect(placement.top + placement.height).toBeLessThanOrEqual(target.height)
        expect(placement.width === target.width || placement.height === target.height).toBe(true)

        // The product where the scaled photo puts it, to within resampling's pixel or two: not
        // cut, and its ratio kept.
        const found = await productBox(out.bytes)
        const expected = expectedBox(input, input.box, target)
        for (const key of ['left', 'top', 'width', 'height'] as const) {
          expect(Math.abs(found[key] - expected[key])).toBeLessThanOrEqual(2)
        }
        expect(found.width / found.height).toBeCloseTo(input.box.width / input.box.height, 1)

        if (target.background === 'white') {
          const image = await decoded(out.bytes)
          expect(borderWhiteness(image.data, image.width, image.height, image.channels).pure).toBe(1)
        }
      })
    }
  }

  it('upscales a 1080×1080 image to fill Trendyol’s 1200 px width', async () => {
    const bytes = await productShot(1080, 1080, '#ffffff', inputs['1:1'].box)
    const out = await renderForMarketplace(bytes, { width: 1200, height: 1800, background: 'extend' })
    expect(out.placement).toEqual({ left: 0, top: 300, width: 1200, height: 1200 })
  })

  it('extends a plain backdrop in its own colour', async () => {
    const bytes = await productShot(1080, 1080, '#d8cfc4', inputs['1:1'].box)
    const out = await renderForMarketplace(bytes, { width: 1080, height: 1920, background: 'extend' })
    const image = await decoded(out.bytes)
    // Rows in the middle of the top and bottom fills, and the first row just outside the photo.
    for (const y of [10, 200, out.placement.top - 1, out.placement.top + out.placement.height, 1900]) {
      for (const x of [5, 540, 1075]) {
        const o = (y * image.width + x) * 3
        expect(Math.abs((image.data[o] as number) - 0xd8)).toBeLessThanOrEqual(3)
        expect(Math.abs((image.data[o + 1] as number) - 0xcf)).toBeLessThanOrEqual(3)
        expect(Math.abs((image.data[o + 2] as number) - 0xc4)).toBeLessThanOrEqual(3)
      }
    }
  })

  it('keeps a real photo whole and unstretched: its place in the export is the photo, scaled', async () => {
    const bytes = await readFile(new URL('coffee.png', photosDir))
    const out = await renderForMarketplace(bytes, { width: 1200, height: 1800, background: 'extend' })
    const { placement } = out
    expect(placement).toEqual({ left: 0, top: 500, width: 1200, height: 800 })
    const region = await sharp(out.bytes).extract(placement).raw().toBuffer()
    const scaled = await sharp(bytes).resize(placement.width, placement.height).removeAlpha().raw().toBuffer()
    let difference = 0
    for (let i = 0; i < region.length; i++)
      difference += Math.abs((region[i] as number) - (scaled[i] as number))
    expect(difference / region.length).toBeLessThan(3)
  })
})

/**
 * How a band of an image changes across (between neighbouring columns) and down (between
 * neighbouring rows), as mean absolute steps, and the share of its columns that hardly change
 * down the band. A smear (an edge row drawn out) changes across but not down: every column a
 * streak. A continued texture changes both ways.
 */
function bandTexture(image: { data: Buffer; width: number; channels: number }, top: number, bottom: number) {
  let across = 0
  let down = 0
  let steps = 0
  let flatColumns = 0
  for (let x = 0; x < image.width - 1; x++) {
    let columnDown = 0
    for (let y = top; y < bottom - 1; y++) {
      const o = (y * image.width + x) * image.channels
      const right = o + image.channels
      const below = o + image.width * image.channels
      for (let c = 0; c < 3; c++) {
        across += Math.abs((image.data[o + c] as number) - (image.data[right + c] as number))
        const step = Math.abs((image.data[o + c] as number) - (image.data[below + c] as number))
        down += step
        columnDown += step
      }
      steps++
    }
    if (columnDown / (bottom - top - 1) / 3 < 0.25) flatColumns++
  }
  return { across: across / steps / 3, down: down / steps / 3, flatShare: flatColumns / (image.width - 1) }
}

describe('renderForMarketplace: the extension continues the photo, never smears it', () => {
  it('extends a textured 1:1 photo to 1200×1800 with a band that varies down as well as across', async () => {
    // Wood-like grain with knots: varied along both axes, as a table or a wall is.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1080">
      <filter id="grain"><feTurbulence type="fractalNoise" baseFrequency="0.012 0.09" numOctaves="4" seed="7"/>
        <feColorMatrix values="0 0 0 0.55 0.35  0 0 0 0.4 0.22  0 0 0 0.25 0.1  0 0 0 0 1"/></filter>
      <rect width="1080" height="1080" filter="url(#grain)"/>
      <rect x="390" y="300" width="300" height="480" fill="#6b3209"/></svg>`
    const bytes = await sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer()
    const out = await renderForMarketplace(bytes, { width: 1200, height: 1800, background: 'extend' })
    const image = await decoded(out.bytes)
    const { top, height } = out.placement
    const photoBand = bandTexture(image, top + height - 200, top + height)
    // The band below the photo (Trendyol's bottom 300 rows).
    const band = bandTexture(image, top + height + 2, image.height)
    // A smear: columns that do not change down the band, and steps across far larger than down.
    expect(band.flatShare).toBeLessThan(0.2)
    expect(band.across / band.down).toBeLessThan(2.5)
    // It is still texture, not a flat fill, though softer than the photo itself.
    expect(band.down).toBeGreaterThan(photoBand.down * 0.1)
  })
})

describe('renderForMarketplace: a white studio result padded to a taller shape', () => {
  it('keeps the added bands exactly white: the product near the edge is not mirrored into them', async () => {
    // The white studio's product fills 88 % of the square: 6 % of white above and below it.
    const bytes = await productShot(1080, 1080, '#ffffff', { left: 240, top: 65, width: 600, height: 950 })
    const out = await renderForMarketplace(bytes, { width: 1200, height: 1800, background: 'extend' })
    const image = await decoded(out.bytes)
    const { top, height } = out.placement
    let offWhite = 0
    for (let y = 0; y < image.height; y++) {
      if (y >= top - 8 && y < top + height + 8) continue
      for (let x = 0; x < image.width; x++) {
        const o = (y * image.width + x) * 3
        if (image.data[o] !== 255 || image.data[o + 1] !== 255 || image.data[o + 2] !== 255) offWhite++
      }
    }
    expect(offWhite).toBe(0)
  })
})

describe('renderForMarketplace: white backgrounds with the product mask', () => {
  /** A stand-in segmenter: the product is whatever is far from the 240-grey studio backdrop. */
  const studio: Pick<Segmenter, 'segment'> = {
    async segment(image) {
      const alpha = new Uint8Array(image.width * image.height)
      for (let i = 0; i < alpha.length; i++) {
        alpha[i] = (image.data[i * image.channels] as number) < 200 ? 255 : 0
      }
      return {
        alpha,
        width: image.width,
        height: image.height,
        confidence: 0.99,
        foregroundShare: 0,
        borderCoverage: 0,
        centroid: { x: 0.5, y: 0.5 },
      }
    },
  }

  it('replaces an off-white studio (240) with pure white, leaving the product as it was', async () => {
    const box = inputs['1:1'].box
    const bytes = await productShot(1080, 1080, 'rgb(240,240,240)', box)
    const { facts, mask } = await inspectImage(bytes, { isGenerated: false, segmenter: studio })
    expect(facts.borderPureWhiteShare).toBe(0)
    expect(mask).not.toBeNull()
    const target: ExportTarget = { width: 2000, height: 2000, background: 'white' }
    const out = await renderForMarketplace(bytes, target, { mask })
    const image = await decoded(out.bytes)
    expect(borderWhiteness(image.data, image.width, image.height, 3)).toEqual({ white: 1, pure: 1 })

    // Everything 16 px (a JPEG block of chroma) or more outside the product is exactly white.
    const product = expectedBox({ width: 1080, height: 1080 }, box, target)
    let offWhite = 0
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const isNear =
          x > product.left - 16 &&
          x < product.left + product.width + 16 &&
          y > product.top - 16 &&
          y < product.top + product.height + 16
        if (isNear) continue
        const o = (y * image.width + x) * 3
        if (image.data[o] !== 255 || image.data[o + 1] !== 255 || image.data[o + 2] !== 255) offWhite++
      }
    }
    expect(offWhite).toBe(0)
    // The product's middle keeps its colour (#6b3209).
    const o =
      (Math.round(product.top + product.height * 0.15) * image.width +
        Math.round(product.left + product.width / 2)) *
      3
    expect(Math.abs((image.data[o] as number) - 0x6b)).toBeLessThanOrEqual(4)
    expect(Math.abs((image.data[o + 2] as number) - 0x09)).toBeLessThanOrEqual(4)
  })

  it('crops to fill: the product scaled to the share asked for, centred, on pure white', async () => {
    // A small product (a quarter of the frame) off to one side: a main image Amazon would suppress.
    const box = { left: 150, top: 200, width: 180, height: 270 }
    const bytes = await productShot(1080, 1080, 'rgb(240,240,240)', box)
    const { mask } = await inspectImage(bytes, { isGenerated: false, segmenter: studio })
    const target: ExportTarget = { width: 2000, height: 2000, background: 'white', fillShare: 0.88 }
    const out = await renderForMarketplace(bytes, target, { mask })
    const product = await productBox(out.bytes)
    // Its longer side (the height) fills 88 % (give or take the mask's 640 px steps), centred.
    expect(product.height / 2000).toBeGreaterThan(0.86)
    expect(product.height / 2000).toBeLessThan(0.9)
    expect(Math.abs(product.left + product.width / 2 - 1000)).toBeLessThan(20)
    expect(Math.abs(product.top + product.height / 2 - 1000)).toBeLessThan(20)
    const image = await decoded(out.bytes)
    expect(borderWhiteness(image.data, image.width, image.height, 3)).toEqual({ white: 1, pure: 1 })
  })

  it('without a mask pads with pure white and leaves the photo as it is', async () => {
    const bytes = await productShot(1080, 1920, 'rgb(240,240,240)', inputs['9:16'].box)
    const out = await renderForMarketplace(bytes, { width: 2000, height: 2000, background: 'white' })
    const image = await decoded(out.bytes)
    const at = (x: number, y: number) => image.data[(y * image.width + x) * 3] as number
    expect(at(10, 1000)).toBe(255)
    expect(Math.abs(at(1000, 10) - 240)).toBeLessThanOrEqual(2)
  })
})

describe('renderForMarketplace: the file', () => {
  it('writes sRGB JPEG with no EXIF, XMP or ICC profile and a 96 dpi JFIF header', async () => {
    // sharp stores #c04040 as Display P3 numbers (about #b24945) and tags the file P3.
    const bytes = await sharp({ create: { width: 900, height: 600, channels: 3, background: '#c04040' } })
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-metadata', Artist: 'someone' } } })
      .withIccProfile('p3')
      .jpeg({ quality: 100 })
      .toBuffer()
    const input = await sharp(bytes).metadata()
    expect(input.exif).toBeDefined()
    expect(input.icc).toBeDefined()
    const out = await renderForMarketplace(bytes, { width: 1200, height: 1800, background: 'extend' })
    const meta = await sharp(out.bytes).metadata()
    expect(meta.space).toBe('srgb')
    expect(meta.channels).toBe(3)
    expect(meta.exif).toBeUndefined()
    expect(meta.xmp).toBeUndefined()
    expect(meta.icc).toBeUndefined()
    expect(meta.density).toBe(exportDpi)
    expect(out.bytes.includes('secret-metadata')).toBe(false)
    // Converted from P3, not copied: untagged, the numbers are the sRGB colour again.
    const { data } = await sharp(out.bytes)
      .extract({ left: 600, top: 900, width: 1, height: 1 })
      .raw()
      .toBuffer({
        resolveWithObject: true,
      })
    expect(Math.abs((data[0] as number) - 0xc0)).toBeLessThanOrEqual(3)
    expect(Math.abs((data[1] as number) - 0x40)).toBeLessThanOrEqual(3)
  })

  it('converts a CMYK photo and a photo in Adobe RGB to sRGB', async () => {
    const cmyk = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#3060c0' } })
      .toColourspace('cmyk')
      .jpeg()
      .toBuffer()
    const adobe = await readFile(new URL('rocket.jpg', photosDir))
    for (const bytes of [cmyk, adobe]) {
      const out = await renderForMarketplace(bytes, { width: 1080, height: 1080, background: 'white' })
      const meta = await sharp(out.bytes).metadata()
      expect([meta.space, meta.channels, meta.icc]).toEqual(['srgb', 3, undefined])
    }
  })

  it('steps the quality down until the file fits the limit', async () => {
    // Noise compresses badly: at quality 92 this is far over 1.5 MB.
    const noise = Buffer.alloc(1500 * 1500 * 3)
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24
    const bytes = await sharp(noise, { raw: { width: 1500, height: 1500, channels: 3 } })
      .png()
      .toBuffer()
    const free = await renderForMarketplace(bytes, { width: 1500, height: 1500, background: 'extend' })
    expect(free.quality).toBe(92)
    const maxBytes = Math.round(free.bytes.length * 0.75)
    const limited = await renderForMarketplace(bytes, {
      width: 1500,
      height: 1500,
      background: 'extend',
      maxBytes,
    })
    expect(limited.bytes.length).toBeLessThanOrEqual(maxBytes)
    expect(limited.quality).toBeLessThan(92)
    expect(limited.quality).toBeGreaterThanOrEqual(60)
  })

  it('refuses with EXPORT_TOO_LARGE when even the lowest quality is over the limit', async () => {
    const bytes = await productShot(1080, 1080, '#ffffff', inputs['1:1'].box)
    await expect(
      renderForMarketplace(bytes, { width: 2000, height: 2000, background: 'white', maxBytes: 5_000 }),
    ).rejects.toSatisfy((error) => error instanceof AppError && error.code === 'EXPORT_TOO_LARGE')
  })

  it('refuses bytes that are not an image with IMAGE_UNREADABLE', async () => {
    await expect(
      renderForMarketplace(Buffer.from('nope'), { width: 100, height: 100, background: 'white' }),
    ).rejects.toSatisfy((error) => error instanceof AppError && error.code === 'IMAGE_UNREADABLE')
  })
})

describe('exportFileName', () => {
  it.each([
    [{ skuOrName: 'KRM-001', marketplace: 'trendyol', n: 1 }, 'KRM-001-trendyol-1.jpg'],
    [{ skuOrName: 'İpek Şal', marketplace: 'amazon-tr', n: 3 }, 'İpek Şal-amazon-tr-3.jpg'],
    [{ skuOrName: '../../etc/passwd', marketplace: 'n11', n: 2 }, '____etc_passwd-n11-2.jpg'],
    [{ skuOrName: 'CON', marketplace: 'etsy', n: 1 }, '_CON-etsy-1.jpg'],
    [{ skuOrName: '=cmd', marketplace: 'shopify', n: 1 }, '_=cmd-shopify-1.jpg'],
    [{ skuOrName: 'gpj\u202Eexe', marketplace: 'instagram feed', n: 1 }, 'gpj_exe-instagram-feed-1.jpg'],
    [{ skuOrName: '  ', marketplace: 'hepsiburada', n: 1 }, 'product-hepsiburada-1.jpg'],
  ])('%j → %s', (input, expected) => {
    expect(exportFileName(input)).toBe(expected)
  })

  it('caps a long name by characters and refuses a number below 1', () => {
    expect(exportFileName({ skuOrName: 'ş'.repeat(200), marketplace: 'trendyol', n: 1 })).toBe(
      `${'ş'.repeat(80)}-trendyol-1.jpg`,
    )
    expect(() => exportFileName({ skuOrName: 'x', marketplace: 'trendyol', n: 0 })).toThrow()
  })
})
