import sharp from 'sharp'
import type { PhotoPlacement } from '#server/providers/types.ts'
import { summariseMask } from '#server/segmentation/mask-math.ts'
import { isCredible, type Segmenter } from '#server/segmentation/segmenter.ts'

// "Keep my product exactly" (issue 14, point 4): the seller's own product pixels, found by the
// separation mask, laid back over the scene the provider made, so an AI edit can never change
// the item being sold (its logo, label, shape or colour). Inside the fully opaque mask the
// result's pixels are the product layer's, bit for bit; only the mask's edge band is blended,
// and a soft shadow matched to the scene is drawn under the product, never over it.

export type Frame = { width: number; height: number }

/** Raw RGB pixels (3 bytes each). */
export type RgbImage = { data: Buffer; width: number; height: number }

/**
 * The product as it goes on the scene: the original photo's pixels resampled by the placement
 * (untouched when its scale is 1) and the feathered mask, both cut to the part inside the frame,
 * whose top-left corner is at (left, top) of the frame.
 */
export type ProductLayer = {
  rgb: Buffer
  /** 255 inside the product, 0 outside, in between only along its edge. */
  alpha: Uint8Array
  width: number
  height: number
  left: number
  top: number
}

/** The side the original is segmented at: the model sees 320 px; only the edge refinement uses more. */
export const maskSide = 1024
/** Width of the feathered edge (Gaussian sigma, in the layer's pixels). */
export const featherSigma = 1
/** How far from an edge pixel its colour is taken from the solid product (see cleanEdgeColours). */
const edgeColourReach = 3

/**
 * The placement when the provider does not say: the photo as given to it, fitted whole into
 * the output frame and centred. That is how an edit model sees a photo whose ratio differs
 * from the asked-for one (fal's nano-banana/edit keeps the input's composition and extends the
 * scene to the new ratio), and a photo of the output's own size lands at scale 1, pixel for pixel.
 */
export function containPlacement(photo: Frame, frame: Frame): PhotoPlacement {
  const scale = Math.min(frame.width / photo.width, frame.height / photo.height)
  const width = photo.width * scale
  const height = photo.height * scale
  return { left: (frame.width - width) / 2, top: (frame.height - height) / 2, width, height }
}

/** The placement in whole pixels, as the layer is drawn. */
function roundedPlacement(placement: PhotoPlacement) {
  return {
    left: Math.round(placement.left),
    top: Math.round(placement.top),
    width: Math.max(1, Math.round(placement.width)),
    height: Math.max(1, Math.round(placement.height)),
  }
}

/** The photo upright, transparent parts on white, in sRGB (as every other step reads photos). */
function upright(bytes: Buffer) {
  return sharp(bytes, { failOn: 'error' }).rotate().flatten({ background: '#ffffff' }).toColourspace('srgb')
}

/** The original's upright pixel size. */
export async function uprightSize(bytes: Buffer): Promise<Frame> {
  const metadata = await sharp(bytes, { failOn: 'error' }).metadata()
  return { width: metadata.autoOrient.width, height: metadata.autoOrient.height }
}

/**
 * The product's mask in the original photo (upright, at most `maskSide` on its long side), or
 * null when the segmenter finds nothing believable (the same sanity checks as every cut-out).
 */
export async function findProductMask(
  bytes: Buffer,
  segmenter: Pick<Segmenter, 'segment'>,
): Promise<{ alpha: Uint8Array; width: number; height: number } | null> {
  const small = await upright(bytes)
    .resize({ width: maskSide, height: maskSide, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const { width, height } = small.info
  const segmentation = await segmenter.segment({ data: small.data, width, height, channels: 3 })
  if (segmentation.alpha.length !== width * height) return null
  const summary = summariseMask(segmentation.alpha, width, height)
  if (!isCredible({ ...summary, confidence: segmentation.confidence })) return null
  return { alpha: segmentation.alpha, width, height }
}

/**
 * The product layer: the original resampled to the placement's size (not at all when that is
 * its own size) and its mask scaled the same way, hardened at half and feathered by
 * `featherSigma`, so that only a band about two pixels wide along the edge is partly
 * transparent. Null when no part of the photo falls inside the frame.
 */
export async function buildProductLayer(
  bytes: Buffer,
  mask: { alpha: Uint8Array; width: number; height: number },
  placement: PhotoPlacement,
  frame: Frame,
): Promise<ProductLayer | null> {
  const source = await uprightSize(bytes)
  const place = roundedPlacement(placement)
  // The visible part of the placed photo, in its own (placed) pixels.
  const x0 = Math.max(0, -place.left)
  const y0 = Math.max(0, -place.top)
  const x1 = Math.min(place.width, frame.width - place.left)
  const y1 = Math.min(place.height, frame.height - place.top)
  if (x1 <= x0 || y1 <= y0) return null
  const visible = { left: x0, top: y0, width: x1 - x0, height: y1 - y0 }
  const isSameSize = place.width === source.width && place.height === source.height

  let photo = upright(bytes).removeAlpha()
  if (!isSameSize) photo = photo.resize(place.width, place.height, { fit: 'fill', kernel: 'lanczos3' })
  // Hardened at half first, so the feather's middle is the mask's own edge at any scale.
  const hard = Buffer.alloc(mask.alpha.length)
  for (let i = 0; i < hard.length; i++) hard[i] = (mask.alpha[i] as number) >= 128 ? 255 : 0
  const [rgb, scaledMask] = await Promise.all([
    photo.extract(visible).raw().toBuffer(),
    sharp(hard, { raw: { width: mask.width, height: mask.height, channels: 1 } })
      .resize(place.width, place.height, { fit: 'fill', kernel: 'linear' })
      .extract(visible)
      .extractChannel(0)
      .raw()
      .toBuffer(),
  ])
  // Hardened again at the layer's size (sharp applies threshold after blur, so not in one pipeline).
  for (let i = 0; i < scaledMask.length; i++) scaledMask[i] = (scaledMask[i] as number) >= 128 ? 255 : 0
  const alpha = await sharp(scaledMask, {
    raw: { width: visible.width, height: visible.height, channels: 1 },
  })
    .blur(featherSigma)
    .extractChannel(0)
    .raw()
    .toBuffer()
  const layer: ProductLayer = {
    rgb,
    alpha: new Uint8Array(alpha.buffer, alpha.byteOffset, alpha.length),
    width: visible.width,
    height: visible.height,
    left: place.left + x0,
    top: place.top + y0,
  }
  cleanEdgeColours(layer)
  return layer
}

/**
 * The edge band's pixels are a mix of the product and the photo's old surroundings (a wooden
 * table shows as a brown rim on a white scene). Each partly transparent pixel takes the mean
 * colour of the fully opaque product pixels near it. Opaque pixels are never touched.
 */
function cleanEdgeColours(layer: ProductLayer) {
  const { rgb, alpha, width, height } = layer
  const source = Buffer.from(rgb)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x
      const a = alpha[i] as number
      if (a === 0 || a === 255) continue
      let r = 0
      let g = 0
      let b = 0
      let n = 0
      for (let yy = Math.max(0, y - edgeColourReach); yy <= Math.min(height - 1, y + edgeColourReach); yy++) {
        for (
          let xx = Math.max(0, x - edgeColourReach);
          xx <= Math.min(width - 1, x + edgeColourReach);
          xx++
        ) {
          const j = yy * width + xx
          if (alpha[j] !== 255) continue
          r += source[j * 3] as number
          g += source[j * 3 + 1] as number
          b += source[j * 3 + 2] as number
          n++
        }
      }
      if (n === 0) continue
      rgb[i * 3] = Math.round(r / n)
      rgb[i * 3 + 1] = Math.round(g / n)
      rgb[i * 3 + 2] = Math.round(b / n)
    }
  }
}

/** The shadow's look, worked out from the scene around the product. */
export type ShadowStyle = {
  /** Darkening at the shadow's core, 0–1. */
  opacity: number
  /** Offset of the drop shadow, in frame pixels (away from the light). */
  dx: number
  dy: number
  /** Softness (Gaussian sigma) of the drop shadow, in frame pixels. */
  sigma: number
}

/** Rec. 601 luma, 0–255. */
function luma(data: Buffer, offset: number): number {
  return (
    0.299 * (data[offset] as number) +
    0.587 * (data[offset + 1] as number) +
    0.114 * (data[offset + 2] as number)
  )
}

/** Mean luma of the scene over a rectangle (clipped to the frame); null when it is empty. */
function meanLuma(scene: RgbImage, x0: number, y0: number, x1: number, y1: number): number | null {
  const left = Math.max(0, Math.floor(x0))
  const top = Math.max(0, Math.floor(y0))
  const right = Math.min(scene.width, Math.ceil(x1))
  const bottom = Math.min(scene.height, Math.ceil(y1))
  let sum = 0
  let n = 0
  for (let y = top; y < bottom; y += 2) {
    for (let x = left; x < right; x += 2) {
      sum += luma(scene.data, (y * scene.width + x) * 3)
      n++
    }
  }
  return n === 0 ? null : sum / n
}

/** The product's bounds in the frame (alpha ≥ 128), or null for an empty layer. */
function boundsInFrame(layer: ProductLayer) {
  let left = layer.width
  let right = -1
  let top = layer.height
  let bottom = -1
  for (let y = 0; y < layer.height; y++) {
    for (let x = 0; x < layer.width; x++) {
      if ((layer.alpha[y * layer.width + x] as number) < 128) continue
      if (x < left) left = x
      if (x > right) right = x
      if (y < top) top = y
      if (y > bottom) bottom = y
    }
  }
  if (right < 0) return null
  return {
    left: layer.left + left,
    right: layer.left + right + 1,
    top: layer.top + top,
    bottom: layer.top + bottom + 1,
  }
}

/**
 * A rough match of the scene's light: the shadow falls away from the brighter side of the
 * surroundings (compared left and right of the product) and down, as under a top light; it is
 * stronger on a light surface under the product's base (where a shadow reads) and weaker on a
 * dark one (where a strong one turns into a black smudge).
 */
export function shadowStyleFor(scene: RgbImage, layer: ProductLayer): ShadowStyle | null {
  const box = boundsInFrame(layer)
  if (!box) return null
  const w = box.right - box.left
  const h = box.bottom - box.top
  const reach = Math.max(8, Math.round(Math.max(w, h) * 0.25))
  const left = meanLuma(scene, box.left - reach, box.top, box.left, box.bottom)
  const right = meanLuma(scene, box.right, box.top, box.right + reach, box.bottom)
  const base = meanLuma(scene, box.left, box.bottom, box.right, box.bottom + reach) ?? 128
  // -1 (light from the right) … 1 (light from the left).
  const lean = left !== null && right !== null ? (left - right) / Math.max(1, left + right) : 0
  const sigma = Math.max(3, Math.round(Math.max(w, h) * 0.025))
  return {
    opacity: 0.18 + 0.3 * (base / 255),
    dx: Math.round(Math.max(-1, Math.min(1, lean * 6)) * sigma * 1.5),
    dy: Math.round(sigma * 0.8),
    sigma,
  }
}

/**
 * The shadow's strength per frame pixel (0–1): the product's silhouette blurred and offset (a
 * drop shadow), plus a tight contact shadow along its base, where it meets the surface.
 */
async function shadowMap(frame: Frame, layer: ProductLayer, style: ShadowStyle): Promise<Float32Array> {
  const map = new Float32Array(frame.width * frame.height)
  const pad = Math.ceil(style.sigma * 3)
  const silhouette = await sharp(Buffer.from(layer.alpha), {
    raw: { width: layer.width, height: layer.height, channels: 1 },
  })
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 0, g: 0, b: 0 } })
    .blur(style.sigma)
    .extractChannel(0)
    .raw()
    .toBuffer()
  const sw = layer.width + pad * 2
  const sh = layer.height + pad * 2
  const originX = layer.left - pad + style.dx
  const originY = layer.top - pad + style.dy
  for (let y = 0; y < sh; y++) {
    const fy = originY + y
    if (fy < 0 || fy >= frame.height) continue
    for (let x = 0; x < sw; x++) {
      const fx = originX + x
      if (fx < 0 || fx >= frame.width) continue
      map[fy * frame.width + fx] = ((silhouette[y * sw + x] as number) / 255) * style.opacity * 0.7
    }
  }
  // Contact shadow: a flat soft ellipse under the lowest part of the product.
  const box = boundsInFrame(layer)
  if (box) {
    const rows = Math.max(2, Math.round((box.bottom - box.top) * 0.04))
    let low = Number.POSITIVE_INFINITY
    let high = Number.NEGATIVE_INFINITY
    for (let y = box.bottom - rows; y < box.bottom; y++) {
      const ly = y - layer.top
      for (let lx = 0; lx < layer.width; lx++) {
        if ((layer.alpha[ly * layer.width + lx] as number) < 128) continue
        low = Math.min(low, lx + layer.left)
        high = Math.max(high, lx + layer.left + 1)
      }
    }
    if (high > low) {
      const cx = (low + high) / 2
      const rx = Math.max(4, ((high - low) / 2) * 1.1)
      const ry = Math.max(3, rx * 0.12)
      const cy = box.bottom - ry * 0.3
      for (
        let y = Math.max(0, Math.floor(cy - ry * 2));
        y < Math.min(frame.height, Math.ceil(cy + ry * 2));
        y++
      ) {
        for (
          let x = Math.max(0, Math.floor(cx - rx * 2));
          x < Math.min(frame.width, Math.ceil(cx + rx * 2));
          x++
        ) {
          const dx = (x + 0.5 - cx) / rx
          const dy = (y + 0.5 - cy) / ry
          const contact = style.opacity * Math.exp(-2.2 * (dx * dx + dy * dy))
          const i = y * frame.width + x
          map[i] = 1 - (1 - (map[i] as number)) * (1 - contact)
        }
      }
    }
  }
  return map
}

/**
 * Lays the product layer over the scene (RGB, the frame's size): the scene darkened by the
 * shadow, then the product over it by its alpha. Where the alpha is 255 the output pixel is the
 * layer's exactly: the shadow sits under the product and shows only beside it and through its
 * feathered edge. Returns new pixels; the scene is not changed.
 */
export async function compositeProduct(
  scene: RgbImage,
  layer: ProductLayer,
  options: { shadow?: ShadowStyle | null } = {},
): Promise<Buffer> {
  const out = Buffer.from(scene.data)
  const style = options.shadow === undefined ? shadowStyleFor(scene, layer) : options.shadow
  if (style && style.opacity > 0) {
    const map = await shadowMap(scene, layer, style)
    for (let i = 0; i < map.length; i++) {
      const s = map[i] as number
      if (s <= 0) continue
      const keep = 1 - s
      out[i * 3] = Math.round((out[i * 3] as number) * keep)
      out[i * 3 + 1] = Math.round((out[i * 3 + 1] as number) * keep)
      out[i * 3 + 2] = Math.round((out[i * 3 + 2] as number) * keep)
    }
  }
  for (let y = 0; y < layer.height; y++) {
    const fy = layer.top + y
    for (let x = 0; x < layer.width; x++) {
      const i = y * layer.width + x
      const a = layer.alpha[i] as number
      if (a === 0) continue
      const o = (fy * scene.width + layer.left + x) * 3
      if (a === 255) {
        out[o] = layer.rgb[i * 3] as number
        out[o + 1] = layer.rgb[i * 3 + 1] as number
        out[o + 2] = layer.rgb[i * 3 + 2] as number
        continue
      }
      const t = a / 255
      for (let c = 0; c < 3; c++) {
        out[o + c] = Math.round((layer.rgb[i * 3 + c] as number) * t + (out[o + c] as number) * (1 - t))
      }
    }
  }
  return out
}

/** The scene at the output's size: scaled to cover the frame and centred (a model's own size may differ slightly). */
export async function sceneAtFrame(bytes: Buffer, frame: Frame): Promise<RgbImage> {
  const data = await upright(bytes)
    .resize(frame.width, frame.height, { fit: 'cover', position: 'centre', kernel: 'lanczos3' })
    .removeAlpha()
    .raw()
    .toBuffer()
  return { data, width: frame.width, height: frame.height }
}

export type KeptProduct =
  | { isKept: true; bytes: Buffer; mime: 'image/png'; width: number; height: number }
  | { isKept: false }

/**
 * The whole step: the product found in the original, laid over the scene where the provider
 * put the photo (`placement`, or the photo fitted into the frame), as a PNG, lossless, so the
 * stored file keeps the product's pixels exactly. `isKept: false` when no believable product
 * is found in the original (the caller keeps the scene as it was generated and says so).
 */
export async function keepProductOnScene(input: {
  original: Buffer
  scene: Buffer
  frame: Frame
  placement?: PhotoPlacement | undefined
  /** The mask, when it was looked for already (it can be, while the provider works). */
  mask?: Awaited<ReturnType<typeof findProductMask>>
  segmenter: Pick<Segmenter, 'segment'>
}): Promise<KeptProduct> {
  const mask = input.mask === undefined ? await findProductMask(input.original, input.segmenter) : input.mask
  if (!mask) return { isKept: false }
  const placement = input.placement ?? containPlacement(await uprightSize(input.original), input.frame)
  const [layer, scene] = await Promise.all([
    buildProductLayer(input.original, mask, placement, input.frame),
    sceneAtFrame(input.scene, input.frame),
  ])
  if (!layer) return { isKept: false }
  const pixels = await compositeProduct(scene, layer)
  const bytes = await sharp(pixels, { raw: { width: scene.width, height: scene.height, channels: 3 } })
    .png({ compressionLevel: 6 })
    .toBuffer()
  return { isKept: true, bytes, mime: 'image/png', width: scene.width, height: scene.height }
}
