import { mkdtempSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { createApp } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { openDatabase } from '#server/db/client.ts'
import { createAppDeps, prepareIncomingDir } from '#server/deps.ts'
import { createLogger } from '#server/logger.ts'
import { createServices } from '#server/services.ts'

// Child process for bench/usage.ts: serves either the real app (embedded database in a temp
// folder) or a bare Hono endpoint, and prints its port as JSON on stdout.
const mode = process.argv[2]
if (mode === 'bare') {
  const app = new Hono().get('/', (c) => c.json({ ok: true }))
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
    process.stdout.write(`${JSON.stringify({ port: info.port })}\n`)
  })
  process.on('SIGTERM', () => server.close(() => process.exit(0)))
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-bench-usage-'))
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    WEB_DIST_DIR: '/nonexistent',
  })
  const database = await openDatabase({ dataDir })
  await database.migrate()
  const deps = await createAppDeps({ config, database, logger: createLogger({ level: 'silent' }) })
  prepareIncomingDir(deps)
  const app = createApp(createServices(deps))
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
    process.stdout.write(`${JSON.stringify({ port: info.port })}\n`)
  })
  process.on('SIGTERM', () =>
    server.close(async () => {
      await database.close()
      process.exit(0)
    }),
  )
}
