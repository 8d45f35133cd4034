import { describe, expect, it } from 'vitest'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { thinProductParts, thinProductPhoto } from '#tests/support/test-photos.ts'
import { loadPhoto, type Subject, separateSubject } from './separate.ts'

// Issue 26, point 5: the generated pen's light steel tip and clip are the backdrop's own grey a
// few levels darker (the tip about 24 RGB levels from the backdrop beside it, the clip about 13).
// The flood fill's tolerance took them for backdrop, the model calls them background too, and
// the tip has the backdrop's chromaticity, so it went as a cast shadow.

/** The cut's mean alpha (0–1) over the photo's pixels whose centres `inside` holds. */
function coverage(subject: Subject, inside: (x: number, y: number) => boolean): number {
  let sum = 0
  let count = 0
  for (let y = 0; y < subject.box.photoHeight; y++) {
    for (let x = 0; x < subject.box.photoWidth; x++) {
      if (!inside(x + 0.5, y + 0.5)) continue
      count++
      const cx = x - subject.box.left
      const cy = y - subject.box.top
      if (cx < 0 || cy < 0 || cx >= subject.width || cy >= subject.height) continue
      sum += (subject.data[(cy * subject.width + cx) * 4 + 3] as number) / 255
    }
  }
  expect(count).toBeGreaterThan(100)
  return sum / count
}

describe('thin parts of a product', () => {
  it("keeps a pen's light steel tip and the clip beside its barrel", async () => {
    const subject = await separateSubject(await loadPhoto(await thinProductPhoto()), sharedSegmenter())
    expect(subject.separatedBy).toBe('backdrop')
    expect(subject.box.photoWidth).toBe(900)
    const { cx, tip, clip, barrelRight } = thinProductParts()
    // The tip, a pixel and a half in from its outline (the outline itself is the edge's to place).
    const isTip = (x: number, y: number) => {
      if (y < tip.top + 2 || y > tip.bottom - 4) return false
      const half = ((tip.right - tip.left) / 2) * ((tip.bottom - y) / (tip.bottom - tip.top))
      return Math.abs(x - cx) <= half - 1.5
    }
    // The clip where it stands beside the barrel, over the backdrop: 5 px wide, a pixel in.
    const isClip = (x: number, y: number) =>
      x >= barrelRight + 1 && x <= clip.right - 1 && y >= clip.top + 3 && y <= clip.bottom - 3
    // Before: 0 and 0 (both cut away). The tip is cut whole; the clip, 5 px of a grey 10 levels
    // from the backdrop after JPEG, keeps a soft edge.
    expect(coverage(subject, isTip)).toBeGreaterThan(0.9)
    expect(coverage(subject, isClip)).toBeGreaterThan(0.3)
  }, 60_000)
})
