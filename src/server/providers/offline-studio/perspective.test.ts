import { readFile } from 'node:fs/promises'
import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { SceneView } from '#shared/scenes.ts'
import type { Backdrop } from './canvas.ts'
import { composeOnBackdrop, placeSubject } from './composite.ts'
import { decodePixels, type Pixels } from './measure.ts'
import { outlineCue, viewOf } from './perspective.ts'
import { renderProductScene } from './scene-backgrounds.ts'
import type { StudioSceneId } from './scene-match.ts'
import { loadPhoto, type Subject, separateSubject } from './separate.ts'

// The scenes in the photo's own perspective (decision 42), measured: which view a cut asks for,
// that a scene seen from above has no horizon, and that the product's shadow there lies under
// its own outline rather than as a separate ellipse.

const photo = (name: string) =>
  readFile(new URL(`../../../../tests/fixtures/photos/${name}`, import.meta.url))

/** A cut drawn from an SVG shape (white on transparent), cropped to its bounds as separate.ts does. */
async function shapeSubject(svgBody: string, size = 400): Promise<Subject> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">${svgBody}</svg>`
  const { data, info } = await sharp(Buffer.from(svg))
    .trim()
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  return {
    data,
    width: info.width,
    height: info.height,
    isSeparated: true,
    separatedBy: 'backdrop',
    box: { left: 0, top: 0, photoWidth: size, photoHeight: size },
  }
}

const red = 'fill="#e01010"'

describe('viewOf: the camera angle read from the cut’s outline', () => {
  it('reads the two real photos: the coffee cup was shot from above, the rocket from the front', async () => {
    const segmenter = sharedSegmenter()
    const coffee = await separateSubject(await loadPhoto(await photo('coffee.png')), segmenter)
    const rocket = await separateSubject(await loadPhoto(await photo('rocket.jpg')), segmenter)
    expect(viewOf(coffee)).toBe('top')
    expect(viewOf(rocket)).toBe('front')
    // And by a margin, not by a hair: the cup's lower edge curves up, the rocket's base is flat.
    expect(outlineCue(coffee)?.sag).toBeGreaterThan(0.07)
    expect(outlineCue(rocket)?.sag).toBeLessThan(0.02)
  }, 60_000)

  it.each<[string, string, SceneView]>([
    ['a plate (a wide ellipse)', `<ellipse cx="200" cy="200" rx="180" ry="120" ${red}/>`, 'top'],
    ['a bowl (a circle)', `<circle cx="200" cy="200" r="150" ${red}/>`, 'top'],
    [
      'a flat-laid shirt (no base, a curved hem)',
      `<path d="M 120 60 L 280 60 L 360 140 L 320 170 L 300 150 L 300 300 Q 200 360 100 300 L 100 150 L 80 170 L 40 140 Z" ${red}/>`,
      'top',
    ],
    [
      'a bottle standing on its base',
      `<rect x="140" y="40" width="120" height="320" rx="18" ${red}/>`,
      'front',
    ],
    ['a box', `<rect x="60" y="100" width="280" height="220" ${red}/>`, 'front'],
    ['a cone standing on its base', `<path d="M 200 30 L 330 360 L 70 360 Z" ${red}/>`, 'front'],
    [
      'a mug seen a little from above (its base a shallow arc)',
      `<path d="M 100 80 L 300 80 L 300 330 Q 200 345 100 330 Z" ${red}/>`,
      'front',
    ],
  ])('%s → %s', async (_name, shape, view) => {
    expect(viewOf(await shapeSubject(shape))).toBe(view)
  })

  it('keeps a photo that could not be cut (a card) and a cut too small to read front on', async () => {
    const round = await shapeSubject(`<circle cx="200" cy="200" r="150" ${red}/>`)
    expect(viewOf({ ...round, isSeparated: false })).toBe('front')
    expect(viewOf(await shapeSubject(`<rect x="198" y="100" width="4" height="200" ${red}/>`))).toBe('front')
  })
})

/** Luminance of a backdrop scaled to 240 px wide (texture detail averaged out), row-major. */
async function luminance(backdrop: Backdrop): Promise<{ l: Float64Array; width: number; height: number }> {
  const { data, info } = await sharp(backdrop.raw, {
    raw: { width: backdrop.width, height: backdrop.height, channels: 3 },
  })
    .resize(240)
    .raw()
    .toBuffer({ resolveWithObject: true })
  const l = new Float64Array(info.width * info.height)
  for (let i = 0; i < l.length; i++) {
    l[i] =
      0.2126 * (data[i * 3] as number) +
      0.7152 * (data[i * 3 + 1] as number) +
      0.0722 * (data[i * 3 + 2] as number)
  }
  return { l, width: info.width, height: info.height }
}

/**
 * Rows where the picture changes across its full width at once: at a horizon (a wall meeting a
 * surface) the luminance steps between the rows just above and just below in nearly every
 * column, the same way. Returns the largest share of columns that step together at any row.
 */
async function horizonStrength(backdrop: Backdrop): Promise<number> {
  const { l, width, height } = await luminance(backdrop)
  const k = Math.max(2, Math.round(height * 0.015))
  let strongest = 0
  for (let y = Math.round(height * 0.05) + k; y < height * 0.95 - k; y++) {
    let up = 0
    let down = 0
    for (let x = 0; x < width; x++) {
      const d = (l[(y + k) * width + x] as number) - (l[(y - k) * width + x] as number)
      if (d > 5) up++
      else if (d < -5) down++
    }
    strongest = Math.max(strongest, up / width, down / width)
  }
  return strongest
}

const texturedScenes: Exclude<StudioSceneId, 'white-studio'>[] = [
  'marble',
  'wood',
  'concrete',
  'velvet',
  'black-minimal',
  'outdoor',
  'glass-pedestal',
  'neutral-studio',
]

describe('a scene seen from above has no horizon', () => {
  it.each(texturedScenes)(
    '%s: no row steps across the width from above; the front view has its horizon',
    async (scene) => {
      const [top, front] = await Promise.all([
        renderProductScene(scene, '1:1', 'top'),
        renderProductScene(scene, '1:1', 'front'),
      ])
      const [fromAbove, fromFront] = await Promise.all([horizonStrength(top), horizonStrength(front)])
      // A surface's own texture steps in patches (at most about half the columns at once, measured
      // 0.36–0.53); a horizon steps in 85–100 % of them.
      expect(fromAbove).toBeLessThan(0.7)
      // The measure does find a horizon where there is one (the seamless sweep has none by design).
      if (scene !== 'neutral-studio') expect(fromFront).toBeGreaterThan(0.8)
      expect(top.stage.anchor).toBe('surface')
    },
  )
})

describe('the shadow on a surface seen from above', () => {
  let backdrop: Backdrop
  let image: Pixels
  let subject: Subject
  beforeAll(async () => {
    backdrop = await renderProductScene('marble', '1:1', 'top')
    subject = await shapeSubject(`<ellipse cx="200" cy="200" rx="170" ry="130" ${red}/>`)
    image = await decodePixels(await composeOnBackdrop(backdrop, subject))
  })

  const isProduct = (i: number) =>
    (image.data[i * 3] as number) > 150 &&
    (image.data[i * 3 + 1] as number) < 90 &&
    (image.data[i * 3 + 2] as number) < 90
  const darkening = (i: number) => {
    const lum = (d: Buffer, j: number) =>
      0.2126 * (d[j * 3] as number) + 0.7152 * (d[j * 3 + 1] as number) + 0.0722 * (d[j * 3 + 2] as number)
    return lum(backdrop.raw, i) - lum(image.data, i)
  }

  it('darkens the surface right along the product’s edge, most on the side away from the light', () => {
    const { width, height } = image
    // Walk out from the product's edge along rays toward the lower right and the upper left.
    const place = placeSubject(backdrop, subject)
    const cx = place.left + place.width / 2
    const cy = place.top + place.height / 2
    const edgeDarkening = (dx: number, dy: number) => {
      let x = cx
      let y = cy
      while (isProduct(Math.round(y) * width + Math.round(x))) {
        x += dx
        y += dy
      }
      // Just outside the edge (3 px out, past the antialiased rim).
      const i = Math.round(y + dy * 3) * width + Math.round(x + dx * 3)
      return darkening(i)
    }
    const lowerRight = edgeDarkening(Math.SQRT1_2, Math.SQRT1_2)
    const upperLeft = edgeDarkening(-Math.SQRT1_2, -Math.SQRT1_2)
    expect(lowerRight).toBeGreaterThan(25)
    expect(lowerRight).toBeGreaterThan(upperLeft)
    expect(cx).toBeGreaterThan(width * 0.45)
    expect(cy).toBeGreaterThan(height * 0.45)
  })

  it('keeps every shadowed pixel next to the product: no shade detached from its outline', () => {
    const { width, height } = image
    const product = new Uint8Array(width * height)
    for (let i = 0; i < product.length; i++) product[i] = isProduct(i) ? 1 : 0
    // Distance (in pixels, chessboard) from the product, by two passes.
    const far = 1e9
    const distance = new Float64Array(width * height).fill(far)
    for (let i = 0; i < product.length; i++) if (product[i]) distance[i] = 0
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = y * width + x
        if (x > 0) distance[i] = Math.min(distance[i] as number, (distance[i - 1] as number) + 1)
        if (y > 0) distance[i] = Math.min(distance[i] as number, (distance[i - width] as number) + 1)
      }
    for (let y = height - 1; y >= 0; y--)
      for (let x = width - 1; x >= 0; x--) {
        const i = y * width + x
        if (x < width - 1) distance[i] = Math.min(distance[i] as number, (distance[i + 1] as number) + 1)
        if (y < height - 1) distance[i] = Math.min(distance[i] as number, (distance[i + width] as number) + 1)
      }
    const productSize = Math.max(...[0, 1].map(() => placeSubject(backdrop, subject).width))
    let shaded = 0
    let detached = 0
    for (let i = 0; i < product.length; i++) {
      if (product[i] || darkening(i) < 12) continue
      shaded++
      if ((distance[i] as number) > productSize * 0.08) detached++
    }
    expect(shaded).toBeGreaterThan(1000)
    expect(detached / shaded).toBeLessThan(0.02)
  })
})
