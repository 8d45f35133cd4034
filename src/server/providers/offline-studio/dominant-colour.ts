import { findSubjectMask, loadPhoto } from './separate.ts'

// The product's main colour, for the SEO copy ("siyah deri çanta"). Measured on the product
// itself when the backdrop separates (a red mug on white is red, not white), otherwise on the
// middle of the photo, where products sit.

export type TurkishColour =
  | 'siyah'
  | 'beyaz'
  | 'gri'
  | 'kırmızı'
  | 'bordo'
  | 'pembe'
  | 'turuncu'
  | 'kahverengi'
  | 'bej'
  | 'sarı'
  | 'haki'
  | 'yeşil'
  | 'turkuaz'
  | 'mavi'
  | 'lacivert'
  | 'mor'

export type DominantColour = { rgb: [number, number, number]; name: TurkishColour }

/** A small size is plenty for a colour vote and keeps this step in the tens of milliseconds. */
const sampleSide = 256

export async function findDominantColour(bytes: Buffer): Promise<DominantColour> {
  const photo = await loadPhoto(bytes, sampleSide)
  const { mask, isSeparated } = await findSubjectMask(photo)
  const { width, height, data } = photo
  // Each pixel votes for the name of its colour. Voting by name rather than by exact colour
  // keeps a shaded product together: the light and dark sides of an amber bottle are both
  // brown, while its flat cream label would win a vote by exact colour.
  const votes = new Map<TurkishColour, { weight: number; sum: [number, number, number] }>()
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x
      if ((data[i * 4 + 3] as number) < 128) continue
      let weight: number
      if (isSeparated) {
        if (mask[i] !== 255) continue
        weight = 1
      } else {
        // No mask: trust the centre, fading out toward the edges.
        const dx = ((x + 0.5) / width - 0.5) * 2
        const dy = ((y + 0.5) / height - 0.5) * 2
        weight = 1 - (dx * dx + dy * dy)
        if (weight <= 0) continue
      }
      const rgb: [number, number, number] = [
        data[i * 4] as number,
        data[i * 4 + 1] as number,
        data[i * 4 + 2] as number,
      ]
      const name = nameColour(rgb)
      const vote = votes.get(name) ?? { weight: 0, sum: [0, 0, 0] }
      vote.weight += weight
      vote.sum[0] += rgb[0] * weight
      vote.sum[1] += rgb[1] * weight
      vote.sum[2] += rgb[2] * weight
      votes.set(name, vote)
    }
  }
  let best: TurkishColour = 'gri'
  let bestWeight = 0
  let bestSum: [number, number, number] = [128, 128, 128]
  for (const [name, vote] of votes) {
    if (vote.weight > bestWeight) {
      best = name
      bestWeight = vote.weight
      bestSum = vote.sum
    }
  }
  const rgb: [number, number, number] =
    bestWeight > 0
      ? [
          Math.round(bestSum[0] / bestWeight),
          Math.round(bestSum[1] / bestWeight),
          Math.round(bestSum[2] / bestWeight),
        ]
      : [128, 128, 128]
  return { rgb, name: best }
}

/** The Turkish name a shopper would use for an sRGB colour. */
export function nameColour([r, g, b]: readonly [number, number, number]): TurkishColour {
  const max = Math.max(r, g, b) / 255
  const min = Math.min(r, g, b) / 255
  const l = (max + min) / 2
  const delta = max - min
  const s = delta === 0 ? 0 : delta / (1 - Math.abs(2 * l - 1))
  let h = 0
  if (delta > 0) {
    const rn = r / 255
    const gn = g / 255
    const bn = b / 255
    if (max === rn) h = 60 * (((gn - bn) / delta + 6) % 6)
    else if (max === gn) h = 60 * ((bn - rn) / delta + 2)
    else h = 60 * ((rn - gn) / delta + 4)
  }
  if (l < 0.12) return 'siyah'
  // Warm, pale and muted is beige before it is grey or orange.
  if (h >= 20 && h < 55 && l >= 0.6 && l < 0.92 && s >= 0.12 && s < 0.65) return 'bej'
  if (s < 0.14 || delta < 0.08) {
    if (l > 0.85) return 'beyaz'
    if (l < 0.2) return 'siyah'
    return 'gri'
  }
  if (l > 0.94) return 'beyaz'
  if (h < 12 || h >= 345) {
    if (l > 0.72) return 'pembe'
    if (l < 0.28) return 'bordo'
    return 'kırmızı'
  }
  if (h < 45) return l < 0.45 || s < 0.4 ? 'kahverengi' : 'turuncu'
  if (h < 70) return l < 0.33 ? 'haki' : 'sarı'
  if (h < 165) return 'yeşil'
  if (h < 195) return 'turkuaz'
  if (h < 255) return l < 0.3 ? 'lacivert' : 'mavi'
  if (h < 290) return l < 0.22 ? 'lacivert' : 'mor'
  return l > 0.55 || (s > 0.6 && l > 0.45) ? 'pembe' : 'mor'
}
