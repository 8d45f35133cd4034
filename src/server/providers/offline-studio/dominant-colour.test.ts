import { readFile } from 'node:fs/promises'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { ciede2000, srgbToLab } from '#shared/colour/ciede2000.ts'
import { colourWords } from '#shared/seo-facts.ts'
import { colourReferences, findDominantColour, nameColour, type TurkishColour } from './dominant-colour.ts'
import { createOfflineStudio } from './index.ts'
import { testContext } from './measure.ts'

const photo = (name: string) =>
  readFile(new URL(`../../../../tests/fixtures/photos/${name}`, import.meta.url))

describe('Turkish colour names by CIEDE2000', () => {
  it('names only colours the facts check knows, each with at least one reference', () => {
    for (const [name, references] of Object.entries(colourReferences)) {
      expect(colourWords).toContain(name)
      expect(references.length).toBeGreaterThan(0)
    }
  })

  it('keeps the names apart: no reference is nearer another name’s reference than the eye can tell', () => {
    const all = Object.entries(colourReferences).flatMap(([name, refs]) =>
      refs.map((rgb) => ({ name, lab: srgbToLab(rgb) })),
    )
    for (const first of all) {
      for (const second of all) {
        if (first.name === second.name) continue
        // 2.3 is one just-noticeable difference; references this close would flip at random.
        expect(ciede2000(first.lab, second.lab)).toBeGreaterThan(2.3)
      }
    }
  })

  it.each([
    // The coffee cup's glazed red and a faded flag red are red, not brown or orange.
    [[166, 44, 16], 'kırmızı'],
    [[150, 38, 30], 'kırmızı'],
    [[235, 50, 45], 'kırmızı'],
    [[80, 12, 25], 'bordo'],
    [[120, 75, 45], 'kahverengi'],
    [[233, 147, 55], 'turuncu'],
    [[18, 28, 62], 'lacivert'],
    [[60, 140, 210], 'mavi'],
    [[45, 185, 180], 'turkuaz'],
    [[110, 110, 58], 'haki'],
    [[245, 245, 240], 'beyaz'],
    [[60, 60, 62], 'gri'],
  ] as [[number, number, number], TurkishColour][])('names %j %s', (rgb, name) => {
    expect(nameColour(rgb)).toBe(name)
  })
})

describe('the colour of the product in a real photo', () => {
  it('reads the red coffee cup on a wooden table as kırmızı, from the product mask', async () => {
    const coffee = await photo('coffee.png')
    const colour = await findDominantColour(coffee, sharedSegmenter())
    expect(colour.name).toBe('kırmızı')
    expect(nameColour(colour.rgb)).toBe('kırmızı')
  })

  it('counts the product, not the table: the same photo with the cup covered is not red', async () => {
    // The wooden table alone (the cup and saucer painted over in the table's own brown) reads as
    // the wood, so the red above came from the cup.
    const coffee = await photo('coffee.png')
    const tableOnly = await sharp(coffee)
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><ellipse cx="280" cy="230" rx="215" ry="165" fill="rgb(176,85,36)"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer()
    const colour = await findDominantColour(tableOnly, sharedSegmenter())
    expect(colour.name).not.toBe('kırmızı')
  })
})

describe('the offline studio marks a colour read from the photo as a guess', () => {
  const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg', segmenter: sharedSegmenter() })

  it('names the colour it read when the seller gave none', async () => {
    const image = { bytes: await photo('coffee.png'), mime: 'image/png' as const }
    const copy = await studio.writeSeo({ image, details: { name: 'Espresso Fincanı' } }, testContext())
    expect(copy.colourFromPhoto).toBe('kırmızı')
  })

  it('marks nothing when the seller gave the colour', async () => {
    const image = { bytes: await photo('coffee.png'), mime: 'image/png' as const }
    const copy = await studio.writeSeo(
      { image, details: { name: 'Espresso Fincanı', color: 'Bordo' } },
      testContext(),
    )
    expect(copy).not.toHaveProperty('colourFromPhoto')
  })
})
