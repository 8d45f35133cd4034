import { describe, expect, it } from 'vitest'
import {
  finishMask,
  keepMainParts,
  modelSide,
  refineMask,
  summariseMask,
  upsampleBilinear,
} from './mask-math.ts'
import { boundaryError, maskIoU } from './metrics.ts'

// The numeric steps around the model, on pictures small enough to reason about.

/** A photo red left of x = `edge`, blue from there on. */
function splitPhoto(width = 200, height = 100, edge = 100): Uint8Array {
  const rgb = new Uint8Array(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3
      if (x < edge) rgb.set([200, 40, 40], i)
      else rgb.set([40, 60, 200], i)
    }
  }
  return rgb
}

/** Where a row of the mask crosses 0.5, in pixels from the left. */
function crossing(mask: Float32Array, width: number, y: number): number {
  for (let x = 1; x < width; x++) {
    if ((mask[y * width + x - 1] as number) >= 0.5 && (mask[y * width + x] as number) < 0.5) return x
  }
  return -1
}

describe('refineMask', () => {
  it('moves a blurred, misplaced edge onto the photo’s own edge and makes it crisp', () => {
    // 800 px wide, as the filter's reach follows the photo's size (its fit grid is 320 px).
    const width = 800
    const height = 100
    // The model's answer: a soft ramp centred 5 px to the right of the real edge, 12 px wide.
    const coarse = new Float32Array(width * height)
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) coarse[y * width + x] = Math.min(1, Math.max(0, (411 - x) / 12))
    }
    expect(crossing(coarse, width, 50)).toBe(406)
    const refined = refineMask(coarse, splitPhoto(width, height, 400), width, height)
    expect(Math.abs(crossing(refined, width, 50) - 400)).toBeLessThanOrEqual(1)
    // Crisper: solid up to the edge, and gone within 7 px where the model's ramp is still at a third.
    expect(refined[50 * width + 399]).toBeGreaterThan(0.98)
    expect(coarse[50 * width + 407]).toBeGreaterThan(0.3)
    expect(refined[50 * width + 407]).toBeLessThan(0.05)
    // Far from the edge the model's own answer stands, whatever the photo looks like there.
    expect(refined[50 * width + 100]).toBe(1)
    expect(refined[50 * width + 700]).toBe(0)
  })
})

describe('keepMainParts', () => {
  it('clears a speck, keeps a pair of similar parts and clears the haze around them', () => {
    const width = 100
    const height = 40
    const mask = new Float32Array(width * height).fill(0.05)
    const fill = (x0: number, y0: number, x1: number, y1: number) => {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) mask[y * width + x] = 1
    }
    fill(10, 10, 30, 30) // an earring
    fill(60, 10, 78, 30) // its pair, a little smaller
    fill(90, 2, 92, 4) // a speck
    keepMainParts(mask, width, height)
    expect(mask[20 * width + 20]).toBe(1)
    expect(mask[20 * width + 70]).toBe(1)
    expect(mask[3 * width + 91]).toBe(0)
    expect(mask[35 * width + 50]).toBe(0)
  })
})

describe('finishMask', () => {
  const guide = new Uint8Array(64 * 48 * 3).fill(128)

  it('is confident about a clear answer and summarises it', () => {
    const raw = new Float32Array(modelSide * modelSide)
    for (let y = 100; y < 220; y++) for (let x = 120; x < 200; x++) raw[y * modelSide + x] = 1
    const mask = finishMask(raw, guide, 64, 48)
    expect(mask.alpha).toHaveLength(64 * 48)
    expect(mask.confidence).toBeGreaterThan(0.95)
    expect(mask.foregroundShare).toBeGreaterThan(0.08)
    expect(mask.foregroundShare).toBeLessThan(0.12)
    expect(mask.centroid.x).toBeCloseTo(0.5, 1)
    expect(mask.borderCoverage).toBe(0)
  })

  it('takes the answer of a model run at another side, and refuses one of the wrong size', () => {
    const side = 256
    const raw = new Float32Array(side * side)
    for (let y = 80; y < 176; y++) for (let x = 96; x < 160; x++) raw[y * side + x] = 1
    const mask = finishMask(raw, guide, 64, 48, side)
    expect(mask.foregroundShare).toBeGreaterThan(0.08)
    expect(mask.foregroundShare).toBeLessThan(0.12)
    expect(mask.centroid.x).toBeCloseTo(0.5, 1)
    expect(() => finishMask(raw, guide, 64, 48)).toThrow(/expected 320×320 model outputs/)
  })

  it('has no confidence in an answer that is faint everywhere', () => {
    // Min-max normalisation alone would blow this faint bump up into a full-strength "product".
    const raw = new Float32Array(modelSide * modelSide).fill(0.001)
    for (let y = 100; y < 220; y++) for (let x = 120; x < 200; x++) raw[y * modelSide + x] = 0.03
    expect(finishMask(raw, guide, 64, 48).confidence).toBeLessThan(0.1)
  })
})

describe('upsampleBilinear and summariseMask', () => {
  it('keeps a constant constant and finds the border share', () => {
    const up = upsampleBilinear(new Float32Array(4).fill(0.25), 2, 2, 9, 7)
    expect([...up].every((v) => Math.abs(v - 0.25) < 1e-6)).toBe(true)
    const full = new Uint8Array(50 * 50).fill(255)
    expect(summariseMask(full, 50, 50)).toEqual({
      foregroundShare: 1,
      borderCoverage: 1,
      centroid: { x: 0.5, y: 0.5 },
    })
  })
})

describe('mask metrics', () => {
  function square(size: number, left: number, top: number, side: number): Uint8Array {
    const mask = new Uint8Array(size * size)
    for (let y = top; y < top + side; y++) for (let x = left; x < left + side; x++) mask[y * size + x] = 255
    return mask
  }

  it('IoU: 1 for the same mask, the overlap share for a shifted one', () => {
    const a = square(100, 20, 20, 40)
    expect(maskIoU(a, a)).toBe(1)
    // Shifted 10 px right: overlap 30×40 of a union of 50×40.
    expect(maskIoU(a, square(100, 30, 20, 40))).toBeCloseTo(30 / 50, 6)
  })

  it('boundary error: 0 for the same outline, about the offset for a grown one', () => {
    const a = square(100, 20, 20, 40)
    expect(boundaryError(a, a, 100, 100)).toBe(0)
    // 3 px bigger on every side: every outline pixel is 3 px from the other (diagonals a bit more).
    const error = boundaryError(a, square(100, 17, 17, 46), 100, 100)
    expect(error).toBeGreaterThanOrEqual(3)
    expect(error).toBeLessThan(3.2)
  })
})
