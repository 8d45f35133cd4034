import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { createApp } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { openDatabase } from '#server/db/client.ts'
import { generations } from '#server/db/schema/index.ts'
import { createAppDeps, prepareIncomingDir } from '#server/deps.ts'
import { createLogger } from '#server/logger.ts'
import { createServices } from '#server/services.ts'
import { cpuProfiler } from '../lib/cpu-profile.ts'

// Child process for bench/v1-read.ts, on PostgreSQL (BENCH_DATABASE_URL): serves either the real
// app with no worker (`app`), or a bare Hono endpoint that reads one generation row by id with
// no authentication (`bare <id>`), through the same database client and pool size. Prints its
// port as JSON on stdout.
const databaseUrl = process.env.BENCH_DATABASE_URL
if (!databaseUrl) throw new Error('BENCH_DATABASE_URL is needed')
const poolMax = 10
const mode = process.argv[2]
const database = await openDatabase({ databaseUrl, poolMax })
let app: { fetch: (request: Request) => Response | Promise<Response> }
if (mode === 'bare') {
  const id = process.argv[3] ?? ''
  app = new Hono().get('/', async (c) => {
    const [row] = await database.db.select().from(generations).where(eq(generations.id, id))
    if (!row) return c.json({ error: 'not found' }, 404)
    return c.json({ id: row.id, status: row.status, mode: row.mode, createdAt: row.createdAt })
  })
} else {
  await database.migrate()
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_MAX: String(poolMax),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'vitrin-bench-v1-')),
    LOG_LEVEL: 'silent',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    WEB_DIST_DIR: '/nonexistent',
    IN_PROCESS_WORKER: 'false',
    // The read limit out of the way: throughput, not the limit, is measured (each request still
    // counts against it, one upsert on the key's bucket).
    API_READS_PER_MINUTE: '1000000',
    GENERATIONS_PER_MINUTE: '1000',
  })
  const deps = await createAppDeps({ config, database, logger: createLogger({ level: 'silent' }) })
  prepareIncomingDir(deps)
  app = createApp(createServices(deps))
}
// BENCH_CPU_PROFILE=<file> profiles the app (not the bare endpoint) from its start to its stop.
// The bare server passes '' (no profile): undefined would take cpuProfiler's default, the same
// file, which the bare server (stopped last) then overwrote, while the profiler slowed it down.
const profiler = cpuProfiler(mode === 'bare' ? '' : process.env.BENCH_CPU_PROFILE)
await profiler.start()
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
  process.stdout.write(`${JSON.stringify({ port: info.port })}\n`)
})
process.on('SIGTERM', () =>
  server.close(async () => {
    await profiler.stop()
    await database.close()
    process.exit(0)
  }),
)
