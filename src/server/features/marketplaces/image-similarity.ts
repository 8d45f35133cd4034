import { ciede2000, type Lab, srgbToLab as toLab } from '#shared/colour/ciede2000.ts'

// Two measures of how alike two aligned pictures are, for the product-fidelity check
// (product-fidelity.ts): SSIM on luminance (Wang, Bovik, Sheikh & Simoncelli 2004, "Image quality
// assessment: from error visibility to structural similarity") and CIEDE2000 colour difference
// (Sharma, Wu & Dalal 2005). Small, dependency-free and tested against the papers' figures.

/** The SSIM window: an 11×11 Gaussian of σ 1.5, and the paper's stabilising constants for 8-bit values. */
export const ssimWindow = { radius: 5, sigma: 1.5 } as const
const c1 = (0.01 * 255) ** 2
const c2 = (0.03 * 255) ** 2

function gaussianKernel(radius: number, sigma: number): Float64Array {
  const kernel = new Float64Array(radius * 2 + 1)
  let sum = 0
  for (let i = -radius; i <= radius; i++) {
    const w = Math.exp(-(i * i) / (2 * sigma * sigma))
    kernel[i + radius] = w
    sum += w
  }
  for (let i = 0; i < kernel.length; i++) kernel[i] = (kernel[i] as number) / sum
  return kernel
}

/** Separable Gaussian blur of `source` into a new array; edges repeat the outermost pixel. */
function blur(source: Float64Array, width: number, height: number, kernel: Float64Array): Float64Array {
  const radius = (kernel.length - 1) / 2
  const across = new Float64Array(source.length)
  for (let y = 0; y < height; y++) {
    const row = y * width
    for (let x = 0; x < width; x++) {
      let sum = 0
      for (let k = -radius; k <= radius; k++) {
        const xx = x + k < 0 ? 0 : x + k >= width ? width - 1 : x + k
        sum += (kernel[k + radius] as number) * (source[row + xx] as number)
      }
      across[row + x] = sum
    }
  }
  const out = new Float64Array(source.length)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0
      for (let k = -radius; k <= radius; k++) {
        const yy = y + k < 0 ? 0 : y + k >= height ? height - 1 : y + k
        sum += (kernel[k + radius] as number) * (across[yy * width + x] as number)
      }
      out[y * width + x] = sum
    }
  }
  return out
}

/** `plane` (width×height) blurred with a Gaussian of `sigma` pixels, as a new array. */
export function gaussianBlur(
  plane: ArrayLike<number>,
  width: number,
  height: number,
  sigma: number,
): Float64Array {
  return blur(
    Float64Array.from(plane),
    width,
    height,
    gaussianKernel(Math.max(1, Math.ceil(sigma * 3)), sigma),
  )
}

/**
 * The SSIM of every pixel's window between two single-channel pictures (0–255, width×height
 * each): 1 where they are identical, lower as structure, contrast or brightness part, below 0
 * where one is the other inverted.
 */
export function ssimMap(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  width: number,
  height: number,
): Float64Array {
  const n = width * height
  if (a.length !== n || b.length !== n) throw new Error(`ssim: expected ${width}×${height} values`)
  const kernel = gaussianKernel(ssimWindow.radius, ssimWindow.sigma)
  const fa = Float64Array.from(a)
  const fb = Float64Array.from(b)
  const aa = new Float64Array(n)
  const bb = new Float64Array(n)
  const ab = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const x = fa[i] as number
    const y = fb[i] as number
    aa[i] = x * x
    bb[i] = y * y
    ab[i] = x * y
  }
  const muA = blur(fa, width, height, kernel)
  const muB = blur(fb, width, height, kernel)
  const sAA = blur(aa, width, height, kernel)
  const sBB = blur(bb, width, height, kernel)
  const sAB = blur(ab, width, height, kernel)
  const map = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const ma = muA[i] as number
    const mb = muB[i] as number
    const va = (sAA[i] as number) - ma * ma
    const vb = (sBB[i] as number) - mb * mb
    const cov = (sAB[i] as number) - ma * mb
    map[i] = ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
  }
  return map
}

/** Mean SSIM (ssimMap) over the pixels where `region` is non-zero, or over every pixel without one. */
export function ssim(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  width: number,
  height: number,
  region?: ArrayLike<number>,
): number {
  if (region && region.length !== width * height) throw new Error(`ssim: expected ${width}×${height} values`)
  const map = ssimMap(a, b, width, height)
  let total = 0
  let count = 0
  for (let i = 0; i < map.length; i++) {
    if (region && (region[i] as number) === 0) continue
    total += map[i] as number
    count++
  }
  return count === 0 ? Number.NaN : total / count
}

/** Rec. 601 luma of an RGB pixel (0–255), the "luminance" SSIM is usually computed on. */
export function luma(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b
}

export type { Lab }

/** sRGB (0–255, D65) to CIELAB: the one conversion in shared/colour/ciede2000.ts. */
export function srgbToLab(r: number, g: number, b: number): Lab {
  return toLab([r, g, b])
}

/** CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1). About 1 is just noticeable. */
export const deltaE2000: (first: Lab, second: Lab) => number = ciede2000
