import sharp from 'sharp'
import { colourReferences } from '#server/providers/offline-studio/dominant-colour.ts'
import type { Segmentation } from '#server/segmentation/segmenter.ts'
import { foldHeader } from '#shared/catalogue/columns.ts'
import { ciede2000, type Lab, srgbToLab } from '#shared/colour/ciede2000.ts'
import type { MarketplaceAttributeValue } from '#shared/contracts/publishing.ts'

// The product's colour for a marketplace's colour attribute (issue 30): the pixels inside the
// segmenter's product mask, its soft edge left out, clustered in CIELAB; the largest colour is
// the product's, and no colour holding most of the product means a many-coloured one. The
// colour is then named with the attribute's own allowed values: only names this module knows a
// colour for take part, the nearest by CIEDE2000 wins, and an allowed name it does not know is
// never guessed at.

/** The segmenter's mask (0–255 a pixel, inside at ≥ 128), at any size: the image is scaled to it. */
export type ProductMask = Pick<Segmentation, 'alpha' | 'width' | 'height'>

/**
 * One colour of the product: its share of the product's pixels and what it looks like (CIELAB
 * and sRGB), the mean of its main part: a colour's lit side, not its lit and shaded sides mixed.
 */
export type ColourCluster = { lab: Lab; rgb: [number, number, number]; share: number }

export type ProductColour = {
  /** Largest first; the shares add up to 1. */
  clusters: ColourCluster[]
  /** Whether no single colour holds `manyColoured.maxShare` of the product. */
  isManyColoured: boolean
}

export const productColourTuning = {
  /** Clusters median cut makes before k-means refines them. */
  clusters: 6,
  kMeansRounds: 8,
  /** At most this many pixels are clustered (evenly spread); plenty for a few colours. */
  maxSamples: 40_000,
  /** Pixels this close to the mask's edge (a share of the mask's long side, at least 1) are left out. */
  edgeShare: 0.01,
  /** Clusters whose means are closer than this (ΔE00) are one colour. */
  mergeDistance: 12,
  /**
   * Coloured clusters (chroma at least `minChroma`) whose hues are closer than this (degrees) are
   * one colour in light and shade: shade darkens a colour and dulls it, but keeps its hue. The
   * coffee cup's lit red and shaded red differ by 9°, its red and the coffee's brown by 21°.
   */
  mergeHue: 12,
  minChroma: 8,
  /** Fewer product pixels than this and there is no colour to tell. */
  minPixels: 200,
} as const

/** A product is many-coloured when no colour holds this share of it. */
export const manyColoured = { maxShare: 0.55 } as const

/** How a colour name takes part in naming a photo's colour. */
type ColourKind =
  /** A plain colour: chosen by its references. */
  | 'colour'
  /** A metal's shine (altın, gümüş, bronz): flat pixels cannot tell it from sarı or gri. */
  | 'finish'
  /** "Çok Renkli": chosen when no colour holds most of the product. */
  | 'many'
  /** "Şeffaf": a clear product shows what is behind it; pixels cannot say it. */
  | 'clear'

type ColourName = { name: string; aliases: readonly string[]; kind: ColourKind; references: readonly Lab[] }

type Rgb = readonly [number, number, number]

function entry(
  name: string,
  kind: ColourKind,
  rgb: readonly Rgb[],
  aliases: readonly string[] = [],
): ColourName {
  return { name, aliases, kind, references: rgb.map((value) => srgbToLab(value)) }
}

// The sixteen names the copy's colour (offline-studio/dominant-colour.ts) already uses keep its
// references, so the copy and the attribute name the same photo alike; the rest are the names
// Turkish marketplaces list, each with what that name looks like in a product photo.
const references = (name: keyof typeof colourReferences) => colourReferences[name]

/** Turkish colour names marketplaces list, each with its reference colours. */
export const colourNames: readonly ColourName[] = [
  entry('Siyah', 'colour', references('siyah'), ['black']),
  entry('Beyaz', 'colour', references('beyaz'), ['white']),
  entry('Gri', 'colour', references('gri'), ['grey', 'gray']),
  entry('Antrasit', 'colour', [
    [55, 58, 62],
    [45, 48, 52],
  ]),
  entry('Füme', 'colour', [[75, 75, 80]]),
  entry('Kırmızı', 'colour', references('kırmızı'), ['red']),
  entry('Bordo', 'colour', references('bordo')),
  entry('Pembe', 'colour', references('pembe'), ['pink']),
  entry('Pudra', 'colour', [
    [240, 200, 200],
    [230, 190, 185],
  ]),
  entry('Fuşya', 'colour', [
    [230, 30, 140],
    [255, 0, 144],
  ]),
  entry('Somon', 'colour', [
    [250, 128, 114],
    [240, 150, 130],
  ]),
  entry('Mercan', 'colour', [
    [255, 127, 80],
    [240, 110, 90],
  ]),
  entry('Turuncu', 'colour', references('turuncu'), ['orange']),
  entry('Sarı', 'colour', references('sarı'), ['yellow']),
  entry('Hardal', 'colour', [
    [200, 160, 30],
    [190, 150, 40],
  ]),
  entry('Bej', 'colour', references('bej'), ['beige']),
  entry('Krem', 'colour', [
    [248, 240, 205],
    [240, 230, 200],
  ]),
  entry('Ekru', 'colour', [[235, 225, 205]]),
  entry('Vizon', 'colour', [
    [150, 130, 115],
    [165, 145, 130],
  ]),
  entry('Kahverengi', 'colour', references('kahverengi'), ['kahve', 'brown']),
  entry('Taba', 'colour', [
    [160, 90, 45],
    [150, 85, 40],
  ]),
  entry('Haki', 'colour', references('haki'), ['khaki']),
  entry('Yeşil', 'colour', references('yeşil'), ['green']),
  entry('Mint', 'colour', [
    [170, 230, 200],
    [150, 220, 190],
  ]),
  entry('Turkuaz', 'colour', references('turkuaz'), ['turquoise']),
  entry('Petrol', 'colour', [
    [0, 90, 100],
    [20, 80, 95],
  ]),
  entry('Mavi', 'colour', references('mavi'), ['blue']),
  entry('Lacivert', 'colour', references('lacivert'), ['navy']),
  entry('İndigo', 'colour', [
    [50, 45, 120],
    [45, 60, 110],
  ]),
  entry('Mor', 'colour', references('mor'), ['purple']),
  entry('Lila', 'colour', [
    [200, 162, 200],
    [190, 160, 220],
  ]),
  entry('Altın', 'finish', [[212, 175, 55]], ['gold']),
  entry('Gümüş', 'finish', [[192, 192, 192]], ['silver']),
  entry('Bronz', 'finish', [[205, 127, 50]], ['bronze']),
  entry('Çok Renkli', 'many', [], ['cok renk', 'karisik', 'multicolor', 'multi color', 'renkli']),
  entry('Şeffaf', 'clear', [], ['transparent']),
]

const namesByFold = new Map<string, ColourName>()
for (const colour of colourNames) {
  for (const alias of [colour.name, ...colour.aliases]) namesByFold.set(foldHeader(alias), colour)
}

/** The colour name an allowed value stands for, by its Turkish-folded name; undefined when unknown. */
export function knownColourName(value: string): ColourName | undefined {
  return namesByFold.get(foldHeader(value))
}

/** sRGB pixels of the image at the mask's size, and which of them lie well inside the product. */
async function productPixels(image: Buffer, mask: ProductMask) {
  const { width, height, alpha } = mask
  const rgb = await sharp(image, { failOn: 'error' })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width, height, fit: 'fill' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer()
  // Inside, then eroded: the mask's soft edge mixes the product with the backdrop, and a colour
  // made of both is neither's.
  let inside = new Uint8Array(width * height)
  for (let i = 0; i < inside.length; i++) inside[i] = (alpha[i] as number) >= 128 ? 1 : 0
  const rounds = Math.max(1, Math.round(Math.max(width, height) * productColourTuning.edgeShare))
  for (let round = 0; round < rounds; round++) {
    const next = new Uint8Array(inside.length)
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        const i = y * width + x
        next[i] =
          inside[i] && inside[i - 1] && inside[i + 1] && inside[i - width] && inside[i + width] ? 1 : 0
      }
    }
    inside = next
  }
  return { rgb, inside }
}

type Sample = { lab: Lab; rgb: Rgb }

/** Median cut in CIELAB: the box with the widest spread is halved at its median, until `count` boxes. */
function medianCut(samples: Sample[], count: number): Lab[] {
  const boxes: Sample[][] = [samples]
  const spread = (box: Sample[]) => {
    let best = { axis: 0, range: -1 }
    for (let axis = 0; axis < 3; axis++) {
      let low = Number.POSITIVE_INFINITY
      let high = Number.NEGATIVE_INFINITY
      for (const sample of box) {
        const value = sample.lab[axis] as number
        if (value < low) low = value
        if (value > high) high = value
      }
      if (high - low > best.range) best = { axis, range: high - low }
    }
    return best
  }
  while (boxes.length < count) {
    let widest = -1
    let widestRange = 0
    let widestAxis = 0
    for (const [index, box] of boxes.entries()) {
      if (box.length < 2) continue
      const { axis, range } = spread(box)
      if (range > widestRange) {
        widest = index
        widestRange = range
        widestAxis = axis
      }
    }
    if (widest < 0) break
    const box = (boxes[widest] as Sample[]).sort(
      (a, b) => (a.lab[widestAxis] as number) - (b.lab[widestAxis] as number),
    )
    const middle = box.length >> 1
    boxes.splice(widest, 1, box.slice(0, middle), box.slice(middle))
  }
  return boxes.map(meanLab)
}

function meanLab(box: readonly Sample[]): Lab {
  let l = 0
  let a = 0
  let b = 0
  for (const sample of box) {
    l += sample.lab[0]
    a += sample.lab[1]
    b += sample.lab[2]
  }
  const n = Math.max(1, box.length)
  return [l / n, a / n, b / n]
}

const squared = (x: Lab, y: Lab) => (x[0] - y[0]) ** 2 + (x[1] - y[1]) ** 2 + (x[2] - y[2]) ** 2

type Group = {
  labSum: [number, number, number]
  rgbSum: [number, number, number]
  count: number
  /** The cluster joined into this one that it is named by (see mainScore). */
  main: { lab: Lab; rgb: [number, number, number]; count: number }
}

function groupOf(samples: readonly Sample[]): Group {
  const group: Group = {
    labSum: [0, 0, 0],
    rgbSum: [0, 0, 0],
    count: 0,
    main: { lab: [0, 0, 0], rgb: [0, 0, 0], count: 0 },
  }
  for (const sample of samples) addSample(group, sample)
  group.main = {
    lab: groupLab(group),
    rgb: group.rgbSum.map((sum) => Math.round(sum / group.count)) as [number, number, number],
    count: group.count,
  }
  return group
}

/**
 * Which joined cluster names the colour: the larger and the more saturated, since shade and
 * glare both dull a colour (the lit side of a red cup is redder than its shaded side).
 */
const mainScore = (main: Group['main']) => main.count * Math.max(1, hueOf(main.lab).chroma)

function hueOf(lab: Lab) {
  const degrees = (Math.atan2(lab[2], lab[1]) * 180) / Math.PI
  return { chroma: Math.hypot(lab[1], lab[2]), hue: degrees < 0 ? degrees + 360 : degrees }
}

/** Whether two clusters are one colour: near alike, or coloured with the same hue. */
function isSameColour(first: Lab, second: Lab): number | null {
  const distance = ciede2000(first, second)
  if (distance < productColourTuning.mergeDistance) return distance
  const a = hueOf(first)
  const b = hueOf(second)
  if (a.chroma < productColourTuning.minChroma || b.chroma < productColourTuning.minChroma) return null
  const apart = Math.min(Math.abs(a.hue - b.hue), 360 - Math.abs(a.hue - b.hue))
  return apart < productColourTuning.mergeHue ? distance : null
}

function addSample(group: Group, sample: Sample) {
  for (let c = 0; c < 3; c++) {
    group.labSum[c] = (group.labSum[c] as number) + (sample.lab[c] as number)
    group.rgbSum[c] = (group.rgbSum[c] as number) + (sample.rgb[c] as number)
  }
  group.count++
}

const groupLab = (group: Group): Lab => [
  group.labSum[0] / group.count,
  group.labSum[1] / group.count,
  group.labSum[2] / group.count,
]

/**
 * The colours of a set of sRGB pixels: median cut, refined by k-means, then clusters closer
 * than `mergeDistance` joined (one colour's lit and shaded sides). Largest first.
 */
export function clusterColours(pixels: readonly Rgb[]): ProductColour | null {
  if (pixels.length < productColourTuning.minPixels) return null
  // Exact colours repeat in photos and more so in flat pictures: convert each once.
  const labs = new Map<number, Lab>()
  const samples: Sample[] = pixels.map((rgb) => {
    const key = (rgb[0] << 16) | (rgb[1] << 8) | rgb[2]
    let lab = labs.get(key)
    if (!lab) {
      lab = srgbToLab(rgb)
      labs.set(key, lab)
    }
    return { lab, rgb }
  })
  let centres = medianCut([...samples], productColourTuning.clusters)
  let members: Sample[][] = []
  for (let round = 0; round < productColourTuning.kMeansRounds; round++) {
    members = centres.map(() => [])
    for (const sample of samples) {
      let best = 0
      let bestDistance = Number.POSITIVE_INFINITY
      for (const [index, centre] of centres.entries()) {
        const distance = squared(sample.lab, centre)
        if (distance < bestDistance) {
          bestDistance = distance
          best = index
        }
      }
      ;(members[best] as Sample[]).push(sample)
    }
    members = members.filter((group) => group.length > 0)
    centres = members.map(meanLab)
  }
  const groups = members.map(groupOf)
  // Join the nearest pair that is one colour, until none is left.
  for (;;) {
    let pair: [number, number] | null = null
    let nearest = Number.POSITIVE_INFINITY
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        const distance = isSameColour((groups[i] as Group).main.lab, (groups[j] as Group).main.lab)
        if (distance !== null && distance < nearest) {
          nearest = distance
          pair = [i, j]
        }
      }
    }
    if (!pair) break
    const [i, j] = pair
    const into = groups[i] as Group
    const from = groups[j] as Group
    for (let c = 0; c < 3; c++) {
      into.labSum[c] = (into.labSum[c] as number) + (from.labSum[c] as number)
      into.rgbSum[c] = (into.rgbSum[c] as number) + (from.rgbSum[c] as number)
    }
    into.count += from.count
    if (mainScore(from.main) > mainScore(into.main)) into.main = from.main
    groups.splice(j, 1)
  }
  const total = samples.length
  const clusters = groups
    .map(
      (group): ColourCluster => ({
        lab: group.main.lab,
        rgb: group.main.rgb,
        share: group.count / total,
      }),
    )
    .sort((a, b) => b.share - a.share)
  return { clusters, isManyColoured: (clusters[0]?.share ?? 0) < manyColoured.maxShare }
}

/**
 * The product's colours from a photo and the segmenter's mask for it. Null when the mask, its
 * soft edge left out, holds too few pixels to tell.
 */
export async function productColour(image: Buffer, mask: ProductMask): Promise<ProductColour | null> {
  const { rgb, inside } = await productPixels(image, mask)
  let count = 0
  for (const value of inside) count += value
  const step = Math.max(1, Math.ceil(count / productColourTuning.maxSamples))
  const pixels: Rgb[] = []
  let seen = 0
  for (let i = 0; i < inside.length; i++) {
    if (!inside[i]) continue
    if (seen++ % step !== 0) continue
    pixels.push([rgb[i * 3] as number, rgb[i * 3 + 1] as number, rgb[i * 3 + 2] as number])
  }
  return clusterColours(pixels)
}

export const colourChoice = {
  /** Farther than this (ΔE00) from every allowed colour, the product's colour is none of them. */
  maxDistance: 20,
} as const

/** An allowed value chosen for the photo's colour, with the share of the product it covers. */
export type ColourChoice = { value: MarketplaceAttributeValue; share: number }

/**
 * The allowed value that names the product's colour. Each colour cluster goes to its nearest
 * known allowed name (ΔE00) and the name covering most of the product wins; a many-coloured
 * product is "Çok Renkli" when that is allowed. `among`: only these allowed values may be
 * chosen (the colours the seller's own words name). Null when no allowed name is known or
 * none is near enough: an allowed list without the product's colour is not forced onto it.
 */
export function chooseColourValue(
  colour: ProductColour,
  values: readonly MarketplaceAttributeValue[],
  among?: readonly MarketplaceAttributeValue[],
): ColourChoice | null {
  const allowed = among ? values.filter((value) => among.some((other) => other.id === value.id)) : values
  const known = allowed.flatMap((value) => {
    const name = knownColourName(value.name)
    return name ? [{ value, name }] : []
  })
  if (colour.isManyColoured) {
    const many = known.find((candidate) => candidate.name.kind === 'many')
    if (many) return { value: many.value, share: 1 - (colour.clusters[0]?.share ?? 0) }
  }
  const plain = known.filter((candidate) => candidate.name.kind === 'colour')
  if (plain.length === 0) return null
  const shares = new Map<MarketplaceAttributeValue, number>()
  let largestNamed = false
  for (const [index, cluster] of colour.clusters.entries()) {
    let best: MarketplaceAttributeValue | null = null
    let bestDistance: number = colourChoice.maxDistance
    for (const candidate of plain) {
      for (const reference of candidate.name.references) {
        const distance = ciede2000(cluster.lab, reference)
        if (distance < bestDistance) {
          bestDistance = distance
          best = candidate.value
        }
      }
    }
    if (!best) continue
    if (index === 0) largestNamed = true
    shares.set(best, (shares.get(best) ?? 0) + cluster.share)
  }
  // The product's largest colour must be among the allowed ones; otherwise a minor part's colour
  // (a white label on a red bottle) would stand in for it.
  if (!largestNamed) return null
  let choice: ColourChoice | null = null
  for (const [value, share] of shares) if (!choice || share > choice.share) choice = { value, share }
  return choice
}
