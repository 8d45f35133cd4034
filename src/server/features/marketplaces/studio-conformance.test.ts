import { afterAll, describe, expect, it } from 'vitest'
import { createSegmenter } from '#server/segmentation/segmenter.ts'
import { marketplaceIds } from '#shared/marketplaces/ids.ts'
import {
  conformancePhotos,
  describeFailures,
  runStudioConformance,
} from '#tests/support/studio-conformance.ts'

// The studio's default output, as a seller with each marketplace as their preference meets it:
// the two real photos composed on the default scene (the white studio) at the ratio the
// marketplace starts from, and the download made for it, checked with the checker's own
// measurement and rules. Every scene and the generated photos run in `npm run bench`
// (bench/studio-conformance.ts), which prints the pass rate per marketplace.

const segmenter = createSegmenter()
afterAll(() => segmenter.close())

describe('the studio conforms by default', () => {
  it('makes a default result and an export that fail no image rule of any of the eight marketplaces', async () => {
    const cases = await runStudioConformance({
      segmenter,
      photos: conformancePhotos.filter((photo) => photo.name === 'coffee' || photo.name === 'rocket'),
      scenes: ['white-studio'],
    })
    // Both photos, every marketplace, the export always and the result too.
    expect(cases).toHaveLength(2 * marketplaceIds.length * 2)
    expect(describeFailures(cases)).toEqual([])
  }, 300_000)
})
