import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { createApp } from '#server/app.ts'
import { type Config, loadConfig } from '#server/config.ts'
import { type Database, openDatabase } from '#server/db/client.ts'
import { type AppDeps, createAppDeps, prepareIncomingDir } from '#server/deps.ts'
import { createLogger, type Logger } from '#server/logger.ts'
import { createServices, type Services } from '#server/services.ts'
import type { ChildReady } from './child.ts'

// The real app inside a bench child process (bench/support/*-server.ts): built as the server's
// start builds it, on an embedded PGlite database in a temp folder, or on PostgreSQL when
// BENCH_DATABASE_URL is set (migrated at start either way), and served over real HTTP.

export type BenchApp = {
  config: Config
  logger: Logger
  database: Database
  deps: AppDeps
  /** Built once from deps: the app and a bench's worker share them. */
  services: Services
  dataDir: string
}

/** Opens the app's database and dependencies with the bench's settings plus `settings`. */
export async function openBenchApp(
  name: string,
  settings: Record<string, string | undefined> = {},
): Promise<BenchApp> {
  const dataDir = mkdtempSync(join(tmpdir(), `vitrin-bench-${name}-`))
  const config = loadConfig({
    DATA_DIR: dataDir,
    // Errors only: a failure says why on stderr, and logging does not weigh on the figures.
    LOG_LEVEL: 'error',
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    WEB_DIST_DIR: '/nonexistent',
    ...settings,
  })
  const logger = createLogger({ level: config.logLevel })
  const database = await openDatabase({ dataDir, databaseUrl: process.env.BENCH_DATABASE_URL })
  await database.migrate()
  const deps = await createAppDeps({ config, database, logger })
  return { config, logger, database, deps, services: createServices(deps), dataDir }
}

/**
 * Serves the app on a free port and reports { port, pid } over IPC. SIGTERM runs `beforeClose`
 * (e.g. stopping a worker), closes the server and the database, and removes the temp folder.
 */
export function serveBenchApp(bench: BenchApp, options: { beforeClose?: () => Promise<void> } = {}): void {
  prepareIncomingDir(bench.deps)
  const app = createApp(bench.services)
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
    process.send?.({ port: info.port, pid: process.pid } satisfies ChildReady)
  })
  process.on('SIGTERM', async () => {
    await options.beforeClose?.()
    if ('closeAllConnections' in server) server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await bench.database.close()
    rmSync(bench.dataDir, { recursive: true, force: true })
    process.exit(0)
  })
}
