import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { openDatabase } from '#server/db/client.ts'
import { type EmbeddedLock, EmbeddedLockHeldError, holdEmbeddedLock } from '#server/db/embedded-lock.ts'
import { ensureSomeAccessCode, syncConfiguredCodes } from '#server/features/access/access-codes.service.ts'
import { startConfiguredWorker } from '#server/jobs/worker-runtime.ts'
import { SegmentationModelError } from '#server/segmentation/model-file.ts'
import { createApp } from './app.ts'
import { adoptListeningPort, type Config, ConfigError, loadConfig } from './config.ts'
import { createAppDeps } from './deps.ts'
import { createLogger } from './logger.ts'
import { ensurePrivateDir } from './private-dir.ts'
import { loadOrCreateSecret } from './secret.ts'

// The only module with side effects: read config, open the database, serve, and shut down cleanly.

function readConfig(): Config {
  try {
    return loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee .env.example for every setting.\n`)
      process.exit(1)
    }
    throw error
  }
}

async function holdDataFolder(dataDir: string): Promise<EmbeddedLock> {
  try {
    return await holdEmbeddedLock(dataDir)
  } catch (error) {
    if (error instanceof EmbeddedLockHeldError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
}

const config = readConfig()
const logger = createLogger({ level: config.logLevel })

// The data folder holds the embedded database, local files and the secret: owner-only, and
// tightened at each start in case it was made (or copied) with wider rights.
if (!config.databaseUrl || config.storage.kind === 'local') ensurePrivateDir(config.dataDir)

// Taken before anything in the data folder is written (the secret included).
const lock = config.databaseUrl ? null : await holdDataFolder(config.dataDir)

if (!config.appSecret) {
  const { secret, isNew } = loadOrCreateSecret(config.dataDir)
  config.appSecret = secret
  if (isNew) logger.info({ dataDir: config.dataDir }, 'generated a new app secret in the data folder')
}

const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  poolMax: config.databasePoolMax,
  onConnectionError: (error) => logger.warn({ err: error }, 'an idle database connection was closed'),
})
await database.migrate()
logger.info({ database: database.kind }, 'database ready')

await syncConfiguredCodes(database.db, config.accessCodes)
const firstCode = await ensureSomeAccessCode(database.db)
if (firstCode) {
  logger.info(
    { accessCode: firstCode },
    `No access code existed, so one was made: ${firstCode} (more with: npm run access-codes -- create)`,
  )
}

let isShuttingDown = false
const deps = await createAppDeps({ config, database, logger, isShuttingDown: () => isShuttingDown })
const app = createApp(deps)
const worker = config.worker.inProcess ? await startWorker() : null

/** The in-process worker; a missing or altered segmentation model stops the start with its own message. */
async function startWorker() {
  try {
    return await startConfiguredWorker(deps)
  } catch (error) {
    if (error instanceof SegmentationModelError) {
      process.stderr.write(`${error.message}\n`)
      await database.close()
      await lock?.release()
      process.exit(1)
    }
    throw error
  }
}

const server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info: AddressInfo) => {
  adoptListeningPort(config, info.port)
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host
  logger.info(
    {
      url: `http://${shownHost}:${info.port}`,
      database: database.kind,
      files: config.storage.kind,
      mail: config.smtpUrl ? 'smtp' : 'log',
    },
    `Vitrin is listening on http://${shownHost}:${info.port}`,
  )
})

async function shutdown(signal: string) {
  if (isShuttingDown) return
  isShuttingDown = true
  logger.info({ signal }, 'shutting down: no new requests, finishing those in flight')
  const forceExit = setTimeout(() => {
    logger.warn('requests still open after the grace period; exiting')
    process.exit(1)
  }, config.shutdownGraceSeconds * 1000)
  forceExit.unref()
  // Jobs in flight go back to the queue (a provider request keeps its id, to be resumed).
  await worker?.stop()
  await new Promise<void>((resolve) => {
    server.close(() => resolve())
    // Idle keep-alive connections would otherwise hold close() open.
    if ('closeIdleConnections' in server) server.closeIdleConnections()
  })
  // The OCR thread, if a check started it (requests are over).
  await deps.textReader?.close()
  // Notices still pending go out (other processes' workers take the jobs handed back at once).
  await deps.notifier.close()
  await database.close()
  await lock?.release()
  logger.info('stopped')
  process.exit(0)
}

process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
