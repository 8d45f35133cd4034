import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { serve } from '@hono/node-server'
import { createApp } from '#server/app.ts'
import { adoptListeningPort, loadConfig } from '#server/config.ts'
import { openDatabase } from '#server/db/client.ts'
import { createAppDeps, prepareIncomingDir } from '#server/deps.ts'
import { startConfiguredWorker } from '#server/jobs/worker-runtime.ts'
import { createLogger } from '#server/logger.ts'
import { createServices } from '#server/services.ts'

// The real app in a process of its own, started by startAppProcess (app-child.ts): a test or a
// benchmark that sends heavy requests and times the answers then shares no event loop with the
// server it measures. Settings come as JSON in the first argument; the app runs on an embedded
// PGlite database in a temp folder, migrated at start. With 'worker' as the second argument a
// worker with the configured providers runs in it too, as `npm start` runs one. Reports
// { port, pid } over IPC once listening. Messages:
//   'lag-start'  starts measuring this process's event-loop delay afresh (answered 'lag-started')
//   'lag-stop'   answers { type: 'lag', data: { p50Ms, p99Ms, maxMs, samples } } since 'lag-start'
// SIGTERM closes the server and the database and removes the temp folder.

const settings = JSON.parse(process.argv[2] ?? '{}') as Record<string, string>
const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-app-process-'))
const config = loadConfig({
  DATA_DIR: dataDir,
  NODE_ENV: 'test',
  LOG_LEVEL: 'error',
  APP_SECRET: 'test-secret-test-secret-test-secret-0123',
  WEB_DIST_DIR: '/nonexistent-web-dist',
  HOST: '127.0.0.1',
  PORT: '0',
  ...settings,
})
const logger = createLogger({ level: config.logLevel })
const database = await openDatabase({ dataDir })
await database.migrate()
const deps = await createAppDeps({ config, database, logger })
prepareIncomingDir(deps)
const services = createServices(deps)
const app = createApp(services)
const worker = process.argv[3] === 'worker' ? await startConfiguredWorker(services) : null

const delay = monitorEventLoopDelay({ resolution: 5 })
process.on('message', (message: unknown) => {
  if (message === 'lag-start') {
    delay.disable()
    delay.reset()
    delay.enable()
    process.send?.({ type: 'lag-started' })
  } else if (message === 'lag-stop') {
    delay.disable()
    const ms = (ns: number) => ns / 1e6
    process.send?.({
      type: 'lag',
      data: {
        p50Ms: ms(delay.percentile(50)),
        p99Ms: ms(delay.percentile(99)),
        maxMs: ms(delay.max),
        samples: delay.count,
      },
    })
  }
})

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
  adoptListeningPort(config, info.port)
  process.send?.({ port: info.port, pid: process.pid })
})
process.on('SIGTERM', async () => {
  await worker?.stop()
  if ('closeAllConnections' in server) server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await Promise.all([deps.textReader?.close(), deps.listReader.close()])
  await deps.notifier.close()
  await database.close()
  rmSync(dataDir, { recursive: true, force: true })
  process.exit(0)
})
