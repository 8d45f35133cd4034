import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { makeInputPhoto, signUp, uploadAsset } from './lib/app-client.ts'
import { askChild, type Child, cpuTimeMs, originOf, startChild, stopChild } from './lib/child.ts'
import { readProcStatus, watchMemory } from './lib/memory.ts'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'
import { median, percentile } from './lib/stats.ts'
import {
  benchFalDelayMs,
  benchWorkerConcurrency,
  type EngineReport,
  type FalCall,
} from './support/engine-settings.ts'

// `npx tsx bench/engine.ts` (part of `npm run bench`): the generation engine's budgets.
// 1. A 10 MB, 24-megapixel JPEG through POST /api/assets to a stored asset (median of 5).
// 2. Orchestration overhead: 20 image jobs at once against a fal fake that takes 2 s, timed from
//    POST /api/generations to the stored result seen on the events stream (p95).
// 3. The server's peak RSS during that burst (report only).
// The app and the fal fake each run in their own process, so that this load generator shares
// an event loop with neither. Exits 1 when a budget is missed.
// To look into a run: BENCH_DUMP=<file> writes each job's timings and the server's report (its
// fal calls and rows) there as JSON; BENCH_CPU_PROFILE=<file> profiles the server (see
// support/engine-server.ts); BENCH_DATABASE_URL runs the server on PostgreSQL.

const uploadRuns = 5
const jobCount = 20
const uploadBudgetMs = 1500
// The fal fake's fixed 2 s plus 300 ms for everything Vitrin does around it.
const orchestrationBudgetMs = benchFalDelayMs + 300
const maxUploadBytes = 10 * 1024 * 1024

/** Signs up a seller on the Growth plan (1,000 images a month: room for every job here). */
async function signUpOnGrowth(origin: string): Promise<string> {
  const cookie = await signUp(origin)
  const plan = await fetch(`${origin}/api/billing/subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ planId: 'growth' }),
  })
  if (!plan.ok) throw new Error(`plan change answered ${plan.status}`)
  return cookie
}

/**
 * A 6000×4000 JPEG of Gaussian noise at the highest quality that stays within the 10 MB upload
 * limit: noise defeats compression, so the file is as large as a detailed camera photo. Made
 * once and kept in the temp folder, since finding the quality takes several encodes.
 */
async function makeLargeJpeg(): Promise<Buffer> {
  const cached = join(tmpdir(), 'vitrin-bench-24mp-10mb-v1.jpg')
  if (existsSync(cached)) return readFileSync(cached)
  const width = 6000
  const height = 4000
  const pixels = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .raw()
    .toBuffer()
  const encode = (quality: number) =>
    sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .toBuffer()
  // Size grows with quality: binary search for the largest file under the limit.
  let low = 1
  let high = 100
  let best: Buffer | null = null
  while (low <= high) {
    const quality = Math.floor((low + high) / 2)
    const bytes = await encode(quality)
    if (bytes.length <= maxUploadBytes) {
      best = bytes
      low = quality + 1
    } else high = quality - 1
  }
  if (!best) throw new Error('no JPEG quality fits the upload limit')
  // Written aside and renamed, so a run that stops halfway never leaves a truncated cache.
  const partial = `${cached}.${process.pid}.tmp`
  writeFileSync(partial, best)
  renameSync(partial, cached)
  return best
}

/** Follows GET /api/generations/:id/events until the generation is finished; returns its last state. */
async function followUntilFinished(origin: string, cookie: string, id: string): Promise<GenerationView> {
  const response = await fetch(`${origin}/api/generations/${id}/events`, {
    headers: { cookie, accept: 'text/event-stream' },
    signal: AbortSignal.timeout(60_000),
  })
  if (!response.ok || !response.body) throw new Error(`events answered ${response.status}`)
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`events for ${id} ended before the generation finished`)
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
      const generation = JSON.parse(data) as GenerationView
      if (['succeeded', 'failed', 'canceled'].includes(generation.status)) {
        await reader.cancel()
        return generation
      }
    }
  }
}

type JobTiming = { id: string; totalMs: number; sentAt: number; seenAt: number }

/** One image job from POST to its stored result, as a browser following the events stream sees it. */
async function runJob(origin: string, cookie: string, imageAssetId: string): Promise<JobTiming> {
  const sentAt = Date.now()
  const started = performance.now()
  const response = await fetch(`${origin}/api/generations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ mode: 'image', imageAssetId, prompt: 'on white marble' }),
  })
  if (response.status !== 202) throw new Error(`POST /api/generations answered ${response.status}`)
  const { generation } = (await response.json()) as { generation: GenerationView }
  const view = await followUntilFinished(origin, cookie, generation.id)
  const totalMs = performance.now() - started
  if (view.status !== 'succeeded') {
    throw new Error(`generation ${view.id} ended ${view.status} (${view.errorCode ?? 'no code'})`)
  }
  return { id: view.id, totalMs, sentAt, seenAt: Date.now() }
}

/** Asks the orchestration server to start counting ('reset'), or for what it saw since ('report'). */
function ask(child: Child, type: 'reset' | 'report'): Promise<EngineReport | undefined> {
  return askChild<EngineReport | undefined>(child, { type }, type === 'reset' ? 'reset-done' : 'report')
}

/**
 * Splits each job's time into its steps, from the parent's clock, the server's rows and its
 * fal calls (one machine, one clock). Returns the p95 of each step, in the order they happen.
 */
function breakDown(jobs: JobTiming[], report: EngineReport): Figure[] {
  const rows = new Map(report.jobs.map((row) => [row.id, row]))
  // Per request id: the first status call (the status stream opening, or the first poll) and
  // the result read, which starts the moment COMPLETED was heard.
  const firstStatus = new Map<string, number>()
  const resultRead = new Map<string, FalCall>()
  for (const call of report.falCalls) {
    const match = /\/requests\/([^/]+)(\/status)?/.exec(call.path)
    const requestId = match?.[1]
    if (!requestId) continue
    if (match[2]) firstStatus.set(requestId, Math.min(firstStatus.get(requestId) ?? call.start, call.start))
    else if (call.method === 'GET') resultRead.set(requestId, call)
  }
  const steps = {
    accepted: [] as number[],
    claimed: [] as number[],
    submitted: [] as number[],
    completed: [] as number[],
    stored: [] as number[],
    seen: [] as number[],
  }
  for (const job of jobs) {
    const row = rows.get(job.id)
    const requestId = row?.providerRequestId
    const following = requestId ? firstStatus.get(requestId) : undefined
    const result = requestId ? resultRead.get(requestId) : undefined
    if (!row?.startedAt || !row.finishedAt || following === undefined || !result) continue
    steps.accepted.push(row.createdAt - job.sentAt)
    steps.claimed.push(row.startedAt - row.createdAt)
    steps.submitted.push(following - row.startedAt)
    steps.completed.push(result.start - following)
    steps.stored.push(row.finishedAt - result.start)
    steps.seen.push(job.seenAt - row.finishedAt)
  }
  const results = [...resultRead.values()]
  const resultReads = results.map((call) => call.end - call.start)
  return [
    { name: '  p95 POST sent → row written', value: percentile(steps.accepted, 95), unit: 'ms' },
    { name: '  p95 row written → claimed by the worker', value: percentile(steps.claimed, 95), unit: 'ms' },
    {
      name: '  p95 claimed → submitted (input to fal storage)',
      value: percentile(steps.submitted, 95),
      unit: 'ms',
    },
    {
      name: "  p95 submitted → COMPLETED seen (fal's 2 s)",
      value: percentile(steps.completed, 95),
      unit: 'ms',
    },
    {
      name: '  p95 COMPLETED → stored (result, file, row)',
      value: percentile(steps.stored, 95),
      unit: 'ms',
    },
    { name: '    p50 fal result read (JSON)', value: percentile(resultReads, 50), unit: 'ms' },
    { name: '  p95 stored → seen on the events stream', value: percentile(steps.seen, 95), unit: 'ms' },
    {
      name: `  claim queries (wake-ups; one claim takes every free slot)`,
      value: report.claimQueries,
      unit: '',
    },
    ...statementFigures(report, jobs.length),
  ]
}

/** Embedded database statements per job, in all and for the five most frequent kinds. */
function statementFigures(report: EngineReport, jobCount: number): Figure[] {
  const kinds = Object.entries(report.statements).sort((a, b) => b[1] - a[1])
  if (kinds.length === 0) return []
  const total = kinds.reduce((sum, [, count]) => sum + count, 0)
  return [
    { name: '  database statements (embedded database)', value: total / jobCount, unit: '/job' },
    ...kinds.slice(0, 8).map(([kind, count]) => ({
      name: `    ${kind}`.slice(0, 48),
      value: count / jobCount,
      unit: '/job',
    })),
  ]
}

async function benchUpload(): Promise<Figure[]> {
  const photo = await makeLargeJpeg()
  const load = machineLoad()
  const { width, height } = await sharp(photo).metadata()
  const app = await startChild('bench/support/engine-server.ts', ['upload'])
  try {
    const origin = originOf(app)
    const cookie = await signUpOnGrowth(origin)
    // One upload first, untimed: it loads sharp's JPEG code paths and warms the JIT.
    await uploadAsset(origin, cookie, photo, 'warm-up.jpg')
    const timings: number[] = []
    for (let run = 0; run < uploadRuns; run++) {
      const started = performance.now()
      await uploadAsset(origin, cookie, photo, `camera-${run}.jpg`)
      timings.push(performance.now() - started)
    }
    const megapixels = ((width ?? 0) * (height ?? 0)) / 1e6
    // In MiB, the unit of the 10 MB limit (maxUploadBytes in features/assets/image-intake.ts).
    const label = `${(photo.length / 1024 / 1024).toFixed(1)} MiB, ${megapixels.toFixed(0)} MP JPEG`
    return [
      load,
      {
        name: `upload ${label}: median of ${uploadRuns}`,
        value: median(timings),
        unit: 'ms',
        budget: uploadBudgetMs,
      },
      { name: `upload ${label}: fastest`, value: Math.min(...timings), unit: 'ms' },
      { name: `upload ${label}: slowest`, value: Math.max(...timings), unit: 'ms' },
    ]
  } finally {
    await stopChild(app)
  }
}

async function benchOrchestration(): Promise<Figure[]> {
  const fal = await startChild('bench/support/fal-fake-server.ts')
  if (!fal.ready.url) throw new Error('the fal fake reported no URL')
  const app = await startChild('bench/support/engine-server.ts', ['orchestration', fal.ready.url])
  try {
    const origin = originOf(app)
    const pid = app.ready.pid ?? app.process.pid
    if (!pid) throw new Error('the app child has no pid')
    const cookie = await signUpOnGrowth(origin)
    const imageAssetId = await uploadAsset(origin, cookie, await makeInputPhoto(), 'product.jpg')
    // One job first, untimed: it loads the fal client and warms every path a job takes.
    await runJob(origin, cookie, imageAssetId)

    const load = machineLoad()
    await ask(app, 'reset')
    const rssBeforeMb = readProcStatus(pid, 'VmRSS') ?? Number.NaN
    const memory = watchMemory(pid)
    const cpuBefore = cpuTimeMs(pid)
    const jobs = await Promise.all(
      Array.from({ length: jobCount }, () => runJob(origin, cookie, imageAssetId)),
    )
    const cpuMs = cpuTimeMs(pid) - cpuBefore
    const peakRssMb = memory.stop()
    const report = await ask(app, 'report')
    if (!report) throw new Error('the app child sent no report')
    const dumpPath = process.env.BENCH_DUMP
    if (dumpPath) writeFileSync(dumpPath, JSON.stringify({ jobs, report }))

    const totals = jobs.map((job) => job.totalMs)
    const label = `${jobCount} image jobs, fal ${benchFalDelayMs / 1000} s`
    return [
      load,
      { name: `${label}: p50 POST → result`, value: percentile(totals, 50), unit: 'ms' },
      {
        name: `${label}: p95 POST → result`,
        value: percentile(totals, 95),
        unit: 'ms',
        budget: orchestrationBudgetMs,
      },
      { name: `${label}: max POST → result`, value: Math.max(...totals), unit: 'ms' },
      ...breakDown(jobs, report),
      { name: `server CPU time during the ${jobCount} jobs`, value: cpuMs, unit: 'ms' },
      { name: 'server RSS before the jobs (warmed up)', value: rssBeforeMb, unit: 'MB' },
      { name: `server peak RSS during the ${jobCount} jobs`, value: peakRssMb, unit: 'MB' },
    ]
  } finally {
    await stopChild(app)
    await stopChild(fal)
  }
}

// An argument runs one part alone (`upload` or `orchestration`), for looking into one figure.
const only = process.argv[2]
let isWithinBudgets = true
if (!only || only === 'upload') {
  const figures = await benchUpload()
  isWithinBudgets =
    printFigures('Upload through POST /api/assets (embedded database, local files)', figures) &&
    isWithinBudgets
}
if (!only || only === 'orchestration') {
  const figures = await benchOrchestration()
  isWithinBudgets =
    printFigures(
      `Generation orchestration: worker of ${benchWorkerConcurrency}, fal status followed by its stream`,
      figures,
    ) && isWithinBudgets
}
process.exit(isWithinBudgets ? 0 : 1)
