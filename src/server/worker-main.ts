import { openDatabase } from '#server/db/client.ts'
import { createTextReader } from '#server/features/marketplaces/read-text.ts'
import { createConfiguredProviders, startConfiguredWorker } from '#server/jobs/worker-runtime.ts'
import { SegmentationModelError } from '#server/segmentation/model-file.ts'
import { createSegmenter } from '#server/segmentation/segmenter.ts'
import { type Config, ConfigError, loadConfig } from './config.ts'
import { createAppDeps } from './deps.ts'
import { createLogger } from './logger.ts'
import { createServices } from './services.ts'

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

// SIGTERM and SIGINT are heard from here on; one that comes while the worker starts stops it as
// soon as it runs. From the first signal the grace period runs: past it the process exits, and
// the jobs it still held are taken again by other workers once their lease runs out.
let stopSignal: string | null = null
let isRunning = false
function onStopSignal(signal: string) {
  if (stopSignal) return
  stopSignal = signal
  const forceExit = setTimeout(() => {
    logger.warn('still stopping after the grace period; exiting')
    process.exit(1)
  }, config.shutdownGraceSeconds * 1000)
  forceExit.unref()
  if (isRunning) void shutdown(signal)
  else logger.info({ signal }, 'asked to stop while starting; stopping once started')
}
process.on('SIGTERM', () => onStopSignal('SIGTERM'))
process.on('SIGINT', () => onStopSignal('SIGINT'))

const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  poolMax: config.databasePoolMax,
  onConnectionError: (error) => logger.warn({ err: error }, 'an idle database connection was closed'),
})
await database.migrate()
// The process's one segmentation model, shared by the offline studio, keep-my-product and the
// facts measurer; and its OCR reader, the facts measurer's (a thread once it reads text). A worker
// reads no product list: createAppDeps's list reader starts no thread here.
const segmenter = createSegmenter()
const textReader = config.marketplaceOcr ? createTextReader({ log: logger }) : null
const deps = await createAppDeps({ config, database, logger, segmenter, textReader })
const providers = await createConfiguredProviders(deps).catch(async (error: unknown) => {
  // A missing or altered segmentation model: say so plainly instead of a stack trace.
  if (!(error instanceof SegmentationModelError)) throw error
  process.stderr.write(`${error.message}\n`)
  await database.close()
  process.exit(1)
})
const worker = await startConfiguredWorker(createServices(deps), providers)

async function shutdown(signal: string) {
  logger.info({ signal }, 'worker shutting down; jobs in flight go back to the queue')
  await worker.stop()
  // The segmentation model's process and the OCR thread end with the worker.
  await Promise.all([segmenter.close(), textReader?.close()])
  // The hand-backs' notices go out, so other workers take those jobs at once.
  await deps.notifier.close()
  await database.close()
  logger.info('stopped')
  process.exit(0)
}
isRunning = true
if (stopSignal) void shutdown(stopSignal)
else {
  // The segmentation model loads in the background, so that the first image need not wait for it.
  worker.warmUp?.().catch((error: unknown) => {
    // A stop that came while it loaded ended it on purpose.
    if (stopSignal) return
    logger.warn({ err: error }, 'the segmentation model could not be loaded; images will try again')
  })
}
