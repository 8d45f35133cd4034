// Colour difference as people see it: sRGB to CIELAB (D65) and the CIEDE2000 difference
// (Sharma, Wu and Dalal, "The CIEDE2000 colour-difference formula: implementation notes,
// supplementary test data, and mathematical observations", Color Res. Appl. 30(1), 2005).
// Plain RGB distance calls a dark red closer to brown than to red; CIEDE2000 does not.

export type Lab = readonly [l: number, a: number, b: number]

/** D65 reference white, CIE 1931 2° observer (X, Y, Z with Y = 100). */
const white = [95.047, 100, 108.883] as const

function linear(channel: number): number {
  const c = channel / 255
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
}

function labF(t: number): number {
  const epsilon = 216 / 24389
  const kappa = 24389 / 27
  return t > epsilon ? Math.cbrt(t) : (kappa * t + 16) / 116
}

/** An sRGB colour (0–255 per channel) in CIELAB under D65. */
export function srgbToLab([r, g, b]: readonly [number, number, number]): Lab {
  const lr = linear(r)
  const lg = linear(g)
  const lb = linear(b)
  const x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) * 100
  const y = (0.2126729 * lr + 0.7151522 * lg + 0.072175 * lb) * 100
  const z = (0.0193339 * lr + 0.119192 * lg + 0.9503041 * lb) * 100
  const fx = labF(x / white[0])
  const fy = labF(y / white[1])
  const fz = labF(z / white[2])
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)]
}

const toRadians = Math.PI / 180
const toDegrees = 180 / Math.PI
const pow25to7 = 25 ** 7

/** Hue angle in degrees, 0–360; 0 for a neutral (a = b = 0), as the paper defines it. */
function hueAngle(b: number, a: number): number {
  if (a === 0 && b === 0) return 0
  const h = Math.atan2(b, a) * toDegrees
  return h < 0 ? h + 360 : h
}

/** CIEDE2000 ΔE00 between two CIELAB colours (kL = kC = kH = 1). */
export function ciede2000(first: Lab, second: Lab): number {
  const [l1, a1, b1] = first
  const [l2, a2, b2] = second
  const c1 = Math.hypot(a1, b1)
  const c2 = Math.hypot(a2, b2)
  const cMean = (c1 + c2) / 2
  const cMean7 = cMean ** 7
  const g = 0.5 * (1 - Math.sqrt(cMean7 / (cMean7 + pow25to7)))
  const a1p = (1 + g) * a1
  const a2p = (1 + g) * a2
  const c1p = Math.hypot(a1p, b1)
  const c2p = Math.hypot(a2p, b2)
  const h1p = hueAngle(b1, a1p)
  const h2p = hueAngle(b2, a2p)

  const deltaLp = l2 - l1
  const deltaCp = c2p - c1p
  let deltahp = 0
  if (c1p * c2p !== 0) {
    deltahp = h2p - h1p
    if (deltahp > 180) deltahp -= 360
    else if (deltahp < -180) deltahp += 360
  }
  const deltaHp = 2 * Math.sqrt(c1p * c2p) * Math.sin((deltahp / 2) * toRadians)

  const lMeanp = (l1 + l2) / 2
  const cMeanp = (c1p + c2p) / 2
  let hMeanp = h1p + h2p
  if (c1p * c2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hMeanp = (h1p + h2p) / 2
    else if (h1p + h2p < 360) hMeanp = (h1p + h2p + 360) / 2
    else hMeanp = (h1p + h2p - 360) / 2
  }
  const t =
    1 -
    0.17 * Math.cos((hMeanp - 30) * toRadians) +
    0.24 * Math.cos(2 * hMeanp * toRadians) +
    0.32 * Math.cos((3 * hMeanp + 6) * toRadians) -
    0.2 * Math.cos((4 * hMeanp - 63) * toRadians)
  const deltaTheta = 30 * Math.exp(-(((hMeanp - 275) / 25) ** 2))
  const cMeanp7 = cMeanp ** 7
  const rc = 2 * Math.sqrt(cMeanp7 / (cMeanp7 + pow25to7))
  const lShift = (lMeanp - 50) ** 2
  const sl = 1 + (0.015 * lShift) / Math.sqrt(20 + lShift)
  const sc = 1 + 0.045 * cMeanp
  const sh = 1 + 0.015 * cMeanp * t
  const rt = -Math.sin(2 * deltaTheta * toRadians) * rc
  const dl = deltaLp / sl
  const dc = deltaCp / sc
  const dh = deltaHp / sh
  return Math.sqrt(dl * dl + dc * dc + dh * dh + rt * dc * dh)
}
