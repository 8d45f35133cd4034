import { generations } from '#server/db/schema/index.ts'
import { readFalKey } from '#server/features/settings/settings.service.ts'
import { startWorker, type Worker } from '#server/jobs/worker.ts'
import { jobTimeoutMs } from '#server/jobs/worker-runtime.ts'
import { createProviders } from '#server/providers/index.ts'
import { openBenchApp, serveBenchApp } from '../lib/app-server.ts'
import { cpuProfiler } from '../lib/cpu-profile.ts'
import {
  benchWorkerConcurrency,
  type EngineReport,
  type FalCall,
  isReportRequest,
} from './engine-settings.ts'

// Child process for bench/engine.ts: the real app over real HTTP on an embedded PGlite database
// in a temp folder (or on PostgreSQL when BENCH_DATABASE_URL is set; claim queries are then not
// counted), so the load generator does not share its event loop.
//
//   engine-server.ts upload                  the app alone (no worker): uploads
//   engine-server.ts orchestration <falUrl>  the app with IMAGE_PROVIDER=fal at <falUrl> and a
//                                            worker of benchWorkerConcurrency, following fal's
//                                            status streams as production does
//
// Reports { port, pid } over IPC once listening. In orchestration mode it also answers
// 'reset' and 'report' messages with what it saw (fal calls, job rows, claim queries), so the
// benchmark can say where the time goes. With BENCH_CPU_PROFILE=<file> it also profiles its CPU
// from 'reset' to 'report' and writes the profile there (open it in Chrome DevTools).
// SIGTERM stops it and removes the temp folder.

const mode = process.argv[2]
const falUrl = process.argv[3]
if (mode !== 'upload' && !(mode === 'orchestration' && falUrl)) {
  throw new Error('usage: engine-server.ts upload | orchestration <falUrl>')
}

const bench = await openBenchApp(
  `engine-${mode}`,
  mode === 'orchestration'
    ? {
        IMAGE_PROVIDER: 'fal',
        VIDEO_PROVIDER: 'fal',
        FAL_KEY: 'bench-fal-key-0001',
        FAL_BASE_URL: falUrl,
        // No capability on the offline studio, so this measures the engine and the fal adapter
        // alone. No SEO job is sent, so this endpoint (the discard port) is never called.
        SEO_PROVIDER: 'openai',
        OPENAI_API_KEY: 'bench-unused',
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        WORKER_CONCURRENCY: String(benchWorkerConcurrency),
        // The burst is one seller's: let all of it run at once and within the per-minute limit,
        // so this measures the engine's overhead, not the fairness caps (tested in fair-queue.test.ts).
        WORKER_MAX_RUNNING_PER_USER: String(benchWorkerConcurrency),
        GENERATIONS_PER_MINUTE: '1000',
        UPLOADS_PER_MINUTE: '1000',
        EVENT_STREAMS_PER_USER: String(benchWorkerConcurrency * 2),
      }
    : {},
)
const { config, logger, database, deps } = bench

/** Every fal call of the adapter, timed from request to response headers. */
let falCalls: FalCall[] = []
const tracedFetch: typeof fetch = async (input, init) => {
  const request = input instanceof Request ? input : null
  const url = new URL(request ? request.url : String(input))
  const start = Date.now()
  const response = await fetch(input, init)
  falCalls.push({
    method: init?.method ?? request?.method ?? 'GET',
    path: url.pathname,
    start,
    end: Date.now(),
  })
  return response
}

/**
 * Counts the embedded database's statements, by kind ("select sessions", "update generations",
 * "begin"...), and the worker's claim queries among them. Jobs need one claim each; every extra
 * one is a wake-up that found nothing. On the embedded database every statement waits its turn
 * on the one thread the HTTP server also runs on, so these counts are where a burst's time goes.
 */
let claimQueries = 0
let statements = new Map<string, number>()
function statementKind(text: string): string {
  const words = text.trim().toLowerCase().replace(/\s+/g, ' ')
  if (/^(begin|commit|rollback)/.test(words)) return words.split(' ')[0] ?? words
  const verb = /^(with|select|insert|update|delete)/.exec(words)?.[1] ?? words.slice(0, 12)
  const table = /(?:from|into|update) "?([a-z_]+)"?/.exec(words)?.[1] ?? '?'
  return `${verb} ${table}`
}
function countStatement(text: string): void {
  if (/"attempts" = "generations"."attempts" \+ 1/.test(text)) claimQueries++
  const kind = statementKind(text)
  statements.set(kind, (statements.get(kind) ?? 0) + 1)
}
type Queryable = { query: (text: string, ...rest: unknown[]) => Promise<unknown> }
type Execable = { exec: (text: string, ...rest: unknown[]) => Promise<unknown> }
function countOn(target: Queryable & Partial<Execable>): void {
  const query = target.query.bind(target)
  target.query = (text, ...rest) => {
    countStatement(text)
    return query(text, ...rest)
  }
  if (target.exec) {
    const exec = target.exec.bind(target)
    target.exec = (text, ...rest) => {
      countStatement(text)
      return exec(text, ...rest)
    }
  }
}
const pglite = database.pglite
if (pglite) {
  countOn(pglite as unknown as Queryable & Execable)
  // Statements inside a transaction go through the transaction's own handle.
  const transaction = pglite.transaction.bind(pglite)
  pglite.transaction = ((run: (tx: Queryable & Execable) => Promise<unknown>) => {
    countStatement('begin')
    return transaction(async (tx) => {
      countOn(tx as unknown as Queryable & Execable)
      const result = await run(tx as unknown as Queryable & Execable)
      countStatement('commit')
      return result
    })
  }) as typeof pglite.transaction
}

let worker: Worker | null = null
if (mode === 'orchestration') {
  // As startConfiguredWorker (jobs/worker-runtime.ts) builds it, with the fal traffic traced.
  const providers = await createProviders(config.providers, {
    segmenter: deps.segmenter,
    logger,
    tuning: { fal: { fetch: tracedFetch } },
  })
  worker = startWorker({
    segmenter: deps.segmenter,
    db: database.db,
    storage: deps.storage,
    notifier: deps.notifier,
    outcomes: deps.jobOutcomes,
    logger,
    providers,
    readOwnFalKey: (userId) => readFalKey({ db: database.db, keyBox: deps.keyBox }, userId),
    concurrency: config.worker.concurrency,
    maxRunningPerUser: config.worker.maxRunningPerUser,
    isClaimSerialized: database.kind === 'postgres',
    leaseMs: 30_000,
    pollMs: 1000,
    maxAttempts: 4,
    retryBaseMs: 5_000,
    timeoutMs: jobTimeoutMs,
  })
}

async function report(): Promise<EngineReport> {
  const rows = await database.db
    .select({
      id: generations.id,
      providerRequestId: generations.providerRequestId,
      createdAt: generations.createdAt,
      startedAt: generations.startedAt,
      finishedAt: generations.finishedAt,
    })
    .from(generations)
  return {
    falCalls,
    claimQueries,
    statements: Object.fromEntries(statements),
    jobs: rows.map((row) => ({
      id: row.id,
      providerRequestId: row.providerRequestId,
      createdAt: row.createdAt.getTime(),
      startedAt: row.startedAt?.getTime() ?? null,
      finishedAt: row.finishedAt?.getTime() ?? null,
    })),
  }
}

const profiler = cpuProfiler()

async function answer(type: 'reset' | 'report'): Promise<void> {
  if (type === 'reset') {
    falCalls = []
    claimQueries = 0
    statements = new Map()
    await profiler.start()
    process.send?.({ type: 'reset-done' })
    return
  }
  await profiler.stop()
  process.send?.({ type: 'report', data: await report() })
}

process.on('message', (message: unknown) => {
  if (!isReportRequest(message)) return
  answer(message.type).catch((error: unknown) => logger.error({ err: error }, 'bench report failed'))
})

serveBenchApp(bench, { beforeClose: async () => worker?.stop() })
