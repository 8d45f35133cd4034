import type { IncomingMessage, ServerResponse } from 'node:http'
import { flushCompileCache } from 'node:module'
import type { AddressInfo } from 'node:net'
import { type EmbeddedLock, EmbeddedLockHeldError, holdEmbeddedLock } from '#server/db/embedded-lock.ts'
import { openPgliteFolder } from '#server/db/pglite-thread.ts'
import { adoptListeningPort, type Config, ConfigError, loadConfig } from './config.ts'
import { createLogger } from './logger.ts'
import { ensurePrivateDir } from './private-dir.ts'
import { loadOrCreateSecret } from './secret.ts'

// The only module with side effects: read config, open the database, serve, and shut down cleanly.
// Only what is needed to hold the data folder and start the embedded database is imported up
// front; the rest of the server (the app, the worker, the database layer) is imported once the
// database thread has started, so that the two load at once, on two cores.

/** Of the grace period, what is kept for closing the database and the rest after requests. */
const closingReserveMs = 2000

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

// SIGTERM (how systemd, Docker and Kubernetes stop a service) and SIGINT are heard from here
// on. One that comes while the server is still starting (a first start migrates the database,
// which takes a while) stops it as soon as it listens. From the first signal the grace period
// runs: past it the process ends with whatever is still open, and the kernel frees the lock.
let stopSignal: string | null = null
let isListening = false
function onStopSignal(signal: string) {
  if (stopSignal) return
  stopSignal = signal
  const forceExit = setTimeout(() => {
    logger.warn('still stopping after the grace period; exiting')
    process.exit(1)
  }, config.shutdownGraceSeconds * 1000)
  forceExit.unref()
  if (isListening) void shutdown(signal)
  else logger.info({ signal }, 'asked to stop while starting; stopping once started')
}
process.on('SIGTERM', () => onStopSignal('SIGTERM'))
process.on('SIGINT', () => onStopSignal('SIGINT'))

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

// The embedded database's thread starts loading PGlite now, while this thread loads the rest.
const pgliteThread = config.databaseUrl ? undefined : openPgliteFolder(config.dataDir)
// A failure is told where the database is opened below, not as an unhandled rejection meanwhile.
pgliteThread?.waitReady.catch(() => {})
const [
  { serve },
  { openDatabase },
  { runAccessCodesCommand },
  { ensureSomeAccessCode, syncConfiguredCodes, unusedAccessCode },
  { createConfiguredProviders, startConfiguredWorker },
  { SegmentationModelError },
  { createSegmenter },
  { createTextReader },
  { createListReader },
  { createApp },
  { createAppDeps, prepareIncomingDir },
  { createServices },
] = await Promise.all([
  import('@hono/node-server'),
  import('#server/db/client.ts'),
  import('#server/features/access/access-codes.command.ts'),
  import('#server/features/access/access-codes.service.ts'),
  import('#server/jobs/worker-runtime.ts'),
  import('#server/segmentation/model-file.ts'),
  import('#server/segmentation/segmenter.ts'),
  import('#server/features/marketplaces/read-text.ts'),
  import('#server/features/catalogue/import/list-reader.ts'),
  import('./app.ts'),
  import('./deps.ts'),
  import('./services.ts'),
])

const database = await openDatabase({
  pgliteThread,
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
// `npm run access-codes` while the server runs: the command comes through the data folder's
// lock socket and runs here, on the database only this process may open.
lock?.answer(async (request) =>
  request.tool === 'access-codes'
    ? runAccessCodesCommand(database.db, request.args)
    : { exitCode: 2, stdout: '', stderr: `this server does not run ${request.tool}\n` },
)

// The process's one segmentation model: the offline studio, keep-my-product and the marketplace
// measurer share it (started on first use, ended after an idle minute).
const segmenter = createSegmenter()
// The marketplace checker's OCR (a thread once a check reads text) and the catalogue's list
// reader (threads while a list is read): one each per process, closed on shutdown.
const textReader = config.marketplaceOcr ? createTextReader({ log: logger }) : null
const listReader = createListReader()
const deps = await createAppDeps({
  config,
  database,
  logger,
  segmenter,
  textReader,
  listReader,
  isShuttingDown: () => stopSignal !== null,
})
// The in-process worker's providers come first: a stored photo warms their model (services.ts).
const providers = config.worker.inProcess ? await configuredProviders() : null
const services = createServices(providers?.warmUp ? { ...deps, warmUpStudio: providers.warmUp } : deps)
const worker = providers ? await startConfiguredWorker(services, providers) : null
prepareIncomingDir(deps)
const app = createApp(services)

/** The in-process worker's providers; a missing or altered segmentation model stops the start with its own message. */
async function configuredProviders() {
  try {
    return await createConfiguredProviders(deps)
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

// A connection kept alive is closed by the server after keepAliveTimeout idle; Node's 5 s is
// shorter than a browser's or a proxy's, so a client could send on a connection at the moment the
// server closed it (read ECONNRESET). Longer than a load balancer's usual 60 s: the client closes first.
const serverOptions = { keepAliveTimeout: 65_000, headersTimeout: 66_000 }
const server = serve(
  { fetch: app.fetch, hostname: config.host, port: config.port, serverOptions },
  (info: AddressInfo) => {
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
    isListening = true
    if (stopSignal) void shutdown(stopSignal)
    else {
      void printBanner(`http://${shownHost}:${info.port}`)
      // What V8 compiled to get here is kept for the next start, if `npm start` asked for that
      // (scripts/start.js); otherwise this does nothing.
      flushCompileCache()
      // The segmentation model loads now, in the background: the first image need not wait for it.
      worker?.warmUp?.().catch((error: unknown) => {
        // A stop that came while it loaded ended it on purpose.
        if (stopSignal) return
        logger.warn({ err: error }, 'the segmentation model could not be loaded; images will try again')
      })
    }
  },
)

/**
 * What an operator needs after `npm start`, in plain lines among the JSON log: the address, and
 * the access code to sign in with while nobody has used it yet (else how to list the codes).
 */
async function printBanner(url: string) {
  const code = await unusedAccessCode(database.db).catch(() => null)
  const lines = [
    '',
    `  Vitrin is ready: ${url}`,
    code
      ? `  Access code: ${code}   (enter it at ${url}/access)`
      : '  Access codes: npm run access-codes -- list   (works while Vitrin runs)',
    '  New codes:    npm run access-codes -- create',
    '',
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}

// Responses still open, so that shutdown can end event streams (they stay open until their job
// ends; the browser reconnects to another server, or to this one once restarted).
const openResponses = new Set<ServerResponse>()
server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
  openResponses.add(response)
  response.on('close', () => openResponses.delete(response))
})

function isEventStream(response: ServerResponse): boolean {
  return String(response.getHeader('content-type') ?? '').startsWith('text/event-stream')
}

/** Stops taking requests, hands back jobs, lets requests finish, then closes everything and exits 0. */
async function shutdown(signal: string) {
  logger.info({ signal }, 'shutting down: no new requests, finishing those in flight')
  // Jobs in flight go back to the queue (a provider request keeps its id, to be resumed).
  await worker?.stop()
  const requestsDone = new Promise<void>((resolve) => server.close(() => resolve()))
  // Idle keep-alive connections and event streams would otherwise hold close() open.
  if ('closeIdleConnections' in server) server.closeIdleConnections()
  for (const response of openResponses) if (isEventStream(response)) response.destroy()
  // Requests get the grace period less a reserve for closing the rest; any still open then are cut.
  const requestDeadlineMs = Math.max(0, config.shutdownGraceSeconds * 1000 - closingReserveMs)
  let deadline: NodeJS.Timeout | undefined
  const isFinished = await Promise.race([
    requestsDone.then(() => true),
    new Promise<false>((resolve) => {
      deadline = setTimeout(() => resolve(false), requestDeadlineMs)
    }),
  ])
  clearTimeout(deadline)
  if (!isFinished) {
    logger.warn('requests still open near the end of the grace period; closing their connections')
    if ('closeAllConnections' in server) server.closeAllConnections()
    await requestsDone
  }
  // The OCR thread, if a check started it, the list reader's threads and the segmentation model's
  // process (requests are over).
  await Promise.all([textReader?.close(), listReader.close(), segmenter.close()])
  // Notices still pending go out (other processes' workers take the jobs handed back at once).
  await deps.notifier.close()
  await database.close()
  await lock?.release()
  logger.info('stopped')
  process.exit(0)
}
