import sharp from 'sharp'
import type { AspectRatio, SceneView } from '#shared/scenes.ts'
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
  svgBox,
  tint,
  vignetteAt,
} from './canvas.ts'
import { clamp, createNoise, fractalNoise, grain, smoothstep } from './noise.ts'
import type { StudioSceneId } from './scene-match.ts'
import {
  blackSurface,
  concreteSurface,
  dappledSun,
  marbleSurface,
  paperSurface,
  type Surface,
  velvetSurface,
  woodSurface,
} from './surfaces.ts'

// The eight product scenes (and the neutral fallback), each drawn to read as itself at a
// glance: a seamless white sweep, veined marble, wood planks, a black stage, sky and grass,
// folded velvet, a glass pedestal, formwork concrete. Light comes from above and slightly to
// the left in every scene, so a product looks lit the same way whichever scene it is put in.

type Geometry = { horizonY: number; stage: Stage }

/** Frame pixels per surface pixel: textures keep their size relative to the frame at any resolution. */
function unitOf(frame: Frame): number {
  return Math.min(frame.width, frame.height) / 1080
}

/**
 * Where the surface meets the wall, and where the product stands. On a tall frame the stage is
 * 78 % of the width and 64 % of the height: a wide or square product takes the width, and a
 * tall thin one (a pen, a bottle) stands as tall as the width allows a wide one to be wide,
 * rather than half the frame's height with empty wall above it.
 */
function productGeometry(frame: Frame): Geometry {
  const { width, height, isTall } = frame
  return {
    horizonY: Math.round(height * 0.6),
    stage: {
      anchor: 'base',
      x: Math.round(width / 2),
      y: Math.round(height * (isTall ? 0.78 : 0.83)),
      maxWidth: Math.round(width * (isTall ? 0.78 : 0.62)),
      maxHeight: Math.round(height * (isTall ? 0.64 : 0.6)),
      shadowOpacity: 0.5,
      reflectionOpacity: 0,
    },
  }
}

/** A soft pool of light (or shade, with a dark colour) applied by the painters. */
type Light = { cx: number; cy: number; rx: number; ry: number; colour: readonly number[]; amount: number }

function applyLights(out: Float64Array, x: number, y: number, lights: readonly Light[]) {
  for (const light of lights) {
    tint(out, light.colour, light.amount * falloff(x, y, light.cx, light.cy, light.rx, light.ry))
  }
}

/** Shade where a surface meets the wall behind it, so the two read as a corner, not a seam. */
function cornerShade(frame: Frame, horizonY: number, y: number, above: number, below: number): number {
  const band = frame.height * 0.06
  if (y < horizonY) return 1 - above * smoothstep(horizonY - band, horizonY, y)
  return 1 - below * (1 - smoothstep(horizonY, horizonY + band * 0.5, y))
}

function studioSweep(
  frame: Frame,
  colours: { top: string; middle: string; bottom: string },
): Promise<Buffer> {
  const { stage } = productGeometry(frame)
  const top = rgb(colours.top)
  const middle = rgb(colours.middle)
  const bottom = rgb(colours.bottom)
  const lights: Light[] = [
    {
      cx: stage.x,
      cy: stage.y - stage.maxHeight * 0.45,
      rx: frame.width * 0.8,
      ry: frame.height * 0.55,
      colour: [255, 255, 255],
      amount: 0.7,
    },
  ]
  // A seamless paper sweep: no horizon, just a wall that turns into the floor as it darkens.
  const painter: Painter = (x, y, out) => {
    const t = y / frame.height
    if (t < 0.5) blendInto(out, top, middle, smoothstep(0, 0.5, t))
    else if (t < 0.72) paint(out, middle)
    else blendInto(out, middle, bottom, smoothstep(0.72, 1, t))
    applyLights(out, x, y, lights)
    shade(out, vignetteAt(frame, x, y, 0.1))
  }
  return renderBackdrop(frame, painter)
}

function blackMinimal(frame: Frame): Promise<Buffer> {
  const { height } = frame
  const { horizonY, stage } = productGeometry(frame)
  const wallTop = rgb('#0b0b0c')
  const wallBottom = rgb('#19191b')
  const floorBack = rgb('#1f1f22')
  const floorFront = rgb('#050506')
  const lights: Light[] = [
    {
      cx: stage.x,
      cy: stage.y - stage.maxHeight * 0.5,
      rx: frame.width * 0.48,
      ry: height * 0.4,
      colour: rgb('#55555c'),
      amount: 0.55,
    },
    {
      cx: stage.x,
      cy: stage.y,
      rx: stage.maxWidth * 0.8,
      ry: stage.maxWidth * 0.17,
      colour: rgb('#5e5e66'),
      amount: 0.5,
    },
  ]
  const soft = height * 0.015
  const wall = new Float64Array(3)
  const floor = new Float64Array(3)
  const painter: Painter = (x, y, out) => {
    blendInto(wall, wallTop, wallBottom, y / horizonY)
    blendInto(floor, floorBack, floorFront, clamp((y - horizonY) / (height - horizonY), 0, 1))
    blendInto(out, wall, floor, smoothstep(horizonY - soft, horizonY + soft, y))
    applyLights(out, x, y, lights)
  }
  return renderBackdrop(frame, painter)
}

function marble(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const { horizonY, stage } = productGeometry(frame)
  const stone = marbleSurface()
  const unit = unitOf(frame)
  const wallTop = rgb('#d8d2ca')
  const wallBottom = rgb('#ebe7e1')
  const lights: Light[] = [
    {
      cx: width * 0.38,
      cy: horizonY * 0.35,
      rx: width * 0.8,
      ry: height * 0.5,
      colour: [255, 255, 255],
      amount: 0.5,
    },
    {
      cx: stage.x,
      cy: stage.y,
      rx: stage.maxWidth * 0.9,
      ry: stage.maxWidth * 0.2,
      colour: [255, 255, 255],
      amount: 0.25,
    },
  ]
  const painter: Painter = (x, y, out) => {
    if (y < horizonY) {
      blendInto(out, wallTop, wallBottom, y / horizonY)
    } else {
      const { u, v } = surfacePoint(frame, horizonY, x, y)
      // Seen across the table, the stone shows more of itself than from above: a finer scale.
      stone((u * 2.4) / unit, (v * 2.4) / unit, out)
      // The stone is lit from above: the front edge is a little darker than the back.
      shade(out, 1 - 0.07 * ((y - horizonY) / (height - horizonY)))
    }
    shade(out, cornerShade(frame, horizonY, y, 0.16, 0.1))
    applyLights(out, x, y, lights)
    shade(out, vignetteAt(frame, x, y, 0.14))
  }
  return renderBackdrop(frame, painter)
}

function wood(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const { horizonY, stage } = productGeometry(frame)
  const boards = woodSurface(170)
  const unit = unitOf(frame)
  const wallTop = rgb('#e2d9cc')
  const wallBottom = rgb('#efe8de')
  const lights: Light[] = [
    {
      cx: width * 0.36,
      cy: horizonY * 0.3,
      rx: width * 0.85,
      ry: height * 0.5,
      colour: rgb('#fff7ea'),
      amount: 0.55,
    },
    {
      cx: stage.x,
      cy: stage.y,
      rx: stage.maxWidth * 0.95,
      ry: stage.maxWidth * 0.22,
      colour: rgb('#ffe9cc'),
      amount: 0.2,
    },
  ]
  const painter: Painter = (x, y, out) => {
    if (y < horizonY) {
      blendInto(out, wallTop, wallBottom, y / horizonY)
    } else {
      const { u, v } = surfacePoint(frame, horizonY, x, y)
      boards(u / unit, v / unit, out)
      shade(out, 1 - 0.1 * ((y - horizonY) / (height - horizonY)))
    }
    shade(out, cornerShade(frame, horizonY, y, 0.18, 0.22))
    applyLights(out, x, y, lights)
    shade(out, vignetteAt(frame, x, y, 0.2))
  }
  return renderBackdrop(frame, painter)
}

function outdoor(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const { horizonY } = productGeometry(frame)
  const clouds = createNoise(606)
  const trees = createNoise(707)
  const grass = createNoise(808)
  const patches = createNoise(909)
  const skyTop = rgb('#5f9fd6')
  const skyLow = rgb('#d4e6f2')
  const cloudWhite = rgb('#fbfcfd')
  const hill = rgb('#8aa796')
  const treeDark = rgb('#2f4a2a')
  const treeLight = rgb('#5d7d3f')
  const grassFar = rgb('#8fae5a')
  const grassNear = rgb('#4f7a2c')
  const grassLight = rgb('#a6c266')
  const foliage = new Float64Array(3)
  const scale = height / 1080
  const lights: Light[] = [
    {
      cx: width * 0.82,
      cy: height * 0.06,
      rx: width * 0.9,
      ry: height * 0.55,
      colour: rgb('#fff4d2'),
      amount: 0.65,
    },
  ]
  const painter: Painter = (x, y, out) => {
    if (y < horizonY) {
      const hillTop = horizonY - (75 + 40 * fractalNoise(trees, x * 0.0012, 3.3, 3)) * scale
      const treeTop = horizonY - (30 + 55 * (fractalNoise(trees, x * 0.006, 0.5, 4) * 0.5 + 0.5)) * scale
      blendInto(out, skyTop, skyLow, (y / horizonY) ** 0.8)
      const c = fractalNoise(clouds, x * 0.0022, y * 0.006, 4)
      tint(out, cloudWhite, smoothstep(0.05, 0.45, c) * (1 - smoothstep(0.55, 0.9, y / horizonY)) * 0.9)
      // Soft silhouettes: the far hills and the tree line are out of focus behind the product.
      tint(out, hill, 0.8 * smoothstep(hillTop - 3 * scale, hillTop + 3 * scale, y))
      const leaf = fractalNoise(trees, x * 0.03, y * 0.03, 3) * 0.5 + 0.5
      tint(
        out,
        blendInto(foliage, treeDark, treeLight, leaf * 0.7),
        smoothstep(treeTop - 4 * scale, treeTop + 4 * scale, y),
      )
    } else {
      const { u, v, depth } = surfacePoint(frame, horizonY, x, y)
      blendInto(out, grassFar, grassNear, ((y - horizonY) / (height - horizonY)) ** 0.7)
      const sun = fractalNoise(patches, u * 0.0015, v * 0.003, 3)
      tint(out, grassLight, clamp(sun * 0.6 + 0.2, 0, 1) * 0.5)
      // Haze where the field meets the trees, so the tree line does not look pasted on.
      tint(out, hill, 0.4 * (1 - smoothstep(horizonY, horizonY + 14 * scale, y)))
      // Blades stand upright on screen (in surface coordinates they would fan out from the
      // vanishing point like a zoom blur), strong in front, fading where they would alias.
      shade(out, 1 + fractalNoise(grass, x * 0.11, y * 0.022, 2) * (0.24 / (depth * depth)))
    }
    applyLights(out, x, y, lights)
    shade(out, vignetteAt(frame, x, y, 0.12))
  }
  return renderBackdrop(frame, painter)
}

function velvet(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const { horizonY, stage } = productGeometry(frame)
  const folds = createNoise(1001)
  const ripple = createNoise(1102)
  const pile = createNoise(1203)
  const deep = rgb('#2b0512')
  const body = rgb('#6a1230')
  const sheen = rgb('#c0506e')
  const seamY = horizonY + height * 0.02
  const lights: Light[] = [
    {
      cx: stage.x,
      cy: stage.y - stage.maxHeight * 0.45,
      rx: width * 0.55,
      ry: height * 0.45,
      colour: rgb('#ff9fb8'),
      amount: 0.22,
    },
    {
      cx: stage.x,
      cy: stage.y,
      rx: stage.maxWidth * 0.9,
      ry: stage.maxWidth * 0.2,
      colour: rgb('#ffb3c6'),
      amount: 0.2,
    },
  ]
  const velvetColour = (out: Float64Array, slope: number, lightness: number) => {
    // Velvet shines where the cloth turns away from the viewer (grazing light) and is deepest
    // where it faces the camera, the opposite of a glossy fabric.
    blendInto(out, deep, body, clamp(lightness, 0, 1))
    tint(out, sheen, Math.abs(slope) ** 2.2 * 0.55)
  }
  const painter: Painter = (x, y, out) => {
    const nap = fractalNoise(pile, x * 0.08, y * 0.08, 2) * 0.04
    if (y < seamY) {
      const phase = (x / width) * 6.5 + fractalNoise(folds, x * 0.0015, y * 0.0012, 3) * 1.6
      const fall = 1 - 0.35 * smoothstep(0, seamY, y)
      const angle = phase * Math.PI * 2
      velvetColour(out, Math.cos(angle) * fall, 0.55 + Math.sin(angle) * 0.3 * fall + nap)
    } else {
      const { u, v } = surfacePoint(frame, horizonY, x, y)
      // The cloth on the floor lies almost flat: a few broad, low swells, lighter at the back.
      const phase = u * 0.0009 + fractalNoise(ripple, u * 0.0008, v * 0.0015, 2) * 0.6
      const angle = phase * Math.PI * 2
      const back = 1 - smoothstep(seamY, height, y)
      velvetColour(out, Math.cos(angle) * 0.3, 0.5 + back * 0.2 + Math.sin(angle) * 0.06 + nap)
    }
    shade(out, cornerShade(frame, seamY, y, 0.45, 0.35))
    applyLights(out, x, y, lights)
    shade(out, vignetteAt(frame, x, y, 0.45))
  }
  return renderBackdrop(frame, painter)
}

/** The pedestal's size, shared with the stage so the product stands on its top. */
function pedestalGeometry(frame: Frame) {
  const { width, height, isTall } = frame
  const { stage } = productGeometry(frame)
  const rx = Math.round(width * (isTall ? 0.36 : 0.3))
  const ry = Math.round(rx * 0.17)
  const top = Math.round(height * (isTall ? 0.72 : 0.7))
  const bodyHeight = Math.round(height * (isTall ? 0.13 : 0.17))
  return { cx: stage.x, rx, ry, top, bottom: top + bodyHeight }
}

function glassPedestal(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const { horizonY } = productGeometry(frame)
  const { cx, rx, ry, top, bottom } = pedestalGeometry(frame)
  const wallTop = rgb('#dae3e9')
  const wallBottom = rgb('#f1f5f7')
  const floorBack = rgb('#e9eef1')
  const floorFront = rgb('#d9e1e6')
  const lights: Light[] = [
    {
      cx: width * 0.4,
      cy: height * 0.28,
      rx: width * 0.8,
      ry: height * 0.45,
      colour: [255, 255, 255],
      amount: 0.8,
    },
    // The pedestal's shadow on the floor and the light it focuses through the glass.
    { cx, cy: bottom + ry * 0.3, rx: rx * 1.25, ry: ry * 1.6, colour: rgb('#6d7f8a'), amount: 0.35 },
    { cx, cy: bottom + ry * 0.25, rx: rx * 0.8, ry: ry * 0.7, colour: rgb('#f4fdff'), amount: 0.6 },
  ]
  const soft = height * 0.03
  const wall = new Float64Array(3)
  const floor = new Float64Array(3)
  const painter: Painter = (x, y, out) => {
    blendInto(wall, wallTop, wallBottom, clamp(y / horizonY, 0, 1))
    blendInto(floor, floorBack, floorFront, clamp((y - horizonY) / (height - horizonY), 0, 1))
    blendInto(out, wall, floor, smoothstep(horizonY - soft, horizonY + soft, y))
    applyLights(out, x, y, lights)
    shade(out, vignetteAt(frame, x, y, 0.08))
  }
  // The glass is drawn crisp at full size: its rims and highlights are what make it glass.
  const left = rx * 0.04
  const boxWidth = rx * 2 + left * 2
  const boxHeight = bottom - top + ry * 2 + 8
  const ox = left
  const oy = ry + 4
  const shape = svgBox(
    boxWidth,
    boxHeight,
    `<defs>
      <linearGradient id="body" x1="0" y1="0" x2="1" y2="0">
        <stop offset="0" stop-color="#8ea5b2" stop-opacity="0.6"/>
        <stop offset="0.07" stop-color="#ffffff" stop-opacity="0.7"/>
        <stop offset="0.16" stop-color="#d9e6ed" stop-opacity="0.25"/>
        <stop offset="0.5" stop-color="#eef5f8" stop-opacity="0.15"/>
        <stop offset="0.8" stop-color="#d3e1e8" stop-opacity="0.25"/>
        <stop offset="0.91" stop-color="#ffffff" stop-opacity="0.75"/>
        <stop offset="1" stop-color="#8097a5" stop-opacity="0.65"/></linearGradient>
      <linearGradient id="face" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="#ffffff" stop-opacity="0.8"/><stop offset="1" stop-color="#d6e4eb" stop-opacity="0.5"/></linearGradient>
      <filter id="soft" x="-20%" y="-5%" width="140%" height="110%"><feGaussianBlur stdDeviation="1.3"/></filter></defs>
    <g transform="translate(${ox} ${oy})">
      <path d="M 0 0 L 0 ${bottom - top} A ${rx} ${ry} 0 0 0 ${rx * 2} ${bottom - top} L ${rx * 2} 0 Z" fill="url(#body)"/>
      <path d="M 0 ${bottom - top} A ${rx} ${ry} 0 0 0 ${rx * 2} ${bottom - top}" fill="none" stroke="#ffffff" stroke-opacity="0.7" stroke-width="2.5"/>
      <rect x="${rx * 0.16}" y="${ry * 0.7}" width="${rx * 0.05}" height="${bottom - top - ry * 0.2}" fill="#ffffff" opacity="0.75" filter="url(#soft)"/>
      <rect x="${rx * 1.62}" y="${ry * 0.7}" width="${rx * 0.03}" height="${bottom - top - ry * 0.2}" fill="#ffffff" opacity="0.55" filter="url(#soft)"/>
      <ellipse cx="${rx}" cy="0" rx="${rx}" ry="${ry}" fill="url(#face)"/>
      <ellipse cx="${rx}" cy="0" rx="${rx}" ry="${ry}" fill="none" stroke="#ffffff" stroke-width="3" stroke-opacity="0.95"/>
      <ellipse cx="${rx}" cy="3" rx="${rx - 5}" ry="${ry - 4}" fill="none" stroke="#8fa8b6" stroke-width="1.5" stroke-opacity="0.55"/>
    </g>`,
  )
  return renderBackdrop(frame, painter, [
    { svg: shape, left: Math.round(cx - rx - ox), top: Math.round(top - oy) },
  ])
}

function concrete(frame: Frame): Promise<Buffer> {
  const { width, height } = frame
  const { horizonY, stage } = productGeometry(frame)
  const mottle = createNoise(1301)
  const detail = createNoise(1402)
  const pores = createNoise(1503)
  const wallColour = rgb('#a9a6a0')
  const seamColour = rgb('#5d5b57')
  const holeColour = rgb('#3f3d3a')
  const panelWidth = width / 2
  const panelHeight = horizonY / 2
  const holeRadius = width * 0.012
  const floor = concreteSurface('#8e8b86')
  const unit = unitOf(frame)
  const lights: Light[] = [
    {
      cx: width * 0.3,
      cy: horizonY * 0.3,
      rx: width * 0.9,
      ry: height * 0.55,
      colour: rgb('#fff3e0'),
      amount: 0.35,
    },
    {
      cx: stage.x,
      cy: stage.y,
      rx: stage.maxWidth * 0.9,
      ry: stage.maxWidth * 0.2,
      colour: [255, 255, 255],
      amount: 0.15,
    },
  ]
  const painter: Painter = (x, y, out) => {
    if (y < horizonY) {
      const wx = x / unit
      const wy = y / unit
      const m = fractalNoise(mottle, wx * 0.0035, wy * 0.0035, 4)
      const d = fractalNoise(detail, wx * 0.025, wy * 0.025, 2)
      // Air pockets: sparse, small, round, and only some of them deep.
      const pit =
        grain(Math.round(wx / 2), Math.round(wy / 2), 17) > 0.994
          ? 0.5 + 0.5 * fractalNoise(pores, wx, wy, 1)
          : 0
      // Formwork panels, poured a shade apart, with seams and tie holes: what makes a wall
      // read as poured concrete rather than grey paint.
      const col = Math.floor(x / panelWidth)
      const row = Math.floor(y / panelHeight)
      const panelTone = grain(col, row, 3) * 0.035
      paint(out, wallColour)
      shade(out, 1 + m * 0.13 + d * 0.05 + panelTone - pit * 0.22)
      const seamDistance = Math.min(
        Math.abs(x - Math.round(x / panelWidth) * panelWidth),
        Math.abs(y - Math.round(y / panelHeight) * panelHeight),
      )
      tint(out, seamColour, (1 - smoothstep(0.5, 2.5, seamDistance / unit)) * 0.55)
      const fx = x / panelWidth - col
      const fy = y / panelHeight - row
      const hx = (fx < 0.5 ? fx - 0.2 : fx - 0.8) * panelWidth
      const hy = (fy < 0.5 ? fy - 0.25 : fy - 0.75) * panelHeight
      const r = Math.sqrt(hx * hx + hy * hy)
      tint(out, holeColour, 1 - smoothstep(holeRadius * 0.6, holeRadius * 1.1, r))
      // A lit lower lip makes the hole read as a recess.
      if (hy > 0)
        tint(
          out,
          [215, 212, 206],
          (smoothstep(holeRadius * 0.9, holeRadius * 1.1, r) -
            smoothstep(holeRadius * 1.1, holeRadius * 1.5, r)) *
            0.5,
        )
    } else {
      const { u, v } = surfacePoint(frame, horizonY, x, y)
      floor(u / unit, v / unit, out)
      shade(out, 1 - 0.12 * ((y - horizonY) / (height - horizonY)))
    }
    shade(out, cornerShade(frame, horizonY, y, 0.25, 0.2))
    applyLights(out, x, y, lights)
    shade(out, vignetteAt(frame, x, y, 0.3))
  }
  return renderBackdrop(frame, painter)
}

/**
 * How much of the frame the product fills on the white studio, along the side where it comes
 * closest to the frame (its longer side on a square): Amazon's main image asks for at least
 * 85 % (marketplaces.md §4), and 88 % clears that with room for a mask's edge being a few pixels
 * off, while leaving a 6 % margin so nothing touches the frame. No other marketplace publishes a
 * fill, so the one white studio serves them all (docs/decisions/0036).
 */
export const whiteStudioFill = 0.88

/**
 * The white studio: every pixel #FFFFFF (no sweep, no vignette, no dither), the product centred
 * and filling `whiteStudioFill` of the frame; only its small contact shadow is not white.
 */
export function whiteStudio(frame: Frame): Backdrop {
  const { width, height } = frame
  return { raw: Buffer.alloc(width * height * 3, 255), width, height, stage: whiteStudioStage(frame) }
}

function whiteStudioStage(frame: Frame): Stage {
  const { width, height } = frame
  return {
    anchor: 'middle',
    x: Math.round(width / 2),
    y: Math.round(height / 2),
    maxWidth: Math.round(width * whiteStudioFill),
    maxHeight: Math.round(height * whiteStudioFill),
    shadowOpacity: 0.4,
    reflectionOpacity: 0,
  }
}

/**
 * Where the product lies on a surface seen from above: centred, a little larger than on the
 * front view (there is no wall to leave room for), its shadow following its outline.
 */
function topStage(frame: Frame, shadowOpacity: number): Stage {
  const { width, height, isTall } = frame
  return {
    anchor: 'surface',
    x: Math.round(width / 2),
    y: Math.round(height * 0.5),
    maxWidth: Math.round(width * (isTall ? 0.8 : 0.72)),
    maxHeight: Math.round(height * (isTall ? 0.6 : 0.72)),
    shadowOpacity,
    reflectionOpacity: 0,
  }
}

/**
 * Light on a surface seen from above: a window or softbox to the upper left, so the surface is
 * brighter there and falls off gently toward the lower right (the side the shadows fall to).
 */
function topLight(frame: Frame, x: number, y: number, strength: number): number {
  const dx = x / frame.width - 0.22
  const dy = y / frame.height - 0.15
  const r = Math.sqrt(dx * dx + dy * dy) / 1.1
  return 1 + strength * (0.5 - smoothstep(0, 1, r))
}

type TopOptions = {
  /**
   * Turns the surface a quarter turn, so boards run up the frame: seen from above, board seams
   * running across it would cut the product's surface like a horizon.
   */
  isTurned?: boolean
  /** How strongly the light falls off across the frame (0–1). */
  light: number
  vignette: number
  /** Texture size: above 1 the surface looks closer (larger), below 1 farther. */
  zoom?: number
  /** The colour of the light, for a warm window or the sun; white when absent. */
  warmth?: readonly number[]
  /** Texture resolution: the frame's divided by this (default 2); 3 for surfaces with no fine detail. */
  coarseness?: number
  /** Applied after the surface and before the light: a shadow or a pedestal on the surface. */
  extra?: (x: number, y: number, out: Float64Array) => void
}

/** A surface filling the frame, seen from straight above (no horizon, no wall). */
function topView(frame: Frame, surface: Surface, options: TopOptions): Promise<Buffer> {
  const scale = 1 / (unitOf(frame) * (options.zoom ?? 1))
  const cx = frame.width / 2
  const cy = frame.height / 2
  const painter: Painter = (x, y, out) => {
    if (options.isTurned) surface((y - cy) * scale, (cx - x) * scale, out)
    else surface((x - cx) * scale, (y - cy) * scale, out)
    options.extra?.(x, y, out)
    const light = topLight(frame, x, y, options.light)
    if (options.warmth && light > 1) tint(out, options.warmth, (light - 1) * 0.8)
    shade(out, light)
    shade(out, vignetteAt(frame, x, y, options.vignette))
  }
  return renderBackdrop(frame, painter, [], { coarseness: options.coarseness ?? 2 })
}

/** The glass pedestal from above: a round glass disc on a pale floor, its rim catching the light. */
function glassTop(frame: Frame): { paint: Promise<Buffer>; radius: number } {
  const { width, height } = frame
  const radius = Math.min(width, height) * 0.4
  const cx = width / 2
  const cy = height / 2
  const floor = paperSurface('#e3e9ec')
  const glass = rgb('#eef6f9')
  const rim = rgb('#ffffff')
  const edge = rgb('#7d93a0')
  const caustic = rgb('#fbffff')
  const shadowColour = rgb('#8d9ba3')
  // The disc's shadow and the light it focuses fall to the lower right, away from the light.
  const sx = cx + radius * 0.06
  const sy = cy + radius * 0.09
  const extra = (x: number, y: number, out: Float64Array) => {
    const dx = x - cx
    const dy = y - cy
    const r = Math.sqrt(dx * dx + dy * dy)
    const d = r / radius
    const sd = Math.sqrt((x - sx) ** 2 + (y - sy) ** 2) / radius
    if (d > 1) {
      tint(out, shadowColour, 0.35 * (1 - smoothstep(0.96, 1.1, sd)))
      tint(
        out,
        caustic,
        0.45 * (1 - smoothstep(0.0, 0.06, Math.abs(sd - 1.04))) * smoothstep(0, 0.8, (dx + dy) / (r + 1)),
      )
      return
    }
    // Inside: the floor seen through the glass, cooler and a little brighter toward the light.
    tint(out, glass, 0.45 + 0.15 * smoothstep(0.3, -0.8, (dx + dy) / radius))
    // The rim: a thin dark line of the glass's thickness and a bright highlight on its lit side.
    const toEdge = ((1 - d) * radius) / unitOf(frame)
    tint(out, edge, 0.45 * (1 - smoothstep(0, 5, Math.abs(toEdge - 7))))
    const lit = smoothstep(0.2, 1, -(dx + dy) / (r * Math.SQRT2 + 1))
    tint(out, rim, (1 - smoothstep(0, 3, toEdge)) * (0.5 + 0.5 * lit))
  }
  return { paint: topView(frame, floor, { light: 0.12, vignette: 0.06, extra }), radius }
}

/** Where the product lies on a scene seen from above. */
function topSceneStage(scene: Exclude<StudioSceneId, 'white-studio'>, frame: Frame): Stage {
  const { width, height } = frame
  switch (scene) {
    case 'neutral-studio':
      return topStage(frame, 0.38)
    case 'black-minimal':
      return topStage(frame, 0.75)
    case 'marble':
      return topStage(frame, 0.42)
    case 'outdoor':
      return topStage(frame, 0.55)
    case 'velvet':
      return topStage(frame, 0.65)
    case 'glass-pedestal': {
      // The product lies on the disc (glassTop's radius), so it may be no larger than the disc.
      const radius = Math.min(width, height) * 0.4
      return {
        ...topStage(frame, 0.35),
        maxWidth: Math.round(Math.min(width, radius * 1.45)),
        maxHeight: Math.round(Math.min(height, radius * 1.45)),
      }
    }
    default:
      return topStage(frame, 0.5)
  }
}

/** Paints a product scene seen from above. */
async function paintTopScene(scene: Exclude<StudioSceneId, 'white-studio'>, frame: Frame): Promise<Buffer> {
  switch (scene) {
    case 'neutral-studio':
      return topView(frame, paperSurface('#e2ddd6'), { light: 0.14, vignette: 0.1, coarseness: 3 })
    case 'black-minimal':
      return topView(frame, blackSurface(), { light: 0.5, vignette: 0.35, coarseness: 3 })
    case 'marble':
      return topView(frame, marbleSurface(), { light: 0.12, vignette: 0.12 })
    case 'wood':
      return topView(frame, woodSurface(300), {
        light: 0.22,
        vignette: 0.2,
        warmth: rgb('#fff1dc'),
        isTurned: true,
      })
    case 'outdoor': {
      const sun = dappledSun(0.78)
      const scale = 1 / unitOf(frame)
      const shadeColour = rgb('#46505a')
      return topView(frame, woodSurface(260, true), {
        light: 0.12,
        vignette: 0.12,
        warmth: rgb('#fff0c8'),
        isTurned: true,
        extra: (x, y, out) => {
          const lit = sun(x * scale, y * scale)
          // Leaf shade is cool (lit by the sky), sun is warm.
          tint(out, shadeColour, (1 - lit) * 0.25)
          shade(out, lit * 1.06)
        },
      })
    }
    case 'velvet':
      return topView(frame, velvetSurface(), { light: 0.3, vignette: 0.4, coarseness: 3 })
    case 'glass-pedestal':
      return glassTop(frame).paint
    case 'concrete':
      return topView(frame, concreteSurface('#9a9792'), {
        light: 0.3,
        vignette: 0.22,
        warmth: rgb('#fff3e0'),
      })
  }
}

/** Where the product stands on a scene seen from the front. */
function frontSceneStage(scene: Exclude<StudioSceneId, 'white-studio'>, frame: Frame): Stage {
  const { stage } = productGeometry(frame)
  switch (scene) {
    case 'black-minimal':
      return { ...stage, shadowOpacity: 0.7, reflectionOpacity: 0.22 }
    case 'marble':
      return { ...stage, reflectionOpacity: 0.08 }
    case 'velvet':
      return { ...stage, shadowOpacity: 0.65 }
    case 'glass-pedestal': {
      const pedestal = pedestalGeometry(frame)
      // The product stands on the pedestal's top, so it may be no wider than the top.
      return {
        ...stage,
        y: pedestal.top + Math.round(pedestal.ry * 0.25),
        maxWidth: Math.round(pedestal.rx * 1.6),
        maxHeight: Math.min(stage.maxHeight, Math.round(pedestal.top - frame.height * 0.1)),
        shadowOpacity: 0.35,
      }
    }
    default:
      return stage
  }
}

/** Paints a product scene seen from the front, with its depth of field around `stage`. */
async function paintFrontScene(
  scene: Exclude<StudioSceneId, 'white-studio'>,
  frame: Frame,
  stage: Stage,
): Promise<Buffer> {
  let raw: Buffer
  switch (scene) {
    case 'neutral-studio':
      raw = await studioSweep(frame, { top: '#d9d4cd', middle: '#ece8e2', bottom: '#d3cdc5' })
      break
    case 'black-minimal':
      raw = await blackMinimal(frame)
      break
    case 'marble':
      raw = await marble(frame)
      break
    case 'wood':
      raw = await wood(frame)
      break
    case 'outdoor':
      raw = await outdoor(frame)
      break
    case 'velvet':
      raw = await velvet(frame)
      break
    case 'glass-pedestal':
      raw = await glassPedestal(frame)
      break
    case 'concrete':
      raw = await concrete(frame)
      break
  }
  if (scene !== 'black-minimal' && scene !== 'neutral-studio')
    raw = await depthOfField(raw, frame, stage.y, productGeometry(frame).horizonY)
  return raw
}

/**
 * Where the product goes on a scene at the ratio's output size (or a larger `size`), without
 * painting it: enough to tell how large the product will be drawn (image-edit.ts picks the
 * result's size from it, then paints one scene).
 */
export function productSceneStage(
  scene: StudioSceneId,
  ratio: AspectRatio,
  view: SceneView = 'front',
  size?: { width: number; height: number },
): Stage {
  const frame = frameFor(ratio, size)
  if (scene === 'white-studio') return whiteStudioStage(frame)
  return view === 'top' ? topSceneStage(scene, frame) : frontSceneStage(scene, frame)
}

/**
 * Draws the scene at the ratio's output size (its standard size, or a larger `size` of the same
 * shape from resultSizes, decision 43), seen from the front (a surface and a wall) or from above
 * (the surface alone), and says where the product goes. The white studio has one view.
 */
export async function renderProductScene(
  scene: StudioSceneId,
  ratio: AspectRatio,
  view: SceneView = 'front',
  size?: { width: number; height: number },
): Promise<Backdrop> {
  const frame = frameFor(ratio, size)
  if (scene === 'white-studio') return whiteStudio(frame)
  const stage = productSceneStage(scene, ratio, view, size)
  const raw = view === 'top' ? await paintTopScene(scene, frame) : await paintFrontScene(scene, frame, stage)
  return { raw, width: frame.width, height: frame.height, stage }
}

/**
 * A product photograph's shallow depth of field: the surface is sharp where the product stands
 * and softens toward the back, and the wall behind is out of focus. Without it, veins and grain
 * far back on the surface are drawn as crisply as those in front, foreshortened into hard
 * strokes, which reads as a drawing, not a photograph.
 */
async function depthOfField(raw: Buffer, frame: Frame, focusY: number, horizonY: number): Promise<Buffer> {
  const { width, height } = frame
  const sigma = Math.max(1, Math.min(width, height) * 0.0045)
  const soft = await sharp(raw, { raw: { width, height, channels: 3 } })
    .blur(sigma)
    .raw()
    .toBuffer()
  const out = Buffer.allocUnsafe(raw.length)
  const reach = Math.max(1, focusY - horizonY)
  for (let y = 0; y < height; y++) {
    // In focus at the product's base and in front of it; fully soft at the back edge and above.
    const behind = clamp((focusY - y) / reach, 0, 1)
    const amount = smoothstep(0.1, 1, behind)
    const row = y * width * 3
    // Rows wholly in focus or wholly soft are copied.
    if (amount === 0 || amount === 1) {
      ;(amount === 0 ? raw : soft).copy(out, row, row, row + width * 3)
      continue
    }
    for (let i = row; i < row + width * 3; i++) {
      out[i] = Math.round((raw[i] as number) + ((soft[i] as number) - (raw[i] as number)) * amount)
    }
  }
  return out
}
