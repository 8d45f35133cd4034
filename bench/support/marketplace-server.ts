import { sql } from 'drizzle-orm'
import { startConfiguredWorker } from '#server/jobs/worker-runtime.ts'
import { openBenchApp, serveBenchApp } from '../lib/app-server.ts'

// Child process for bench/marketplace-check.ts: the real app over real HTTP with the configured
// providers (the offline studio and its SEO writer by default) and an in-process worker, as
// `npm start` runs it, and OCR on (MARKETPLACE_OCR's default). On an embedded PGlite database in
// a temp folder, or on PostgreSQL when BENCH_DATABASE_URL is set.
// Reports { port, pid } over IPC once listening; answers { type: 'unmeasured' } with how many
// image results the worker's facts measurer has not measured yet; SIGTERM stops the worker and
// the OCR thread, then the server, and removes the temp folder.

const bench = await openBenchApp('marketplace', {
  // One seller makes every result of the bench from one client address.
  UPLOADS_PER_MINUTE: '1000',
  GENERATIONS_PER_MINUTE: '1000',
})
const worker = await startConfiguredWorker(bench.services)
process.on('message', async (message: { type?: string }) => {
  if (message.type !== 'unmeasured') return
  const result = (await bench.database.db.execute(sql`
    select count(*)::int as n from generations g
    where g.status = 'succeeded' and g.mode = 'image'
      and not exists (select 1 from image_facts f where f.asset_id = (g.result ->> 'assetId')::uuid)
  `)) as unknown as { rows: { n: number }[] }
  process.send?.({ type: 'unmeasured', data: result.rows[0]?.n ?? 0 })
})
serveBenchApp(bench, {
  beforeClose: async () => {
    await worker.stop()
    await bench.deps.textReader?.close()
  },
})
