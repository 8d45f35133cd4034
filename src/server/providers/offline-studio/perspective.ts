import type { SceneView } from '#shared/scenes.ts'
import type { Subject } from './separate.ts'

// Which way the camera looked at the product, read from the cut's outline. A product photographed
// standing on a surface (a bottle, a box, a rocket on its pad) ends in a flat base: the lowest
// row of the outline is straight across most of the product's width, because the camera sees the
// base edge-on or nearly so. A product photographed from above (a cup on its saucer, a plate, a
// flat-laid shirt) has no base in the picture: its lower edge is the far side of a round or
// irregular outline, which curves up from its lowest point toward both sides like an ellipse's.
// So the measure is the shape of the bottom profile (the lowest solid pixel of each column):
// flat across the width → front, curving up → top. Decision 42.

/** The bottom profile's shape, as fractions of the cut's height and width. */
export type OutlineCue = {
  /**
   * How far the bottom rises from the middle of the product to a third of its width out on each
   * side, as a share of its height: 0 for a flat base, 0.12 for a circle (an ellipse's lower edge
   * rises 1 − √(1 − 0.6²) = 0.2 of its half-height 0.6 of the way out).
   */
  sag: number
  /**
   * Share of the product's width whose bottom lies within 2 % of its height of the lowest point:
   * about 0.9 for a standing product's flat base, about 0.3 for a circle.
   */
  flatBase: number
}

/** Alpha from which a subject pixel counts as solid. */
const solid = 128

/** Measures the cut's bottom profile (see OutlineCue); null when the cut is too small to tell. */
export function outlineCue(subject: Pick<Subject, 'data' | 'width' | 'height'>): OutlineCue | null {
  const { data, width, height } = subject
  const bottoms: number[] = []
  for (let x = 0; x < width; x++) {
    let bottom = -1
    for (let y = height - 1; y >= 0; y--) {
      if ((data[(y * width + x) * 4 + 3] as number) >= solid) {
        bottom = y
        break
      }
    }
    if (bottom >= 0) bottoms.push(bottom)
  }
  // A product a few pixels wide (a pencil seen from the side) has no profile to read.
  if (bottoms.length < 8 || height < 8) return null
  const n = bottoms.length
  // Medians over small windows, so a stray speck or a thin spoon handle does not decide.
  const at = (share: number) => {
    const centre = Math.round(share * (n - 1))
    const half = Math.max(1, Math.round(n * 0.04))
    const window = bottoms.slice(Math.max(0, centre - half), Math.min(n, centre + half + 1))
    window.sort((a, b) => a - b)
    return window[Math.floor(window.length / 2)] as number
  }
  const middle = at(0.5)
  const sides = (at(0.2) + at(0.8)) / 2
  const lowest = Math.max(...bottoms)
  const tolerance = height * 0.02
  const flat = bottoms.filter((b) => b >= lowest - tolerance).length
  return { sag: (middle - sides) / height, flatBase: flat / n }
}

/**
 * The view that matches the photo: 'top' when the cut's lower edge curves up from its middle
 * (sag ≥ 0.05) and no flat base runs along it (flatBase < 0.55), else 'front'. A photo kept
 * whole as a card, or a cut too narrow to read, is shown front on, as it always was.
 */
export function viewOf(subject: Pick<Subject, 'data' | 'width' | 'height' | 'isSeparated'>): SceneView {
  if (!subject.isSeparated) return 'front'
  const cue = outlineCue(subject)
  if (!cue) return 'front'
  return cue.sag >= 0.05 && cue.flatBase < 0.55 ? 'top' : 'front'
}
