import { readFile } from 'node:fs/promises'
import { exportFillShare } from '#server/features/marketplaces/marketplace-export.service.ts'
import { inspectImage } from '#server/features/marketplaces/measure-image.ts'
import { measureProductFidelity, productViewOf } from '#server/features/marketplaces/product-fidelity.ts'
import { renderForMarketplace } from '#server/features/marketplaces/render-export.ts'
import { composeOnBackdrop } from '#server/providers/offline-studio/composite.ts'
import { viewOf } from '#server/providers/offline-studio/perspective.ts'
import { renderProductScene } from '#server/providers/offline-studio/scene-backgrounds.ts'
import { loadPhoto, type Subject, separateSubject } from '#server/providers/offline-studio/separate.ts'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import { type CheckResult, checkImage } from '#shared/marketplaces/check.ts'
import { defaultRatioFor } from '#shared/marketplaces/default-ratio.ts'
import { type MarketplaceId, marketplaceIds } from '#shared/marketplaces/ids.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import { type AspectRatio, type ProductSceneId, productScenes } from '#shared/scenes.ts'
import { productPhoto, thinProductPhoto } from './test-photos.ts'

// The studio's conformance with the marketplaces' image rules, as a seller meets it: each photo
// composed by the offline studio on a scene, at the ratio its marketplace starts from (the
// seller's preference drives the default), then exported for that marketplace, and both checked
// with the checker's own measurement and rules (the main-image slot). Shared by the test
// (studio-conformance.test.ts) and the bench (bench/studio-conformance.ts), which prints the pass
// rate per marketplace.

const photosDir = new URL('../fixtures/photos/', import.meta.url)

export type ConformancePhoto = { name: string; bytes: () => Promise<Buffer> }

/** The two real photos (a top-down cup, a thin rocket at night) and two generated ones. */
export const conformancePhotos: ConformancePhoto[] = [
  { name: 'coffee', bytes: () => readFile(new URL('coffee.png', photosDir)) },
  { name: 'rocket', bytes: () => readFile(new URL('rocket.jpg', photosDir)) },
  { name: 'bottle', bytes: () => productPhoto({ width: 900, height: 900 }) },
  { name: 'pen', bytes: () => thinProductPhoto() },
]

export type ConformanceCase = {
  photo: string
  profile: MarketplaceId
  scene: ProductSceneId
  ratio: AspectRatio
  /** The studio's result as made, or the marketplace download made from it. */
  output: 'result' | 'export'
  /** The image rules that failed (the checker's `fail`, not its warnings). */
  fails: CheckResult[]
}

/**
 * Runs every photo × scene × marketplace: the result is checked where its scene is the
 * marketplace's default choice for a main image (every scene on a marketplace that takes any
 * background; the white studio only where the main image must be white), and the export is
 * checked for every scene, since whatever the seller picked is what they download. OCR is left
 * out (no scene paints text); everything else the checker measures counts.
 */
export async function runStudioConformance(options: {
  segmenter: Segmenter
  photos?: readonly ConformancePhoto[]
  profiles?: readonly MarketplaceId[]
  scenes?: readonly ProductSceneId[]
}): Promise<ConformanceCase[]> {
  const profiles = options.profiles ?? marketplaceIds
  const scenes = options.scenes ?? productScenes.map((scene) => scene.id)
  const cases: ConformanceCase[] = []
  for (const photo of options.photos ?? conformancePhotos) {
    const original = await photo.bytes()
    const subject: Subject = await separateSubject(await loadPhoto(original), options.segmenter)
    // The product compared with the seller's photo, as the app does for every edit of it.
    const originalView = await productViewOf(original, options.segmenter)
    const results = new Map<string, Promise<Buffer>>()
    const resultFor = (scene: ProductSceneId, ratio: AspectRatio) => {
      const key = `${scene}:${ratio}`
      let made = results.get(key)
      if (!made) {
        // In the view the studio picks for this photo by default (decision 42).
        made = renderProductScene(scene, ratio, viewOf(subject)).then((backdrop) =>
          composeOnBackdrop(backdrop, subject),
        )
        results.set(key, made)
      }
      return made
    }
    const inspected = new Map<string, ReturnType<typeof inspectImage>>()
    const inspect = (key: string, bytes: Buffer) => {
      let inspection = inspected.get(key)
      if (!inspection) {
        inspection = inspectImage(bytes, { isGenerated: true, segmenter: options.segmenter }).then(
          async (measured) => ({
            ...measured,
            facts: {
              ...measured.facts,
              productFidelity: await measureProductFidelity(originalView, { bytes, mask: measured.mask }),
            },
          }),
        )
        inspected.set(key, inspection)
      }
      return inspection
    }
    for (const id of profiles) {
      const profile = getProfile(id)
      const ratio = defaultRatioFor(id, 'product')
      const mustBeWhite = profile.export.background === 'white'
      for (const scene of scenes) {
        const result = await resultFor(scene, ratio)
        const inspection = await inspect(`${scene}:${ratio}`, result)
        const failsOf = (facts: typeof inspection.facts) =>
          checkImage(profile, facts, 'main').filter((check) => check.status === 'fail')
        if (!mustBeWhite || scene === 'white-studio') {
          cases.push({
            photo: photo.name,
            profile: id,
            scene,
            ratio,
            output: 'result',
            fails: failsOf(inspection.facts),
          })
        }
        const fillShare = exportFillShare(profile)
        const exported = await renderForMarketplace(
          result,
          {
            width: profile.export.width,
            height: profile.export.height,
            background: profile.export.background,
            maxBytes: profile.export.maxBytes,
            ...(fillShare === undefined ? {} : { fillShare }),
          },
          { mask: mustBeWhite ? inspection.mask : null },
        )
        const exportInspection = await inspectImage(exported.bytes, {
          isGenerated: true,
          segmenter: options.segmenter,
        })
        // The export is the result's product, scaled: its fidelity is the result's.
        const exportFacts = { ...exportInspection.facts, productFidelity: inspection.facts.productFidelity }
        cases.push({
          photo: photo.name,
          profile: id,
          scene,
          ratio,
          output: 'export',
          fails: failsOf(exportFacts),
        })
      }
    }
  }
  return cases
}

/** Pass rate per marketplace and output: cases with no failed rule, of all. */
export function passRates(cases: readonly ConformanceCase[]) {
  const rates = new Map<string, { passed: number; total: number }>()
  for (const item of cases) {
    const key = `${item.profile} ${item.output}`
    const rate = rates.get(key) ?? { passed: 0, total: 0 }
    rate.total += 1
    if (item.fails.length === 0) rate.passed += 1
    rates.set(key, rate)
  }
  return rates
}

/** One line per failing case: photo, marketplace, scene, output and the rules with their reasons. */
export function describeFailures(cases: readonly ConformanceCase[]): string[] {
  return cases
    .filter((item) => item.fails.length > 0)
    .map(
      (item) =>
        `${item.photo} ${item.profile} ${item.scene} ${item.ratio} ${item.output}: ${item.fails
          .map((fail) => `${fail.ruleId} (${fail.reason.key} ${JSON.stringify(fail.reason.values)})`)
          .join(', ')}`,
    )
}
