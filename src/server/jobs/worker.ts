import { randomUUID } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { GenerationMode } from '../../shared/contracts/generations.ts'
import type { ErrorCode } from '../../shared/errors.ts'
import type { Db } from '../db/client.ts'
import { assets, generations } from '../db/schema/index.ts'
import { commitQuotaCtes, releaseQuotaCtes } from '../features/quota/quota.service.ts'
import type { Logger } from '../logger.ts'
import { ProviderError, type ProviderFailure } from '../providers/types.ts'
import { withSharedReads } from '../storage/shared-reads.ts'
import type { ObjectStorage } from '../storage/types.ts'
import type { Notifier } from './notifier.ts'
import { type Providers, runGeneration } from './run-generation.ts'

export type WorkerOptions = {
  db: Db
  storage: ObjectStorage
  providers: Providers
  notifier: Notifier
  logger: Logger
  /** Reads a user's own fal key (bring-your-own) for their jobs. */
  readOwnFalKey: (userId: string) => Promise<string | null>
  /** Jobs run at once by this worker. */
  concurrency: number
  /** How long a claim holds without a heartbeat; a crashed worker's jobs are picked up after it. */
  leaseMs: number
  /** How often to look for work when nothing wakes the worker. */
  pollMs: number
  /** Tries before an interrupted or transiently failing job fails for good. */
  maxAttempts: number
  /** First retry delay; doubles with each attempt. */
  retryBaseMs: number
  /** Per-mode time limit of one job. */
  timeoutMs: Record<GenerationMode, number>
}

export type Worker = { stop: () => Promise<void>; readonly id: string }

const failureCodes: Record<ProviderFailure, ErrorCode> = {
  rejected: 'PROVIDER_REJECTED',
  unavailable: 'PROVIDER_UNAVAILABLE',
  rate_limited: 'PROVIDER_RATE_LIMITED',
  unauthorized: 'PROVIDER_UNAUTHORIZED',
  bad_output: 'PROVIDER_BAD_OUTPUT',
  timeout: 'GENERATION_TIMEOUT',
  canceled: 'GENERATION_CANCELED',
}

/** How long a reported progress waits before it is saved (later reports in between replace it). */
const progressSaveDelayMs = 100

/** Failures worth another try later (the same input may well work). */
const transientFailures = new Set<ProviderFailure>(['unavailable', 'rate_limited'])

type GenerationRow = typeof generations.$inferSelect
type AssetRow = typeof assets.$inferSelect
/** A claimed job and its input photo's row (null when the photo is gone). */
type Claimed = { row: GenerationRow; input: AssetRow | null }
type StopReason = 'canceled' | 'timeout' | 'shutdown' | 'lease-lost'

/**
 * The job loop: claims generations from the database queue, runs them, and records the
 * outcome together with the quota (kept on success, given back on failure), exactly once.
 */
export function startWorker(options: WorkerOptions): Worker {
  const id = `worker-${randomUUID().slice(0, 8)}`
  const log = options.logger.child({ worker: id })
  const { db } = options
  // Jobs started together from one photo read its file once.
  const storage = withSharedReads(options.storage)
  const inFlight = new Map<string, AbortController>()
  let isStopping = false
  const wakers = new Set<() => void>()
  const wakeDispatcher = () => {
    for (const wake of [...wakers]) wake()
  }
  // Set by a "new work" notice (or a slot freed while work may wait): one that comes while a
  // claim is in flight (and may have missed the new row) sends the dispatcher round again
  // instead of being lost until the next poll.
  let hasNews = false
  // Whether due jobs may be waiting for a free slot: the last claim filled every slot, or new
  // work was announced while none was free. Only then does a finished job send the dispatcher
  // round at once; otherwise the next poll looks (for other processes' jobs, retries that have
  // come due and expired leases), so a burst of finishing jobs costs no empty claims.
  let isBacklogPossible = false
  const unsubscribe = options.notifier.onWorkAvailable(() => {
    hasNews = true
    wakeDispatcher()
  })

  /**
   * Claims up to `limit` due jobs, oldest first, in one statement: a burst of new requests is
   * picked up in one round trip, and the rows come back whole (no second read per job).
   */
  async function claim(limit: number): Promise<Claimed[]> {
    const due = db
      .select({ id: generations.id })
      .from(generations)
      .where(
        sql`(${generations.status} = 'queued' and ${generations.runAfter} <= now())
            or (${generations.status} = 'running' and ${generations.leaseUntil} < now())`,
      )
      .orderBy(generations.createdAt)
      .for('update', { skipLocked: true })
      .limit(limit)
    const claimed = db.$with('claimed').as(
      db
        .update(generations)
        .set({
          status: 'running',
          attempts: sql`${generations.attempts} + 1`,
          lockedBy: id,
          leaseUntil: sql`now() + ${options.leaseMs} * interval '1 millisecond'`,
          startedAt: sql`coalesce(${generations.startedAt}, now())`,
          updatedAt: sql`now()`,
        })
        .where(inArray(generations.id, due))
        .returning(),
    )
    // The input photo's row comes along, so a job starts without reading it again.
    const rows = await db
      .with(claimed)
      .select()
      .from(claimed)
      .leftJoin(assets, eq(assets.id, claimed.inputAssetId))
    return rows
      .map((row) => ({ row: row.claimed, input: row.assets }))
      .sort((a, b) => a.row.createdAt.getTime() - b.row.createdAt.getTime())
  }

  /**
   * Applies an outcome only while this worker still holds the job, and settles its quota in the
   * same statement (kept on success, given back on failure): both happen, or neither.
   */
  async function finish(
    row: GenerationRow,
    values: Partial<typeof generations.$inferInsert>,
    quota: 'commit' | 'release' | 'keep',
    storedAssets: AssetRow[] = [],
  ) {
    const now = new Date()
    const done = db.$with('done').as(
      db
        .update(generations)
        .set({ ...values, lockedBy: null, leaseUntil: null })
        .where(
          and(eq(generations.id, row.id), eq(generations.lockedBy, id), eq(generations.status, 'running')),
        )
        .returning(),
    )
    const reservation = sql`(select ${done.quotaReservationId} from ${done})`
    const settle =
      !row.quotaReservationId || quota === 'keep'
        ? []
        : quota === 'commit'
          ? commitQuotaCtes(db, reservation, now)
          : releaseQuotaCtes(db, reservation, now)
    const [updated] = await db
      .with(done, ...settle)
      .select()
      .from(done)
    if (updated) options.notifier.generationChanged(row.id, updated, storedAssets)
    return updated !== undefined
  }

  async function process(row: GenerationRow, input: AssetRow | null) {
    const controller = new AbortController()
    inFlight.set(row.id, controller)
    const jobLog = log.child({ generationId: row.id, mode: row.mode, attempt: row.attempts })
    options.notifier.generationChanged(row.id, row)
    const stop = (reason: StopReason) => {
      if (!controller.signal.aborted) controller.abort(reason)
    }
    const timeout = setTimeout(() => stop('timeout'), options.timeoutMs[row.mode])
    const heartbeat = setInterval(
      async () => {
        try {
          const [held] = await db
            .update(generations)
            .set({ leaseUntil: sql`now() + ${options.leaseMs} * interval '1 millisecond'` })
            .where(and(eq(generations.id, row.id), eq(generations.lockedBy, id)))
            .returning({ cancelRequested: generations.cancelRequested })
          if (!held) stop('lease-lost')
          else if (held.cancelRequested) stop('canceled')
        } catch (error) {
          jobLog.warn({ err: error }, 'heartbeat failed')
        }
      },
      Math.max(50, Math.floor(options.leaseMs / 3)),
    )

    // Progress is saved a moment after it is reported, as where it ended up: fal often says
    // "queued" and "running" within milliseconds, and only the latter is worth a write.
    const storedAssets: AssetRow[] = []
    let savedPosition = row.queuePosition
    let reportedPosition = row.queuePosition
    let progressTimer: NodeJS.Timeout | undefined
    const saveProgress = () => {
      progressTimer = undefined
      const next = reportedPosition
      if (next === savedPosition || controller.signal.aborted) return
      savedPosition = next
      void db
        .update(generations)
        .set({ queuePosition: next })
        .where(
          and(eq(generations.id, row.id), eq(generations.lockedBy, id), eq(generations.status, 'running')),
        )
        .returning()
        .then(([changed]) => {
          if (changed) options.notifier.generationChanged(row.id, changed)
        })
        .catch((error: unknown) => jobLog.warn({ err: error }, 'saving the queue position failed'))
    }
    try {
      if (row.cancelRequested) stop('canceled')
      const falKey = row.usesOwnKey ? ((await options.readOwnFalKey(row.userId)) ?? undefined) : undefined
      const result = await runGeneration(
        {
          db,
          storage,
          providers: options.providers,
          log: jobLog,
          knownAssets: input ? [input] : [],
          onStored: (asset) => storedAssets.push(asset),
          rememberRequestId: async (requestId) => {
            await db
              .update(generations)
              .set({ providerRequestId: requestId })
              .where(and(eq(generations.id, row.id), eq(generations.lockedBy, id)))
          },
        },
        row,
        {
          signal: controller.signal,
          log: jobLog,
          falKey,
          onProgress: (progress) => {
            reportedPosition = progress.queuePosition ?? null
            progressTimer ??= setTimeout(saveProgress, progressSaveDelayMs)
          },
        },
      )
      if (controller.signal.aborted) throw new ProviderError(row.provider, 'canceled', 'stopped')
      await finish(
        row,
        { status: 'succeeded', result, errorCode: null, finishedAt: new Date(), queuePosition: null },
        'commit',
        storedAssets,
      )
      jobLog.info('generation succeeded')
    } catch (error) {
      await handleFailure(row, error, controller.signal.reason as StopReason | undefined, jobLog)
    } finally {
      clearTimeout(timeout)
      clearTimeout(progressTimer)
      clearInterval(heartbeat)
      inFlight.delete(row.id)
    }
  }

  async function handleFailure(
    row: GenerationRow,
    error: unknown,
    stopReason: StopReason | undefined,
    jobLog: Logger,
  ) {
    if (stopReason === 'lease-lost') {
      jobLog.warn('lost the job to another worker; leaving it')
      return
    }
    if (stopReason === 'shutdown') {
      // Back to the queue untouched (and not counted as a try): a provider request id, if any,
      // stays, so the next worker resumes it instead of paying for it twice.
      await finish(
        row,
        { status: 'queued', attempts: Math.max(0, row.attempts - 1), runAfter: new Date() },
        'keep',
      )
      return
    }
    if (stopReason === 'canceled' || stopReason === 'timeout') {
      const code: ErrorCode = stopReason === 'canceled' ? 'GENERATION_CANCELED' : 'GENERATION_TIMEOUT'
      if (row.providerRequestId || error instanceof ProviderError) {
        await cancelAtProvider(row, jobLog)
      }
      await finish(
        row,
        {
          status: stopReason === 'canceled' ? 'canceled' : 'failed',
          errorCode: code,
          finishedAt: new Date(),
        },
        'release',
      )
      jobLog.info({ code }, 'generation stopped')
      return
    }
    const failure: ProviderFailure | 'internal' = error instanceof ProviderError ? error.failure : 'internal'
    const isTransient = failure === 'internal' || transientFailures.has(failure)
    if (isTransient && row.attempts < options.maxAttempts) {
      const delay = options.retryBaseMs * 2 ** (row.attempts - 1)
      jobLog.warn({ err: error, failure, retryInMs: delay }, 'generation failed; will retry')
      await finish(row, { status: 'queued', runAfter: new Date(Date.now() + delay) }, 'keep')
      return
    }
    const code: ErrorCode = failure === 'internal' ? 'PROVIDER_UNAVAILABLE' : failureCodes[failure]
    // Provider details go to the log with the job's context; the user sees only the code.
    jobLog.error({ err: error, failure, code }, 'generation failed')
    await finish(
      row,
      { status: 'failed', errorCode: code, finishedAt: new Date(), queuePosition: null },
      'release',
    )
  }

  async function cancelAtProvider(row: GenerationRow, jobLog: Logger) {
    const [current] = await db
      .select({ requestId: generations.providerRequestId })
      .from(generations)
      .where(eq(generations.id, row.id))
    const requestId = current?.requestId
    if (!requestId) return
    const provider =
      row.mode === 'image' ? options.providers.image : row.mode === 'video' ? options.providers.video : null
    const signal = AbortSignal.timeout(10_000)
    await provider
      ?.cancel(requestId, { signal, log: jobLog })
      .catch((error: unknown) => jobLog.warn({ err: error }, 'provider cancel failed'))
  }

  // One dispatcher claims jobs while there are free slots, so an idle worker asks the database
  // once per wake-up or poll, not once per slot, and one claim takes as many jobs as slots are free.
  const running = new Set<Promise<void>>()
  const dispatcher = (async () => {
    // The first round looks at once: jobs may be waiting from before a restart.
    let shouldLook = true
    while (!isStopping) {
      const free = options.concurrency - running.size
      let claimFailed = false
      if (free > 0 && (shouldLook || hasNews || isBacklogPossible)) {
        hasNews = false
        let rows: Claimed[] = []
        try {
          rows = await claim(free)
        } catch (error) {
          claimFailed = true
          log.error({ err: error }, 'claiming a job failed')
        }
        isBacklogPossible = !claimFailed && rows.length === free
        for (const { row, input } of rows) {
          const job = process(row, input).finally(() => {
            running.delete(job)
            // A freed slot with work possibly waiting: look (again, if a claim is in flight).
            if (isBacklogPossible) {
              hasNews = true
              wakeDispatcher()
            }
          })
          running.add(job)
        }
      } else if (free === 0 && hasNews) {
        hasNews = false
        isBacklogPossible = true
      }
      // News while claiming: look again at once. After a failed claim, wait for the poll
      // instead of hammering a database that is not answering.
      if (hasNews && !claimFailed) continue
      shouldLook = await new Promise<boolean>((resolve) => {
        const wake = (isPoll: boolean) => {
          clearTimeout(timer)
          wakers.delete(onWake)
          resolve(isPoll)
        }
        const onWake = () => wake(false)
        const timer = setTimeout(() => wake(true), options.pollMs)
        wakers.add(onWake)
      })
    }
    await Promise.all(running)
  })()
  log.info({ concurrency: options.concurrency }, 'worker started')

  return {
    id,
    async stop() {
      isStopping = true
      unsubscribe()
      wakeDispatcher()
      for (const controller of inFlight.values()) controller.abort('shutdown' satisfies StopReason)
      await dispatcher
      log.info('worker stopped')
    },
  }
}
