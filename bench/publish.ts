import { type ChildProcess, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { eq, sql } from 'drizzle-orm'
import { publicationItems, publications } from '#server/db/schema/index.ts'
import { connectTrendyol } from '#server/features/publishing/connections.service.ts'
import { queuePublications } from '#server/features/publishing/queue-publications.service.ts'
import { startPublisher } from '#server/jobs/publisher.ts'
import { publisherOptions } from '#server/jobs/worker-runtime.ts'
import { defaultTrendyolSeller } from '#tests/fakes/trendyol-server.ts'
import { createUser } from '#tests/support/factories.ts'
import { cupListing, startImageServer } from '#tests/support/publishing-fixtures.ts'
import { openBenchApp } from './lib/app-server.ts'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'

// `npx tsx bench/publish.ts` (part of `npm run bench`): issue 30's "1,000-row batch to the
// Trendyol fake: one request, statuses final, in ≤ 60 s plus the fake's approval time; peak added
// RSS ≤ 150 MB". The app's publisher runs in this process, on an embedded database, as a worker
// runs it; the fake seller API runs in its own process (started by hand's command) and downloads
// each product's image from a small server here, checking Trendyol's 1200×1800. The clock starts
// when the 1,000 listings are queued and stops when every product is live; the RSS is this
// process's, sampled every 50 ms, over what it held just before queueing.

const rows = 1000
const approvalMs = 5000
const budgetMs = 60_000 + approvalMs

/** The fake in a child process, once it says where it listens. */
async function startFake(): Promise<{ child: ChildProcess; apiBase: string; url: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'tests/fakes/trendyol-server.ts',
      '--port',
      '0',
      '--allow-http-images',
      '--approval-ms',
      String(approvalMs),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  for await (const line of lines) {
    const match = /listening on (\S+)/.exec(line)
    if (match?.[1]) {
      const apiBase = match[1]
      return { child, apiBase, url: apiBase.replace(/\/integration$/, '') }
    }
  }
  throw new Error('the Trendyol fake did not start')
}

const fake = await startFake()
const images = await startImageServer()

const bench = await openBenchApp('publish', {
  TRENDYOL_API_BASE: fake.apiBase,
  ENABLE_TEST_HOOKS: 'true',
  PUBLISHER_PROCESSING_POLL_MS: '500',
  PUBLISHER_REVIEW_POLL_MS: '1000',
})
const { deps } = bench
const options = publisherOptions(bench.services)
const userId = await createUser(deps.database.db)
await connectTrendyol(
  options.connections,
  userId,
  {
    sellerId: defaultTrendyolSeller.sellerId,
    apiKey: defaultTrendyolSeller.apiKey,
    apiSecret: defaultTrendyolSeller.apiSecret,
  },
  new Date(),
)

const listings = Array.from({ length: rows }, (_, i) => {
  const barcode = `BENCH-${String(i).padStart(5, '0')}`
  return {
    listing: cupListing(barcode, images.origin, {
      title: `Porselen Kahve Fincan Takımı 6 Kişilik Model ${i}`,
    }),
  }
})

const figures: Figure[] = [{ ...machineLoad(), digits: 1 }]
let isOk = true
const publisher = startPublisher(options)
try {
  global.gc?.()
  const baseline = process.memoryUsage().rss
  let peak = baseline
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 50)
  const started = performance.now()
  const [id, ...more] = await queuePublications(options, userId, 'trendyol', listings)
  if (!id || more.length > 0) throw new Error(`expected one publication, got ${1 + more.length}`)
  const deadline = started + budgetMs * 3
  for (;;) {
    const [row] = await deps.database.db.select().from(publications).where(eq(publications.id, id))
    if (row?.status === 'done' || row?.status === 'failed') break
    if (performance.now() > deadline) throw new Error(`still ${row?.status} after ${budgetMs * 3} ms`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const elapsed = performance.now() - started
  clearInterval(sampler)
  const counts = await deps.database.db
    .select({ status: publicationItems.status, count: sql<number>`count(*)::int` })
    .from(publicationItems)
    .where(eq(publicationItems.publicationId, id))
    .groupBy(publicationItems.status)
  const live = counts.find((c) => c.status === 'live')?.count ?? 0
  const { requests } = (await (await fetch(`${fake.url}/__control/requests`)).json()) as {
    requests: { method: string; path: string }[]
  }
  const writes = requests.filter((r) => r.method === 'POST' || r.method === 'PUT').length
  figures.push(
    { name: `${rows} rows queued → every product final`, value: elapsed, unit: 'ms', budget: budgetMs },
    { name: 'products live', value: live, unit: 'rows', atLeast: rows },
    { name: 'write requests to the fake', value: writes, unit: 'requests', budget: 1 },
    { name: 'requests to the fake in all', value: requests.length, unit: 'requests' },
    {
      name: 'peak added RSS (this process)',
      value: (peak - baseline) / 1024 / 1024,
      unit: 'MB',
      budget: 150,
    },
  )
} catch (error) {
  console.error(error)
  isOk = false
} finally {
  await publisher.stop()
  figures.push({ ...machineLoad(), name: 'machine load average (1 min) at the end', digits: 1 })
  fake.child.kill('SIGTERM')
  await images.close()
  await bench.database.close()
}
if (!printFigures('publishing (Trendyol fake)', figures) || !isOk) process.exitCode = 1
