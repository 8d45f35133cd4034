import { inspectImage } from '#server/features/marketplaces/measure-image.ts'
import { measureProductFidelity, productViewOf } from '#server/features/marketplaces/product-fidelity.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { fidelityCases } from '#tests/support/fidelity-cases.ts'

// `npx tsx bench/product-fidelity.ts`: the fidelity check's calibration set measured, case by
// case (the figures in docs/decisions/0026-product-fidelity-check.md), with the time the
// comparison itself takes besides segmenting the two images.

const segmenter = sharedSegmenter()
await segmenter.ready()
const cases = await fidelityCases(segmenter)
const times: number[] = []
for (const item of cases) {
  const original = await productViewOf(item.original, segmenter)
  const inspection = await inspectImage(item.result, { isGenerated: true, segmenter })
  const started = performance.now()
  const fidelity = await measureProductFidelity(original, { bytes: item.result, mask: inspection.mask })
  times.push(performance.now() - started)
  const verdict = fidelity === null ? 'no mask' : fidelity.changed === item.isChanged ? 'ok' : 'WRONG'
  console.log(
    [
      item.name.padEnd(46),
      item.isChanged ? 'changed' : 'same   ',
      fidelity
        ? `ssim ${fidelity.structure.toFixed(3)}  ΔE ${fidelity.colourDelta.toFixed(2).padStart(5)}  shape ${fidelity.shape.toFixed(3)}`
        : '—',
      verdict,
    ].join('  '),
  )
}
times.sort((a, b) => a - b)
console.log(
  `comparison (decode + crop + SSIM + ΔE), median ${times[Math.floor(times.length / 2)]?.toFixed(0)} ms, max ${times.at(-1)?.toFixed(0)} ms`,
)
await segmenter.close()
