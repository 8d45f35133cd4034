import sharp from 'sharp'
import { type FalFakeJob, sizeForRatio, startFalFake } from '#tests/fakes/fal-server.ts'
import type { ChildReady } from '../lib/child.ts'
import { benchFalDelayMs } from './engine-settings.ts'

// Child process for bench/engine.ts: the fal fake, answering every job after a fixed delay.
// In its own process so that neither the app nor the load generator pays for its work on
// their event loops.
//
// Reports { url } over IPC once listening; SIGTERM stops it.

const fake = await startFalFake({
  port: 0,
  // Two states before COMPLETED (IN_QUEUE, then IN_PROGRESS), so progress reporting runs as in
  // production.
  defaults: { completeAfterMs: benchFalDelayMs, statusPolls: 2 },
})

/**
 * The fake renders a job's image when its result is first read (sharp: SVG, composite, JPEG),
 * so 20 jobs finishing together would queue that work on this machine's cores and the
 * benchmark would time the fake. Real fal has the image ready by the time it says COMPLETED
 * and the result read is a small JSON answer. So each job gets its output at submit: one
 * image per aspect ratio, rendered once and served from the fake's own file store.
 */
type OutputFile = { id: string; width: number; height: number }

async function renderOutput(ratio: string): Promise<OutputFile> {
  const { width, height } = sizeForRatio(ratio)
  // Mild noise, so the file weighs what a real 1-megapixel result does (a few hundred KB).
  const bytes = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#e7e1d6',
      noise: { type: 'gaussian', mean: 200, sigma: 12 },
    },
  })
    .jpeg({ quality: 85 })
    .toBuffer()
  const id = `bench-output-${ratio.replace(':', 'x')}`
  fake.files.set(id, { bytes, contentType: 'image/jpeg' })
  return { id, width, height }
}

// Rendered before the first job, for the ratios Vitrin sends.
const outputs = new Map<string, OutputFile>()
for (const ratio of ['1:1', '9:16']) outputs.set(ratio, await renderOutput(ratio))

// The fake records each submitted job in this map: give the job its output there.
const addJob = fake.jobs.set.bind(fake.jobs)
fake.jobs.set = (id: string, job: FalFakeJob) => {
  const file = outputs.get(String(job.input.aspect_ratio)) ?? outputs.get('1:1')
  if (job.kind === 'image' && !job.noImageUrl && file) {
    job.output = {
      images: [
        {
          url: `${fake.url}/files/${file.id}`,
          content_type: 'image/jpeg',
          file_name: 'output.jpeg',
          width: file.width,
          height: file.height,
        },
      ],
      description: job.description,
    }
  }
  return addJob(id, job)
}

process.send?.({ url: fake.url } satisfies ChildReady)

process.on('SIGTERM', () => {
  fake.close().finally(() => process.exit(0))
})
