import { describe, expect, it } from 'vitest'
import { productScenes } from '#shared/scenes.ts'
import { redSquarePhoto } from '#tests/support/test-photos.ts'
import { frameFor } from './canvas.ts'
import { composeOnBackdrop, placeSubject } from './composite.ts'
import { decodePixels } from './measure.ts'
import { productSceneStage, whiteStudio } from './scene-backgrounds.ts'
import { loadPhoto, separateSubject } from './separate.ts'

// Compositing measured on the result's pixels: a small photo's product enlarged to fill the
// white studio keeps an edge about as sharp as the photo's, not one blurred by the enlargement.

describe('composeOnBackdrop: enlarging a small photo', () => {
  it('keeps the edge crisp: a red square enlarged 12× goes from white to red within a few pixels', async () => {
    // 200 px photo, an 80 px square: 0.88 of a 1080 frame is about 12× its own pixels.
    const subject = await separateSubject(await loadPhoto(await redSquarePhoto({ width: 200, height: 200 })))
    expect(subject.isSeparated).toBe(true)
    const image = await decodePixels(
      await composeOnBackdrop(whiteStudio({ width: 1080, height: 1080, isTall: false }), subject),
    )
    const y = Math.round(image.height / 2)
    const green = (x: number) => image.data[(y * image.width + x) * 3 + 1] as number
    // Across the left edge of the square, the green channel falls from 255 (white) to about 28 (red).
    const inside = green(Math.round(image.width / 2))
    const high = 255 - (255 - inside) * 0.1
    const low = inside + (255 - inside) * 0.1
    let transition = 0
    for (let x = 0; x < image.width / 2; x++) {
      const g = green(x)
      if (g < high && g > low) transition++
    }
    expect(inside).toBeLessThan(80)
    expect(transition).toBeLessThanOrEqual(6)
  })
})

describe('placeSubject on the scenes seen from the front', () => {
  it('stands a tall thin product (a pen, a bottle) well over half a tall frame, as tall as a square one is wide', () => {
    for (const ratio of ['2:3', '9:16'] as const) {
      const frame = frameFor(ratio)
      for (const { id } of productScenes) {
        const stage = productSceneStage(id, ratio, 'front')
        const thin = placeSubject({ stage }, { width: 100, height: 600, isSeparated: true })
        const square = placeSubject({ stage }, { width: 500, height: 500, isSeparated: true })
        const where = `${id} at ${ratio}`
        expect(thin.height / frame.height, where).toBeGreaterThanOrEqual(0.6)
        // Its longer side takes at least the share of the frame a square product's does.
        expect(thin.height / frame.height, where).toBeGreaterThanOrEqual(square.width / frame.width - 0.2)
        // And it stays inside the frame, with room above it.
        expect(thin.top / frame.height, where).toBeGreaterThanOrEqual(0.05)
      }
    }
  })
})
