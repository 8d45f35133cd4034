// The numeric steps around the model, in plain typed-array loops so they run anywhere (the
// inference process, tests) without sharp: the model's input tensor, the bilinear
// upscale of its 320×320 answer, and the guided filter that snaps that soft answer to the
// photo's own edges at full resolution.

/**
 * The side of the square U²-Netp sees the photo at: 320, what it was trained at. It runs at other
 * sides too (model-graph.ts), with less memory, but on the evaluation set smaller sides lost
 * products (288 the handbag on wood, 224 one entirely) and saved too little (docs/decisions/0019).
 */
export const modelSide = 320

const mean = [0.485, 0.456, 0.406] as const
const std = [0.229, 0.224, 0.225] as const

/**
 * The model's input, as rembg prepares it: RGB divided by the image's largest value, normalised
 * with the ImageNet mean and deviation, laid out planar (NCHW [1, 3, 320, 320]).
 */
export function toInputTensor(rgb: Uint8Array, side = modelSide): Float32Array {
  const pixels = side * side
  if (rgb.length !== pixels * 3) throw new Error(`expected ${pixels * 3} RGB bytes, got ${rgb.length}`)
  let max = 1
  for (let i = 0; i < rgb.length; i++) if ((rgb[i] as number) > max) max = rgb[i] as number
  const tensor = new Float32Array(pixels * 3)
  for (let c = 0; c < 3; c++) {
    const m = mean[c] as number
    const s = std[c] as number
    const plane = c * pixels
    for (let i = 0; i < pixels; i++) tensor[plane + i] = ((rgb[i * 3 + c] as number) / max - m) / s
  }
  return tensor
}

/** Scales a one-channel float map by bilinear interpolation (pixel centres aligned, edges clamped). */
export function upsampleBilinear(
  source: Float32Array,
  sourceWidth: number,
  sourceHeight: number,
  width: number,
  height: number,
): Float32Array {
  const out = new Float32Array(width * height)
  const sx = sourceWidth / width
  const sy = sourceHeight / height
  const x0s = new Int32Array(width)
  const x1s = new Int32Array(width)
  const fxs = new Float32Array(width)
  for (let x = 0; x < width; x++) {
    const fx = Math.min(sourceWidth - 1, Math.max(0, (x + 0.5) * sx - 0.5))
    const x0 = Math.floor(fx)
    x0s[x] = x0
    x1s[x] = Math.min(sourceWidth - 1, x0 + 1)
    fxs[x] = fx - x0
  }
  for (let y = 0; y < height; y++) {
    const fy = Math.min(sourceHeight - 1, Math.max(0, (y + 0.5) * sy - 0.5))
    const y0 = Math.floor(fy)
    const y1 = Math.min(sourceHeight - 1, y0 + 1)
    const wy = fy - y0
    const row0 = y0 * sourceWidth
    const row1 = y1 * sourceWidth
    const o = y * width
    for (let x = 0; x < width; x++) {
      const a = x0s[x] as number
      const b = x1s[x] as number
      const wx = fxs[x] as number
      const top = (source[row0 + a] as number) * (1 - wx) + (source[row0 + b] as number) * wx
      const bottom = (source[row1 + a] as number) * (1 - wx) + (source[row1 + b] as number) * wx
      out[o + x] = top * (1 - wy) + bottom * wy
    }
  }
  return out
}

/**
 * Mean over a (2r+1)² window of every plane in `planes` (each width×height), in place, with
 * running sums: O(1) per pixel whatever the radius. Windows are cut at the image edges. Both
 * passes walk the planes row by row (the column sums are kept for a whole row at once), so a
 * large plane is read in memory order. `scratch`: a plane of at least width×height to reuse.
 */
export function boxMeans(
  planes: Float32Array[],
  width: number,
  height: number,
  radius: number,
  scratch?: Float32Array,
) {
  const n = width * height
  const rows = scratch && scratch.length >= n ? scratch : new Float32Array(n)
  // 1 / the number of pixels each window holds along x and along y (fewer at the edges).
  const inverseX = new Float64Array(width)
  for (let x = 0; x < width; x++)
    inverseX[x] = 1 / (Math.min(width - 1, x + radius) - Math.max(0, x - radius) + 1)
  const sums = new Float64Array(width)
  for (const plane of planes) {
    // Rows, into `rows`.
    for (let y = 0; y < height; y++) {
      const o = y * width
      let sum = 0
      for (let x = 0; x < Math.min(radius, width); x++) sum += plane[o + x] as number
      for (let x = 0; x < width; x++) {
        if (x + radius < width) sum += plane[o + x + radius] as number
        if (x - radius - 1 >= 0) sum -= plane[o + x - radius - 1] as number
        rows[o + x] = sum * (inverseX[x] as number)
      }
    }
    // Columns, back into the plane: the sums of every column at once, moved down row by row.
    sums.fill(0)
    for (let y = 0; y < Math.min(radius, height); y++) {
      const o = y * width
      for (let x = 0; x < width; x++) sums[x] = (sums[x] as number) + (rows[o + x] as number)
    }
    for (let y = 0; y < height; y++) {
      if (y + radius < height) {
        const o = (y + radius) * width
        for (let x = 0; x < width; x++) sums[x] = (sums[x] as number) + (rows[o + x] as number)
      }
      if (y - radius - 1 >= 0) {
        const o = (y - radius - 1) * width
        for (let x = 0; x < width; x++) sums[x] = (sums[x] as number) - (rows[o + x] as number)
      }
      const inverse = 1 / (Math.min(height - 1, y + radius) - Math.max(0, y - radius) + 1)
      const o = y * width
      for (let x = 0; x < width; x++) plane[o + x] = (sums[x] as number) * inverse
    }
  }
}

export type GuidedFilterOptions = {
  /** Window radius in pixels of the low-resolution grid the coefficients are fitted on. */
  radius: number
  /** Regularisation on 0–1 intensities: larger keeps more of the input's softness. */
  epsilon: number
  /** Longest side of the grid the coefficients are fitted on (the fast guided filter). */
  fitSide: number
}

/**
 * The guided filter's local linear model, fitted on a w×h grid: for the guide's planes r, g, b
 * (0–1) and the mask q, the window-averaged coefficients [a_r, a_g, a_b, b] such that the
 * filtered mask is a_r·R + a_g·G + a_b·B + b (He, Sun and Tang, 2013). The inputs are not changed.
 */
export function fitGuidedCoefficients(
  r: Float32Array,
  g: Float32Array,
  b: Float32Array,
  q: Float32Array,
  w: number,
  h: number,
  radius: number,
  epsilon: number,
  scratch?: Float32Array[],
): [Float32Array, Float32Array, Float32Array, Float32Array] {
  const n = w * h
  // Means of I, p, I·p and the entries of I·Iᵀ over each window (in `scratch`'s 14 planes of at
  // least w×h when given: the returned planes are then views of it, valid until its next use).
  const planes = Array.from({ length: 13 }, (_, k) => scratch?.[k]?.subarray(0, n) ?? new Float32Array(n))
  const [mr, mg, mb, mp, mrp, mgp, mbp, mrr, mrg, mrb, mgg, mgb, mbb] = planes as [
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
  ]
  for (let j = 0; j < n; j++) {
    const vr = r[j] as number
    const vg = g[j] as number
    const vb = b[j] as number
    const vp = q[j] as number
    mr[j] = vr
    mg[j] = vg
    mb[j] = vb
    mp[j] = vp
    mrp[j] = vr * vp
    mgp[j] = vg * vp
    mbp[j] = vb * vp
    mrr[j] = vr * vr
    mrg[j] = vr * vg
    mrb[j] = vr * vb
    mgg[j] = vg * vg
    mgb[j] = vg * vb
    mbb[j] = vb * vb
  }
  const spare = scratch?.[13]
  boxMeans(planes, w, h, radius, spare)

  // Per window: a = (Σ + εI)⁻¹ cov(I, p), b = mean(p) − a·mean(I). Stored in place of the means.
  const eps = epsilon
  const ar = mrp
  const ag = mgp
  const ab = mbp
  const bb = mp
  for (let j = 0; j < n; j++) {
    const ur = mr[j] as number
    const ug = mg[j] as number
    const ub = mb[j] as number
    const up = mp[j] as number
    const cr = (mrp[j] as number) - ur * up
    const cg = (mgp[j] as number) - ug * up
    const cb = (mbp[j] as number) - ub * up
    const srr = (mrr[j] as number) - ur * ur + eps
    const srg = (mrg[j] as number) - ur * ug
    const srb = (mrb[j] as number) - ur * ub
    const sgg = (mgg[j] as number) - ug * ug + eps
    const sgb = (mgb[j] as number) - ug * ub
    const sbb = (mbb[j] as number) - ub * ub + eps
    // Inverse of the symmetric 3×3 matrix by cofactors.
    const irr = sgg * sbb - sgb * sgb
    const irg = sgb * srb - srg * sbb
    const irb = srg * sgb - sgg * srb
    const igg = srr * sbb - srb * srb
    const igb = srb * srg - srr * sgb
    const ibb = srr * sgg - srg * srg
    const det = srr * irr + srg * irg + srb * irb
    const vr = (irr * cr + irg * cg + irb * cb) / det
    const vg = (irg * cr + igg * cg + igb * cb) / det
    const vb = (irb * cr + igb * cg + ibb * cb) / det
    ar[j] = vr
    ag[j] = vg
    ab[j] = vb
    bb[j] = up - vr * ur - vg * ug - vb * ub
  }
  boxMeans([ar, ag, ab, bb], w, h, radius, spare)
  return [ar, ag, ab, bb]
}

/**
 * The colour guided filter (He, Sun and Tang, 2013) in its fast form (He and Sun, 2015): the
 * soft mask `p` is explained locally as a linear function of the photo's RGB, fitted on a
 * grid of at most `fitSide` pixels, and that function is applied to the full-resolution photo.
 * Where the mask changes, it now changes where the photo's colour does, at full resolution.
 * `guide` is RGB (3 bytes per pixel) at width×height; `p` is at width×height too. Returns the
 * filtered mask, clamped to 0–1; with `only` (width×height), just where it lies strictly between
 * 0 and 1 (a band refineMask uses), 0 elsewhere.
 */
export function guidedFilter(
  guide: Uint8Array,
  p: Float32Array,
  width: number,
  height: number,
  options: GuidedFilterOptions,
  only?: Float32Array,
): Float32Array {
  const scale = Math.min(1, options.fitSide / Math.max(width, height))
  const w = Math.max(1, Math.round(width * scale))
  const h = Math.max(1, Math.round(height * scale))
  const n = w * h
  // Area-average the guide and the mask onto the fitting grid.
  const [r, g, b, q] = [0, 1, 2, 3].map(() => new Float32Array(n)) as [
    Float32Array,
    Float32Array,
    Float32Array,
    Float32Array,
  ]
  const counts = new Float32Array(n)
  const columns = new Int32Array(width)
  for (let x = 0; x < width; x++) columns[x] = Math.min(w - 1, Math.floor((x * w) / width))
  for (let y = 0; y < height; y++) {
    const row = Math.min(h - 1, Math.floor((y * h) / height)) * w
    for (let x = 0, i = y * width; x < width; x++, i++) {
      const j = row + (columns[x] as number)
      r[j] = (r[j] as number) + (guide[i * 3] as number)
      g[j] = (g[j] as number) + (guide[i * 3 + 1] as number)
      b[j] = (b[j] as number) + (guide[i * 3 + 2] as number)
      q[j] = (q[j] as number) + (p[i] as number)
      counts[j] = (counts[j] as number) + 1
    }
  }
  for (let j = 0; j < n; j++) {
    const c = counts[j] as number
    r[j] = (r[j] as number) / (c * 255)
    g[j] = (g[j] as number) / (c * 255)
    b[j] = (b[j] as number) / (c * 255)
    q[j] = (q[j] as number) / c
  }

  const [ar, ag, ab, bb] = fitGuidedCoefficients(r, g, b, q, w, h, options.radius, options.epsilon)

  // Apply the coefficients, scaled up bilinearly as it goes, to the full-resolution photo: each
  // output row first blends the two grid rows around it, then each pixel the two columns. (No
  // full-resolution copy of the four coefficient planes: that would be 16 bytes a pixel.)
  const out = new Float32Array(width * height)
  const sx = w / width
  const sy = h / height
  const x0s = new Int32Array(width)
  const x1s = new Int32Array(width)
  const wxs = new Float32Array(width)
  for (let x = 0; x < width; x++) {
    const fx = Math.min(w - 1, Math.max(0, (x + 0.5) * sx - 0.5))
    const x0 = Math.floor(fx)
    x0s[x] = x0
    x1s[x] = Math.min(w - 1, x0 + 1)
    wxs[x] = fx - x0
  }
  const rowR = new Float32Array(w)
  const rowG = new Float32Array(w)
  const rowB = new Float32Array(w)
  const rowBias = new Float32Array(w)
  for (let y = 0; y < height; y++) {
    const fy = Math.min(h - 1, Math.max(0, (y + 0.5) * sy - 0.5))
    const y0 = Math.floor(fy)
    const row0 = y0 * w
    const row1 = Math.min(h - 1, y0 + 1) * w
    const wy = fy - y0
    for (let gx = 0; gx < w; gx++) {
      const a = row0 + gx
      const c = row1 + gx
      rowR[gx] = (ar[a] as number) + ((ar[c] as number) - (ar[a] as number)) * wy
      rowG[gx] = (ag[a] as number) + ((ag[c] as number) - (ag[a] as number)) * wy
      rowB[gx] = (ab[a] as number) + ((ab[c] as number) - (ab[a] as number)) * wy
      rowBias[gx] = (bb[a] as number) + ((bb[c] as number) - (bb[a] as number)) * wy
    }
    for (let x = 0, i = y * width; x < width; x++, i++) {
      if (only) {
        const share = only[i] as number
        if (share >= 0.999 || share <= 0.001) continue
      }
      const left = x0s[x] as number
      const right = x1s[x] as number
      const wx = wxs[x] as number
      const cr = (rowR[left] as number) + ((rowR[right] as number) - (rowR[left] as number)) * wx
      const cg = (rowG[left] as number) + ((rowG[right] as number) - (rowG[left] as number)) * wx
      const cb = (rowB[left] as number) + ((rowB[right] as number) - (rowB[left] as number)) * wx
      const bias = (rowBias[left] as number) + ((rowBias[right] as number) - (rowBias[left] as number)) * wx
      const value =
        (cr * (guide[i * 3] as number) +
          cg * (guide[i * 3 + 1] as number) +
          cb * (guide[i * 3 + 2] as number)) /
          255 +
        bias
      out[i] = Math.max(0, Math.min(1, value))
    }
  }
  return out
}

/**
 * Clears the parts of a soft mask that are much smaller than its largest part (a speck the
 * model lit up on a busy surface), keeping several similar parts (a pair of earrings). A part
 * is a connected region where the mask is at least `support`; its size counts its solid
 * (≥ 0.5) pixels. In place.
 */
export function keepMainParts(mask: Float32Array, width: number, height: number, support = 0.1, share = 0.1) {
  const total = width * height
  const labels = new Int32Array(total)
  const sizes: number[] = [0]
  const queue = new Int32Array(total)
  for (let start = 0; start < total; start++) {
    if ((mask[start] as number) < support || labels[start] !== 0) continue
    const label = sizes.length
    let head = 0
    let tail = 0
    let solid = 0
    queue[tail++] = start
    labels[start] = label
    while (head < tail) {
      const i = queue[head++] as number
      if ((mask[i] as number) >= 0.5) solid++
      const x = i % width
      if (x > 0 && labels[i - 1] === 0 && (mask[i - 1] as number) >= support) {
        labels[i - 1] = label
        queue[tail++] = i - 1
      }
      if (x < width - 1 && labels[i + 1] === 0 && (mask[i + 1] as number) >= support) {
        labels[i + 1] = label
        queue[tail++] = i + 1
      }
      if (i >= width && labels[i - width] === 0 && (mask[i - width] as number) >= support) {
        labels[i - width] = label
        queue[tail++] = i - width
      }
      if (i < total - width && labels[i + width] === 0 && (mask[i + width] as number) >= support) {
        labels[i + width] = label
        queue[tail++] = i + width
      }
    }
    sizes.push(solid)
  }
  let largest = 0
  for (const size of sizes) largest = Math.max(largest, size)
  const keep = largest * share
  for (let i = 0; i < total; i++) {
    const label = labels[i] as number
    // Below `support` and outside every part: a faint haze the model left on the background.
    if (label === 0 || (sizes[label] as number) < keep) mask[i] = 0
  }
}

/** What the mask says about the photo, for the sanity checks and for callers that measure products. */
export type MaskSummary = {
  /** Share of the pixels inside the mask (≥ 128 of 255). */
  foregroundShare: number
  /** Share of the pixels of a band along the four edges that are inside the mask. */
  borderCoverage: number
  /** The inside's centre of mass, as fractions of width and height (0.5, 0.5 is the middle). */
  centroid: { x: number; y: number }
}

export function summariseMask(alpha: Uint8Array, width: number, height: number): MaskSummary {
  const band = Math.max(2, Math.round(Math.min(width, height) * 0.01))
  let inside = 0
  let sumX = 0
  let sumY = 0
  let border = 0
  let borderInside = 0
  for (let y = 0; y < height; y++) {
    const isEdgeRow = y < band || y >= height - band
    for (let x = 0; x < width; x++) {
      const isIn = (alpha[y * width + x] as number) >= 128
      if (isIn) {
        inside++
        sumX += x
        sumY += y
      }
      if (isEdgeRow || x < band || x >= width - band) {
        border++
        if (isIn) borderInside++
      }
    }
  }
  return {
    foregroundShare: inside / (width * height),
    borderCoverage: border === 0 ? 0 : borderInside / border,
    centroid:
      inside === 0
        ? { x: 0.5, y: 0.5 }
        : { x: (sumX / inside + 0.5) / width, y: (sumY / inside + 0.5) / height },
  }
}

/**
 * How the model's mask is refined, chosen on the evaluation set (docs/decisions/0019): the
 * guided filter's fit, the width of the band around the model's outline where it may move the
 * edge (a share of the photo's longest side), and the contrast curve that then clears the faint
 * haze the filter leaves on textured surfaces (wood grain) and keeps the inside solid.
 */
export const refinement = {
  filter: { radius: 4, epsilon: 0.001, fitSide: 320 } satisfies GuidedFilterOptions,
  band: 0.02,
  curve: [0.25, 0.75] as const,
}

/**
 * Snaps a soft mask (0–1, width×height, e.g. the model's answer scaled up) to the edges of the
 * photo `guide` (RGB): inside a band along the mask's outline the guided filter decides, through
 * a contrast curve; beyond the band the mask's own in/out stands, so the filter can neither
 * punch holes into the product nor spread onto the background.
 */
export function refineMask(
  coarse: Float32Array,
  guide: Uint8Array,
  width: number,
  height: number,
): Float32Array {
  const [low, high] = refinement.curve
  const near = new Float32Array(coarse.length)
  for (let i = 0; i < coarse.length; i++) near[i] = (coarse[i] as number) >= 0.5 ? 1 : 0
  // The share of the inside within `band` of each pixel: 1 deep inside, 0 far outside.
  boxMeans([near], width, height, Math.max(1, Math.round(Math.max(width, height) * refinement.band)))
  // The filter is applied only in the band, where its answer is used.
  const refined = guidedFilter(guide, coarse, width, height, refinement.filter, near)
  // In place: the filter's output becomes the refined mask.
  for (let i = 0; i < refined.length; i++) {
    const inside = near[i] as number
    if (inside >= 0.999) refined[i] = 1
    else if (inside <= 0.001) refined[i] = 0
    else {
      const t = Math.min(1, Math.max(0, ((refined[i] as number) - low) / (high - low)))
      refined[i] = t * t * (3 - 2 * t)
    }
  }
  return refined
}

/** The finished mask of one photo, with the model's own certainty. */
export type FinishedMask = { alpha: Uint8Array; confidence: number } & MaskSummary

/**
 * From the model's raw 320×320 answer to a full-resolution alpha for the photo `guide` (RGB,
 * width×height): min-max normalised as rembg does, scaled up, snapped to the photo's edges
 * (refineMask), specks cleared, and summarised.
 *
 * Confidence is how decided the answer is: the mean of |2p − 1| over the normalised map (1 when
 * every pixel is clearly in or out), scaled down when even the strongest raw answer is weak, since
 * min-max normalisation would otherwise blow an empty photo's faint noise up into a mask.
 */
export function finishMask(
  raw: Float32Array,
  guide: Uint8Array,
  width: number,
  height: number,
  side = modelSide,
): FinishedMask {
  if (raw.length !== side * side) throw new Error(`expected ${side}×${side} model outputs, got ${raw.length}`)
  let low = Number.POSITIVE_INFINITY
  let high = Number.NEGATIVE_INFINITY
  for (let i = 0; i < raw.length; i++) {
    const v = raw[i] as number
    if (v < low) low = v
    if (v > high) high = v
  }
  const range = high - low || 1
  const normalised = new Float32Array(raw.length)
  let decided = 0
  for (let i = 0; i < raw.length; i++) {
    const p = ((raw[i] as number) - low) / range
    normalised[i] = p
    decided += Math.abs(2 * p - 1)
  }
  const confidence = (decided / raw.length) * Math.min(1, high / 0.5)

  const soft = refineMask(upsampleBilinear(normalised, side, side, width, height), guide, width, height)
  keepMainParts(soft, width, height)
  const alpha = new Uint8Array(width * height)
  for (let i = 0; i < alpha.length; i++) alpha[i] = Math.round((soft[i] as number) * 255)
  return { alpha, confidence, ...summariseMask(alpha, width, height) }
}
