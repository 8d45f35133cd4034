import { type ChildProcess, spawn } from 'node:child_process'
import { randomInt } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import pg from 'pg'
import sharp from 'sharp'
import { slotsKeptFromBatches } from '#server/jobs/worker.ts'
import type { BatchView, CatalogueImportView } from '#shared/contracts/catalogue.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { csvOf, productRow, zipOf } from '#tests/support/catalogue-fixtures.ts'
import { signUp, uploadAsset } from './lib/app-client.ts'
import { type Child, cpuTimeMs, startChild, stopChild } from './lib/child.ts'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'
import { median, percentile } from './lib/stats.ts'
import { benchFalDelayMs } from './support/engine-settings.ts'

// `npx tsx bench/catalogue-workers.ts` (part of `npm run bench`): the catalogue's worker budgets
// (issue 13), on PostgreSQL only (BENCH_DATABASE_URL; without it this says so and skips).
// The scale-out set-up of docs/runtime-modes.md: the web server
// (src/server/main.ts with IN_PROCESS_WORKER=false) and separate `npm run worker` processes
// (src/server/worker-main.ts), all on one PostgreSQL database and one DATA_DIR for files, with
// IMAGE_PROVIDER=fal pointed at the fal fake (bench/support/fal-fake-server.ts, 2 s per job).
// Each worker runs WORKER_CONCURRENCY jobs at once (benchConcurrency below: 8, so that one worker
// takes about 2 minutes for 500 rows; the default of 2 would take over 8); the per-user running
// cap (WORKER_MAX_RUNNING_PER_USER) is set to its highest allowed value, so that one seller's
// batch can use every slot and the figures are about the workers, not the fairness cap.
// 1. Throughput: a 500-row batch (CSV and a ZIP of 500 small real JPEGs through the catalogue
//    API, one studio image per product) with 1, 2 and 4 worker processes, a fresh seller and
//    batch each; timed from the start request to the last job finished (the jobs' own rows).
//    Budget: 2 workers ≥ 1.8 × 1 worker; 4 reported.
// 2. Queue wait of another seller's single image job (started_at − created_at of its row, as
//    its events stream shows them), 20 one after another, on an idle queue and then while a
//    500-row batch runs on 2 workers. Budget: p95 during the batch ≤ 2 × p95 idle. Reported
//    beside it, from the rows: how much of each wait was for a slot to free and how much the
//    claim after that took. Each worker keeps one of its slots from batches, so the batch runs
//    on the others and the single job should find a slot free at once.
// Exits 1 when a budget is missed. BENCH_WORKER_CONCURRENCY changes the slots per worker.
//
// The bench database is shared with the other benches, some of which leave jobs queued (the
// billing bench runs no worker): those would be taken by these workers, so every job still
// queued or running when this starts is canceled first (the count is printed).

const rowCount = 500
const workerCounts = [1, 2, 4] as const
const benchConcurrency = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 8)
const throughputRatioAtLeast = 1.8
const singleJobs = 20
const waitRatioBudget = 2
const batchPrompt = 'on white marble, soft daylight'

// An argument runs one part alone (`throughput` or `wait`), for looking into one figure.
const only = process.argv[2]
const databaseUrl = process.env.BENCH_DATABASE_URL
if (!databaseUrl) {
  console.log(
    '\nCatalogue workers: skipped. These figures need PostgreSQL (separate worker processes share ' +
      'its queue): set BENCH_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/vitrin_bench',
  )
  process.exit(0)
}

/** A free TCP port on 127.0.0.1 for the web server (main.ts listens where PORT says). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (!address || typeof address === 'string') throw new Error('no free port')
  return address.port
}

type Proc = { child: ChildProcess; exited: Promise<void> }

function spawnNode(script: string, env: Record<string, string>, stdout: 'pipe' | 'ignore'): Proc {
  // node --import tsx, not npm or the tsx CLI: the child is the process itself, so its exit is its own.
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', stdout, 'inherit'],
    env: { ...process.env, ...env },
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return { child, exited }
}

async function stopProc(proc: Proc): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGTERM')
  const force = setTimeout(() => proc.child.kill('SIGKILL'), 15_000)
  await proc.exited
  clearTimeout(force)
}

/** The web server without a worker; resolves once /readyz answers. */
async function startWebServer(env: Record<string, string>): Promise<Proc & { origin: string }> {
  const port = await freePort()
  const proc = spawnNode(
    'src/server/main.ts',
    { ...env, PORT: String(port), HOST: '127.0.0.1', IN_PROCESS_WORKER: 'false' },
    'ignore',
  )
  const origin = `http://127.0.0.1:${port}`
  for (;;) {
    if (proc.child.exitCode !== null) throw new Error(`main.ts exited with ${proc.child.exitCode}`)
    const ok = await fetch(`${origin}/readyz`)
      .then((r) => r.ok)
      .catch(() => false)
    if (ok) break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { ...proc, origin }
}

/** A `npm run worker` process; resolves once it logged "worker started" (its dispatcher runs). */
async function startWorkerProcess(env: Record<string, string>): Promise<Proc> {
  // Info level, as a deployment logs: the start line is the readiness signal.
  const proc = spawnNode('src/server/worker-main.ts', { ...env, LOG_LEVEL: 'info' }, 'pipe')
  const lines = createInterface({ input: proc.child.stdout as NodeJS.ReadableStream })
  await new Promise<void>((resolve, reject) => {
    proc.exited.then(() => reject(new Error(`worker-main.ts exited with ${proc.child.exitCode}`)))
    lines.on('line', (line) => {
      if (line.includes('"worker started"')) resolve()
      else if (/"level":(40|50|60)/.test(line)) process.stderr.write(`worker: ${line}\n`)
    })
  })
  return proc
}

// --- The seller's side, through the API ----------------------------------------------------

type Seller = { headers: Record<string, string> }

/** A new seller on the Growth plan (1,000 images a month: one 500-row batch, or the single jobs). */
async function newSeller(origin: string): Promise<Seller> {
  // An address of their own: sign-ups are limited per address, and on PostgreSQL the count outlives a run.
  const address = { 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` }
  const headers = { ...address, cookie: await signUp(origin, address) }
  const plan = await fetch(`${origin}/api/billing/subscription`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ planId: 'growth' }),
  })
  if (!plan.ok) throw new Error(`plan change answered ${plan.status}: ${await plan.text()}`)
  return { headers }
}

async function callJson<T>(
  origin: string,
  seller: Seller,
  path: string,
  init: { method?: string; body?: FormData | string } = {},
): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...seller.headers,
      ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body,
  })
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as T
}

function formWith(field: string, bytes: Buffer, name: string): FormData {
  const form = new FormData()
  form.append(field, new Blob([new Uint8Array(bytes)]), name)
  return form
}

/** 500 distinct small product photos (real JPEGs, 320 px, a few KB to a few tens of KB each). */
async function makePhotos(count: number): Promise<Buffer[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      sharp({
        create: {
          width: 320,
          height: 320,
          channels: 3,
          background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 },
          noise: { type: 'gaussian', mean: 128, sigma: 20 },
        },
      })
        .blur(1)
        .jpeg({ quality: 80 })
        .toBuffer(),
    ),
  )
}

/** A draft batch of `rowCount` products with their photos checked and stored, ready to start. */
async function readyBatch(origin: string, seller: Seller, photos: Buffer[]): Promise<string> {
  const rows = Array.from({ length: rowCount }, (_, i) => productRow(i + 1))
  const draft = await callJson<CatalogueImportView>(origin, seller, '/api/catalogue/imports', {
    body: formWith('list', csvOf(rows), 'ürünler.csv'),
  })
  const zip = await zipOf(photos.map((data, i) => ({ name: `SKU-${i + 1}.jpg`, data, store: true })))
  const checked = await callJson<CatalogueImportView>(
    origin,
    seller,
    `/api/catalogue/batches/${draft.batch.id}/photos`,
    { body: formWith('photos', zip, 'fotoğraflar.zip') },
  )
  if (!checked.photosChecked || checked.problems.length > 0 || checked.batch.productCount !== rowCount) {
    throw new Error(
      `the draft is not ready: ${checked.batch.productCount} products, problems ${JSON.stringify(checked.problems.slice(0, 3))}`,
    )
  }
  return draft.batch.id
}

/** Reads server-sent events' data (JSON) until `onEvent` returns true for one; returns that one. */
async function followEvents<T>(
  origin: string,
  seller: Seller,
  path: string,
  onEvent: (data: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    headers: { ...seller.headers, accept: 'text/event-stream' },
    signal: AbortSignal.timeout(timeoutMs),
  })
  if (!response.ok || !response.body) throw new Error(`${path} answered ${response.status}`)
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`${path} ended before it was expected to`)
    buffer += value
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length).trimStart())
        .join('\n')
      if (!data) continue
      const parsed = JSON.parse(data) as T
      if (onEvent(parsed)) {
        await reader.cancel()
        return parsed
      }
    }
  }
}

type BatchRun = {
  /** The start request sent, epoch ms. */
  sentAt: number
  /** The finished view seen on the events stream, epoch ms. */
  seenFinishedAt: number
  /** Most rows running at once, as the events showed. */
  peakRunning: number
  view: BatchView
}

async function startBatch(origin: string, seller: Seller, batchId: string): Promise<number> {
  const sentAt = Date.now()
  await callJson<BatchView>(origin, seller, `/api/catalogue/batches/${batchId}/start`, {
    body: JSON.stringify({ outputs: { studio: { prompt: batchPrompt, aspectRatio: '1:1' } } }),
  })
  return sentAt
}

/** Follows a started batch on its events stream (as its page does) until it is finished. */
async function followBatch(
  origin: string,
  seller: Seller,
  batchId: string,
  sentAt: number,
  onView?: (view: BatchView) => void,
): Promise<BatchRun> {
  let peakRunning = 0
  const view = await followEvents<BatchView>(
    origin,
    seller,
    `/api/catalogue/batches/${batchId}/events`,
    (next) => {
      peakRunning = Math.max(peakRunning, next.counts.running)
      onView?.(next)
      return next.batch.status === 'finished' || next.batch.status === 'canceled'
    },
    30 * 60_000,
  )
  const seenFinishedAt = Date.now()
  if (view.batch.status !== 'finished' || view.counts.done !== rowCount) {
    throw new Error(`batch ended ${view.batch.status} with ${JSON.stringify(view.counts)}`)
  }
  return { sentAt, seenFinishedAt, peakRunning, view }
}

/** One image generation, followed to its end; returns its row's times. */
async function singleJob(origin: string, seller: Seller, imageAssetId: string): Promise<GenerationView> {
  const { generation } = await callJson<{ generation: GenerationView }>(origin, seller, '/api/generations', {
    body: JSON.stringify({ mode: 'image', imageAssetId, prompt: 'on a linen table' }),
  })
  const view = await followEvents<GenerationView>(
    origin,
    seller,
    `/api/generations/${generation.id}/events`,
    (next) => ['succeeded', 'failed', 'canceled'].includes(next.status),
    120_000,
  )
  if (view.status !== 'succeeded') throw new Error(`single job ended ${view.status} (${view.errorCode})`)
  return view
}

function queueWaitMs(view: GenerationView): number {
  if (!view.startedAt) throw new Error(`generation ${view.id} has no start time`)
  return Date.parse(view.startedAt) - Date.parse(view.createdAt)
}

// --- The database's side ---------------------------------------------------------------------

type JobTimes = { first: number; last: number; attempts: number; jobs: number }

/** The batch's jobs as their rows tell: first accepted, last finished, tries in all. */
async function batchJobTimes(db: pg.Pool, batchId: string): Promise<JobTimes> {
  const { rows } = await db.query<{ first: Date; last: Date; attempts: string; jobs: string }>(
    `select min(g.created_at) as first, max(g.finished_at) as last,
       sum(g.attempts) as attempts, count(*) as jobs
     from generations g join catalogue_rows r on r.id = g.batch_row_id
     where r.batch_id = $1`,
    [batchId],
  )
  const [row] = rows
  if (!row) throw new Error('no jobs for the batch')
  return {
    first: row.first.getTime(),
    last: row.last.getTime(),
    attempts: Number(row.attempts),
    jobs: Number(row.jobs),
  }
}

/**
 * For each single job: how long after it was queued the batch's next job finished (freeing a
 * slot), and how long after that it started (at least 0: a slot may already have been free).
 */
async function nextBatchFinishes(
  db: pg.Pool,
  batchId: string,
  ids: string[],
): Promise<{ untilFinish: number; afterFinish: number }[]> {
  const { rows } = await db.query<{ until_finish: number | null; after_finish: number | null }>(
    `select extract(epoch from nf.at - s.created_at) * 1000 as until_finish,
       greatest(0, extract(epoch from s.started_at - nf.at) * 1000) as after_finish
     from generations s
     cross join lateral (
       select min(g.finished_at) as at from generations g
       join catalogue_rows r on r.id = g.batch_row_id
       where r.batch_id = $1 and g.finished_at >= s.created_at
     ) nf
     where s.id = any($2::uuid[])`,
    [batchId, ids],
  )
  return rows.map((row) => ({
    untilFinish: Number(row.until_finish ?? Number.NaN),
    afterFinish: Number(row.after_finish ?? Number.NaN),
  }))
}

/** Cancels jobs other runs (or other benches) left queued or running; returns how many. */
async function setAsideLeftoverJobs(db: pg.Pool): Promise<number> {
  const result = await db.query(
    `update generations set status = 'canceled', error_code = 'GENERATION_CANCELED',
       finished_at = now(), locked_by = null, lease_until = null
     where status in ('queued', 'running')`,
  )
  return result.rowCount ?? 0
}

/**
 * Starts the draft's batch on the running workers and, once it runs as wide as `batchWidth`
 * allows, sends the single seller's jobs one after another; each must have started while the
 * batch still had jobs running. Returns their queue waits, split by the batch's rows into the
 * wait for the next of its jobs to finish (a slot to free) and the claim after that.
 */
async function waitDuringBatch(
  draft: { seller: Seller; batchId: string } | undefined,
  single: Seller,
  singleAsset: string,
  batchWidth: number,
) {
  if (!draft) throw new Error('missing draft')
  const origin = web?.origin ?? ''
  const sentAt = await startBatch(origin, draft.seller, draft.batchId)
  let isWide: () => void = () => {}
  const wide = new Promise<void>((resolve) => {
    isWide = resolve
  })
  // Each worker keeps a slot from batches (src/server/jobs/worker.ts).
  const width = Math.min(batchWidth, 2 * (benchConcurrency - slotsKeptFromBatches(benchConcurrency)))
  const following = followBatch(origin, draft.seller, draft.batchId, sentAt, (view) => {
    if (view.counts.running >= width) isWide()
  })
  await Promise.race([wide, following])
  const views: GenerationView[] = []
  for (let i = 0; i < singleJobs; i++) views.push(await singleJob(origin, single, singleAsset))
  const run = await following
  const times = await batchJobTimes(db, draft.batchId)
  const during = views.filter((view) => view.startedAt && Date.parse(view.startedAt) < times.last)
  if (during.length < singleJobs) {
    throw new Error(`only ${during.length} of ${singleJobs} single jobs ran during the batch; use more rows`)
  }
  const waits = views.map(queueWaitMs)
  const slotWaits = await nextBatchFinishes(
    db,
    draft.batchId,
    views.map((view) => view.id),
  )
  const p95 = percentile(waits, 95)
  return {
    p95,
    figures: (label: string): Figure[] => [
      { name: `${label}: p50`, value: median(waits), unit: 'ms' },
      { name: '  p95', value: p95, unit: 'ms' },
      { name: '  max', value: Math.max(...waits), unit: 'ms' },
      {
        name: '  p95 created → next batch job finished',
        value: percentile(
          slotWaits.map((w) => w.untilFinish),
          95,
        ),
        unit: 'ms',
      },
      {
        name: '  p95 that finish → single job started',
        value: percentile(
          slotWaits.map((w) => w.afterFinish),
          95,
        ),
        unit: 'ms',
      },
      { name: '  the batch: rows running at most', value: run.peakRunning, unit: '' },
      {
        name: '  the batch: rows/s',
        value: rowCount / ((times.last - sentAt) / 1000),
        unit: 'rows/s',
        digits: 2,
      },
    ],
  }
}

type CpuUse = { workersMs: number; othersMs: number; machineBusy: number }

/** The machine's busy and total CPU ticks so far (/proc/stat, every core). */
function machineTicks(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number)
  const total = fields.reduce((sum, value) => sum + value, 0)
  // idle and iowait are the 4th and 5th fields.
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total }
}

/**
 * CPU used from now until stop(): by the worker processes, by the web server and the fal fake,
 * and the whole machine's busy share (other work on it, PostgreSQL, this load generator).
 */
function cpuWatch() {
  const pids = () => ({
    workers: workers.flatMap((proc) => (proc.child.pid ? [proc.child.pid] : [])),
    others: [web?.child.pid, fal?.process.pid].filter((pid): pid is number => pid !== undefined),
  })
  const sum = (list: number[]) => list.reduce((total, pid) => total + cpuTimeMs(pid), 0)
  const at = pids()
  const before = { workers: sum(at.workers), others: sum(at.others), machine: machineTicks() }
  return {
    stop(): CpuUse {
      const machine = machineTicks()
      return {
        workersMs: sum(at.workers) - before.workers,
        othersMs: sum(at.others) - before.others,
        machineBusy: (machine.busy - before.machine.busy) / (machine.total - before.machine.total),
      }
    },
  }
}

// --- The run ---------------------------------------------------------------------------------

const dataDir = mkdtempSync(join(tmpdir(), 'vitrin-bench-catalogue-workers-'))
const db = new pg.Pool({ connectionString: databaseUrl, max: 2 })
let fal: Child | null = null
let web: (Proc & { origin: string }) | null = null
let workers: Proc[] = []

async function startWorkers(count: number, env: Record<string, string>): Promise<void> {
  workers = await Promise.all(Array.from({ length: count }, () => startWorkerProcess(env)))
}

async function stopWorkers(): Promise<void> {
  await Promise.all(workers.map(stopProc))
  workers = []
}

let isWithinBudgets = true
try {
  const load = machineLoad()
  fal = await startChild('bench/support/fal-fake-server.ts')
  if (!fal.ready.url) throw new Error('the fal fake reported no URL')
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    APP_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: '/nonexistent',
    LOG_LEVEL: 'warn',
    IMAGE_PROVIDER: 'fal',
    VIDEO_PROVIDER: 'fal',
    FAL_KEY: 'bench-fal-key-0001',
    FAL_BASE_URL: fal.ready.url,
    // No SEO job is sent, so this endpoint (the discard port) is never called.
    SEO_PROVIDER: 'openai',
    OPENAI_API_KEY: 'bench-unused',
    OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    WORKER_CONCURRENCY: String(benchConcurrency),
    // The highest the setting allows: a batch may take every slot of every worker.
    WORKER_MAX_RUNNING_PER_USER: '1000',
    TRUST_PROXY: 'true',
    GENERATIONS_PER_MINUTE: '10000',
    GENERATIONS_PER_MINUTE_PER_CLIENT: '10000',
  }
  web = await startWebServer(env)
  const { origin } = web
  // After the web server's start, which migrated the database (a new one has no tables before).
  const leftovers = await setAsideLeftoverJobs(db)

  // Every draft is made before any worker runs, so the imports' work (storing 500 photos each)
  // does not share the CPU with the timed runs.
  const photos = await makePhotos(rowCount)
  const drafts: { seller: Seller; batchId: string }[] = []
  const throughputRuns = only === 'wait' ? 0 : workerCounts.length
  for (let i = 0; i < throughputRuns + (only === 'throughput' ? 0 : 1); i++) {
    const seller = await newSeller(origin)
    drafts.push({ seller, batchId: await readyBatch(origin, seller, photos) })
  }
  const single = await newSeller(origin)
  const singleAsset = await uploadAsset(
    origin,
    single.headers.cookie ?? '',
    photos[0] ?? Buffer.alloc(0),
    'product.jpg',
  )

  if (only !== 'wait') {
    // 1. Throughput with 1, 2 and 4 workers.
    const throughput = new Map<
      number,
      { rowsPerSecond: number; run: BatchRun; times: JobTimes; cpu: CpuUse }
    >()
    for (const [index, count] of workerCounts.entries()) {
      const draft = drafts[index]
      if (!draft) throw new Error('missing draft')
      await startWorkers(count, env)
      const cpu = cpuWatch()
      const sentAt = await startBatch(origin, draft.seller, draft.batchId)
      const run = await followBatch(origin, draft.seller, draft.batchId, sentAt)
      const used = cpu.stop()
      const times = await batchJobTimes(db, draft.batchId)
      await stopWorkers()
      throughput.set(count, {
        rowsPerSecond: rowCount / ((times.last - sentAt) / 1000),
        run,
        times,
        cpu: used,
      })
    }
    const rate = (count: number) => throughput.get(count)?.rowsPerSecond ?? Number.NaN
    const throughputFigures: Figure[] = [
      load,
      { name: 'jobs per worker at once (WORKER_CONCURRENCY)', value: benchConcurrency, unit: '' },
      { name: 'jobs one seller may run (WORKER_MAX_RUNNING_PER_USER)', value: 1000, unit: '' },
      ...(leftovers > 0
        ? [{ name: 'leftover jobs of earlier runs canceled', value: leftovers, unit: '' }]
        : []),
      ...workerCounts.flatMap((count): Figure[] => {
        const entry = throughput.get(count)
        if (!entry) return []
        return [
          {
            name: `${count} worker(s): ${rowCount} rows, start → last done`,
            value: rate(count),
            unit: 'rows/s',
            digits: 2,
          },
          {
            name: `  seconds (ideal at ${benchFalDelayMs / 1000} s a job: ${((rowCount / (count * benchConcurrency)) * (benchFalDelayMs / 1000)).toFixed(0)})`,
            value: (entry.times.last - entry.run.sentAt) / 1000,
            unit: 's',
            digits: 1,
          },
          { name: '  most rows running at once (events)', value: entry.run.peakRunning, unit: '' },
          { name: '  tries (one per job when none failed)', value: entry.times.attempts, unit: '' },
          { name: '  CPU: worker processes', value: entry.cpu.workersMs / 1000, unit: 's', digits: 1 },
          { name: '  CPU: web server, fal fake', value: entry.cpu.othersMs / 1000, unit: 's', digits: 1 },
          { name: '  CPU: whole machine busy', value: entry.cpu.machineBusy * 100, unit: '%' },
          {
            name: '  finished seen on the events stream after',
            value: entry.run.seenFinishedAt - entry.times.last,
            unit: 'ms',
          },
        ]
      }),
      {
        name: 'throughput 2 workers ÷ 1 worker',
        value: rate(2) / rate(1),
        unit: '×',
        atLeast: throughputRatioAtLeast,
        digits: 2,
      },
      { name: 'throughput 4 workers ÷ 1 worker', value: rate(4) / rate(1), unit: '×', digits: 2 },
    ]
    isWithinBudgets =
      printFigures(
        `Catalogue batch throughput on PostgreSQL: ${rowCount} rows, fal fake ${benchFalDelayMs / 1000} s, npm run worker processes`,
        throughputFigures,
      ) && isWithinBudgets
  }

  if (only !== 'throughput') {
    // 2. A single job's queue wait: idle, then during a batch on 2 workers.
    const waitLoad = machineLoad()
    await startWorkers(2, env)
    // One job first, untimed: the workers' first fal call loads and warms the adapter.
    await singleJob(origin, single, singleAsset)
    const idle: number[] = []
    for (let i = 0; i < singleJobs; i++) idle.push(queueWaitMs(await singleJob(origin, single, singleAsset)))
    const idleP95 = percentile(idle, 95)
    const slots = 2 * benchConcurrency
    const busy = await waitDuringBatch(drafts[throughputRuns], single, singleAsset, 1000)
    await stopWorkers()
    // Each worker keeps one slot from batches (src/server/jobs/worker.ts slotsKeptFromBatches).
    const batchSlots = 2 * (benchConcurrency - slotsKeptFromBatches(benchConcurrency))
    isWithinBudgets =
      printFigures(`Queue wait of another seller's single image job (${singleJobs} one after another)`, [
        waitLoad,
        { name: 'idle queue (2 workers): p50', value: median(idle), unit: 'ms' },
        { name: 'idle queue: p95', value: idleP95, unit: 'ms' },
        { name: 'idle queue: max', value: Math.max(...idle), unit: 'ms' },
        ...busy.figures(`during a ${rowCount}-row batch on ${batchSlots} of ${slots} slots`),
        {
          name: '  p95 during the batch ÷ p95 idle',
          value: busy.p95 / idleP95,
          unit: '×',
          budget: waitRatioBudget,
          digits: 2,
        },
      ]) && isWithinBudgets
  }
} finally {
  await stopWorkers()
  if (web) await stopProc(web)
  if (fal) await stopChild(fal)
  await db.end()
  rmSync(dataDir, { recursive: true, force: true })
}
process.exit(isWithinBudgets ? 0 : 1)
