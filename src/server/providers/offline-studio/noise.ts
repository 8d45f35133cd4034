// Seeded noise for the generated backgrounds. librsvg's feTurbulence looks right but takes about
// 3 s for one 1080×1920 frame on two cores, so textures (marble veins, wood grain, concrete,
// velvet folds, grass) are computed here at half resolution and scaled up by sharp instead.
// Everything is seeded with fixed numbers, so the same scene is the same pixels on every run.

/** A small, fast seeded PRNG (mulberry32) returning numbers in [0, 1). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** 2-D gradient noise, roughly in [-1, 1]. */
export type Noise2 = (x: number, y: number) => number

const gradientX = [1, -1, 1, -1, 1, -1, 0, 0]
const gradientY = [1, 1, -1, -1, 0, 0, 1, -1]

/** Classic Perlin gradient noise with a permutation shuffled from `seed`. */
export function createNoise(seed: number): Noise2 {
  const random = createRandom(seed)
  const base = new Uint8Array(256)
  for (let i = 0; i < 256; i++) base[i] = i
  for (let i = 255; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const swap = base[i] as number
    base[i] = base[j] as number
    base[j] = swap
  }
  const perm = new Uint8Array(512)
  for (let i = 0; i < 512; i++) perm[i] = base[i & 255] as number
  const fade = (t: number) => t * t * t * (t * (t * 6 - 15) + 10)
  const dot = (hash: number, x: number, y: number) =>
    (gradientX[hash & 7] as number) * x + (gradientY[hash & 7] as number) * y

  return (x, y) => {
    const floorX = Math.floor(x)
    const floorY = Math.floor(y)
    const xi = floorX & 255
    const yi = floorY & 255
    const xf = x - floorX
    const yf = y - floorY
    const a = (perm[xi] as number) + yi
    const b = (perm[xi + 1] as number) + yi
    const n00 = dot(perm[a] as number, xf, yf)
    const n01 = dot(perm[a + 1] as number, xf, yf - 1)
    const n10 = dot(perm[b] as number, xf - 1, yf)
    const n11 = dot(perm[b + 1] as number, xf - 1, yf - 1)
    const u = fade(xf)
    const v = fade(yf)
    const low = n00 + u * (n10 - n00)
    const high = n01 + u * (n11 - n01)
    // Scaled so the output uses most of [-1, 1].
    return (low + v * (high - low)) * 1.4
  }
}

/** Fractal sum of `octaves` layers of noise (each twice the frequency, half the weight). */
export function fractalNoise(noise: Noise2, x: number, y: number, octaves: number): number {
  let sum = 0
  let amplitude = 1
  let frequency = 1
  let norm = 0
  for (let i = 0; i < octaves; i++) {
    sum += amplitude * noise(x * frequency, y * frequency)
    norm += amplitude
    amplitude *= 0.5
    frequency *= 2.03 // not exactly 2, so octaves do not line up on the same lattice
  }
  return sum / norm
}

/** A cheap per-pixel hash in [-1, 1]: film grain and dithering, no structure. */
export function grain(x: number, y: number, seed: number): number {
  let h = Math.imul(x, 374761393) ^ Math.imul(y, 668265263) ^ Math.imul(seed, 1442695041)
  h = Math.imul(h ^ (h >>> 13), 1274126177)
  h ^= h >>> 16
  return ((h >>> 0) / 4294967295) * 2 - 1
}

export function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value))
}

export function smoothstep(edge0: number, edge1: number, value: number): number {
  const t = clamp((value - edge0) / (edge1 - edge0), 0, 1)
  return t * t * (3 - 2 * t)
}

export function mix(a: number, b: number, t: number): number {
  return a + (b - a) * t
}
