import { openDatabase } from '#server/db/client.ts'
import { startConfiguredWorker } from '#server/jobs/worker-runtime.ts'
import { SegmentationModelError } from '#server/segmentation/model-file.ts'
import { type Config, ConfigError, loadConfig } from './config.ts'
import { createAppDeps } from './deps.ts'
import { createLogger } from './logger.ts'

// `npm run worker`: a separate generation worker process against the shared PostgreSQL. Run as
// many as the load needs (each with WORKER_CONCURRENCY jobs); set IN_PROCESS_WORKER=false on
// the web servers then.

function readConfig(): Config {
  try {
    return loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
}

const config = readConfig()
if (!config.databaseUrl) {
  process.stderr.write(
    'npm run worker needs DATABASE_URL: the embedded database belongs to the web server process.\n',
  )
  process.exit(1)
}
const logger = createLogger({ level: config.logLevel, base: { role: 'worker' } })
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  poolMax: config.databasePoolMax,
  onConnectionError: (error) => logger.warn({ err: error }, 'an idle database connection was closed'),
})
await database.migrate()
const deps = await createAppDeps({ config, database, logger })
const worker = await startConfiguredWorker(deps).catch(async (error: unknown) => {
  // A missing or altered segmentation model: say so plainly instead of a stack trace.
  if (!(error instanceof SegmentationModelError)) throw error
  process.stderr.write(`${error.message}\n`)
  await database.close()
  process.exit(1)
})

let isStopping = false
async function shutdown(signal: string) {
  if (isStopping) return
  isStopping = true
  logger.info({ signal }, 'worker shutting down; jobs in flight go back to the queue')
  await worker.stop()
  // The hand-backs' notices go out, so other workers take those jobs at once.
  await deps.notifier.close()
  await database.close()
  process.exit(0)
}
process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))
