import sharp from 'sharp'
import type { Backdrop } from './canvas.ts'
import type { Subject } from './separate.ts'

// Puts the subject on its backdrop: scaled into the stage's box, a soft shadow under it (a
// tight contact shadow where it touches the surface, a wide soft one around that, or a drop
// shadow for subjects that float), a faint reflection on glossy floors, then one JPEG.

/** JPEG quality of results: visually clean at 1080 px while staying around 150–400 kB. */
export const jpegQuality = 88

type Layer = { input: Buffer; raw: { width: number; height: number; channels: 4 }; left: number; top: number }

/** How far beyond its stage's box a cut may reach so that the part the model sees fills it (placeSubject). */
const unseenReach = 1.06

/** Where the subject goes on the backdrop: its top-left corner and its scaled size, in frame pixels. */
export function placeSubject(
  backdrop: Pick<Backdrop, 'stage'>,
  subject: Pick<Subject, 'width' | 'height' | 'isSeparated' | 'seenShare'>,
): { left: number; top: number; width: number; height: number } {
  const { stage } = backdrop
  // Cards (unseparated photos) are kept a little smaller, so they read as a framed photo.
  const share = subject.isSeparated ? 1 : 0.86
  let scale = Math.min(stage.maxWidth / subject.width, stage.maxHeight / subject.height) * share
  // A cut with parts the model does not see (a pale steel tip) is sized so the part it sees fills
  // the stage, as a marketplace's checker measures it, with the whole reaching at most
  // `unseenReach` beyond the stage's box (on the white studio, 88 % → 93 % of the frame).
  const seen = subject.seenShare
  if (seen) {
    const seenScale = Math.min(
      stage.maxWidth / (subject.width * seen.width),
      stage.maxHeight / (subject.height * seen.height),
    )
    scale = Math.max(scale, Math.min(seenScale * share, scale * unseenReach))
  }
  const w = Math.max(1, Math.round(subject.width * scale))
  const h = Math.max(1, Math.round(subject.height * scale))
  const left = Math.round(stage.x - w / 2)
  const top = Math.round(stage.anchor === 'base' ? stage.y - h : stage.y - h / 2)
  return { left, top, width: w, height: h }
}

/** Composites the subject onto the backdrop and encodes the JPEG (metadata stripped). */
export async function composeOnBackdrop(backdrop: Backdrop, subject: Subject): Promise<Buffer> {
  const { stage, width, height } = backdrop
  const { left, top, width: w, height: h } = placeSubject(backdrop, subject)
  const scaled = await scaleSubject(subject, w, h)

  const layers: Layer[] = []
  if (stage.anchor === 'middle') {
    layers.push(contactShadow(scaled, w, h, left, top, stage.shadowOpacity, width, height))
  } else if (stage.anchor === 'base') {
    const footprint = footprintOf(scaled, w, h)
    const cx = left + footprint.centre
    const rx = Math.max(footprint.width * 0.62, w * 0.18)
    layers.push(ellipseShadow(cx, stage.y, rx * 1.5, rx * 0.2, stage.shadowOpacity * 0.45, width, height))
    layers.push(
      ellipseShadow(cx, stage.y, rx * 1.05, Math.max(5, rx * 0.075), stage.shadowOpacity, width, height),
    )
    if (stage.reflectionOpacity > 0) {
      const reflection = await reflectionOf(scaled, w, h, stage.reflectionOpacity)
      layers.push(...clipLayer(reflection, w, reflection.length / 4 / w, left, stage.y, width, height))
    }
  } else if (stage.anchor === 'surface') {
    layers.push(...(await surfaceShadow(scaled, w, h, left, top, stage.shadowOpacity, width, height)))
  } else {
    layers.push(...(await dropShadow(scaled, w, h, left, top, stage.shadowOpacity, width, height)))
  }
  layers.push(...clipLayer(scaled, w, h, left, top, width, height))

  return sharp(backdrop.raw, { raw: { width, height, channels: 3 } })
    .composite(layers)
    .jpeg({ quality: jpegQuality })
    .toBuffer()
}

/**
 * Past this enlargement the subject's edge is re-tightened: scaled up, a cut-out's one-pixel
 * edge becomes a blur as wide as the enlargement (a small photo's rocket nose 2.5× wider than
 * it was cut).
 */
export const crispEdgeFrom = 1.25

/**
 * The subject at w×h. When a small photo has to be enlarged to fill the frame, its edge is
 * tightened back to about the width it had in the photo (the alpha's transition steepened
 * around its middle, so the outline stays where it was) and the colour is lightly sharpened:
 * an enlarged product should look like a smaller photo of it, not a blurred one.
 */
export async function scaleSubject(
  subject: Pick<Subject, 'data' | 'width' | 'height'>,
  w: number,
  h: number,
): Promise<Buffer> {
  const enlargement = Math.max(w / subject.width, h / subject.height)
  let image = sharp(subject.data, {
    raw: { width: subject.width, height: subject.height, channels: 4 },
  }).resize(w, h, { kernel: 'lanczos3' })
  if (enlargement >= crispEdgeFrom) image = image.sharpen({ sigma: Math.min(2, 0.5 + enlargement * 0.25) })
  const scaled = await image.raw().toBuffer()
  if (enlargement < crispEdgeFrom) return scaled
  const slope = Math.min(8, enlargement / 1.2)
  const curve = new Uint8Array(256)
  for (let v = 0; v < 256; v++)
    curve[v] = Math.round(Math.min(1, Math.max(0, 0.5 + (v / 255 - 0.5) * slope)) * 255)
  for (let i = 3; i < scaled.length; i += 4) scaled[i] = curve[scaled[i] as number] as number
  return scaled
}

/** Where the subject touches the ground: the span of its lowest solid rows. */
function footprintOf(
  data: Buffer,
  width: number,
  height: number,
): { centre: number; width: number; bottom: number } {
  const rows = Math.max(2, Math.round(height * 0.04))
  let low = width
  let high = -1
  let bottom = height - 1
  // Skip feathered, nearly empty rows at the very bottom.
  while (bottom > 0 && !rowHasSolid(data, width, bottom)) bottom--
  for (let y = Math.max(0, bottom - rows); y <= bottom; y++) {
    for (let x = 0; x < width; x++) {
      if ((data[(y * width + x) * 4 + 3] as number) >= 128) {
        if (x < low) low = x
        if (x > high) high = x
      }
    }
  }
  if (high < low) return { centre: width / 2, width, bottom: height }
  return { centre: (low + high + 1) / 2, width: high - low + 1, bottom: bottom + 1 }
}

function rowHasSolid(data: Buffer, width: number, y: number): boolean {
  for (let x = 0; x < width; x++) if ((data[(y * width + x) * 4 + 3] as number) >= 128) return true
  return false
}

/**
 * The white studio's only shadow: a flat, soft ellipse under the product's footprint, cut off
 * where it would fade below 4 levels, so the white around it stays exactly #FFFFFF instead of
 * carrying a faint grey haze far out.
 */
function contactShadow(
  data: Buffer,
  width: number,
  height: number,
  left: number,
  top: number,
  opacity: number,
  frameWidth: number,
  frameHeight: number,
): Layer {
  const footprint = footprintOf(data, width, height)
  // Tight and flat: it grounds the product without greying a band of the white around it.
  const rx = Math.max(footprint.width * 0.5, width * 0.12)
  const ry = Math.max(3, Math.min(rx * 0.03, height * 0.02))
  return ellipseShadow(
    left + footprint.centre,
    top + footprint.bottom - ry * 0.3,
    rx,
    ry,
    opacity,
    frameWidth,
    frameHeight,
    4,
  )
}

/** A soft black ellipse, as an RGBA layer clipped to the frame; alpha below `floor` (0–255) is dropped. */
function ellipseShadow(
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  opacity: number,
  frameWidth: number,
  frameHeight: number,
  floor = 0,
): Layer {
  const left = Math.max(0, Math.floor(cx - rx * 1.6))
  const top = Math.max(0, Math.floor(cy - ry * 1.6))
  const right = Math.min(frameWidth, Math.ceil(cx + rx * 1.6))
  const bottom = Math.min(frameHeight, Math.ceil(cy + ry * 1.6))
  const w = Math.max(1, right - left)
  const h = Math.max(1, bottom - top)
  const data = Buffer.alloc(w * h * 4)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const dx = (x + left + 0.5 - cx) / rx
      const dy = (y + top + 0.5 - cy) / ry
      // A Gaussian falloff: no visible edge at any size.
      const alpha = Math.round(opacity * Math.exp(-2.2 * (dx * dx + dy * dy)) * 255)
      data[(y * w + x) * 4 + 3] = alpha < floor ? 0 : alpha
    }
  }
  return { input: data, raw: { width: w, height: h, channels: 4 }, left, top }
}

/** The subject mirrored below its base, fading out over a third of its height. */
async function reflectionOf(data: Buffer, width: number, height: number, opacity: number): Promise<Buffer> {
  const fadeRows = Math.max(1, Math.round(height * 0.35))
  const flipped = await sharp(data, { raw: { width, height, channels: 4 } })
    .flip()
    .extract({ left: 0, top: 0, width, height: fadeRows })
    .raw()
    .toBuffer()
  for (let y = 0; y < fadeRows; y++) {
    const fade = opacity * (1 - y / fadeRows) ** 2
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4 + 3
      flipped[i] = Math.round((flipped[i] as number) * fade)
    }
  }
  return flipped
}

/** A blurred silhouette behind a floating subject, offset down and right (light from top left). */
async function dropShadow(
  data: Buffer,
  width: number,
  height: number,
  left: number,
  top: number,
  opacity: number,
  frameWidth: number,
  frameHeight: number,
): Promise<Layer[]> {
  const sigma = Math.max(4, Math.round(Math.max(width, height) * 0.018))
  const pad = sigma * 3
  const alpha = await sharp(data, { raw: { width, height, channels: 4 } })
    .extractChannel(3)
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 0, g: 0, b: 0, alpha: 1 } })
    .blur(sigma)
    .linear(opacity, 0)
    .extractChannel(0)
    .raw()
    .toBuffer()
  const w = width + pad * 2
  const h = height + pad * 2
  const shadow = Buffer.alloc(w * h * 4)
  for (let i = 0; i < w * h; i++) shadow[i * 4 + 3] = alpha[i] as number
  const offset = Math.round(sigma * 0.8)
  return clipLayer(
    shadow,
    w,
    h,
    left - pad + offset,
    top - pad + Math.round(offset * 1.5),
    frameWidth,
    frameHeight,
  )
}

/**
 * The shadow of a product lying on a surface seen from above (decision 42): its own outline,
 * darkest right under its edge where it touches (a tight blur barely offset), and a wider, paler
 * shade of the same outline cast toward the lower right, away from the light at the upper left.
 * Both start under the product, so the shadow is attached to it, never a separate ellipse.
 */
async function surfaceShadow(
  data: Buffer,
  width: number,
  height: number,
  left: number,
  top: number,
  opacity: number,
  frameWidth: number,
  frameHeight: number,
): Promise<Layer[]> {
  const size = Math.max(width, height)
  const contactSigma = Math.max(1.5, size * 0.006)
  const castSigma = Math.max(4, size * 0.03)
  const pad = Math.ceil(castSigma * 3 + size * 0.03)
  const w = width + pad * 2
  const h = height + pad * 2
  const silhouette = Buffer.alloc(w * h)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++)
      silhouette[(y + pad) * w + x + pad] = data[(y * width + x) * 4 + 3] as number
  }
  const blurred = (sigma: number) =>
    sharp(silhouette, { raw: { width: w, height: h, channels: 1 } })
      .blur(sigma)
      .extractChannel(0)
      .raw()
      .toBuffer()
  const [contact, cast] = await Promise.all([blurred(contactSigma), blurred(castSigma)])
  const contactShift = Math.round(size * 0.004)
  const castShift = Math.round(size * 0.02)
  const shadow = Buffer.alloc(w * h * 4)
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const c = sampleAt(contact, w, h, x - contactShift, y - contactShift)
      const k = sampleAt(cast, w, h, x - castShift, y - Math.round(castShift * 1.3))
      // The two shades darken together the way light does: 1 - (1 - a)(1 - b).
      const a = 1 - (1 - c * opacity * 0.85) * (1 - k * opacity * 0.6)
      shadow[(y * w + x) * 4 + 3] = Math.round(a * 255)
    }
  }
  return clipLayer(shadow, w, h, left - pad, top - pad, frameWidth, frameHeight)
}

/** A channel value (0–1) at (x, y), 0 outside the buffer. */
function sampleAt(data: Buffer, width: number, height: number, x: number, y: number): number {
  if (x < 0 || y < 0 || x >= width || y >= height) return 0
  return (data[y * width + x] as number) / 255
}

/** Crops an RGBA layer to the part inside the frame (sharp refuses layers that stick out). */
function clipLayer(
  data: Buffer,
  width: number,
  height: number,
  left: number,
  top: number,
  frameWidth: number,
  frameHeight: number,
): Layer[] {
  const x0 = Math.max(0, left)
  const y0 = Math.max(0, top)
  const x1 = Math.min(frameWidth, left + width)
  const y1 = Math.min(frameHeight, top + height)
  if (x1 <= x0 || y1 <= y0) return []
  if (x0 === left && y0 === top && x1 - x0 === width && y1 - y0 === height) {
    return [{ input: data, raw: { width, height, channels: 4 }, left, top }]
  }
  const w = x1 - x0
  const h = y1 - y0
  const out = Buffer.alloc(w * h * 4)
  for (let y = 0; y < h; y++) {
    const from = ((y + y0 - top) * width + (x0 - left)) * 4
    data.copy(out, y * w * 4, from, from + w * 4)
  }
  return [{ input: out, raw: { width: w, height: h, channels: 4 }, left: x0, top: y0 }]
}
