import sharp from 'sharp'
import { clamp, grain } from '#server/providers/offline-studio/noise.ts'

// Photos for tests and the benchmark (bench/offline-studio.ts), generated in code so no binary file is
// committed. They imitate what sellers upload: a product on a plain, slightly vignetted studio
// backdrop with sensor noise, saved as JPEG.

type PhotoOptions = { width?: number; height?: number; noise?: number; quality?: number }

/** Adds deterministic sensor-like noise to raw RGB pixels. */
function addNoise(raw: Buffer, width: number, height: number, amount: number, seed: number) {
  if (amount <= 0) return
  let i = 0
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const n = grain(x, y, seed) * amount
      for (let c = 0; c < 3; c++) {
        const v = (raw[i] as number) + n + grain(x, y, seed + c + 1) * amount * 0.4
        raw[i++] = clamp(v, 0, 255)
      }
    }
  }
}

async function svgToJpeg(svg: string, width: number, height: number, noise: number, quality: number) {
  const raw = await sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).raw().toBuffer()
  addNoise(raw, width, height, noise, 5)
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer()
}

/** Light studio backdrop with a soft vignette, as most product photos have. */
function studioBackdrop(width: number, height: number, colour = '#d9d9d6') {
  return `<defs><radialGradient id="bd" cx="0.5" cy="0.45" r="0.75">
    <stop offset="0" stop-color="${colour}"/><stop offset="1" stop-color="#c4c4c0"/></radialGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#bd)"/>`
}

/**
 * The bottle changed the ways an AI edit can change a product (the fidelity check's calibration,
 * src/server/features/marketplaces/product-fidelity.test.ts): the label's marks in another ink,
 * its marks replaced by others ('swapped') or painted over ('blank'), the body stretched.
 */
export type BottleVariant = {
  labelInk?: string
  labelMarks?: 'bars' | 'swapped' | 'blank'
  bodyWidthScale?: number
}

function labelMarks(variant: BottleVariant, cx: number, bodyTop: number, s: number): string {
  const ink = variant.labelInk ?? '#3b2a1a'
  const marks = variant.labelMarks ?? 'bars'
  if (marks === 'blank') return ''
  if (marks === 'swapped') {
    return `<circle cx="${cx - 70 * s}" cy="${bodyTop + 260 * s}" r="${45 * s}" fill="${ink}"/>
    <rect x="${cx - 10 * s}" y="${bodyTop + 200 * s}" width="${110 * s}" height="${14 * s}" fill="${ink}"/>
    <rect x="${cx - 10 * s}" y="${bodyTop + 245 * s}" width="${90 * s}" height="${14 * s}" fill="${ink}"/>
    <rect x="${cx - 10 * s}" y="${bodyTop + 290 * s}" width="${120 * s}" height="${14 * s}" fill="${ink}"/>`
  }
  return `<rect x="${cx - 110 * s}" y="${bodyTop + 230 * s}" width="${220 * s}" height="${22 * s}" fill="${ink}"/>
    <rect x="${cx - 80 * s}" y="${bodyTop + 280 * s}" width="${160 * s}" height="${12 * s}" fill="#8a6a3a"/>`
}

/** An amber perfume bottle with a gold cap and a cream label, on a light grey backdrop. */
export async function productPhoto(
  options: PhotoOptions & { variant?: BottleVariant } = {},
): Promise<Buffer> {
  const { width = 1200, height = 1200, noise = 6, quality = 90, variant = {} } = options
  const s = Math.min(width, height) / 1200
  const cx = width / 2
  const bottom = height * 0.82
  const bodyW = 430 * s * (variant.bodyWidthScale ?? 1)
  const bodyH = 560 * s
  const bodyTop = bottom - bodyH
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    ${studioBackdrop(width, height)}
    <defs>
      <linearGradient id="glass" x1="0" y1="0" x2="1" y2="0">
        <stop offset="0" stop-color="#7a3a0c"/><stop offset="0.25" stop-color="#d98a32"/>
        <stop offset="0.55" stop-color="#b8641c"/><stop offset="1" stop-color="#5c2906"/></linearGradient>
      <linearGradient id="gold" x1="0" y1="0" x2="1" y2="0">
        <stop offset="0" stop-color="#8c6a22"/><stop offset="0.35" stop-color="#f2d27a"/>
        <stop offset="0.7" stop-color="#b68b32"/><stop offset="1" stop-color="#6e5018"/></linearGradient></defs>
    <rect x="${cx - bodyW / 2}" y="${bodyTop}" width="${bodyW}" height="${bodyH}" rx="${60 * s}" fill="url(#glass)"/>
    <rect x="${cx - 70 * s}" y="${bodyTop - 60 * s}" width="${140 * s}" height="${70 * s}" fill="#6b3209"/>
    <rect x="${cx - 110 * s}" y="${bodyTop - 230 * s}" width="${220 * s}" height="${180 * s}" rx="${18 * s}" fill="url(#gold)"/>
    <rect x="${cx - 150 * s}" y="${bodyTop + 170 * s}" width="${300 * s}" height="${210 * s}" rx="${8 * s}" fill="#f3ead8"/>
    ${labelMarks(variant, cx, bodyTop, s)}
    <rect x="${cx - bodyW / 2 + 40 * s}" y="${bodyTop + 30 * s}" width="${26 * s}" height="${bodyH - 60 * s}" rx="${13 * s}" fill="#ffffff" opacity="0.35"/>
  </svg>`
  return svgToJpeg(svg, width, height, noise, quality)
}

/** A plain red square in the middle of a light-grey backdrop: the simplest separation case. */
export async function redSquarePhoto(options: PhotoOptions = {}): Promise<Buffer> {
  const { width = 800, height = 800, noise = 4, quality = 92 } = options
  const side = Math.min(width, height) * 0.4
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="${width}" height="${height}" fill="#d4d4d2"/>
    <rect x="${(width - side) / 2}" y="${(height - side) / 2}" width="${side}" height="${side}" fill="#d01c1c"/></svg>`
  return svgToJpeg(svg, width, height, noise, quality)
}

/**
 * A navy T-shirt laid flat on a white backdrop, as the fashion tool receives garments; with
 * `castShadow`, lit from the upper left so it throws the soft shadow a real flat-lay has.
 */
export async function garmentPhoto(
  options: PhotoOptions & { colour?: string; castShadow?: boolean } = {},
): Promise<Buffer> {
  const { width = 1000, height = 1200, noise = 5, quality = 90, colour = '#1f2f5c' } = options
  const s = Math.min(width / 1000, height / 1200)
  const ox = width / 2 - 500 * s
  const oy = height / 2 - 600 * s
  const p = (x: number, y: number) => `${ox + x * s},${oy + y * s}`
  const shirt = `M ${p(330, 180)} L ${p(420, 150)} Q ${p(500, 220)} ${p(580, 150)} L ${p(670, 180)} L ${p(880, 320)} L ${p(800, 460)} L ${p(700, 400)} L ${p(690, 860)} L ${p(310, 860)} L ${p(300, 400)} L ${p(200, 460)} L ${p(120, 320)} Z`
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    ${studioBackdrop(width, height, '#f1f1ef')}
    ${
      options.castShadow
        ? `<filter id="cast" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="${8 * s}"/></filter>
    <path d="${shirt}" fill="#000000" opacity="0.5" transform="translate(${16 * s},${22 * s})" filter="url(#cast)"/>`
        : ''
    }
    <path d="${shirt}" fill="${colour}"/>
    <path d="M ${p(420, 150)} Q ${p(500, 220)} ${p(580, 150)}" fill="none" stroke="#ffffff" stroke-opacity="0.25" stroke-width="${10 * s}"/>
    <path d="M ${p(330, 560)} Q ${p(500, 600)} ${p(680, 550)}" fill="none" stroke="#000000" stroke-opacity="0.18" stroke-width="${30 * s}"/>
  </svg>`
  return svgToJpeg(svg, width, height, noise, quality)
}

/**
 * A busy, colourful photo with no plain backdrop around a white disc: the flood fill gives up,
 * and the segmentation model cuts the disc out.
 */
export async function busyPhoto(options: PhotoOptions = {}): Promise<Buffer> {
  const { width = 900, height = 700, noise = 10, quality = 90 } = options
  const stripes = Array.from({ length: 12 }, (_, i) => {
    const hue = (i * 47) % 360
    return `<rect x="${(i * width) / 12}" y="0" width="${width / 12 + 1}" height="${height}" fill="hsl(${hue}, 70%, 50%)"/>`
  }).join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${stripes}
    <circle cx="${width / 2}" cy="${height / 2}" r="${height / 4}" fill="#ffffff"/></svg>`
  return svgToJpeg(svg, width, height, noise, quality)
}

/** Colourful stripes and nothing else: no backdrop to remove and no product to find, so a card. */
export async function subjectlessPhoto(options: PhotoOptions = {}): Promise<Buffer> {
  const { width = 900, height = 700, noise = 6, quality = 90 } = options
  const stripes = Array.from({ length: 12 }, (_, i) => {
    const hue = (i * 47) % 360
    return `<rect x="${(i * width) / 12}" y="0" width="${width / 12 + 1}" height="${height}" fill="hsl(${hue}, 70%, 50%)"/>`
  }).join('')
  return svgToJpeg(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${stripes}</svg>`,
    width,
    height,
    noise,
    quality,
  )
}

/** A stand-in for a fashion reference photo: a warm interior with a window and a plant. */
export async function referencePhoto(options: PhotoOptions = {}): Promise<Buffer> {
  const { width = 1200, height = 1500, noise = 5, quality = 88 } = options
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="wall" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#e9d8c4"/><stop offset="1" stop-color="#b99a7a"/></linearGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#wall)"/>
    <rect x="${width * 0.55}" y="${height * 0.1}" width="${width * 0.35}" height="${height * 0.45}" fill="#f8f4ea"/>
    <rect x="${width * 0.72}" y="${height * 0.1}" width="${width * 0.015}" height="${height * 0.45}" fill="#8a7058"/>
    <rect y="${height * 0.78}" width="${width}" height="${height * 0.22}" fill="#7b5a3e"/>
    <ellipse cx="${width * 0.18}" cy="${height * 0.55}" rx="${width * 0.14}" ry="${height * 0.2}" fill="#4f6b3a"/>
    <rect x="${width * 0.1}" y="${height * 0.68}" width="${width * 0.16}" height="${height * 0.12}" fill="#c46f45"/>
  </svg>`
  return svgToJpeg(svg, width, height, noise, quality)
}

/** A 12-megapixel (4000×3000) photo-like JPEG: the benchmark's worst ordinary upload. */
export function largeProductPhoto(): Promise<Buffer> {
  return productPhoto({ width: 4000, height: 3000, noise: 8, quality: 90 })
}

/**
 * A thin product: a tall, narrow pen (a dark barrel, a steel clip and tip) standing on a light
 * studio backdrop, so its longer side, not its area, is what fills a frame.
 */
export async function thinProductPhoto(options: PhotoOptions & { steel?: string } = {}): Promise<Buffer> {
  // By default the tip and clip are light greys only a few steps from the backdrop's own.
  const { width = 900, height = 900, noise = 5, quality = 90, steel } = options
  const { cx, top, bottom, w, s, tip, clip } = thinProductParts(width, height)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    ${studioBackdrop(width, height)}
    <rect x="${cx - w / 2}" y="${top + 40 * s}" width="${w}" height="${bottom - top - 90 * s}" rx="${w / 2}" fill="#1d2a44"/>
    <path d="M ${tip.left} ${tip.top} L ${tip.right} ${tip.top} L ${cx} ${tip.bottom} Z" fill="${steel ?? '#b8bcc2'}"/>
    <rect x="${cx - w / 2}" y="${top}" width="${w}" height="${60 * s}" rx="${w / 2}" fill="#2c3c5e"/>
    <rect x="${clip.left}" y="${clip.top}" width="${7 * s}" height="${150 * s}" fill="${steel ?? '#c9ccd1'}"/>
  </svg>`
  return svgToJpeg(svg, width, height, noise, quality)
}

/**
 * Where thinProductPhoto draws its pen at a size: the barrel's centre line `cx` and width `w`,
 * the pen's top and bottom, the steel tip (a triangle pointing down from the barrel's end, as
 * wide as the barrel) and the steel clip (a strip on the barrel's right side, of which
 * `barrelRight` on is beside the barrel, over the backdrop).
 */
export function thinProductParts(width = 900, height = 900) {
  const s = Math.min(width, height) / 900
  const cx = width / 2
  const top = height * 0.12
  const bottom = height * 0.86
  const w = 34 * s
  const tip = { left: cx - w / 2, right: cx + w / 2, top: bottom - 50 * s, bottom }
  const clip = {
    left: cx + w / 2 - 2 * s,
    right: cx + w / 2 + 5 * s,
    top: top + 20 * s,
    bottom: top + 170 * s,
  }
  return { s, cx, top, bottom, w, tip, clip, barrelRight: cx + w / 2 }
}
