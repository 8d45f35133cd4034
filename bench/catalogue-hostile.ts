import { createServer, type Socket } from 'node:net'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { startAppProcess } from '#tests/support/app-child.ts'
import { csvOf, largeSheetXlsx, productRow } from '#tests/support/catalogue-fixtures.ts'
import { makeInputPhoto, signedInCalls, signUp, uploadAsset } from './lib/app-client.ts'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'

// `npx tsx bench/catalogue-hostile.ts` (part of `npm run bench`): the server's event-loop lag
// while the worst catalogue inputs found are imported (10 MB of empty lines, a 90 MB sheet packed
// under 10 MB, 1,000 image links that never answer) and 4 offline studio image jobs run.
// Budget: p99 ≤ 50 ms (max reported). The app and its worker run in their own process
// (tests/support/app-process.ts); the lag is measured inside it with perf_hooks'
// monitorEventLoopDelay (5 ms resolution), from just before the first request to the last job's
// end, so nothing this process does (building the inputs, sending them) counts. Exits 1 over budget.

const lagBudgetMs = 50
const jobCount = 4

// A host that accepts connections and never answers: every image link to it hangs.
const held: Socket[] = []
const slowHost = createServer((socket) => {
  held.push(socket)
  socket.on('error', () => {})
})
await new Promise<void>((resolve) => slowHost.listen(0, '127.0.0.1', resolve))
const slowPort = (slowHost.address() as { port: number }).port

// Every input is made before the server starts.
const newlines = Buffer.alloc(10 * 1024 * 1024 - 64 * 1024, '\n')
const sheet = await largeSheetXlsx(480_000)
const links = csvOf(
  Array.from({ length: 1_000 }, (_, i) =>
    productRow(i + 1, { 'Görsel 1': `http://127.0.0.1:${slowPort}/photo-${i + 1}.jpg` }),
  ),
)
const photo = await makeInputPhoto()

const load = machineLoad()
const app = await startAppProcess(
  {
    NODE_ENV: 'development',
    FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    CATALOGUE_PHOTO_STEP_SECONDS: '5',
    UPLOADS_PER_MINUTE: '1000',
    GENERATIONS_PER_MINUTE: '1000',
  },
  { withWorker: true },
)
let isWithinBudgets = true
try {
  const origin = app.url
  const cookie = await signUp(origin)
  const { call, json } = signedInCalls(origin, cookie)
  await call('/api/billing/subscription', json({ planId: 'pro' }), 200)
  const photoId = await uploadAsset(origin, cookie, photo, 'product.jpg')
  const importList = (bytes: Buffer, name: string, expected: number) => {
    const form = new FormData()
    form.append('list', new Blob([new Uint8Array(bytes)]), name)
    return call<{ batch: { id: string } }>('/api/catalogue/imports', { method: 'POST', body: form }, expected)
  }
  const finished = async (id: string) => {
    for (;;) {
      const { generation } = await call<{ generation: GenerationView }>(`/api/generations/${id}`, {}, 200)
      if (generation.status === 'succeeded') return
      if (generation.status !== 'queued' && generation.status !== 'running') {
        throw new Error(`generation ${id} ended ${generation.status}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }

  const lag = await app.measureLag()
  const started = performance.now()
  const jobs = await Promise.all(
    Array.from({ length: jobCount }, () =>
      call<{ generation: { id: string } }>(
        '/api/generations',
        json({ mode: 'image', imageAssetId: photoId, prompt: 'on white marble, soft daylight' }),
        202,
      ),
    ),
  )
  const jobsDone = Promise.all(jobs.map((job) => finished(job.generation.id)))
  await importList(newlines, 'boş satırlar.csv', 422)
  await importList(sheet, 'büyük.xlsx', 400)
  const listed = await importList(links, 'bağlantılar.csv', 201)
  await call(
    `/api/catalogue/batches/${listed.batch.id}/photos`,
    { method: 'POST', body: new FormData() },
    200,
  )
  await jobsDone
  const measured = await lag.stop()
  const elapsedMs = performance.now() - started

  const figures: Figure[] = [
    load,
    { name: 'time: three hostile imports + 4 image jobs', value: elapsedMs, unit: 'ms' },
    { name: 'server event-loop lag p50', value: measured.p50Ms, unit: 'ms', digits: 1 },
    { name: 'server event-loop lag p99', value: measured.p99Ms, unit: 'ms', digits: 1, budget: lagBudgetMs },
    { name: 'server event-loop lag max', value: measured.maxMs, unit: 'ms', digits: 1 },
  ]
  isWithinBudgets = printFigures('Event-loop lag under hostile catalogue inputs', figures)
} finally {
  await app.close()
  for (const socket of held) socket.destroy()
  slowHost.close()
}
process.exit(isWithinBudgets ? 0 : 1)
