import { beforeAll, describe, expect, it } from 'vitest'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { type FidelityCase, fidelityCases } from '#tests/support/fidelity-cases.ts'
import { inspectImage } from './measure-image.ts'
import {
  compareProducts,
  fidelityThresholds,
  measureProductFidelity,
  type ProductView,
  productViewOf,
  tolerantOverlap,
} from './product-fidelity.ts'

// The product-fidelity measure: crafted views whose masks are exact (so the figures test the
// comparison, not the model), then the calibration set through the real segmenter, as the
// service runs it: every kept product passes and every changed one is flagged.

// These tests never touch the database: the PostgreSQL run of the server suite skips them.
const isPostgresRun = process.env.VITRIN_TEST_ENGINE === 'postgres'

type Product = { left: number; top: number; scale: number; ink?: [number, number, number]; stretch?: number }

/** A 300×300 view: a striped label on an amber body (80×140 at scale 1), on a grey or green backdrop. */
function view(product: Product, backdrop: [number, number, number] = [200, 200, 200]): ProductView {
  const width = 300
  const height = 300
  const rgb = new Uint8Array(width * height * 3)
  const mask = new Uint8Array(width * height)
  const w = 80 * product.scale * (product.stretch ?? 1)
  const h = 140 * product.scale
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x
      const u = (x - product.left) / w
      const v = (y - product.top) / h
      let colour = backdrop
      if (u >= 0 && u < 1 && v >= 0 && v < 1) {
        mask[i] = 255
        colour = [190, 110, 40]
        // The label: cream with three dark lines of "text".
        if (u > 0.15 && u < 0.85 && v > 0.4 && v < 0.75) {
          const line = Math.floor(((v - 0.4) / 0.35) * 7)
          colour = line % 2 === 1 && u > 0.25 && u < 0.75 ? (product.ink ?? [40, 30, 20]) : [240, 230, 210]
        }
      }
      rgb.set(colour, i * 3)
    }
  }
  return { rgb, mask, width, height }
}

describe('compareProducts', () => {
  const original = view({ left: 100, top: 60, scale: 1 })

  it('finds the same product the same: structure ≈ 1, no colour change, the same outline', async () => {
    const fidelity = await compareProducts(original, view({ left: 100, top: 60, scale: 1 }))
    expect(fidelity?.structure).toBeGreaterThan(0.99)
    expect(fidelity?.colourDelta).toBeLessThan(0.5)
    expect(fidelity?.shape).toBeGreaterThan(0.99)
    expect(fidelity?.changed).toBe(false)
  })

  it('lines up a product moved, scaled and put on another backdrop', async () => {
    const fidelity = await compareProducts(original, view({ left: 40, top: 20, scale: 1.5 }, [40, 120, 60]))
    expect(fidelity?.changed).toBe(false)
    expect(fidelity?.structure).toBeGreaterThan(fidelityThresholds.minStructure + 0.2)
    expect(fidelity?.shape).toBeGreaterThan(0.95)
  })

  it('flags recoloured label ink by colour, and a stretched body by its outline', async () => {
    const recoloured = await compareProducts(
      original,
      view({ left: 100, top: 60, scale: 1, ink: [30, 80, 220] }),
    )
    expect(recoloured?.colourDelta).toBeGreaterThan(fidelityThresholds.maxColourDelta)
    expect(recoloured?.changed).toBe(true)
    const stretched = await compareProducts(original, view({ left: 80, top: 60, scale: 1, stretch: 1.3 }))
    expect(stretched?.shape).toBeLessThan(fidelityThresholds.minShape)
    expect(stretched?.changed).toBe(true)
  })

  it('answers null when a mask is empty', async () => {
    const empty = { ...original, mask: new Uint8Array(original.mask.length) }
    expect(await compareProducts(original, empty)).toBeNull()
    expect(await compareProducts(empty, original)).toBeNull()
    expect(await measureProductFidelity(null, { bytes: Buffer.alloc(0), mask: null })).toBeNull()
  })
})

describe('tolerantOverlap', () => {
  /** A vertical bar `barWidth` wide from column `left`, in a 40×100 picture. */
  const bar = (left: number, barWidth: number, top = 10, bottom = 90) => {
    const mask = new Uint8Array(40 * 100)
    for (let y = top; y < bottom; y++) for (let x = left; x < left + barWidth; x++) mask[y * 40 + x] = 1
    return mask
  }

  it('counts outlines a pixel apart as one: a thin bar moved a pixel is the same shape', () => {
    // Plain intersection over union would give 5 / 7: a pen is a few pixels wide.
    expect(tolerantOverlap(bar(10, 6), bar(11, 6), 40, 100, 1)).toBe(1)
    expect(tolerantOverlap(bar(10, 6), bar(10, 6), 40, 100, 0)).toBe(1)
    expect(tolerantOverlap(bar(10, 6), bar(11, 6), 40, 100, 0)).toBeCloseTo(5 / 7)
  })

  it('still sees a changed shape: a bar grown by half its length, or moved further than the tolerance', () => {
    expect(tolerantOverlap(bar(10, 6), bar(10, 6, 10, 50), 40, 100, 1)).toBeLessThan(0.55)
    expect(tolerantOverlap(bar(10, 6), bar(14, 6), 40, 100, 1)).toBeLessThan(0.5)
    expect(tolerantOverlap(new Uint8Array(4000), new Uint8Array(4000), 40, 100, 1)).toBe(0)
  })
})

describe.skipIf(isPostgresRun)('product fidelity calibration (real segmentation)', () => {
  let cases: FidelityCase[] = []
  beforeAll(async () => {
    cases = await fidelityCases(sharedSegmenter())
  }, 180_000)

  it('passes every kept product and flags every changed one', async () => {
    const segmenter = sharedSegmenter()
    expect(cases.filter((c) => c.isChanged).length).toBeGreaterThanOrEqual(5)
    expect(cases.filter((c) => !c.isChanged).length).toBeGreaterThanOrEqual(5)
    const verdicts: Record<string, boolean | null> = {}
    const expected: Record<string, boolean> = {}
    for (const item of cases) {
      const original = await productViewOf(item.original, segmenter)
      const inspection = await inspectImage(item.result, { isGenerated: true, segmenter })
      const fidelity = await measureProductFidelity(original, { bytes: item.result, mask: inspection.mask })
      verdicts[item.name] = fidelity?.changed ?? null
      expected[item.name] = item.isChanged
    }
    expect(verdicts).toEqual(expected)
  }, 180_000)
})
