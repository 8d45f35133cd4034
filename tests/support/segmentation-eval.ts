import sharp from 'sharp'
import { createNoise, createRandom, fractalNoise, grain } from '#server/providers/offline-studio/noise.ts'

// The segmentation evaluation set: products whose exact outline is known (drawn with alpha, so
// the alpha is the ground truth) photographed, so to speak, on busy surfaces (wood, marble,
// fabric, a cluttered desk): a soft contact shadow, sensor noise and JPEG compression, as a
// seller's phone photo has. Everything is generated from fixed seeds, so every run scores the
// same pictures. Used by the segmentation tests and the benchmark.

export type EvaluationImage = {
  name: string
  /** The photo as a seller would upload it (JPEG). */
  jpeg: Buffer
  width: number
  height: number
  /** Ground truth: the product's alpha, one byte per pixel. */
  truth: Uint8Array
}

export type ProductId = (typeof productIds)[number]
export type SurfaceId = (typeof surfaceIds)[number]

export const productIds = ['bottle', 'mug', 'sneaker', 'handbag', 't-shirt', 'plant', 'phone'] as const
export const surfaceIds = ['wood', 'marble', 'fabric', 'clutter'] as const

/** Each product drawn in a 1000×1000 box, transparent around it. */
const productSvg: Record<ProductId, string> = {
  bottle: `
    <defs>
      <linearGradient id="glass" x1="0" y1="0" x2="1" y2="0">
        <stop offset="0" stop-color="#7a3a0c"/><stop offset="0.25" stop-color="#d98a32"/>
        <stop offset="0.55" stop-color="#b8641c"/><stop offset="1" stop-color="#5c2906"/></linearGradient>
      <linearGradient id="gold" x1="0" y1="0" x2="1" y2="0">
        <stop offset="0" stop-color="#8c6a22"/><stop offset="0.35" stop-color="#f2d27a"/>
        <stop offset="0.7" stop-color="#b68b32"/><stop offset="1" stop-color="#6e5018"/></linearGradient></defs>
    <rect x="300" y="380" width="400" height="580" rx="60" fill="url(#glass)"/>
    <rect x="435" y="320" width="130" height="70" fill="#6b3209"/>
    <rect x="395" y="130" width="210" height="200" rx="18" fill="url(#gold)"/>
    <rect x="360" y="560" width="280" height="200" rx="8" fill="#f3ead8"/>
    <rect x="400" y="620" width="200" height="22" fill="#3b2a1a"/>
    <rect x="335" y="410" width="26" height="520" rx="13" fill="#ffffff" opacity="0.35"/>`,
  mug: `
    <defs><linearGradient id="mug" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#0f5e63"/><stop offset="0.4" stop-color="#2aa3a0"/>
      <stop offset="1" stop-color="#0c4a4e"/></linearGradient></defs>
    <path d="M 690 380 C 900 380 900 720 690 720 L 690 650 C 820 650 820 450 690 450 Z" fill="#0f5e63"/>
    <path d="M 200 300 L 720 300 L 690 860 Q 460 900 230 860 Z" fill="url(#mug)"/>
    <ellipse cx="460" cy="300" rx="260" ry="40" fill="#083b3e"/>
    <ellipse cx="460" cy="306" rx="230" ry="28" fill="#3b2418"/>`,
  sneaker: `
    <path d="M 80 640 Q 90 520 200 500 L 420 430 Q 470 330 560 350 L 640 400 Q 760 470 880 560
      Q 950 600 930 690 L 90 690 Z" fill="#d8d8dc"/>
    <path d="M 70 690 L 940 690 Q 950 760 880 770 L 110 770 Q 60 760 70 690 Z" fill="#f7f7f5"/>
    <path d="M 70 740 L 940 740 L 930 770 L 90 770 Z" fill="#c0392b"/>
    <path d="M 420 430 Q 470 330 560 350 L 600 380 Q 520 420 470 520 Z" fill="#2c3e50"/>
    <path d="M 470 470 L 640 430 M 480 510 L 680 470 M 500 550 L 720 510" stroke="#2c3e50" stroke-width="14"/>
    <path d="M 200 600 Q 500 560 820 640" stroke="#c0392b" stroke-width="30" fill="none"/>`,
  handbag: `
    <path d="M 330 420 C 330 180 670 180 670 420 L 630 420 C 630 235 370 235 370 420 Z" fill="#5a3a1e"/>
    <path d="M 170 420 L 830 420 L 880 880 Q 500 920 120 880 Z" fill="#8b5a2b"/>
    <path d="M 170 420 L 830 420 L 840 520 L 160 520 Z" fill="#6f4521"/>
    <rect x="470" y="490" width="60" height="70" rx="8" fill="#d4af37"/>`,
  't-shirt': `
    <path d="M 330 180 L 420 150 Q 500 220 580 150 L 670 180 L 880 320 L 800 460 L 700 400 L 690 860
      L 310 860 L 300 400 L 200 460 L 120 320 Z" fill="#1f2f5c"/>
    <path d="M 420 150 Q 500 220 580 150" fill="none" stroke="#ffffff" stroke-opacity="0.25" stroke-width="10"/>
    <path d="M 330 560 Q 500 600 680 550" fill="none" stroke="#000000" stroke-opacity="0.18" stroke-width="30"/>`,
  plant: `
    <path d="M 330 640 L 670 640 L 630 940 L 370 940 Z" fill="#c4663a"/>
    <rect x="310" y="610" width="380" height="60" rx="10" fill="#a8532d"/>
    <path d="M 500 620 C 380 520 300 420 260 260 C 400 330 470 440 500 620 Z" fill="#3f7d3a"/>
    <path d="M 500 620 C 620 520 700 400 760 230 C 610 320 530 440 500 620 Z" fill="#4f9a45"/>
    <path d="M 500 620 C 480 460 470 280 520 90 C 590 260 560 450 500 620 Z" fill="#2f6b2e"/>
    <path d="M 500 620 C 420 580 300 570 170 470 C 320 450 430 520 500 620 Z" fill="#5aa64c"/>
    <path d="M 500 620 C 590 590 720 560 840 450 C 700 440 580 520 500 620 Z" fill="#3a8a38"/>`,
  phone: `
    <rect x="330" y="100" width="340" height="800" rx="50" fill="#1b1b1f"/>
    <rect x="350" y="160" width="300" height="660" rx="14" fill="#28507a"/>
    <circle cx="500" cy="130" r="10" fill="#444"/>
    <rect x="440" y="850" width="120" height="14" rx="7" fill="#333"/>`,
}

/** A colour at (x, y) of a surface, 0–255 floats. */
type Surface = (x: number, y: number, out: Float64Array) => void

function woodSurface(width: number): Surface {
  const noise = createNoise(11)
  const plank = width / 4.3
  return (x, y, out) => {
    const board = Math.floor(x / plank)
    const u = x - board * plank
    const grainLine = fractalNoise(noise, x / 40 + board * 7, y / 260, 3)
    const rings = Math.sin((u / plank) * 9 + grainLine * 6 + board) * 0.5 + 0.5
    const tone = 0.75 + board * 0.06 - (board % 2) * 0.1
    const seam = u < 3 ? 0.55 : 1
    const shade = (0.7 + 0.3 * rings) * tone * seam
    out[0] = 168 * shade
    out[1] = 112 * shade
    out[2] = 66 * shade
  }
}

function marbleSurface(): Surface {
  const noise = createNoise(23)
  return (x, y, out) => {
    const turbulence = fractalNoise(noise, x / 180, y / 180, 5)
    const vein = Math.abs(Math.sin((x + y * 0.6) / 90 + turbulence * 5))
    const dark = vein < 0.08 ? 0.55 + vein * 4 : 1
    const cloud = 0.92 + 0.06 * fractalNoise(noise, x / 60 + 40, y / 60, 3)
    const v = 232 * cloud * dark
    out[0] = v
    out[1] = v * 0.99
    out[2] = v * 0.97
  }
}

function fabricSurface(): Surface {
  const noise = createNoise(37)
  return (x, y, out) => {
    const warp = Math.sin(x * 1.9) * 0.5 + 0.5
    const weft = Math.sin(y * 1.9) * 0.5 + 0.5
    const weave = 0.85 + 0.15 * ((Math.floor(x / 2) + Math.floor(y / 2)) % 2 === 0 ? warp : weft)
    const fold = 0.88 + 0.12 * fractalNoise(noise, x / 220, y / 140, 2)
    const v = weave * fold
    out[0] = 196 * v
    out[1] = 172 * v
    out[2] = 142 * v
  }
}

/** A desk: a grey top with papers, pens, coasters and crumbs scattered all over it. */
function clutterSurface(width: number, height: number, seed: number): { surface: Surface; svg: string } {
  const noise = createNoise(53)
  const random = createRandom(53 + seed)
  const shapes: string[] = []
  const colours = ['#f4f1e8', '#e8d36a', '#3a6fb0', '#c23b3b', '#2e2e2e', '#7fb36a', '#e49a3c', '#ffffff']
  const s = width / 1000
  for (let i = 0; i < 30; i++) {
    const cx = random() * width
    const cy = random() * height
    const colour = colours[Math.floor(random() * colours.length)] as string
    const rotate = Math.round(random() * 180)
    const kind = i % 4
    if (kind === 0) {
      shapes.push(
        `<rect x="${cx - 80 * s}" y="${cy - 55 * s}" width="${160 * s}" height="${110 * s}" fill="${colour}" transform="rotate(${rotate} ${cx} ${cy})"/>`,
      )
    } else if (kind === 1) {
      shapes.push(
        `<rect x="${cx - 90 * s}" y="${cy - 5 * s}" width="${180 * s}" height="${10 * s}" rx="${5 * s}" fill="${colour}" transform="rotate(${rotate} ${cx} ${cy})"/>`,
      )
    } else if (kind === 2) {
      shapes.push(`<circle cx="${cx}" cy="${cy}" r="${40 * s}" fill="${colour}" opacity="0.9"/>`)
    } else {
      shapes.push(`<circle cx="${cx}" cy="${cy}" r="${6 * s}" fill="${colour}"/>`)
    }
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${shapes.join('')}</svg>`
  const surface: Surface = (x, y, out) => {
    const v = 120 + 14 * fractalNoise(noise, x / 150, y / 150, 4)
    out[0] = v
    out[1] = v + 3
    out[2] = v + 8
  }
  return { surface, svg }
}

const surfaces = new Map<string, Promise<Buffer>>()

/** A surface is painted once per size: the painters are slow-ish and pure. */
function paintSurface(id: SurfaceId, width: number, height: number, seed: number): Promise<Buffer> {
  // The clutter is laid out afresh for every photo; the plain surfaces are the same each time.
  const key = `${id}:${width}x${height}:${id === 'clutter' ? seed : 0}`
  let painted = surfaces.get(key)
  if (!painted) {
    painted = paintSurfaceNow(id, width, height, seed)
    surfaces.set(key, painted)
  }
  return painted
}

async function paintSurfaceNow(id: SurfaceId, width: number, height: number, seed: number): Promise<Buffer> {
  const clutter = id === 'clutter' ? clutterSurface(width, height, seed) : null
  const surface =
    id === 'wood'
      ? woodSurface(width)
      : id === 'marble'
        ? marbleSurface()
        : id === 'fabric'
          ? fabricSurface()
          : (clutter as { surface: Surface }).surface
  const raw = Buffer.alloc(width * height * 3)
  const colour = new Float64Array(3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      surface(x, y, colour)
      const i = (y * width + x) * 3
      raw[i] = Math.max(0, Math.min(255, Math.round(colour[0] as number)))
      raw[i + 1] = Math.max(0, Math.min(255, Math.round(colour[1] as number)))
      raw[i + 2] = Math.max(0, Math.min(255, Math.round(colour[2] as number)))
    }
  }
  if (!clutter) return raw
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .composite([{ input: Buffer.from(clutter.svg) }])
    .removeAlpha()
    .raw()
    .toBuffer()
}

/** The product drawn at `size`×`size`, RGBA, transparent around it. */
async function renderProduct(id: ProductId, size: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 1000 1000">${productSvg[id]}</svg>`
  return sharp(Buffer.from(svg)).resize(size, size).ensureAlpha().raw().toBuffer()
}

export type CompositeOptions = { width?: number; height?: number; quality?: number; seed?: number }

/**
 * One photo: the product centred (a little off, per seed) on the surface, filling about two
 * thirds of the frame's height, with a soft shadow to the lower right; sensor noise; JPEG.
 */
export async function compositePhoto(
  product: ProductId,
  surfaceId: SurfaceId,
  options: CompositeOptions = {},
): Promise<EvaluationImage> {
  const { width = 768, height = 576, quality = 88, seed = 1 } = options
  const layout = seed * 7919 + productIds.indexOf(product) * 31 + surfaceIds.indexOf(surfaceId)
  const random = createRandom(layout)
  const size = Math.round(height * (0.68 + random() * 0.14))
  const left = Math.round((width - size) / 2 + (random() - 0.5) * width * 0.08)
  const top = Math.round((height - size) / 2 + (random() - 0.5) * height * 0.06)
  const [background, rgba] = await Promise.all([
    paintSurface(surfaceId, width, height, layout),
    renderProduct(product, size),
  ])

  // Ground truth: the product's alpha placed in the frame.
  const truth = new Uint8Array(width * height)
  for (let y = 0; y < size; y++) {
    const fy = y + top
    if (fy < 0 || fy >= height) continue
    for (let x = 0; x < size; x++) {
      const fx = x + left
      if (fx < 0 || fx >= width) continue
      truth[fy * width + fx] = rgba[(y * size + x) * 4 + 3] as number
    }
  }

  // A soft shadow: the blurred silhouette, shifted down and right, darkening the surface.
  const sigma = Math.max(3, size * 0.03)
  const shadow = await sharp(Buffer.from(truth), { raw: { width, height, channels: 1 } })
    .affine([1, 0, 0, 1], { idx: size * 0.04, idy: size * 0.05, background: '#000000' })
    .extract({ left: 0, top: 0, width, height })
    .blur(sigma)
    .extractChannel(0)
    .raw()
    .toBuffer()

  const out = Buffer.alloc(width * height * 3)
  for (let i = 0; i < width * height; i++) {
    const a = (truth[i] as number) / 255
    const darken = 1 - 0.45 * ((shadow[i] as number) / 255)
    const x = i % width
    const y = (i - x) / width
    const n = grain(x, y, seed) * 4
    const inside = y >= top && y < top + size && x >= left && x < left + size
    for (let c = 0; c < 3; c++) {
      const bg = (background[i * 3 + c] as number) * darken
      const fg = inside ? (rgba[((y - top) * size + (x - left)) * 4 + c] as number) : 0
      out[i * 3 + c] = Math.max(0, Math.min(255, Math.round(fg * a + bg * (1 - a) + n)))
    }
  }
  const jpeg = await sharp(out, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer()
  return { name: `${product} on ${surfaceId}`, jpeg, width, height, truth }
}

/** Every product on every surface: 28 photos of 768×576. */
export async function evaluationSet(options: CompositeOptions = {}): Promise<EvaluationImage[]> {
  const images: EvaluationImage[] = []
  for (const surface of surfaceIds) {
    for (const product of productIds) images.push(await compositePhoto(product, surface, options))
  }
  return images
}
