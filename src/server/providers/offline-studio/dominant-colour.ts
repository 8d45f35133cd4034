import { isCredible, type Segmenter } from '#server/segmentation/segmenter.ts'
import { ciede2000, type Lab, srgbToLab } from '#shared/colour/ciede2000.ts'
import { findSubjectMask, loadPhoto } from './separate.ts'

// The product's main colour, for the SEO copy ("siyah deri çanta") when the seller named none.
// Measured on the product itself: the backdrop's flood fill when the backdrop is plain (a red
// mug on white is red, not white), the segmentation model's mask on a busy backdrop (a red cup
// on a wooden table is red, not the table's brown), else the middle of the photo, where
// products sit. Each pixel is named by the nearest Turkish reference colour in CIELAB by
// CIEDE2000, the difference people see, not the distance between RGB numbers.

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

/**
 * What Turkish shoppers call a colour, as sRGB references. A name that covers a range has one
 * reference per part of it: "kırmızı" is the pure red of a flag and the brick red of a glazed
 * coffee cup in warm light; "kahverengi" is milk chocolate and a dark walnut. A pixel takes the
 * name of its nearest reference.
 */
export const colourReferences: Record<TurkishColour, readonly (readonly [number, number, number])[]> = {
  siyah: [
    [20, 20, 22],
    [35, 35, 40],
    [10, 10, 10],
  ],
  beyaz: [
    [250, 250, 248],
    [240, 240, 236],
    [255, 255, 255],
  ],
  gri: [
    [128, 128, 130],
    [90, 90, 95],
    // Charcoal: Turkish listings say "antrasit" or "füme", both greys, never black.
    [68, 68, 72],
    [170, 170, 172],
    [200, 200, 204],
  ],
  kırmızı: [
    [208, 28, 28],
    [230, 30, 40],
    [180, 30, 35],
    // A glazed red cup in warm light: red, though its numbers lean toward orange.
    [165, 45, 20],
    [190, 50, 30],
  ],
  bordo: [
    [110, 20, 40],
    [128, 0, 32],
    [90, 15, 30],
  ],
  pembe: [
    [245, 160, 190],
    [255, 105, 180],
    [230, 120, 150],
    [250, 200, 210],
  ],
  turuncu: [
    [240, 130, 30],
    [255, 140, 0],
    [230, 110, 40],
    [245, 165, 80],
  ],
  kahverengi: [
    [110, 70, 40],
    [140, 90, 50],
    [80, 50, 30],
    [60, 35, 20],
    [160, 110, 70],
  ],
  bej: [
    [222, 205, 175],
    [235, 220, 195],
    [200, 180, 150],
  ],
  sarı: [
    [240, 200, 40],
    [255, 220, 0],
    [250, 230, 110],
  ],
  haki: [
    [120, 120, 60],
    [100, 100, 50],
    [140, 135, 85],
  ],
  yeşil: [
    [40, 150, 70],
    [0, 128, 0],
    [100, 180, 80],
    [30, 90, 50],
    [150, 200, 110],
  ],
  turkuaz: [
    [64, 224, 208],
    [0, 170, 170],
    [30, 180, 190],
  ],
  mavi: [
    [40, 110, 220],
    [30, 144, 255],
    [70, 130, 180],
    [135, 190, 235],
  ],
  lacivert: [
    [31, 47, 92],
    [20, 30, 70],
    [0, 0, 128],
    [25, 35, 60],
  ],
  mor: [
    [130, 60, 160],
    [128, 0, 128],
    [100, 40, 130],
    [160, 110, 200],
  ],
}

const referencesLab: { name: TurkishColour; lab: Lab }[] = Object.entries(colourReferences).flatMap(
  ([name, references]) => references.map((rgb) => ({ name: name as TurkishColour, lab: srgbToLab(rgb) })),
)

/** The Turkish name of the nearest reference colour to a CIELAB colour, by CIEDE2000. */
function nameLab(lab: Lab): TurkishColour {
  let best: TurkishColour = 'gri'
  let bestDifference = Number.POSITIVE_INFINITY
  for (const reference of referencesLab) {
    const difference = ciede2000(lab, reference.lab)
    if (difference < bestDifference) {
      bestDifference = difference
      best = reference.name
    }
  }
  return best
}

/** The Turkish name a shopper would use for an sRGB colour. */
export function nameColour(rgb: readonly [number, number, number]): TurkishColour {
  return nameLab(srgbToLab(rgb))
}

/** A small size is plenty for a colour vote and keeps this step in the tens of milliseconds. */
const sampleSide = 256

/** Where the product is: 255 on it, 0 elsewhere; null when neither the backdrop nor the model says. */
async function productMask(
  photo: Awaited<ReturnType<typeof loadPhoto>>,
  segmenter: Segmenter | undefined,
): Promise<Uint8Array | null> {
  const found = await findSubjectMask(photo)
  if (found.isSeparated) return found.mask
  if (!segmenter) return null
  const segmentation = await segmenter.segment({
    data: photo.data,
    width: photo.width,
    height: photo.height,
    channels: 4,
  })
  if (!isCredible(segmentation)) return null
  return segmentation.alpha.map((alpha) => (alpha >= 128 ? 255 : 0))
}

/**
 * The product's main colour and its Turkish name. `segmenter` finds the product on a busy
 * backdrop; without one (or when it finds nothing believable) the centre of the photo counts.
 */
export async function findDominantColour(bytes: Buffer, segmenter?: Segmenter): Promise<DominantColour> {
  const photo = await loadPhoto(bytes, sampleSide)
  const mask = await productMask(photo, segmenter)
  const { width, height, data } = photo
  // Each pixel votes for the name of its colour. Voting by name rather than by exact colour
  // keeps a shaded product together: the light and dark sides of an amber bottle are both
  // brown, while its flat cream label would win a vote by exact colour. Names are remembered
  // per exact colour: photos repeat colours, and CIEDE2000 to every reference is not free.
  const named = new Map<number, TurkishColour>()
  const votes = new Map<TurkishColour, { weight: number; sum: [number, number, number] }>()
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x
      if ((data[i * 4 + 3] as number) < 128) continue
      let weight: number
      if (mask) {
        if (mask[i] !== 255) continue
        weight = 1
      } else {
        // No mask: trust the centre, fading out toward the edges.
        const dx = ((x + 0.5) / width - 0.5) * 2
        const dy = ((y + 0.5) / height - 0.5) * 2
        weight = 1 - (dx * dx + dy * dy)
        if (weight <= 0) continue
      }
      const r = data[i * 4] as number
      const g = data[i * 4 + 1] as number
      const b = data[i * 4 + 2] as number
      // 5 bits a channel: nearby colours share a name, and the cache stays small.
      const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3)
      let name = named.get(key)
      if (name === undefined) {
        name = nameColour([r, g, b])
        named.set(key, name)
      }
      const vote = votes.get(name) ?? { weight: 0, sum: [0, 0, 0] }
      vote.weight += weight
      vote.sum[0] += r * weight
      vote.sum[1] += g * weight
      vote.sum[2] += b * weight
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
