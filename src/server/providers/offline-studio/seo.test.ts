import sharp from 'sharp'
import { beforeAll, describe, expect, it } from 'vitest'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { SeoContent } from '#shared/seo.ts'
import { expectWithinLimits } from '#tests/support/seo-expectations.ts'
import { garmentPhoto, productPhoto, redSquarePhoto } from '#tests/support/test-photos.ts'
import { ProviderError } from '../types.ts'
import { findDominantColour, nameColour } from './dominant-colour.ts'
import { createOfflineStudio } from './index.ts'
import { testContext } from './measure.ts'

const lower = (text: string) => text.toLocaleLowerCase('tr-TR')

function mentions(content: SeoContent, word: string): boolean {
  return lower(`${content.title} ${content.description}`).includes(lower(word))
}

describe('dominant colour', () => {
  it.each([
    [[20, 20, 22], 'siyah'],
    [[250, 250, 248], 'beyaz'],
    [[128, 128, 130], 'gri'],
    [[208, 28, 28], 'kırmızı'],
    [[110, 20, 40], 'bordo'],
    [[31, 47, 92], 'lacivert'],
    [[40, 110, 220], 'mavi'],
    [[40, 150, 70], 'yeşil'],
    [[240, 200, 40], 'sarı'],
    [[240, 130, 30], 'turuncu'],
    [[110, 70, 40], 'kahverengi'],
    [[222, 205, 175], 'bej'],
    [[130, 60, 160], 'mor'],
    [[245, 160, 190], 'pembe'],
  ] as const)('names %j %s', (rgb, name) => {
    expect(nameColour(rgb)).toBe(name)
  })

  it('measures the product, not the backdrop', async () => {
    expect((await findDominantColour(await redSquarePhoto())).name).toBe('kırmızı')
    expect((await findDominantColour(await garmentPhoto())).name).toBe('lacivert')
    expect((await findDominantColour(await garmentPhoto({ colour: '#2f8f46' }))).name).toBe('yeşil')
  })
})

describe('offline studio: writeSeo', () => {
  let photo: Buffer
  beforeAll(async () => {
    photo = await garmentPhoto({ width: 500, height: 600 })
  })

  // The writer itself (categories, facts, the evaluation set) is tested in seo-writer/writer.test.ts.
  it('returns copy within limits, from the offline model, naming the photo colour when the seller gave none', async () => {
    const studio = createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath: 'ffmpeg' })
    const result = await studio.writeSeo(
      { image: { bytes: photo, mime: 'image/jpeg' }, details: { name: 'Basic Tişört', material: 'pamuk' } },
      testContext(),
    )
    expect(result.model).toBe('offline-studio')
    // No colour given: the one in the copy is read from the photo, and the result says so.
    expect(result.colourFromPhoto).toBe('lacivert')
    const { model: _model, colourFromPhoto: _colour, ...content } = result
    expectWithinLimits(content)
    expect(result.title).toBe('Basic Tişört Lacivert Pamuk')
    const again = await studio.writeSeo(
      { image: { bytes: photo, mime: 'image/jpeg' }, details: { name: 'Basic Tişört', material: 'pamuk' } },
      testContext(),
    )
    expect(again).toEqual(result)
  })

  it('works for a photo without a plain backdrop, from the centre of the photo', async () => {
    const busy = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#e3c11b' } })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="40" fill="#2244aa"/><rect y="360" width="400" height="40" fill="#aa2222"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer()
    const result = await createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath: 'ffmpeg' }).writeSeo(
      { image: { bytes: busy, mime: 'image/png' }, details: { name: 'Kupa' } },
      testContext(),
    )
    expect(mentions(result, 'sarı')).toBe(true)
  })

  it('keeps the seller colour over the photo colour', async () => {
    const result = await createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath: 'ffmpeg' }).writeSeo(
      { image: { bytes: photo, mime: 'image/jpeg' }, details: { name: 'Basic Tişört', color: 'Kırmızı' } },
      testContext(),
    )
    expect(result.title).toBe('Basic Tişört Kırmızı')
    expect(mentions(result, 'lacivert')).toBe(false)
  })

  it('refuses, as the provider rejecting the input, to write copy with neither a name nor a category', async () => {
    await expect(
      createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath: 'ffmpeg' }).writeSeo(
        { image: { bytes: photo, mime: 'image/jpeg' }, details: { brand: 'Karaca' } },
        testContext(),
      ),
    ).rejects.toSatisfy((error) => error instanceof ProviderError && error.failure === 'rejected')
  })

  it('refuses an unreadable image', async () => {
    const studio = createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath: 'ffmpeg' })
    await expect(
      studio.writeSeo(
        { image: { bytes: Buffer.from('nope'), mime: 'image/png' }, details: {} },
        testContext(),
      ),
    ).rejects.toSatisfy((error) => error instanceof ProviderError && error.failure === 'rejected')
  })

  it('names an amber bottle brown or orange', async () => {
    expect(['kahverengi', 'turuncu']).toContain((await findDominantColour(await productPhoto())).name)
  })
})
