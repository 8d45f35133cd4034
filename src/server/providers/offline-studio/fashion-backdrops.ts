import sharp from 'sharp'
import type { AspectRatio, FashionStyleId } from '#shared/scenes.ts'
import {
  type Backdrop,
  blendInto,
  type Frame,
  falloff,
  frameFor,
  type Painter,
  paint,
  renderBackdrop,
  rgb,
  type Stage,
  shade,
  surfacePoint,
  tint,
  vignetteAt,
} from './canvas.ts'
import { clamp, createNoise, fractalNoise, grain, smoothstep } from './noise.ts'

// Backdrops for the fashion tool, one per style, each built around a motif a shopper would
// name: a colour-block arch (editorial), a brick wall (street), a seamless grey (minimal
// studio), panelled walls (boutique), a lit catwalk (runway), faded damask (vintage), window
// light (casual), bold shapes (avant-garde). Or the user's reference photo, softened.

/** Garments are centred and large: they are the picture, not an object on a table. */
function fashionStage(frame: Frame): Stage {
  const { width, height, isTall } = frame
  return {
    anchor: 'centre',
    x: Math.round(width / 2),
    y: Math.round(height * (isTall ? 0.5 : 0.5)),
    maxWidth: Math.round(width * (isTall ? 0.8 : 0.7)),
    maxHeight: Math.round(height * (isTall ? 0.64 : 0.74)),
    shadowOpacity: 0.38,
    reflectionOpacity: 0,
  }
}

function editorial(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const wallLight = rgb('#c9684b')
  const wallDark = rgb('#9c4630')
  const arch = rgb('#efe2d0')
  const archShade = rgb('#d9c6ad')
  const floor = rgb('#8a3d2a')
  const floorY = height * 0.86
  const archWidth = width * 0.66
  const archTop = height * 0.1
  const radius = archWidth / 2
  const painter: Painter = (x, y, out) => {
    blendInto(out, wallLight, wallDark, clamp(x / width + y / height - 0.4, 0, 1))
    // An arch: a rectangle with a round top, the classic set piece of studio editorials.
    const dx = x - width / 2
    const inArch =
      Math.abs(dx) <= radius &&
      y <= floorY &&
      (y >= archTop + radius || dx * dx + (y - archTop - radius) ** 2 <= radius * radius)
    if (inArch) blendInto(out, arch, archShade, clamp((dx + radius) / archWidth, 0, 1) * 0.8)
    if (y > floorY) blendInto(out, floor, wallDark, 0.2)
    // Hard light from the left throws the arch's shadow on the wall to its right.
    const shadowX = x - width / 2 - radius
    if (!inArch && y < floorY && shadowX > 0 && shadowX < width * 0.05 && y > archTop + radius * 0.4) {
      shade(out, 1 - 0.25 * (1 - shadowX / (width * 0.05)))
    }
    shade(out, vignetteAt(frame, x, y, 0.25))
  }
  return renderBackdrop(frame, painter)
}

function street(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const brickW = width / 11
  const brickH = brickW * 0.36
  const mortar = rgb('#b9ada0')
  const bricks = [rgb('#9b4a35'), rgb('#a8573c'), rgb('#8a3f2e'), rgb('#b0654a'), rgb('#7d3a2b')]
  const pavement = rgb('#8d8a86')
  const texture = createNoise(2101)
  const groundY = height * 0.84
  const painter: Painter = (x, y, out) => {
    if (y < groundY) {
      const row = Math.floor(y / brickH)
      const shift = row % 2 === 0 ? 0 : brickW / 2
      const col = Math.floor((x + shift) / brickW)
      const bx = x + shift - col * brickW
      const by = y - row * brickH
      const edge = Math.min(bx, brickW - bx, by, brickH - by)
      const colour = bricks[
        Math.floor((grain(col, row, 21) * 0.5 + 0.5) * bricks.length) % bricks.length
      ] as number[]
      const rough = fractalNoise(texture, x * 0.05, y * 0.05, 3)
      paint(out, colour)
      shade(out, 1 + rough * 0.12 + grain(col, row, 4) * 0.05)
      tint(out, mortar, 1 - smoothstep(1.5, 4, edge))
    } else {
      const { u, v } = surfacePoint(frame, groundY, x, y)
      paint(out, pavement)
      shade(out, 1 + fractalNoise(texture, u * 0.01, v * 0.01, 3) * 0.08)
      const slab = Math.min(Math.abs(u % 700), Math.abs(v % 500))
      tint(out, [90, 88, 85], (1 - smoothstep(0, 8, slab)) * 0.4)
    }
    // Late-afternoon light from the upper left.
    tint(out, rgb('#ffcf9a'), 0.25 * falloff(x, y, width * 0.1, height * 0.1, width, height * 0.8))
    shade(out, vignetteAt(frame, x, y, 0.35))
  }
  return renderBackdrop(frame, painter, [], { blur: 1.6 })
}

function minimalStudio(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const top = rgb('#dcdcda')
  const middle = rgb('#eeeeec')
  const bottom = rgb('#d6d6d3')
  const painter: Painter = (x, y, out) => {
    const t = y / height
    if (t < 0.55) blendInto(out, top, middle, smoothstep(0, 0.55, t))
    else blendInto(out, middle, bottom, smoothstep(0.7, 1, t))
    tint(out, [255, 255, 255], 0.6 * falloff(x, y, width * 0.5, height * 0.45, width * 0.8, height * 0.6))
    shade(out, vignetteAt(frame, x, y, 0.12))
  }
  return renderBackdrop(frame, painter)
}

function boutique(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const wall = rgb('#efe4d3')
  const moulding = rgb('#c9a86a')
  const floorLight = rgb('#cdb28d')
  const floorDark = rgb('#a98a62')
  const floorY = height * 0.82
  const panelTop = height * 0.08
  const panelBottom = height * 0.76
  const columns = 3
  const margin = width * 0.06
  const gap = width * 0.05
  const panelWidth = (width - margin * 2 - gap * (columns - 1)) / columns
  const boards = createNoise(2301)
  const painter: Painter = (x, y, out) => {
    if (y < floorY) {
      paint(out, wall)
      // Raised panels: a thin gilt moulding, lit on its top and left, shaded on the others.
      const local = x - margin
      const column = Math.floor(local / (panelWidth + gap))
      const px = local - column * (panelWidth + gap)
      if (column >= 0 && column < columns && px <= panelWidth && y >= panelTop && y <= panelBottom) {
        const edge = Math.min(px, panelWidth - px, y - panelTop, panelBottom - y)
        const band = 1 - smoothstep(3, 7, edge)
        const isLit = px < 7 || y - panelTop < 7
        tint(out, moulding, band * 0.9)
        if (band > 0) shade(out, isLit ? 1.08 : 0.9)
      }
      // The baseboard.
      if (y > floorY - height * 0.03) tint(out, [246, 240, 230], 0.8)
    } else {
      const { u } = surfacePoint(frame, floorY, x, y)
      const board = Math.floor(u / 180)
      blendInto(
        out,
        floorLight,
        floorDark,
        clamp(0.5 + grain(board, 1, 8) * 0.3 + fractalNoise(boards, u * 0.002, y * 0.2, 2) * 0.3, 0, 1),
      )
    }
    // Warm wall lights either side.
    tint(out, rgb('#fff1d6'), 0.55 * falloff(x, y, width * 0.15, height * 0.12, width * 0.45, height * 0.45))
    tint(out, rgb('#fff1d6'), 0.55 * falloff(x, y, width * 0.85, height * 0.12, width * 0.45, height * 0.45))
    shade(out, vignetteAt(frame, x, y, 0.25))
  }
  return renderBackdrop(frame, painter)
}

function runway(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const vanishY = height * 0.38
  const painter: Painter = (x, y, out) => {
    out[0] = 16
    out[1] = 16
    out[2] = 20
    // The catwalk: a glossy strip narrowing to the back of the hall.
    if (y > vanishY) {
      const t = (y - vanishY) / (height - vanishY)
      const halfWidth = width * (0.04 + 0.46 * t)
      const dx = Math.abs(x - width / 2)
      if (dx < halfWidth) {
        blendInto(out, [58, 58, 64], [120, 120, 128], t)
        tint(out, [230, 230, 240], 0.35 * (1 - smoothstep(0, halfWidth * 0.5, dx)) * t)
      }
      tint(out, [0, 0, 0], smoothstep(halfWidth - 2, halfWidth + 2, dx) * 0.5)
    }
    // Audience and photographers' lights: round, far and out of focus, either side of the strip.
    const band = height * 0.07
    if (Math.abs(y - vanishY) < band) {
      const cell = width * 0.035
      const col = Math.floor(x / cell)
      const row = Math.floor(y / cell)
      if (grain(col, row, 31) > 0.2) {
        const dotX = (col + 0.5 + grain(col, row, 32) * 0.3) * cell
        const dotY = (row + 0.5 + grain(col, row, 33) * 0.3) * cell
        const radius = cell * (0.18 + 0.14 * (grain(col, row, 34) * 0.5 + 0.5))
        const glow = 1 - smoothstep(radius * 0.6, radius, Math.hypot(x - dotX, y - dotY))
        tint(out, [255, 226, 180], glow * 0.55 * (1 - Math.abs(y - vanishY) / band))
      }
    }
    // Two spotlights from above meeting on the model.
    tint(out, [210, 215, 235], 0.5 * falloff(x, y, width * 0.5, height * 0.45, width * 0.55, height * 0.7))
    tint(out, [255, 255, 255], 0.18 * falloff(x, y, width * 0.5, height * 0.1, width * 0.25, height * 0.3))
  }
  return renderBackdrop(frame, painter, [], { blur: 1.2 })
}

function vintage(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const paper = rgb('#c8ad86')
  const ink = rgb('#a8895f')
  const tile = width / 6
  const stain = createNoise(2501)
  const painter: Painter = (x, y, out) => {
    // Damask-like wallpaper: a diamond lattice with a medallion in each cell, faded.
    const row = Math.floor(y / tile)
    const shift = row % 2 === 0 ? 0 : tile / 2
    const cx = (x + shift) % tile
    const cy = y % tile
    const dx = Math.abs(cx - tile / 2) / (tile / 2)
    const dy = Math.abs(cy - tile / 2) / (tile / 2)
    const diamond = Math.abs(dx + dy - 1)
    const medallion = Math.abs(Math.sqrt(dx * dx * 1.8 + dy * dy) - 0.42)
    const petal = Math.abs(Math.sqrt(dx * dx + dy * dy * 1.8) - 0.26)
    const motif = Math.max(
      1 - smoothstep(0.02, 0.05, diamond),
      1 - smoothstep(0.03, 0.07, medallion),
      1 - smoothstep(0.03, 0.08, petal),
    )
    blendInto(out, paper, ink, motif * 0.75)
    // Age: blotches, a warm cast and heavy corners.
    shade(out, 1 + fractalNoise(stain, x * 0.004, y * 0.004, 4) * 0.1)
    tint(out, [245, 226, 190], 0.3 * falloff(x, y, width * 0.5, height * 0.45, width * 0.75, height * 0.55))
    shade(out, vignetteAt(frame, x, y, 0.5))
  }
  return renderBackdrop(frame, painter)
}

function casual(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const wall = rgb('#efe6da')
  const floorLight = rgb('#d9bf9c')
  const floorDark = rgb('#c4a47c')
  const sun = rgb('#fff6e4')
  const floorY = height * 0.8
  const boards = createNoise(2601)
  const painter: Painter = (x, y, out) => {
    if (y < floorY) {
      paint(out, wall)
      shade(out, 0.94)
      // Sunlight through a four-pane window falls across the wall at a slant.
      const sx = x - (floorY - y) * 0.35 - width * 0.18
      const sy = y - height * 0.1
      const windowWidth = width * 0.5
      const windowHeight = height * 0.55
      if (sx > 0 && sx < windowWidth && sy > 0 && sy < windowHeight) {
        const mullion = Math.min(Math.abs(sx - windowWidth / 2), Math.abs(sy - windowHeight / 2))
        const edge = Math.min(sx, windowWidth - sx, sy, windowHeight - sy)
        const lit = smoothstep(0, 14, edge) * smoothstep(6, 14, mullion)
        tint(out, sun, lit * 0.85)
      }
    } else {
      const { u, v } = surfacePoint(frame, floorY, x, y)
      const plank = Math.floor(u / 200)
      blendInto(
        out,
        floorLight,
        floorDark,
        clamp(0.5 + grain(plank, 2, 6) * 0.35 + fractalNoise(boards, u * 0.003, v * 0.05, 2) * 0.3, 0, 1),
      )
      tint(out, [120, 90, 60], (1 - smoothstep(0, 3, Math.abs(u - plank * 200))) * 0.4)
    }
    shade(out, vignetteAt(frame, x, y, 0.15))
  }
  return renderBackdrop(frame, painter, [], { blur: 1.2 })
}

function avantGarde(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const blue = rgb('#2637c9')
  const pink = rgb('#ff4f8b')
  const yellow = rgb('#ffd23f')
  const black = rgb('#111111')
  const painter: Painter = (x, y, out) => {
    blendInto(out, blue, [18, 28, 140], y / height)
    const pinkDistance = Math.hypot(x - width * 0.78, y - height * 0.22)
    if (pinkDistance < width * 0.36) blendInto(out, pink, [230, 60, 120], pinkDistance / (width * 0.36))
    const yellowDistance = Math.hypot(x - width * 0.12, y - height * 0.95)
    if (yellowDistance < width * 0.42 && y < height * 0.95) paint(out, yellow)
    // A black diagonal band cutting the frame.
    const band = Math.abs(x * 0.55 - (y - height * 0.45) - width * 0.05)
    if (band < width * 0.045) paint(out, black)
    // A ring outline, thin and white.
    const ring = Math.abs(Math.hypot(x - width * 0.3, y - height * 0.3) - width * 0.2)
    tint(out, [255, 255, 255], 1 - smoothstep(2, 5, ring))
    shade(out, vignetteAt(frame, x, y, 0.2))
  }
  return renderBackdrop(frame, painter)
}

/** Draws the style's backdrop at the ratio's output size and says where the garment goes. */
export async function renderFashionBackdrop(style: FashionStyleId, ratio: AspectRatio): Promise<Backdrop> {
  const frame = frameFor(ratio)
  const painters: Record<FashionStyleId, (frame: Frame) => Promise<Buffer>> = {
    editorial,
    street,
    'minimal-studio': minimalStudio,
    boutique,
    runway,
    vintage,
    casual,
    'avant-garde': avantGarde,
  }
  const raw = await painters[style](frame)
  return { raw, width: frame.width, height: frame.height, stage: fashionStage(frame) }
}

/**
 * The user's reference photo as the backdrop: filled to the frame, softened and dimmed so the
 * garment in front stays the subject.
 */
export async function renderReferenceBackdrop(reference: Buffer, ratio: AspectRatio): Promise<Backdrop> {
  const frame = frameFor(ratio)
  const raw = await sharp(reference, { failOn: 'error' })
    .rotate()
    .resize(frame.width, frame.height, { fit: 'cover', position: 'centre' })
    .toColourspace('srgb')
    .flatten({ background: '#ffffff' })
    .blur(5)
    .modulate({ brightness: 0.78, saturation: 0.9 })
    .raw()
    .toBuffer()
  return {
    raw,
    width: frame.width,
    height: frame.height,
    stage: { ...fashionStage(frame), shadowOpacity: 0.5 },
  }
}
