import { createSegmenter } from '#server/segmentation/segmenter.ts'
import { marketplaceIds } from '#shared/marketplaces/ids.ts'
import { describeFailures, passRates, runStudioConformance } from '#tests/support/studio-conformance.ts'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'

// `npx tsx bench/studio-conformance.ts` (part of `npm run bench`): the offline studio's results
// and their marketplace downloads against the checker's image rules, for the two real photos and
// two generated ones (a bottle, a thin pen), on every built-in scene, with each of the eight
// marketplaces as the seller's preference (tests/support/studio-conformance.ts). Budget: 100 % of
// the default results (the white studio, what an empty prompt makes) and of their downloads pass
// their marketplace's rules; every scene's results and downloads are reported. Failures are listed with their reasons. A full run makes
// about 500 checks (over 10 minutes on a 2-core machine).

const load = machineLoad()
const segmenter = createSegmenter()
const started = performance.now()
const cases = await runStudioConformance({ segmenter })
const elapsedMs = performance.now() - started
await segmenter.close()

const defaults = cases.filter((item) => item.scene === 'white-studio')
const figures: Figure[] = [
  load,
  { name: 'time: every photo, scene and marketplace', value: elapsedMs, unit: 'ms' },
]
for (const id of marketplaceIds) {
  const own = cases.filter((item) => item.profile === id)
  const share = (list: typeof cases) =>
    list.length === 0 ? 100 : (100 * list.filter((item) => item.fails.length === 0).length) / list.length
  figures.push({
    name: `${id}: default results and downloads passing`,
    value: share(defaults.filter((item) => item.profile === id)),
    unit: '%',
    atLeast: 100,
  })
  figures.push({
    name: `${id}: every scene's result passing`,
    value: share(own.filter((item) => item.output === 'result')),
    unit: '%',
  })
}
const isWithinBudgets = printFigures('Studio conformance with the marketplaces’ image rules', figures)
const rates = passRates(cases)
console.log(`  ${[...rates].map(([key, rate]) => `${key} ${rate.passed}/${rate.total}`).join(', ')}`)
for (const line of describeFailures(cases)) console.log(`  ${line}`)
process.exit(isWithinBudgets ? 0 : 1)
