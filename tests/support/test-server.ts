import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { createApp } from '#server/app.ts'
import { adoptListeningPort, type Config, loadConfig } from '#server/config.ts'
import type { Database } from '#server/db/client.ts'
import { type AppDeps, createAppDeps, prepareIncomingDir } from '#server/deps.ts'
import type { EmailTransport, OutgoingEmail } from '#server/email/transport.ts'
import { readFalKey } from '#server/features/settings/settings.service.ts'
import type { Providers } from '#server/jobs/run-generation.ts'
import { startWorker, type Worker, type WorkerOptions } from '#server/jobs/worker.ts'
import { createLogger } from '#server/logger.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { createServices, type Services } from '#server/services.ts'
import { openTestDatabase } from './test-database.ts'

export type CapturingTransport = EmailTransport & {
  sent: OutgoingEmail[]
  failNext: (error: Error) => void
  /**
   * Holds every send from now on, as a mail server that does not answer would, until the
   * returned function is called; that function resolves once the held sends are done.
   */
  holdSends: () => () => Promise<void>
}

/** An email transport that keeps what it is given, and can be told to fail once or to hang. */
export function createCapturingTransport(): CapturingTransport {
  const sent: OutgoingEmail[] = []
  let nextError: Error | null = null
  let gate: { opened: Promise<void>; held: Promise<void>[] } | null = null
  return {
    kind: 'smtp',
    sent,
    failNext(error) {
      nextError = error
    },
    holdSends() {
      let open = () => {}
      const current = {
        opened: new Promise<void>((resolve) => (open = resolve)),
        held: [] as Promise<void>[],
      }
      gate = current
      return async () => {
        gate = null
        open()
        await Promise.all(current.held)
      }
    },
    async send(email) {
      if (gate) {
        const { opened, held } = gate
        const done = opened.then(() => {
          sent.push(email)
        })
        held.push(done)
        return done
      }
      if (nextError) {
        const error = nextError
        nextError = null
        throw error
      }
      sent.push(email)
    },
  }
}

export type TestServer = {
  url: string
  database: Database
  config: Config
  transport: CapturingTransport
  deps: AppDeps
  /** The services the app was built from (createServices over deps). */
  services: Services
  dataDir: string
  /** Starts a worker (another one, e.g. after stopping the first to act out a restart). */
  startWorker: (overrides?: Partial<WorkerOptions>) => Worker
  worker: Worker | null
  /** fetch against the server: `api('/api/contact', { method: 'POST', json: {...} })`. */
  api: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>
  close: () => Promise<void>
}

/** Starts the real app on a free port over real HTTP, on a fresh database. */
export async function startTestServer(
  env: Record<string, string> = {},
  options: {
    useConfiguredTransport?: boolean
    /** Providers for a worker started with the server (none: no worker runs). */
    providers?: Providers
    worker?: Partial<WorkerOptions>
    /** What main.ts passes when the process runs a worker: loads the model, cuts a new photo. */
    warmUpStudio?: AppDeps['warmUpStudio']
  } = {},
): Promise<TestServer> {
  const database = await openTestDatabase()
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-server-test-'))
  const config = loadConfig({
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    HOST: '127.0.0.1',
    PORT: '0',
    ...env,
  })
  const logger = createLogger({ level: config.logLevel })
  const transport = createCapturingTransport()
  const deps = await createAppDeps({
    config,
    database,
    logger,
    // The test process's one model, which the tests' own studios share (as a server's do).
    segmenter: sharedSegmenter(),
    ...(options.useConfiguredTransport ? {} : { transport }),
  })
  prepareIncomingDir(deps)
  const services = createServices(
    options.warmUpStudio ? { ...deps, warmUpStudio: options.warmUpStudio } : deps,
  )
  const app = createApp(services)
  // Every worker a test starts, so closing stops those a test left running (or replaced).
  const launched = new Set<Worker>()
  const launchWorker = (overrides: Partial<WorkerOptions> = {}): Worker => {
    const providers = overrides.providers ?? options.providers
    if (!providers) throw new Error('startWorker needs providers')
    const started = startWorker({
      db: database.db,
      storage: deps.storage,
      notifier: deps.notifier,
      outcomes: deps.jobOutcomes,
      logger,
      providers,
      segmenter: deps.segmenter,
      readOwnFalKey: (userId) => readFalKey({ db: database.db, keyBox: deps.keyBox }, userId),
      concurrency: 2,
      maxRunningPerUser: config.worker.maxRunningPerUser,
      isClaimSerialized: database.kind === 'postgres',
      leaseMs: 2000,
      pollMs: 50,
      maxAttempts: 3,
      retryBaseMs: 20,
      timeoutMs: { image: 20_000, video: 30_000, seo: 20_000 },
      ...options.worker,
      ...overrides,
    })
    const handle: Worker = {
      id: started.id,
      stop: async () => {
        launched.delete(handle)
        await started.stop()
      },
    }
    launched.add(handle)
    return handle
  }
  const worker = options.providers ? launchWorker() : null
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  const { port } = server.address() as AddressInfo
  const url = `http://127.0.0.1:${port}`
  // Without PUBLIC_URL, emailed links name this server's real port.
  adoptListeningPort(config, port)
  return {
    url,
    database,
    config,
    transport,
    deps,
    services,
    dataDir,
    startWorker: launchWorker,
    worker,
    api: apiOf(url),
    close: async () => {
      await Promise.all([...launched].map((running) => running.stop()))
      if ('closeAllConnections' in server) server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await Promise.all([deps.textReader?.close(), deps.listReader.close()])
      await deps.notifier.close()
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Empties every table, for test files that share one server across tests. */
export async function resetDatabase(database: Database): Promise<void> {
  const { sql } = await import('drizzle-orm')
  const result = (await database.db.execute(
    sql`select tablename from pg_tables where schemaname = 'public'`,
  )) as unknown as {
    rows: { tablename: string }[]
  }
  const tables = result.rows.map((row) => `"${row.tablename}"`)
  if (tables.length === 0) return
  for (let attempt = 1; ; attempt++) {
    try {
      await database.db.execute(sql.raw(`truncate ${tables.join(', ')} cascade`))
      return
    } catch (error) {
      // A worker's claim (generations, then assets) can deadlock with the truncate, which locks
      // the tables one by one; PostgreSQL then aborts the truncate, which is safe to repeat.
      const code =
        (error as { cause?: { code?: string }; code?: string }).cause?.code ??
        (error as { code?: string }).code
      if (code !== '40P01' || attempt >= 3) throw error
    }
  }
}

/** A client with its own cookie jar, like one browser, against a test server. */
/** fetch against the server at `url`, with `json` sent as a JSON body (POST unless told). */
export function apiOf(url: string): TestServer['api'] {
  return (path, init = {}) => {
    const { json, headers, ...rest } = init
    return fetch(url + path, {
      ...rest,
      ...(json === undefined
        ? {}
        : {
            method: rest.method ?? 'POST',
            body: JSON.stringify(json),
            headers: { 'content-type': 'application/json', ...headers },
          }),
      ...(json === undefined && headers ? { headers } : {}),
    })
  }
}

export type TestClient = {
  request: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>
  cookies: Map<string, string>
}

export function createTestClient(
  server: Pick<TestServer, 'api'>,
  defaults: { clientIp?: string; headers?: Record<string, string> } = {},
): TestClient {
  const cookies = new Map<string, string>()
  return {
    cookies,
    async request(path, init = {}) {
      const cookieHeader = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')
      const headers: Record<string, string> = {
        ...defaults.headers,
        ...(defaults.clientIp ? { 'x-forwarded-for': defaults.clientIp } : {}),
        ...(cookieHeader ? { cookie: cookieHeader } : {}),
        ...(init.headers as Record<string, string> | undefined),
      }
      const response = await server.api(path, { ...init, headers })
      for (const setCookie of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = setCookie.split(';')
        const separator = pair.indexOf('=')
        const name = pair.slice(0, separator).trim()
        const value = pair.slice(separator + 1).trim()
        const isExpired = attributes.some((a) => /max-age=0\b/i.test(a.trim())) || value === ''
        if (isExpired) cookies.delete(name)
        else cookies.set(name, value)
      }
      return response
    },
  }
}
