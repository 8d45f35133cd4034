import { randomUUID } from 'node:crypto'
import type { Db } from '#server/db/client.ts'
import type { AssetRow } from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import {
  claimJobs,
  readProviderRequestId,
  recordProviderRequest,
  renewLease,
  saveQueuePosition,
} from '#server/job-queue/claim-jobs.ts'
import type { ClaimedJob, HeldJob } from '#server/job-queue/job-queue.ts'
import type { JobOutcomes } from '#server/job-queue/outcomes.ts'
import { failJob, handBackJob, retryJob, stopJob, succeedJob } from '#server/job-queue/settle-job.ts'
import type { Logger } from '#server/logger.ts'
import { ProviderError, type ProviderFailure, type ProviderProgress } from '#server/providers/types.ts'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import { withSharedReads } from '#server/storage/shared-reads.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { GenerationMode } from '#shared/contracts/generations.ts'
import type { ErrorCode } from '#shared/errors.ts'
import { type FactsMeasurer, type FactsMeasurerSettings, startFactsMeasurer } from './facts-measurer.ts'
import { type Providers, runGeneration } from './run-generation.ts'

export type WorkerOptions = {
  db: Db
  storage: ObjectStorage
  providers: Providers
  notifier: Notifier
  /** What other features do when a job settles (job-outcomes.ts). */
  outcomes: JobOutcomes
  logger: Logger
  /** Reads a user's own fal key (bring-your-own) for their jobs. */
  readOwnFalKey: (userId: string) => Promise<string | null>
  /** Finds products for "keep my product exactly": the process's one segmentation model. */
  segmenter: Pick<Segmenter, 'segment'>
  /** Jobs run at once by this worker. */
  concurrency: number
  /** Jobs one user may have running at once, across every worker sharing the queue. */
  maxRunningPerUser: number
  /**
   * Takes a database-wide lock around each claim, so claims by several processes see each
   * other's and the per-user cap is exact. Needed on PostgreSQL; the embedded database runs one
   * statement at a time anyway.
   */
  isClaimSerialized: boolean
  /** How long a claim holds without a heartbeat; a crashed worker's jobs are picked up after it. */
  leaseMs: number
  /** How often to look for work when nothing wakes the worker. */
  pollMs: number
  /**
   * The same while the notifier hears other processes (PostgreSQL LISTEN is up): new work
   * anywhere wakes the worker then, and looking only finds retries come due elsewhere and jobs
   * of crashed workers. Defaults to pollMs.
   */
  crossProcessPollMs?: number
  /** Tries before an interrupted or transiently failing job fails for good. */
  maxAttempts: number
  /** First retry delay; doubles with each attempt. */
  retryBaseMs: number
  /** Per-mode time limit of one job. */
  timeoutMs: Record<GenerationMode, number>
  /**
   * The marketplace checker's facts of new image results, measured after their jobs settle
   * (facts-measurer.ts), yielding to this worker's jobs. Absent, or concurrency 0: not measured
   * here (a result is then measured on its first check).
   */
  facts?: FactsMeasurerSettings | undefined
}

export type Worker = { stop: () => Promise<void>; readonly id: string }

const failureCodes: Record<ProviderFailure, ErrorCode> = {
  rejected: 'PROVIDER_REJECTED',
  unavailable: 'PROVIDER_UNAVAILABLE',
  rate_limited: 'PROVIDER_RATE_LIMITED',
  unauthorized: 'PROVIDER_UNAUTHORIZED',
  bad_output: 'PROVIDER_BAD_OUTPUT',
  facts_broken: 'SEO_FACTS_BROKEN',
  timeout: 'GENERATION_TIMEOUT',
  canceled: 'GENERATION_CANCELED',
}

/** How long a reported progress waits before it is saved (later reports in between replace it). */
const progressSaveDelayMs = 100

/** Failures worth another try later (the same input may well work). */
const transientFailures = new Set<ProviderFailure>(['unavailable', 'rate_limited'])

type StopReason = 'canceled' | 'timeout' | 'shutdown' | 'lease-lost'

/** One worker's running state, shared by its dispatcher and its jobs. */
type WorkerState = {
  id: string
  options: WorkerOptions
  log: Logger
  /** The storage jobs read from: jobs started together from one photo read its file once. */
  storage: ObjectStorage
  /** Each running job's stop switch, by generation id. */
  inFlight: Map<string, AbortController>
  /** Each running job, until it has settled. */
  running: Set<Promise<void>>
  /** How many of them are catalogue batch jobs. */
  runningBatchJobs: number
  /** How to wake the dispatcher while it waits. */
  wakers: Set<() => void>
  /** Wake-ups set for when this worker's retries come due. */
  retryTimers: Set<NodeJS.Timeout>
  isStopping: boolean
  /**
   * Set by a "new work" notice (or a slot freed while work may wait): one that comes while a
   * claim is in flight (and may have missed the new row) sends the dispatcher round again
   * instead of being lost until the next poll.
   */
  hasNews: boolean
  /**
   * Whether due jobs may be waiting for a free slot: the last claim filled every slot, or new
   * work was announced while none was free. Only then does a finished job send the dispatcher
   * round at once; otherwise the next poll looks (for other processes' jobs, retries that have
   * come due and expired leases), so a burst of finishing jobs costs no empty claims.
   */
  isBacklogPossible: boolean
  /** The facts measurer beside the jobs, if this worker runs one. */
  facts: FactsMeasurer | null
}

/**
 * The job loop: claims generations from the database queue (job-queue/job-queue.ts),
 * runs them, and records the outcome together with the quota (kept on success, given back on
 * failure), exactly once.
 */
export function startWorker(options: WorkerOptions): Worker {
  const id = `worker-${randomUUID().slice(0, 8)}`
  const state: WorkerState = {
    id,
    options,
    log: options.logger.child({ worker: id }),
    storage: withSharedReads(options.storage),
    inFlight: new Map(),
    running: new Set(),
    runningBatchJobs: 0,
    wakers: new Set(),
    retryTimers: new Set(),
    isStopping: false,
    hasNews: false,
    isBacklogPossible: false,
    facts: null,
  }
  if (options.facts && options.facts.concurrency > 0) {
    state.facts = startFactsMeasurer(
      { db: options.db, storage: options.storage, log: state.log, claimedBy: id },
      options.facts,
      // Jobs first: a measurement starts only while a slot is free and no job is known to wait.
      () => state.running.size < options.concurrency && !state.isBacklogPossible && !state.hasNews,
    )
  }
  const unsubscribe = options.notifier.onWorkAvailable(() => announceWork(state))
  const dispatcher = dispatch(state)
  state.log.info(
    { concurrency: options.concurrency, maxRunningPerUser: options.maxRunningPerUser },
    'worker started',
  )
  return {
    id,
    async stop() {
      state.isStopping = true
      unsubscribe()
      for (const timer of state.retryTimers) clearTimeout(timer)
      wakeDispatcher(state)
      for (const controller of state.inFlight.values()) controller.abort('shutdown' satisfies StopReason)
      await Promise.all([dispatcher, state.facts?.stop()])
      state.log.info('worker stopped')
    },
  }
}

function wakeDispatcher(state: WorkerState): void {
  for (const wake of [...state.wakers]) wake()
}

/** Work may be waiting: the dispatcher looks (again, if a claim is in flight). */
function announceWork(state: WorkerState): void {
  state.hasNews = true
  wakeDispatcher(state)
}

/**
 * One dispatcher claims jobs while there are free slots, so an idle worker asks the database
 * once per wake-up or poll, not once per slot, and one claim takes as many jobs as slots are free.
 * Ends once the worker stops and its jobs have settled.
 */
async function dispatch(state: WorkerState): Promise<void> {
  // The first round looks at once: jobs may be waiting from before a restart.
  let shouldLook = true
  let isFirstRound = true
  while (!state.isStopping) {
    const free = state.options.concurrency - state.running.size
    let claimFailed = false
    if (free > 0 && (shouldLook || state.hasNews || state.isBacklogPossible)) {
      claimFailed = !(await claimAndStart(state, free))
      // After the first claim (jobs waiting since a restart go first), the facts measurer looks
      // for results left unmeasured; after later ones, one waiting for a slot looks again.
      if (isFirstRound) state.facts?.wake()
      else state.facts?.slotFreed()
      isFirstRound = false
    } else if (free === 0 && state.hasNews) {
      state.hasNews = false
      state.isBacklogPossible = true
    }
    // News while claiming: look again at once. After a failed claim, wait for the poll
    // instead of hammering a database that is not answering.
    if (state.hasNews && !claimFailed) continue
    shouldLook = await waitForWakeUp(state)
  }
  await Promise.all(state.running)
}

/**
 * Slots of a worker that catalogue batch jobs never take (when it has more than one): however
 * large a batch, another seller's single job finds a free slot at once instead of waiting for
 * one of the batch's jobs to finish (docs/decisions/0024-catalogue-batches-on-the-job-queue.md).
 */
export function slotsKeptFromBatches(concurrency: number): number {
  return concurrency >= 2 ? 1 : 0
}

/** Claims jobs for the free slots and starts each one. False when the claim failed. */
async function claimAndStart(state: WorkerState, free: number): Promise<boolean> {
  const { options } = state
  state.hasNews = false
  const batchLimit = Math.max(
    0,
    Math.min(free, options.concurrency - slotsKeptFromBatches(options.concurrency) - state.runningBatchJobs),
  )
  let jobs: ClaimedJob[] = []
  let claimFailed = false
  try {
    jobs = await claimJobs(options, {
      workerId: state.id,
      limit: free,
      batchLimit,
      maxRunningPerUser: options.maxRunningPerUser,
      leaseMs: options.leaseMs,
      isSerialized: options.isClaimSerialized,
    })
  } catch (error) {
    claimFailed = true
    state.log.error({ err: error }, 'claiming a job failed')
  }
  // Batch jobs may wait behind the batch limit, not only behind full slots: a batch job's end
  // then sends the dispatcher round too.
  const batchJobs = jobs.filter((job) => job.row.batchRowId !== null).length
  state.isBacklogPossible =
    !claimFailed && (jobs.length === free || (batchLimit < free && batchJobs === batchLimit))
  for (const job of jobs) startJob(state, job)
  return !claimFailed
}

function startJob(state: WorkerState, claimed: ClaimedJob): void {
  const isBatchJob = claimed.row.batchRowId !== null
  if (isBatchJob) state.runningBatchJobs += 1
  let madeImage = false
  const job = runJob(state, claimed, () => {
    madeImage = true
  }).finally(() => {
    if (isBatchJob) state.runningBatchJobs -= 1
    state.running.delete(job)
    // A freed slot with work possibly waiting: look (again, if a claim is in flight).
    if (state.isBacklogPossible) announceWork(state)
    // A new image result to measure, or a slot a waiting measurer may use.
    if (madeImage) state.facts?.wake()
    else state.facts?.slotFreed()
  })
  state.running.add(job)
}

/**
 * Waits for a wake-up or the next poll; true when it was the poll. A worker told to stop while
 * it was claiming waits for nothing: the stop's wake-up came before this wait began.
 */
function waitForWakeUp(state: WorkerState): Promise<boolean> {
  if (state.isStopping) return Promise.resolve(false)
  return new Promise<boolean>((resolve) => {
    const wake = (isPoll: boolean) => {
      clearTimeout(timer)
      state.wakers.delete(onWake)
      resolve(isPoll)
    }
    const onWake = () => wake(false)
    const { pollMs, crossProcessPollMs = pollMs, notifier } = state.options
    const timer = setTimeout(() => wake(true), notifier.isCrossProcess() ? crossProcessPollMs : pollMs)
    state.wakers.add(onWake)
  })
}

/** Runs one claimed job to its outcome; never throws. `onImage`: it stored an image result. */
async function runJob(state: WorkerState, { row, input }: ClaimedJob, onImage: () => void): Promise<void> {
  const { options } = state
  const held: HeldJob = { row, workerId: state.id }
  const controller = new AbortController()
  state.inFlight.set(row.id, controller)
  const jobLog = state.log.child({ generationId: row.id, mode: row.mode, attempt: row.attempts })
  const stop = (reason: StopReason) => {
    if (!controller.signal.aborted) controller.abort(reason)
  }
  const timeout = setTimeout(() => stop('timeout'), options.timeoutMs[row.mode])
  const heartbeat = startHeartbeat(state, held, stop, jobLog)
  const progress = createProgressSaver(state, held, controller.signal, jobLog)
  const storedAssets: AssetRow[] = []
  try {
    // Claimed while the worker was being stopped: the stop's abort missed it, so it goes back.
    if (state.isStopping) stop('shutdown')
    else if (row.cancelRequested) stop('canceled')
    if (controller.signal.reason === 'shutdown') throw new ProviderError(row.provider, 'canceled', 'stopped')
    // A batch's video whose image failed or was canceled: the claim found no input to take.
    if (row.sourceGenerationId && !row.inputAssetId) {
      await failJob(options, held, 'SOURCE_FAILED')
      jobLog.info('generation failed: its source image did not succeed')
      return
    }
    const falKey = row.usesOwnKey ? ((await options.readOwnFalKey(row.userId)) ?? undefined) : undefined
    const result = await runGeneration(
      {
        db: options.db,
        storage: state.storage,
        providers: options.providers,
        segmenter: options.segmenter,
        log: jobLog,
        knownAssets: input ? [input] : [],
        onStored: (asset) => storedAssets.push(asset),
        rememberRequestId: (requestId) => recordProviderRequest(options.db, held, requestId),
      },
      row,
      { signal: controller.signal, log: jobLog, falKey, onProgress: progress.report },
    )
    if (controller.signal.aborted) throw new ProviderError(row.provider, 'canceled', 'stopped')
    await succeedJob(options, held, result, storedAssets)
    jobLog.info('generation succeeded')
    if (result.type === 'image') onImage()
  } catch (error) {
    await handleFailure(state, held, error, controller.signal.reason as StopReason | undefined, jobLog)
  } finally {
    clearTimeout(timeout)
    progress.cancel()
    clearInterval(heartbeat)
    state.inFlight.delete(row.id)
  }
}

/**
 * Renews the job's lease every third of it; stops the job when the lease is lost or its owner
 * asked to cancel. A failed renewal is only logged: the next one may get through in time.
 */
function startHeartbeat(
  state: WorkerState,
  held: HeldJob,
  stop: (reason: StopReason) => void,
  jobLog: Logger,
): NodeJS.Timeout {
  const { leaseMs } = state.options
  return setInterval(
    async () => {
      try {
        const lease = await renewLease(state.options.db, held, leaseMs)
        if (lease === 'lost') stop('lease-lost')
        else if (lease === 'cancel-requested') stop('canceled')
      } catch (error) {
        jobLog.warn({ err: error }, 'heartbeat failed')
      }
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  )
}

/**
 * Progress is saved a moment after it is reported, as where it ended up: fal often says
 * "queued" and "running" within milliseconds, and only the latter is worth a write.
 */
function createProgressSaver(state: WorkerState, held: HeldJob, signal: AbortSignal, jobLog: Logger) {
  let savedPosition = held.row.queuePosition
  let reportedPosition = held.row.queuePosition
  let timer: NodeJS.Timeout | undefined
  const save = () => {
    timer = undefined
    const next = reportedPosition
    if (next === savedPosition || signal.aborted) return
    savedPosition = next
    saveQueuePosition(state.options, held, next).catch((error: unknown) =>
      jobLog.warn({ err: error }, 'saving the queue position failed'),
    )
  }
  return {
    report(progress: ProviderProgress) {
      reportedPosition = progress.queuePosition ?? null
      timer ??= setTimeout(save, progressSaveDelayMs)
    },
    cancel() {
      clearTimeout(timer)
    },
  }
}

/** Records how a job that did not succeed ends: handed back, stopped, retried later, or failed. */
async function handleFailure(
  state: WorkerState,
  held: HeldJob,
  error: unknown,
  stopReason: StopReason | undefined,
  jobLog: Logger,
): Promise<void> {
  const { options } = state
  const { row } = held
  if (stopReason === 'lease-lost') {
    jobLog.warn('lost the job to another worker; leaving it')
    return
  }
  if (stopReason === 'shutdown') {
    await handBackJob(options, held)
    return
  }
  if (stopReason === 'canceled' || stopReason === 'timeout') {
    const code = stopReason === 'canceled' ? 'GENERATION_CANCELED' : 'GENERATION_TIMEOUT'
    if (row.providerRequestId || error instanceof ProviderError) {
      await cancelAtProvider(state, held, jobLog)
    }
    await stopJob(options, held, code)
    jobLog.info({ code }, 'generation stopped')
    return
  }
  const failure: ProviderFailure | 'internal' = error instanceof ProviderError ? error.failure : 'internal'
  const isTransient = failure === 'internal' || transientFailures.has(failure)
  if (isTransient && row.attempts < options.maxAttempts) {
    const delay = options.retryBaseMs * 2 ** (row.attempts - 1)
    jobLog.warn({ err: error, failure, retryInMs: delay }, 'generation failed; will retry')
    if (await retryJob(options, held, new Date(Date.now() + delay))) wakeWhenDue(state, delay)
    return
  }
  const code: ErrorCode = failure === 'internal' ? 'PROVIDER_UNAVAILABLE' : failureCodes[failure]
  // Provider details go to the log with the job's context; the user sees only the code.
  jobLog.error({ err: error, failure, code }, 'generation failed')
  await failJob(options, held, code)
}

/**
 * Looks for work when a retry comes due, instead of at the next poll (which is rare while the
 * notifier hears other processes); another worker may have taken it by then, which is fine.
 */
function wakeWhenDue(state: WorkerState, delayMs: number): void {
  const timer = setTimeout(() => {
    state.retryTimers.delete(timer)
    announceWork(state)
  }, delayMs)
  state.retryTimers.add(timer)
}

/** Best effort: asks the provider to drop the job's request, if one is on record. */
async function cancelAtProvider(state: WorkerState, { row }: HeldJob, jobLog: Logger): Promise<void> {
  const requestId = await readProviderRequestId(state.options.db, row.id)
  if (!requestId) return
  const { providers } = state.options
  const provider = row.mode === 'image' ? providers.image : row.mode === 'video' ? providers.video : null
  const signal = AbortSignal.timeout(10_000)
  await provider
    ?.cancel(requestId, { signal, log: jobLog })
    .catch((error: unknown) => jobLog.warn({ err: error }, 'provider cancel failed'))
}
