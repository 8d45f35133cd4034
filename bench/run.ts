import { run } from '../scripts/lib/run.ts'

// `npm run bench`: every benchmark, one after another; exits non-zero when a budget is missed.
const suites = [
  ['tsx', ['bench/web.ts']],
  ['tsx', ['bench/start.ts']],
  ['tsx', ['bench/usage.ts']],
  ['tsx', ['bench/engine.ts']],
  ['tsx', ['bench/billing.ts']],
  ['tsx', ['bench/offline-studio.ts']],
  ['tsx', ['bench/seo-writer.ts']],
  ['tsx', ['bench/segmentation.ts']],
  ['tsx', ['bench/catalogue-export.ts']],
  ['tsx', ['bench/catalogue-workers.ts']],
  ['tsx', ['bench/catalogue-import.ts']],
  ['tsx', ['bench/catalogue-hostile.ts']],
  ['tsx', ['bench/marketplace-export.ts']],
  ['tsx', ['bench/marketplace-check.ts']],
  ['tsx', ['bench/studio-conformance.ts']],
  ['tsx', ['bench/webhooks.ts']],
  ['tsx', ['bench/publish.ts']],
  ['tsx', ['bench/v1-read.ts']],
] as const
let failed = 0
for (const [command, args] of suites) {
  if ((await run(command, [...args])) !== 0) failed++
}
process.exit(failed > 0 ? 1 : 0)
