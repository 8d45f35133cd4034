// How close one product mask is to another: the evaluation set's scores, and what a
// fidelity check compares. Masks are one byte per pixel, 0–255; "inside" is ≥ 128.

/** Intersection over union of the two masks' insides (1 when both are empty). */
export function maskIoU(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new Error('masks differ in size')
  let both = 0
  let either = 0
  for (let i = 0; i < a.length; i++) {
    const inA = (a[i] as number) >= 128
    const inB = (b[i] as number) >= 128
    if (inA && inB) both++
    if (inA || inB) either++
  }
  return either === 0 ? 1 : both / either
}

/** Pixels inside the mask with a 4-neighbour outside it (or on the image's edge). */
function boundaryOf(mask: Uint8Array, width: number, height: number): Uint8Array {
  const edge = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x
      if ((mask[i] as number) < 128) continue
      const isEdge =
        x === 0 ||
        y === 0 ||
        x === width - 1 ||
        y === height - 1 ||
        (mask[i - 1] as number) < 128 ||
        (mask[i + 1] as number) < 128 ||
        (mask[i - width] as number) < 128 ||
        (mask[i + width] as number) < 128
      if (isEdge) edge[i] = 1
    }
  }
  return edge
}

/** Exact squared distance of each pixel to the nearest marked pixel (Felzenszwalb & Huttenlocher). */
function squaredDistanceTo(marked: Uint8Array, width: number, height: number): Float64Array {
  const far = 1e12
  const grid = new Float64Array(width * height)
  for (let i = 0; i < grid.length; i++) grid[i] = marked[i] ? 0 : far
  const size = Math.max(width, height)
  const f = new Float64Array(size)
  const d = new Float64Array(size)
  const v = new Int32Array(size)
  const z = new Float64Array(size + 1)
  const pass = (n: number) => {
    let k = 0
    v[0] = 0
    z[0] = -Infinity
    z[1] = Infinity
    for (let q = 1; q < n; q++) {
      const fq = (f[q] as number) + q * q
      let p = v[k] as number
      let s = (fq - ((f[p] as number) + p * p)) / (2 * q - 2 * p)
      // z[0] is -Infinity, so this stops at k = 0 at the latest.
      while (s <= (z[k] as number)) {
        k--
        p = v[k] as number
        s = (fq - ((f[p] as number) + p * p)) / (2 * q - 2 * p)
      }
      k++
      v[k] = q
      z[k] = s
      z[k + 1] = Infinity
    }
    k = 0
    for (let q = 0; q < n; q++) {
      while ((z[k + 1] as number) < q) k++
      const p = v[k] as number
      d[q] = (q - p) * (q - p) + (f[p] as number)
    }
  }
  for (let x = 0; x < width; x++) {
    for (let y = 0; y < height; y++) f[y] = grid[y * width + x] as number
    pass(height)
    for (let y = 0; y < height; y++) grid[y * width + x] = d[y] as number
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) f[x] = grid[y * width + x] as number
    pass(width)
    for (let x = 0; x < width; x++) grid[y * width + x] = d[x] as number
  }
  return grid
}

/**
 * Mean distance in pixels between the two masks' outlines, both ways (each outline pixel's
 * distance to the other outline, averaged over both outlines). 0 for identical outlines.
 */
export function boundaryError(a: Uint8Array, b: Uint8Array, width: number, height: number): number {
  const edgeA = boundaryOf(a, width, height)
  const edgeB = boundaryOf(b, width, height)
  const toA = squaredDistanceTo(edgeA, width, height)
  const toB = squaredDistanceTo(edgeB, width, height)
  let sum = 0
  let count = 0
  for (let i = 0; i < edgeA.length; i++) {
    if (edgeA[i]) {
      sum += Math.sqrt(toB[i] as number)
      count++
    }
    if (edgeB[i]) {
      sum += Math.sqrt(toA[i] as number)
      count++
    }
  }
  if (count === 0) return 0
  // With one outline empty every distance is "far": report the image's diagonal instead.
  const diagonal = Math.hypot(width, height)
  return Math.min(diagonal, sum / count)
}
