import sharp from 'sharp'
import { type AspectRatio, imageSize } from '#shared/scenes.ts'
import { clamp, smoothstep } from './noise.ts'

/** A full-frame background as raw sRGB pixels (3 channels), ready to composite onto. */
export type Backdrop = { raw: Buffer; width: number; height: number; stage: Stage }

/**
 * Where and how large the subject goes on a backdrop. `base` stands the subject on a surface
 * (its bottom edge at `y`), `centre` centres it on `y` with a drop shadow (garments, cards),
 * `middle` centres it on `y` with only a small contact shadow under its base (the white studio:
 * nothing but the product and that shadow may differ from #FFFFFF), `surface` lays it on a
 * surface seen from above, centred on `y`, with a shadow that follows its outline (decision 42).
 */
export type Stage = {
  anchor: 'base' | 'centre' | 'middle' | 'surface'
  x: number
  y: number
  maxWidth: number
  maxHeight: number
  /** Strength of the soft shadow under the subject, 0–1. */
  shadowOpacity: number
  /** Strength of a mirrored reflection on glossy floors, 0 for none. */
  reflectionOpacity: number
}

/** A texture painter: writes the sRGB colour (0–255 floats) of full-frame point (x, y) into `out`. */
export type Painter = (x: number, y: number, out: Float64Array) => void

export type Frame = { width: number; height: number; isTall: boolean }

/**
 * The canvas of a ratio: its standard size (imageSize: 1:1 1080², 2:3 1200×1800, 9:16
 * 1080×1920) or a larger `size` of the same shape (resultSizes); portrait ones are tall.
 */
export function frameFor(
  ratio: AspectRatio,
  size: { width: number; height: number } = imageSize[ratio],
): Frame {
  const { width, height } = size
  // Any portrait ratio (9:16, a marketplace's 2:3) gets the portrait layout.
  return { width, height, isTall: height > width }
}

/** A crisp shape drawn with SVG at full resolution, placed at (left, top); keep it small. */
export type Overlay = { svg: string; left: number; top: number }

/**
 * Paints the backdrop at half the frame's resolution (textures and light are soft, and half the
 * pixels is a quarter of the work), scales it to the frame and lays crisp SVG shapes on top.
 * Light and shade are computed in the painters rather than drawn as SVG gradients: librsvg
 * spends 150–300 ms on each frame-sized radial gradient, the painter a few milliseconds.
 * Returns raw RGB with a faint deterministic dither so gradients do not band in JPEG.
 */
export async function renderBackdrop(
  frame: Frame,
  painter: Painter,
  overlays: Overlay[] = [],
  options: { blur?: number; coarseness?: number } = {},
): Promise<Buffer> {
  const { width, height } = frame
  // Painted at 1/2 the frame's resolution, or coarser for surfaces with no fine detail (cloth,
  // paper), which cost as much per painted pixel and look the same scaled up.
  const coarseness = options.coarseness ?? 2
  const textureWidth = Math.round(width / coarseness)
  const textureHeight = Math.round(height / coarseness)
  const texture = paintTexture(textureWidth, textureHeight, width / textureWidth, painter)
  let image = sharp(texture, { raw: { width: textureWidth, height: textureHeight, channels: 3 } })
  // Blurring at half size is four times cheaper and looks the same once scaled up.
  if (options.blur) image = image.blur(options.blur / coarseness)
  const scaled = await image.resize(width, height, { kernel: 'cubic' }).raw().toBuffer()
  const raw =
    overlays.length === 0
      ? scaled
      : await sharp(scaled, { raw: { width, height, channels: 3 } })
          .composite(overlays.map((o) => ({ input: Buffer.from(o.svg), left: o.left, top: o.top })))
          .removeAlpha()
          .raw()
          .toBuffer()
  dither(raw, width, height)
  return raw
}

/** Smooth elliptical falloff: 1 at (cx, cy), 0 at and beyond the ellipse's edge. */
export function falloff(x: number, y: number, cx: number, cy: number, rx: number, ry: number): number {
  const dx = (x - cx) / rx
  const dy = (y - cy) / ry
  const d = 1 - (dx * dx + dy * dy)
  return d <= 0 ? 0 : d * d
}

/** Moves the colour in out toward `colour` by `amount` (0–1): light pools, glows, haze. */
export function tint(out: Float64Array, colour: ArrayLike<number>, amount: number): Float64Array {
  if (amount <= 0) return out
  out[0] = (out[0] as number) + ((colour[0] as number) - (out[0] as number)) * amount
  out[1] = (out[1] as number) + ((colour[1] as number) - (out[1] as number)) * amount
  out[2] = (out[2] as number) + ((colour[2] as number) - (out[2] as number)) * amount
  return out
}

/** The darkening factor of a lens vignette at (x, y): 1 in the middle, 1 - strength in the corners. */
export function vignetteAt(frame: Frame, x: number, y: number, strength: number): number {
  const dx = (x / frame.width - 0.5) * 2
  const dy = (y / frame.height - 0.5) * 2
  const r = Math.sqrt(dx * dx + dy * dy) / Math.SQRT2
  return 1 - strength * smoothstep(0.35, 1, r)
}

function paintTexture(width: number, height: number, scale: number, painter: Painter): Buffer {
  const out = Buffer.alloc(width * height * 3)
  const colour = new Float64Array(3)
  let i = 0
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      painter(x * scale, y * scale, colour)
      out[i++] = clamp(Math.round(colour[0] as number), 0, 255)
      out[i++] = clamp(Math.round(colour[1] as number), 0, 255)
      out[i++] = clamp(Math.round(colour[2] as number), 0, 255)
    }
  }
  return out
}

/**
 * ±1.5 levels of grain: invisible, but breaks the steps of smooth gradients. The grain is
 * noise.ts grain(x, y, 11) with its row's half of the hash taken out of the inner loop, and the
 * clamped view does the clamping.
 */
function dither(raw: Buffer, width: number, height: number) {
  const pixels = new Uint8ClampedArray(raw.buffer, raw.byteOffset, raw.length)
  const seedHash = Math.imul(11, 1442695041)
  let i = 0
  for (let y = 0; y < height; y++) {
    const rowHash = Math.imul(y, 668265263) ^ seedHash
    for (let x = 0; x < width; x++) {
      let h = Math.imul(x, 374761393) ^ rowHash
      h = Math.imul(h ^ (h >>> 13), 1274126177)
      h ^= h >>> 16
      const d = Math.round((((h >>> 0) / 4294967295) * 2 - 1) * 1.5)
      pixels[i] = (pixels[i] as number) + d
      pixels[i + 1] = (pixels[i + 1] as number) + d
      pixels[i + 2] = (pixels[i + 2] as number) + d
      i += 3
    }
  }
}

/** An SVG document of the given size around `body`. */
export function svgBox(width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(width)}" height="${Math.ceil(height)}">${body}</svg>`
}

/** Parses '#rrggbb' into [r, g, b]. */
export function rgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16)
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255]
}

/** Writes a flat colour into out. */
export function paint(out: Float64Array, colour: ArrayLike<number>): Float64Array {
  out[0] = colour[0] as number
  out[1] = colour[1] as number
  out[2] = colour[2] as number
  return out
}

/** Writes the blend of colours a and b at t (0 → a, 1 → b) into out. */
export function blendInto(
  out: Float64Array,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  t: number,
): Float64Array {
  out[0] = (a[0] as number) + ((b[0] as number) - (a[0] as number)) * t
  out[1] = (a[1] as number) + ((b[1] as number) - (a[1] as number)) * t
  out[2] = (a[2] as number) + ((b[2] as number) - (a[2] as number)) * t
  return out
}

/** Multiplies the colour in out by `factor` (lighting). */
export function shade(out: Float64Array, factor: number): Float64Array {
  out[0] = (out[0] as number) * factor
  out[1] = (out[1] as number) * factor
  out[2] = (out[2] as number) * factor
  return out
}

/**
 * Maps a screen row below the horizon to depth on a flat surface seen from a little above,
 * so floor textures shrink toward the back like a real tabletop. Returns surface coordinates
 * (u across, v into the picture) in frame pixels at the front edge.
 */
export function surfacePoint(
  frame: Frame,
  horizonY: number,
  x: number,
  y: number,
): { u: number; v: number; depth: number } {
  // The vanishing line sits above the seam with the wall, so the table's back edge is at a
  // finite distance and its texture never shrinks to aliasing noise.
  const vanishY = horizonY - frame.height * 0.28
  const depth = (frame.height - vanishY) / Math.max(1, y - vanishY)
  return { u: (x - frame.width / 2) * depth, v: depth * frame.height * 0.5, depth }
}
