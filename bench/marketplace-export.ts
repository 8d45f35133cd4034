import { readFile } from 'node:fs/promises'
import sharp from 'sharp'
import { inspectImage, measureImage, measureSide } from '#server/features/marketplaces/measure-image.ts'
import { type ExportTarget, renderForMarketplace } from '#server/features/marketplaces/render-export.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'
import { median, percentile } from './lib/stats.ts'

// `npx tsx bench/marketplace-export.ts`: the marketplace export and measuring against their
// budgets (issue 14). One 1080×1080 result (the real coffee photo, as the studio would hand it
// over) is exported to every target: each target's median of 5 runs is reported, and their sum
// must stay within 2 s. Measuring the same image for the checker (measureImage, with the real
// segmentation model; the pure rules add next to nothing) is reported at p95 over 20 runs, after
// one warm-up that loads the model, and the same with the mask already known beside it, since the
// model's run is most of that time. A file is measured once and its facts stored, so the check
// budget (p95 <= 300 ms for an image and its copy) is judged on stored facts, through the API,
// in bench/marketplace-check.ts.
//
// The targets are listed here until the marketplace profiles in src/shared/marketplaces carry
// them; sizes for Hepsiburada, n11, Çiçeksepeti and Etsy are not published (see
// ../shared/spec/marketplaces.md in the workspace), so a common 1500² or 2000² square stands in.

const targets: { name: string; target: ExportTarget }[] = [
  { name: 'Trendyol 1200×1800 extend', target: { width: 1200, height: 1800, background: 'extend' } },
  {
    name: 'Amazon 2000×2000 white',
    target: { width: 2000, height: 2000, background: 'white', maxBytes: 10 * 1024 * 1024 },
  },
  { name: 'Shopify 2048×2048 extend', target: { width: 2048, height: 2048, background: 'extend' } },
  { name: 'Instagram feed 1080×1080 extend', target: { width: 1080, height: 1080, background: 'extend' } },
  { name: 'Instagram feed 1080×1350 extend', target: { width: 1080, height: 1350, background: 'extend' } },
  { name: 'Instagram Reels 1080×1920 extend', target: { width: 1080, height: 1920, background: 'extend' } },
  { name: 'Hepsiburada 1500×1500 extend', target: { width: 1500, height: 1500, background: 'extend' } },
  {
    name: 'n11 1500×1500 extend',
    target: { width: 1500, height: 1500, background: 'extend', maxBytes: 10 * 1024 * 1024 },
  },
  { name: 'Çiçeksepeti 1500×1500 extend', target: { width: 1500, height: 1500, background: 'extend' } },
  { name: 'Etsy 2000×2000 extend', target: { width: 2000, height: 2000, background: 'extend' } },
]

const exportRuns = 5
const measureRuns = 20

const photo = await readFile(new URL('../tests/fixtures/photos/coffee.png', import.meta.url))
// A studio result: 1080×1080 JPEG, the photo fitted on a light backdrop.
const result = await sharp(photo)
  .resize(1080, 1080, { fit: 'contain', background: '#f4f1ec' })
  .flatten({ background: '#f4f1ec' })
  .jpeg({ quality: 90 })
  .toBuffer()

const figures: Figure[] = [machineLoad()]
const segmenter = sharedSegmenter()

// The mask an Amazon export uses comes from the measurement, as a route would pass it on.
const { mask } = await inspectImage(result, { isGenerated: true, segmenter })
if (!mask) console.log('note: no credible product mask; the white export pads only')

let total = 0
for (const { name, target } of targets) {
  const options = target.background === 'white' ? { mask } : {}
  await renderForMarketplace(result, target, options)
  const times: number[] = []
  for (let i = 0; i < exportRuns; i++) {
    const started = performance.now()
    await renderForMarketplace(result, target, options)
    times.push(performance.now() - started)
  }
  const time = median(times)
  total += time
  figures.push({ name: `export: ${name}`, value: time, unit: 'ms' })
}
figures.push({
  name: `export: all ${targets.length} targets (sum of medians)`,
  value: total,
  unit: 'ms',
  budget: 2000,
})

const measureTimes: number[] = []
for (let i = 0; i < measureRuns; i++) {
  const started = performance.now()
  await measureImage(result, { isGenerated: true, segmenter })
  measureTimes.push(performance.now() - started)
}
figures.push({
  name: 'measure one image (incl. segmentation), median',
  value: median(measureTimes),
  unit: 'ms',
})
figures.push({
  name: 'measure one image (incl. segmentation), p95',
  value: percentile(measureTimes, 95),
  unit: 'ms',
})
// The same without the model (its mask already known, e.g. stored with the result when the
// studio made it): what checking costs when segmentation is not repeated.
const known = await segmenter.segment(
  await sharp(result)
    .resize(measureSide, measureSide, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true })
    .then(({ data, info }) => ({ data, width: info.width, height: info.height, channels: 3 as const })),
)
const withoutModel: number[] = []
for (let i = 0; i < measureRuns; i++) {
  const started = performance.now()
  await measureImage(result, { isGenerated: true, segmenter: { segment: async () => known } })
  withoutModel.push(performance.now() - started)
}
figures.push({
  name: 'measure one image, mask already known, p95',
  value: percentile(withoutModel, 95),
  unit: 'ms',
})
await segmenter.close()

const isWithinBudgets = printFigures('Marketplace export and measuring (issue 14)', figures)
process.exit(isWithinBudgets ? 0 : 1)
