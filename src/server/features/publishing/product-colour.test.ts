import { readFile } from 'node:fs/promises'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { MarketplaceAttributeValue } from '#shared/contracts/publishing.ts'
import { trendyolCategoryAttributes } from '#tests/fakes/trendyol-catalog.ts'
import {
  chooseColourValue,
  clusterColours,
  colourNames,
  knownColourName,
  type ProductColour,
  type ProductMask,
  productColour,
} from './product-colour.ts'

const photo = (name: string) =>
  readFile(new URL(`../../../../tests/fixtures/photos/${name}`, import.meta.url))

const allowed = (...names: string[]): MarketplaceAttributeValue[] =>
  names.map((name, index) => ({ id: `v${index}`, name }))

// Trendyol's colour list as the fake serves it, for its cup-set category.
const trendyolColours: MarketplaceAttributeValue[] = (
  trendyolCategoryAttributes.get(1111)?.find((a) => a.attribute.name === 'Renk')?.attributeValues ?? []
).map((value) => ({ id: String(value.id), name: value.name }))

const nameOf = (colour: ProductColour | null, values: MarketplaceAttributeValue[]) =>
  colour ? chooseColourValue(colour, values)?.value.name : undefined

/** The segmenter's mask for a photo, at the size the marketplace check measures at. */
async function segment(bytes: Buffer): Promise<ProductMask> {
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize({ width: 640, height: 640, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const segmentation = await sharedSegmenter().segment({
    data,
    width: info.width,
    height: info.height,
    channels: 3,
  })
  return { alpha: segmentation.alpha, width: info.width, height: info.height }
}

type Rgb = [number, number, number]

/**
 * A synthetic product photo: `backdrop` everywhere, the product's colours as vertical stripes
 * (each with its share of the product's width) in a centred square, and the mask over the square
 * (`maskGrow` pixels wider on each side, at `edgeAlpha`, as a soft edge spilling onto the backdrop).
 */
async function picture(
  backdrop: Rgb,
  stripes: { rgb: Rgb; share: number }[],
  options: { maskGrow?: number; edgeAlpha?: number } = {},
) {
  const size = 200
  const from = 50
  const to = 150
  const rgb = Buffer.alloc(size * size * 3)
  const alpha = new Uint8Array(size * size)
  const grow = options.maskGrow ?? 0
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const i = y * size + x
      let colour = backdrop
      if (x >= from && x < to && y >= from && y < to) {
        let edge = from
        for (const stripe of stripes) {
          edge += stripe.share * (to - from)
          if (x < edge) {
            colour = stripe.rgb
            break
          }
        }
        alpha[i] = 255
      } else if (x >= from - grow && x < to + grow && y >= from - grow && y < to + grow) {
        alpha[i] = options.edgeAlpha ?? 255
      }
      rgb.set(colour, i * 3)
    }
  }
  const image = await sharp(rgb, { raw: { width: size, height: size, channels: 3 } })
    .png()
    .toBuffer()
  return { image, mask: { alpha, width: size, height: size } }
}

describe('the colour of the product in a real photo', () => {
  it('reads the glazed red cup and saucer on a wooden table as Kırmızı, one colour', async () => {
    const coffee = await photo('coffee.png')
    const colour = await productColour(coffee, await segment(coffee))
    expect(colour?.isManyColoured).toBe(false)
    expect(colour?.clusters[0]?.share).toBeGreaterThanOrEqual(0.55)
    expect(nameOf(colour, trendyolColours)).toBe('Kırmızı')
  })

  it('takes the colour from inside the mask: the same photo with the mask turned inside out is the table’s wood', async () => {
    // The lit wood is an orange brown (sRGB ≈ 193, 105, 52): Kahverengi or Turuncu, never the cup's red.
    const coffee = await photo('coffee.png')
    const mask = await segment(coffee)
    const outside = { ...mask, alpha: mask.alpha.map((value) => 255 - value) }
    const colour = await productColour(coffee, outside)
    expect(['Kahverengi', 'Turuncu']).toContain(nameOf(colour, trendyolColours))
  })

  it('reads the white rocket under the launch pad’s warm lights as one light colour, and as Beyaz where no beige is allowed', async () => {
    // A seller says "beyaz"; the sodium lights make the rocket's white read warm (CIELAB b* ≈ 23),
    // so with Bej and Krem allowed it is named among the light warm neutrals.
    const rocket = await photo('rocket.jpg')
    const colour = await productColour(rocket, await segment(rocket))
    expect(colour?.isManyColoured).toBe(false)
    expect(['Beyaz', 'Krem', 'Bej']).toContain(nameOf(colour, trendyolColours))
    expect(nameOf(colour, allowed('Siyah', 'Gri', 'Beyaz', 'Mavi', 'Kırmızı'))).toBe('Beyaz')
  })
})

describe('synthetic products of known colours', () => {
  it('names black, navy and blue apart when the list allows all three', async () => {
    const list = allowed('Siyah', 'Lacivert', 'Mavi', 'Beyaz')
    for (const [rgb, name] of [
      [[15, 15, 18], 'Siyah'],
      [[22, 32, 72], 'Lacivert'],
      [[40, 110, 220], 'Mavi'],
    ] as [Rgb, string][]) {
      const { image, mask } = await picture([250, 250, 250], [{ rgb, share: 1 }])
      const colour = await productColour(image, mask)
      expect(nameOf(colour, list), name).toBe(name)
    }
  })

  it('names a white product on a white backdrop Beyaz from its mask', async () => {
    const { image, mask } = await picture([255, 255, 255], [{ rgb: [246, 246, 244], share: 1 }])
    const colour = await productColour(image, mask)
    expect(nameOf(colour, trendyolColours)).toBe('Beyaz')
  })

  it('leaves the mask’s soft edge out: a backdrop ring inside the mask is not a colour of the product', async () => {
    const { image, mask } = await picture([30, 90, 220], [{ rgb: [210, 30, 30], share: 1 }], {
      maskGrow: 2,
      edgeAlpha: 200,
    })
    const colour = await productColour(image, mask)
    expect(colour?.clusters).toHaveLength(1)
    expect(colour?.clusters[0]?.share).toBe(1)
  })

  it('calls a product with no colour over 55 % many-coloured: Çok Renkli where allowed, else its largest colour', async () => {
    const { image, mask } = await picture(
      [255, 255, 255],
      [
        { rgb: [210, 30, 30], share: 0.4 },
        { rgb: [40, 150, 70], share: 0.2 },
        { rgb: [40, 110, 220], share: 0.2 },
        { rgb: [240, 200, 40], share: 0.2 },
      ],
    )
    const colour = await productColour(image, mask)
    expect(colour?.isManyColoured).toBe(true)
    expect(nameOf(colour, trendyolColours)).toBe('Çok Renkli')
    expect(nameOf(colour, allowed('Kırmızı', 'Yeşil', 'Mavi', 'Sarı'))).toBe('Kırmızı')
  })

  it('takes a colour’s lit and shaded sides as one colour, but red and orange as two', async () => {
    const shaded = await picture(
      [255, 255, 255],
      [
        { rgb: [200, 30, 35], share: 0.5 },
        { rgb: [90, 14, 18], share: 0.5 },
      ],
    )
    const oneColour = await productColour(shaded.image, shaded.mask)
    expect(oneColour?.isManyColoured).toBe(false)
    expect(nameOf(oneColour, trendyolColours)).toBe('Kırmızı')
    const twoTone = await picture(
      [255, 255, 255],
      [
        { rgb: [200, 30, 35], share: 0.5 },
        { rgb: [240, 130, 30], share: 0.5 },
      ],
    )
    expect((await productColour(twoTone.image, twoTone.mask))?.isManyColoured).toBe(true)
  })

  it('keeps a two-tone product one colour when one tone holds most of it', async () => {
    const { image, mask } = await picture(
      [255, 255, 255],
      [
        { rgb: [20, 20, 22], share: 0.7 },
        { rgb: [250, 250, 248], share: 0.3 },
      ],
    )
    const colour = await productColour(image, mask)
    expect(colour?.isManyColoured).toBe(false)
    expect(nameOf(colour, trendyolColours)).toBe('Siyah')
  })

  it('says nothing when the mask holds too few pixels', async () => {
    const { image } = await picture([255, 255, 255], [{ rgb: [210, 30, 30], share: 1 }])
    expect(
      await productColour(image, { alpha: new Uint8Array(200 * 200), width: 200, height: 200 }),
    ).toBeNull()
  })
})

describe('naming a colour with the attribute’s allowed values', () => {
  const flat = (rgb: Rgb) => clusterColours(Array.from({ length: 500 }, () => rgb))
  const choose = (colour: ProductColour | null, values: MarketplaceAttributeValue[]) =>
    colour ? chooseColourValue(colour, values) : undefined
  const red = flat([200, 30, 35])

  it('does not force a colour the list lacks onto the product', () => {
    expect(choose(red, allowed('Siyah', 'Beyaz', 'Mavi', 'Yeşil'))).toBeNull()
  })

  it('skips allowed names it has no colour for instead of guessing', () => {
    expect(choose(red, allowed('Kiremit', 'Nar Çiçeği', 'Mavi'))).toBeNull()
    expect(choose(red, allowed('Kiremit', 'Kırmızı'))?.value.name).toBe('Kırmızı')
  })

  it('matches allowed names by their Turkish-folded spelling', () => {
    expect(choose(red, allowed('SİYAH', 'KIRMIZI'))?.value.name).toBe('KIRMIZI')
    expect(choose(red, allowed('siyah', 'kirmizi'))?.value.name).toBe('kirmizi')
  })

  it('chooses the nearest allowed colour by ΔE: a red is Bordo only where Kırmızı is not allowed', () => {
    expect(choose(red, allowed('Bordo', 'Kırmızı', 'Pembe'))?.value.name).toBe('Kırmızı')
    expect(choose(red, allowed('Bordo', 'Mavi'))?.value.name).toBe('Bordo')
  })

  it('never names a shine or a clear product from pixels (Gümüş, Altın, Şeffaf)', () => {
    const grey = flat([192, 192, 192])
    expect(choose(grey, allowed('Gümüş', 'Şeffaf'))).toBeNull()
    expect(choose(grey, allowed('Gümüş', 'Gri'))?.value.name).toBe('Gri')
  })

  it('knows every listed name by its folded spelling, each plain colour with a reference', () => {
    for (const colour of colourNames) {
      expect(knownColourName(colour.name.toLocaleUpperCase('tr-TR'))).toBe(colour)
      if (colour.kind === 'colour') expect(colour.references.length).toBeGreaterThan(0)
    }
  })
})
