import { describe, expect, it } from 'vitest'
import { deltaE2000, type Lab, srgbToLab, ssim } from './image-similarity.ts'

// SSIM and CIEDE2000 against closed forms and the published test data.

const size = 48

/** A deterministic textured picture: smooth waves plus a fixed pseudo-random grain. */
function texture(): Float64Array {
  const out = new Float64Array(size * size)
  let seed = 7
  for (let i = 0; i < out.length; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648
    const x = i % size
    const y = Math.floor(i / size)
    out[i] = 128 + 60 * Math.sin(x / 3) * Math.cos(y / 5) + ((seed / 2147483648) * 40 - 20)
  }
  return out
}

function withNoise(source: Float64Array, amount: number, seed: number): Float64Array {
  let state = seed
  return source.map((v) => {
    state = (state * 1103515245 + 12345) % 2147483648
    return v + ((state / 2147483648) * 2 - 1) * amount
  })
}

describe('ssim', () => {
  it('is 1 for identical pictures', () => {
    const picture = texture()
    expect(ssim(picture, picture, size, size)).toBeCloseTo(1, 10)
  })

  it('matches the closed form for two flat pictures: (2ab + C1) / (a² + b² + C1)', () => {
    const a = new Float64Array(size * size).fill(100)
    const b = new Float64Array(size * size).fill(120)
    const c1 = (0.01 * 255) ** 2
    expect(ssim(a, b, size, size)).toBeCloseTo((2 * 100 * 120 + c1) / (100 ** 2 + 120 ** 2 + c1), 10)
    expect(ssim(a, b, size, size)).toBeCloseTo(0.98361, 4)
  })

  it('falls as noise grows, and goes below 0 for an inverted picture', () => {
    const picture = texture()
    const light = ssim(picture, withNoise(picture, 10, 1), size, size)
    const heavy = ssim(picture, withNoise(picture, 40, 1), size, size)
    expect(light).toBeLessThan(0.99)
    expect(heavy).toBeLessThan(light - 0.1)
    const inverted = picture.map((v) => 255 - v)
    expect(ssim(picture, inverted, size, size)).toBeLessThan(-0.5)
  })

  it('averages only over the region when one is given', () => {
    const picture = texture()
    const changed = picture.slice()
    // The right half is flattened: outside the left-half region, so the left half stays ≈ 1.
    for (let y = 0; y < size; y++) for (let x = size / 2; x < size; x++) changed[y * size + x] = 128
    const left = new Uint8Array(size * size).map((_, i) => (i % size < size / 2 - 6 ? 1 : 0))
    expect(ssim(picture, changed, size, size, left)).toBeCloseTo(1, 6)
    expect(ssim(picture, changed, size, size)).toBeLessThan(0.7)
    expect(() => ssim(picture, changed, size, size - 1)).toThrow()
  })
})

describe('colour difference', () => {
  it('converts sRGB to CIELAB (D65)', () => {
    const close = (lab: Lab, expected: Lab) => {
      for (const [i, v] of lab.entries()) expect(v).toBeCloseTo(expected[i] as number, 1)
    }
    close(srgbToLab(255, 255, 255), [100, 0, 0])
    close(srgbToLab(0, 0, 0), [0, 0, 0])
    close(srgbToLab(255, 0, 0), [53.24, 80.09, 67.2])
    close(srgbToLab(0, 0, 255), [32.3, 79.19, -107.86])
  })

  // Sharma, Wu & Dalal (2005), the CIEDE2000 test data: pairs 1, 7, 17, 25 and 34.
  it.each([
    [[50, 2.6772, -79.7751], [50, 0, -82.7485], 2.0425],
    [[50, 0, 0], [50, -1, 2], 2.3669],
    [[50, 2.5, 0], [73, 25, -18], 27.1492],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    [[22.7233, 20.0904, -46.694], [23.0331, 14.973, -42.5619], 2.0373],
  ] as [Lab, Lab, number][])('ΔE2000 of %j and %j is %d', (first, second, expected) => {
    expect(deltaE2000(first, second)).toBeCloseTo(expected, 4)
    expect(deltaE2000(second, first)).toBeCloseTo(expected, 4)
  })

  it('is 0 for the same colour', () => {
    expect(deltaE2000([40, 20, -10], [40, 20, -10])).toBe(0)
  })
})
