import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import {
  buildProductLayer,
  compositeProduct,
  containPlacement,
  findProductMask,
  keepProductOnScene,
  type ProductLayer,
  type RgbImage,
  sceneAtFrame,
  shadowStyleFor,
} from './keep-product.ts'

// "Keep my product exactly" (issue 14, point 4): crafted photos whose product is known to the
// pixel, a stand-in segmenter that finds exactly that product, and scenes of plain colours, so
// every claim about the composite can be checked pixel by pixel.

const backdrop: [number, number, number] = [235, 235, 235]

/** A segmenter whose product is every pixel further than 40 from the light grey backdrop. */
const thresholdSegmenter: Pick<Segmenter, 'segment'> = {
  async segment(image) {
    const alpha = new Uint8Array(image.width * image.height)
    for (let i = 0; i < alpha.length; i++) {
      const o = i * image.channels
      const isProduct = [0, 1, 2].some(
        (c) => Math.abs((image.data[o + c] as number) - (backdrop[c] as number)) > 40,
      )
      alpha[i] = isProduct ? 255 : 0
    }
    // The composite must judge the mask itself: these figures are not trusted.
    return {
      alpha,
      width: image.width,
      height: image.height,
      confidence: 0.99,
      foregroundShare: 0.5,
      borderCoverage: 0,
      centroid: { x: 0.5, y: 0.5 },
    }
  },
}

const emptySegmenter: Pick<Segmenter, 'segment'> = {
  async segment(image) {
    return {
      alpha: new Uint8Array(image.width * image.height),
      width: image.width,
      height: image.height,
      confidence: 0.99,
      foregroundShare: 0.3,
      borderCoverage: 0,
      centroid: { x: 0.5, y: 0.5 },
    }
  },
}

/** The product's rectangle in the crafted photo: a noisy red box (noise, so any resampling shows). */
function productBox(width: number, height: number) {
  return {
    left: Math.round(width * 0.3),
    top: Math.round(height * 0.25),
    right: Math.round(width * 0.7),
    bottom: Math.round(height * 0.8),
  }
}

/** A lossless photo: the backdrop with the noisy red product box. */
async function craftedPhoto(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3)
  const box = productBox(width, height)
  let seed = 7
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 3
      const isProduct = x >= box.left && x < box.right && y >= box.top && y < box.bottom
      const colour = isProduct
        ? [150 + Math.floor(random() * 80), 20 + Math.floor(random() * 40), 30 + Math.floor(random() * 30)]
        : backdrop
      raw[o] = colour[0] as number
      raw[o + 1] = colour[1] as number
      raw[o + 2] = colour[2] as number
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer()
}

/** A scene of one colour, left half and right half each their own (to lean the light). */
async function sceneOf(
  width: number,
  height: number,
  left: [number, number, number],
  right = left,
): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = x < width / 2 ? left : right
      raw.set(colour, (y * width + x) * 3)
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer()
}

async function rawOf(bytes: Buffer): Promise<RgbImage> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

function pixel(image: { data: Buffer; width: number }, x: number, y: number): number[] {
  const o = (y * image.width + x) * 3
  return [image.data[o] as number, image.data[o + 1] as number, image.data[o + 2] as number]
}

/** Counts of the layer's alpha: solid (255), edge (1–254). */
function alphaCounts(layer: ProductLayer) {
  let solid = 0
  let edge = 0
  for (const a of layer.alpha) {
    if (a === 255) solid++
    else if (a > 0) edge++
  }
  return { solid, edge }
}

describe('placement of the original in the output frame', () => {
  it('fits the photo whole into the frame, centred, at scale 1 when it is the frame’s own size', () => {
    expect(containPlacement({ width: 1080, height: 1080 }, { width: 1080, height: 1080 })).toEqual({
      left: 0,
      top: 0,
      width: 1080,
      height: 1080,
    })
    expect(containPlacement({ width: 1080, height: 1080 }, { width: 1080, height: 1920 })).toEqual({
      left: 0,
      top: 420,
      width: 1080,
      height: 1080,
    })
    expect(containPlacement({ width: 400, height: 300 }, { width: 1080, height: 1920 })).toEqual({
      left: 0,
      top: 555,
      width: 1080,
      height: 810,
    })
    expect(containPlacement({ width: 3000, height: 1000 }, { width: 1080, height: 1080 })).toEqual({
      left: 0,
      top: 360,
      width: 1080,
      height: 360,
    })
  })
})

describe('keep my product exactly', () => {
  it('keeps the product pixels bit-identical inside the mask at scale 1, feathering only the edge', async () => {
    const original = await craftedPhoto(1080, 1080)
    const scene = await sceneOf(1080, 1080, [40, 90, 160])
    const frame = { width: 1080, height: 1080 }
    const kept = await keepProductOnScene({ original, scene, frame, segmenter: thresholdSegmenter })
    if (!kept.isKept) throw new Error('expected the product to be kept')
    expect(kept.mime).toBe('image/png')
    const result = await rawOf(kept.bytes)
    const source = await rawOf(original)
    expect([result.width, result.height]).toEqual([1080, 1080])

    const mask = await findProductMask(original, thresholdSegmenter)
    if (!mask) throw new Error('expected a mask')
    const layer = await buildProductLayer(original, mask, containPlacement(frame, frame), frame)
    if (!layer) throw new Error('expected a layer')
    expect([layer.left, layer.top, layer.width, layer.height]).toEqual([0, 0, 1080, 1080])

    const box = productBox(1080, 1080)
    const { solid, edge } = alphaCounts(layer)
    // Nearly all of the product is solid; the edge band is a couple of pixels along its outline.
    const area = (box.right - box.left) * (box.bottom - box.top)
    expect(solid).toBeGreaterThan(area * 0.97)
    expect(edge).toBeLessThan(2 * (box.right - box.left + box.bottom - box.top) * 5)
    let compared = 0
    let differing = 0
    let edgeAwayFromOutline = 0
    for (let y = 0; y < 1080; y++) {
      for (let x = 0; x < 1080; x++) {
        const a = layer.alpha[y * 1080 + x] as number
        if (a === 255) {
          compared++
          const o = (y * 1080 + x) * 3
          if (result.data.compare(source.data, o, o + 3, o, o + 3) !== 0) differing++
        }
        if (a > 0 && a < 255) {
          // Only along the product's outline: within 3 px of the box's edge.
          const distance = Math.min(
            Math.abs(x - box.left),
            Math.abs(x - box.right),
            Math.abs(y - box.top),
            Math.abs(y - box.bottom),
          )
          if (distance > 3) edgeAwayFromOutline++
        }
      }
    }
    expect(compared).toBe(solid)
    expect(differing).toBe(0)
    expect(edgeAwayFromOutline).toBe(0)
    // The scene is kept away from the product and its shadow (the top-left corner).
    expect(pixel(result, 20, 20)).toEqual([40, 90, 160])
  })

  it('lays a square photo into a 9:16 frame at scale 1, 420 px down, still bit-identical', async () => {
    const original = await craftedPhoto(1080, 1080)
    const scene = await sceneOf(1080, 1920, [200, 190, 170])
    const kept = await keepProductOnScene({
      original,
      scene,
      frame: { width: 1080, height: 1920 },
      segmenter: thresholdSegmenter,
    })
    if (!kept.isKept) throw new Error('expected the product to be kept')
    const result = await rawOf(kept.bytes)
    const source = await rawOf(original)
    const box = productBox(1080, 1080)
    // Two pixels in from the outline, every pixel of the product is the original's.
    for (let y = box.top + 3; y < box.bottom - 3; y += 3) {
      for (let x = box.left + 3; x < box.right - 3; x += 3) {
        expect(pixel(result, x, y + 420)).toEqual(pixel(source, x, y))
      }
    }
  })

  it('builds the layer from the original resampled by the placement when the scale is not 1', async () => {
    const original = await craftedPhoto(400, 300)
    const frame = { width: 1080, height: 1080 }
    const mask = await findProductMask(original, thresholdSegmenter)
    if (!mask) throw new Error('expected a mask')
    const layer = await buildProductLayer(
      original,
      mask,
      containPlacement({ width: 400, height: 300 }, frame),
      frame,
    )
    if (!layer) throw new Error('expected a layer')
    expect([layer.left, layer.top, layer.width, layer.height]).toEqual([0, 135, 1080, 810])
    const resampled = await rawOf(
      await sharp(original).resize(1080, 810, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer(),
    )
    let compared = 0
    let differing = 0
    for (let i = 0; i < layer.alpha.length; i++) {
      if (layer.alpha[i] !== 255) continue
      compared++
      if (layer.rgb.compare(resampled.data, i * 3, i * 3 + 3, i * 3, i * 3 + 3) !== 0) differing++
    }
    expect(differing).toBe(0)
    expect(compared).toBeGreaterThan(1080 * 810 * 0.2)
  })

  it('clips a placement that reaches past the frame (the offline studio enlarges products)', async () => {
    const original = await craftedPhoto(400, 300)
    const frame = { width: 1080, height: 1080 }
    const mask = await findProductMask(original, thresholdSegmenter)
    if (!mask) throw new Error('expected a mask')
    const layer = await buildProductLayer(
      original,
      mask,
      { left: -400, top: -300, width: 1600, height: 1200 },
      frame,
    )
    if (!layer) throw new Error('expected a layer')
    expect([layer.left, layer.top, layer.width, layer.height]).toEqual([0, 0, 1080, 900])
    // Photo pixel (200, 150), the product's middle, lands at 4 × 200 − 400 = 400, 4 × 150 − 300 = 300.
    expect(layer.alpha[300 * layer.width + 400]).toBe(255)
    expect(
      await buildProductLayer(original, mask, { left: 1200, top: 0, width: 400, height: 300 }, frame),
    ).toBeNull()
  })

  it('draws the shadow under the product and beside it, never over it', async () => {
    const original = await craftedPhoto(1080, 1080)
    const frame = { width: 1080, height: 1080 }
    const scene = await sceneAtFrame(await sceneOf(1080, 1080, [230, 230, 230]), frame)
    const mask = await findProductMask(original, thresholdSegmenter)
    if (!mask) throw new Error('expected a mask')
    const layer = await buildProductLayer(original, mask, containPlacement(frame, frame), frame)
    if (!layer) throw new Error('expected a layer')
    const strong = { opacity: 0.9, dx: 12, dy: 12, sigma: 8 }
    const out = { data: await compositeProduct(scene, layer, { shadow: strong }), width: 1080 }
    const plain = { data: await compositeProduct(scene, layer, { shadow: null }), width: 1080 }
    const box = productBox(1080, 1080)
    let overProduct = 0
    for (let i = 0; i < layer.alpha.length; i++) {
      if (layer.alpha[i] === 255 && out.data.compare(layer.rgb, i * 3, i * 3 + 3, i * 3, i * 3 + 3) !== 0)
        overProduct++
    }
    expect(overProduct).toBe(0)
    // Below the base and to the lower right (away from the light) the floor is darker…
    const below = pixel(out, (box.left + box.right) / 2, box.bottom + 4)
    expect(below[0]).toBeLessThan(200)
    expect(pixel(out, box.right + 6, box.bottom - 40)[0]).toBeLessThan(215)
    // …while far above the product the scene is untouched, and without a shadow nothing darkens.
    expect(pixel(out, 540, box.top - 60)).toEqual([230, 230, 230])
    expect(pixel(plain, (box.left + box.right) / 2, box.bottom + 4)).toEqual([230, 230, 230])
  })

  it('matches the shadow to the scene: away from the brighter side, weaker on a dark floor', async () => {
    const original = await craftedPhoto(1080, 1080)
    const frame = { width: 1080, height: 1080 }
    const mask = await findProductMask(original, thresholdSegmenter)
    if (!mask) throw new Error('expected a mask')
    const layer = await buildProductLayer(original, mask, containPlacement(frame, frame), frame)
    if (!layer) throw new Error('expected a layer')
    const style = async (left: [number, number, number], right: [number, number, number]) =>
      shadowStyleFor(await sceneAtFrame(await sceneOf(1080, 1080, left, right), frame), layer)
    const lightLeft = await style([250, 250, 250], [120, 120, 120])
    const lightRight = await style([120, 120, 120], [250, 250, 250])
    const even = await style([200, 200, 200], [200, 200, 200])
    const dark = await style([30, 30, 30], [30, 30, 30])
    expect(lightLeft?.dx).toBeGreaterThan(0)
    expect(lightRight?.dx).toBeLessThan(0)
    expect(even?.dx).toBe(0)
    expect(even?.dy).toBeGreaterThan(0)
    expect(dark?.opacity).toBeLessThan(even?.opacity ?? 0)
  })

  it('keeps nothing when the segmenter finds no product', async () => {
    const kept = await keepProductOnScene({
      original: await craftedPhoto(600, 600),
      scene: await sceneOf(1080, 1080, [40, 90, 160]),
      frame: { width: 1080, height: 1080 },
      segmenter: emptySegmenter,
    })
    expect(kept).toEqual({ isKept: false })
  })
})
