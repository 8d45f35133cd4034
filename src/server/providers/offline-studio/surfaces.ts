import { blendInto, paint, rgb, shade, tint } from './canvas.ts'
import { clamp, createNoise, createRandom, fractalNoise, grain, mix, smoothstep } from './noise.ts'

// The materials the product scenes stand a product on, painted in surface coordinates: (u, v)
// in "surface pixels", where 1080 of them span the short side of the frame at its nearest point.
// The front view maps screen rows to (u, v) in perspective (canvas.ts surfacePoint), the top view
// maps the frame straight onto the surface; both scale by the frame, so a 2048-px frame shows the
// same stone as a 1080-px one, only sharper. Each material is built the way the real one looks in
// a photograph: several layers at different scales, none of them a single clean line.

/** A surface material: writes the colour (0–255 floats) at surface point (u, v) into `out`. */
export type Surface = (u: number, v: number, out: Float64Array) => void

/** Absolute-value (turbulence) fractal noise in [0, 1]: billowy, with creases where it folds. */
function turbulence(noise: (x: number, y: number) => number, x: number, y: number, octaves: number): number {
  let sum = 0
  let amplitude = 1
  let frequency = 1
  let norm = 0
  for (let i = 0; i < octaves; i++) {
    sum += amplitude * Math.abs(noise(x * frequency, y * frequency))
    norm += amplitude
    amplitude *= 0.5
    frequency *= 2.07
  }
  return sum / norm
}

/**
 * Carrara-like marble: a warm white ground with broad, soft clouds of grey (the stone's depth
 * under its polish), main veins that run diagonally and wander through a turbulent field, each
 * with a blurred halo (the vein seen through the translucent top layer), a web of finer veins
 * branching between them, and a slight shift of colour along the veins (blue-grey to warm grey).
 */
export function marbleSurface(): Surface {
  const warp = createNoise(101)
  const cloud = createNoise(202)
  const veins = createNoise(303)
  const web = createNoise(404)
  const ground = rgb('#f1efeb')
  const groundShade = rgb('#d9d7d3')
  const coolVein = rgb('#6e747d')
  const warmVein = rgb('#8b837b')
  const haze = rgb('#c3c3c2')
  const vein = new Float64Array(3)
  return (u, v, out) => {
    const x = u / 1000
    const y = v / 1000
    // The stone's flow runs diagonally; features are long along it and short across it.
    const p = (x * 0.8 + y * 0.6) * 0.55
    const q = (y * 0.8 - x * 0.6) * 1.7
    // Domain warp: the field the veins follow is bent by noise, then bent again by turbulence.
    const wx = fractalNoise(warp, p, q, 2)
    const wy = fractalNoise(warp, p + 5.2, q + 1.3, 2)
    const t = turbulence(warp, p * 2 + 9.7, q * 2, 2)
    const n = fractalNoise(veins, p * 1.1 + wx * 1.5 + t * 0.35, q * 1.1 + wy * 1.5, 5)
    // Veins fade in and out along their length and change width with it.
    const presence = smoothstep(-0.45, 0.45, fractalNoise(cloud, x * 1.2 + 7.3, y * 1.2 - 2.1, 2))
    const width = 0.004 + 0.022 * presence
    const d = Math.abs(n)
    const core = Math.exp(-((d / width) ** 2))
    // The vein seen through the stone's translucent top layer: a wide, soft shadow around it.
    const halo = Math.exp(-d / (width * 4 + 0.02))
    // A web of finer veins between the main ones, present only in places.
    const n2 = fractalNoise(web, p * 2.6 + wx * 2.2, q * 2.6 + wy * 2.2, 2)
    const fine =
      Math.exp(-((Math.abs(n2) / 0.01) ** 2)) * smoothstep(0.1, 0.7, fractalNoise(cloud, x * 2.4, y * 2.4, 2))
    const c = fractalNoise(cloud, x * 0.8 + 3.3, y * 0.8, 3) * 0.5 + 0.5
    blendInto(out, ground, groundShade, clamp(c * c * 0.85, 0, 1))
    tint(out, haze, halo * (0.12 + 0.3 * presence))
    blendInto(vein, coolVein, warmVein, clamp(0.5 + wx * 1.5, 0, 1))
    tint(out, vein, clamp(core * (0.2 + 0.5 * presence) + fine * 0.25, 0, 0.8))
    // The polish's sparkle: a fine, faint grain.
    shade(out, 1 + grain(Math.round(u), Math.round(v), 41) * 0.01)
  }
}

/**
 * Oak boards running across the frame: each board cut from its own log (its own tone, ring
 * spacing and where its heart lies), rings as early wood and late wood bands bent by the grain's
 * wander, pores as short dark dashes along the grain, and a thin dark seam with a lit bevel
 * between boards. `boardWidth` in surface pixels; `weathered` greys it for an outdoor deck.
 */
export function woodSurface(boardWidth: number, weathered = false): Surface {
  const wander = createNoise(505)
  const pores = createNoise(606)
  const figure = createNoise(707)
  const early = weathered ? rgb('#b5a794') : rgb('#c99c6b')
  const late = weathered ? rgb('#7a6c5d') : rgb('#8e5f39')
  const seam = weathered ? rgb('#3a332c') : rgb('#3a2415')
  const boardLength = boardWidth * 5.5
  // Rings per board width: oak's growth rings lie 2–4 mm apart on a board 12–15 cm wide.
  const ringsAcross = 34
  return (u, v, out) => {
    const board = Math.floor(v / boardWidth)
    const local = v / boardWidth - board
    const random = createRandomCached(board)
    const tone = (random[0] as number) - 0.5
    const heart = (random[1] as number) * 1.6 - 0.3
    const end = (random[2] as number) * boardLength
    const piece = Math.floor((u + end) / boardLength)
    const along = u / boardWidth
    // The rings are the log's cross-section cut by the board's face: where the cut runs deeper
    // into the log they arch (cathedral figure), where it runs level they are straight lines.
    const deep = 9 + 7 * fractalNoise(wander, along * 0.22 + board * 4.7 + piece * 1.9, 0.5, 2)
    const across =
      (local - heart) * ringsAcross + fractalNoise(wander, along * 0.9, local * 2 + board, 2) * 1.2
    const r = Math.sqrt(across * across + deep * deep) * (1 + pores(along * 0.4 + 7.7, board * 3.1) * 0.1)
    const f = r - Math.floor(r)
    // Late wood: a narrow darker band with a soft edge; its width wanders a little.
    const late0 = 0.62 + figure(along * 3, r * 0.7) * 0.08
    const band = smoothstep(late0, late0 + 0.18, f) * (1 - smoothstep(0.9, 1, f))
    // Fibre streaks: long along the grain, thin across it.
    const fibre = fractalNoise(figure, u * 0.0035, v * 0.22, 2)
    const pieceTone =
      tone * 0.8 + grain(board, piece, 61) * 0.15 + figure(along * 0.35, local * 1.5 + board * 2.3) * 0.25
    blendInto(out, early, late, clamp(0.22 + band * 0.42 + fibre * 0.16 + pieceTone * 0.45, 0, 1))
    // Pores: short dark dashes along the grain, more of them in the late wood.
    const pore = smoothstep(0.5, 0.8, pores(u * 0.07, v * 0.8)) * (0.06 + 0.12 * band)
    shade(out, (1 - pore) * (1 + pieceTone * 0.12))
    // Board seams (along) and butt joints (across), with a lit bevel on the side facing the light.
    const edge = Math.min(local, 1 - local) * boardWidth
    const joint = (((u + end) % boardLength) + boardLength) % boardLength
    const jointEdge = Math.min(joint, boardLength - joint)
    const seamAmount = Math.max(1 - smoothstep(0.8, 2.6, edge), 1 - smoothstep(0.8, 2.6, jointEdge))
    tint(out, seam, seamAmount * 0.8)
    if (local > 0.5) shade(out, 1 - 0.07 * (1 - smoothstep(2, 8, edge)))
    else shade(out, 1 + 0.05 * (1 - smoothstep(2, 8, edge)))
    if (weathered)
      shade(out, 1 - 0.07 * smoothstep(0.1, 0.7, fractalNoise(wander, along * 1.5 + 3, local * 4 + board, 2)))
  }
}

// Per-board random numbers, computed once per board index.
const boardRandoms = new Map<number, Float64Array>()
function createRandomCached(board: number): Float64Array {
  let values = boardRandoms.get(board)
  if (!values) {
    const random = createRandom(9001 + board * 7919)
    values = Float64Array.from({ length: 4 }, () => random())
    boardRandoms.set(board, values)
  }
  return values
}

/**
 * Cast concrete: tonal mottling at three scales (trowel marks and curing clouds), fine sand
 * speckle, and air pores: small round pits, darker inside with a lit lower lip (the light comes
 * from the upper left), scattered one per cell of a jittered grid so they never line up.
 */
export function concreteSurface(base: string): Surface {
  const mottle = createNoise(1301)
  const detail = createNoise(1402)
  const colour = rgb(base)
  const pit = rgb('#46443f')
  const cell = 26
  return (u, v, out) => {
    const m = fractalNoise(mottle, u * 0.0022, v * 0.0022, 4)
    const d = fractalNoise(detail, u * 0.02, v * 0.02, 2)
    const speck = grain(Math.round(u / 1.5), Math.round(v / 1.5), 23)
    paint(out, colour)
    shade(out, 1 + m * 0.16 + d * 0.05 + speck * 0.035)
    // One candidate pore per cell, kept by chance, at a random point with a random size.
    const cx = Math.floor(u / cell)
    const cy = Math.floor(v / cell)
    const keep = grain(cx, cy, 31)
    if (keep > 0.35) {
      const px = (cx + 0.25 + 0.5 * (grain(cx, cy, 37) * 0.5 + 0.5)) * cell
      const py = (cy + 0.25 + 0.5 * (grain(cx, cy, 43) * 0.5 + 0.5)) * cell
      const radius = 1.2 + 3.5 * (grain(cx, cy, 47) * 0.5 + 0.5) ** 3
      const dx = u - px
      const dy = v - py
      const dist = Math.sqrt(dx * dx + dy * dy)
      const inside = 1 - smoothstep(radius * 0.6, radius, dist)
      tint(out, pit, inside * (0.35 + 0.35 * keep))
      // The lit lip on the side facing away from the light.
      const lip =
        (smoothstep(radius * 0.8, radius * 1.1, dist) - smoothstep(radius * 1.1, radius * 1.6, dist)) * 0.25
      if (dx + dy > 0) shade(out, 1 + lip * clamp((dx + dy) / (dist + 1e-6), 0, 1))
    }
  }
}

/**
 * Velvet lying in loose folds: the pile shines where the cloth turns away from the camera and is
 * deepest where it faces it, so the shine follows the slope of the folds, not their height.
 */
export function velvetSurface(): Surface {
  const folds = createNoise(1001)
  const pile = createNoise(1203)
  const deep = rgb('#2b0512')
  const body = rgb('#6a1230')
  const sheen = rgb('#b8486a')
  const step = 8
  const s = 1 / 1000
  return (u, v, out) => {
    // Broad, soft swells of cloth lying loosely: two octaves, drawn out along a diagonal like a throw.
    const h = (x: number, y: number) => fractalNoise(folds, (x + y) * s * 0.75, (y - x) * s * 0.95, 2)
    const here = h(u, v)
    const sx = ((h(u + step, v) - here) / step) * 1000
    const sy = ((h(u, v + step) - here) / step) * 1000
    const slope2 = sx * sx + sy * sy
    // Facing the light (upper left) a little lighter, turned away a little darker ...
    const facing = clamp(0.5 - (sx + sy) * 0.22, 0, 1)
    const nap = fractalNoise(pile, u * 0.06, v * 0.06, 2) * 0.03
    blendInto(out, deep, body, clamp(0.35 + facing * 0.5 + nap, 0, 1))
    // ... and the pile shines where the cloth slopes away from the camera.
    tint(out, sheen, (1 - Math.exp(-slope2 * 0.5)) * 0.55)
  }
}

/** Matte black acrylic: almost flat, with a faint, very fine texture so it reads as a surface. */
export function blackSurface(): Surface {
  const soft = createNoise(1501)
  const colour = rgb('#141416')
  return (u, v, out) => {
    paint(out, colour)
    shade(
      out,
      1 + fractalNoise(soft, u * 0.004, v * 0.004, 3) * 0.12 + grain(Math.round(u), Math.round(v), 53) * 0.05,
    )
  }
}

/** Seamless paper: an even warm grey with a faint fibre texture. */
export function paperSurface(base: string): Surface {
  const fibre = createNoise(1601)
  const colour = rgb(base)
  return (u, v, out) => {
    paint(out, colour)
    shade(
      out,
      1 + fractalNoise(fibre, u * 0.02, v * 0.05, 2) * 0.012 + grain(Math.round(u), Math.round(v), 59) * 0.01,
    )
  }
}

/**
 * Sunlight under trees: 1 in full sun, down to `depth` in the foliage's shade, soft-edged (the
 * leaves are far above the table, so their shadow is a blur, not a stencil).
 */
export function dappledSun(depth: number): (u: number, v: number) => number {
  const leaves = createNoise(1701)
  return (u, v) => {
    // Foliage well above the table casts a soft, out-of-focus shade: no hard leaf shapes.
    const n = fractalNoise(leaves, u * 0.0028, v * 0.0028, 3)
    return mix(depth, 1, smoothstep(-0.35, 0.25, n))
  }
}
