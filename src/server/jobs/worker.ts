import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { assets, generations } from '#server/db/schema/index.ts'
import { commitQuotaCtes, releaseQuotaCtes } from '#server/features/quota/quota.service.ts'
import type { Logger } from '#server/logger.ts'
import { ProviderError, type ProviderFailure } from '#server/providers/types.ts'
import { withSharedReads } from '#server/storage/shared-reads.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { GenerationMode } from '#shared/contracts/generations.ts'
import type { ErrorCode } from '#shared/errors.ts'
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

/** The advisory lock serialized claims take; any constant unused elsewhere (see db/client.ts). */
const claimLockId = 727_274_602

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
   * Claims up to `limit` due jobs in one statement, fairly: each user's jobs take turns, and a
   * user's turn counts the jobs they already have running, so the next free slot goes to whoever
   * has the fewest (then to the oldest job). Jobs past a user's running cap wait. A burst of new
   * requests is picked up in one round trip, and the rows come back whole (no second read per job).
   */
  async function claimIn(tx: Db, limit: number): Promise<Claimed[]> {
    const isDue = (alias: string) => {
      const column = (name: string) => sql.raw(`${alias}.${name}`)
      return sql`((${column('status')} = 'queued' and ${column('run_after')} <= now())
        or (${column('status')} = 'running' and ${column('lease_until')} < now()))`
    }
    // A user's turn for each due job: their running jobs (live leases only; expired ones are due
    // again) plus the job's place among their due ones. FOR UPDATE is not allowed beside window
    // functions, so the turns are worked out in a subquery and the rows locked outside it, where
    // a row another claim took meanwhile is skipped or, once that claim is committed, no longer
    // passes the due check (it is checked again on the newest version of the row).
    const picked = sql`
      select g.id from ${generations} g
      join (
        select due.id, coalesce(busy.running, 0) + due.place as turn
        from (
          select d.id, d.user_id,
            row_number() over (partition by d.user_id order by d.created_at, d.id) as place
          from ${generations} d
          where ${isDue('d')}
        ) due
        left join (
          select r.user_id, count(*) as running from ${generations} r
          where r.status = 'running' and r.lease_until >= now()
          group by r.user_id
        ) busy on busy.user_id = due.user_id
        where coalesce(busy.running, 0) + due.place <= ${options.maxRunningPerUser}
      ) fair on fair.id = g.id
      where ${isDue('g')}
      order by fair.turn, g.created_at, g.id
      limit ${limit}
      for update of g skip locked`
    const claimed = tx.$with('claimed').as(
      tx
        .update(generations)
        .set({
          status: 'running',
          attempts: sql`${generations.attempts} + 1`,
          lockedBy: id,
          // The clock, not now(): a serialized claim's transaction began before it waited for the
          // claim lock, and now() is that moment, earlier than the job really started.
          leaseUntil: sql`clock_timestamp() + ${options.leaseMs} * interval '1 millisecond'`,
          startedAt: sql`coalesce(${generations.startedAt}, clock_timestamp())`,
          updatedAt: sql`clock_timestamp()`,
        })
        .where(sql`${generations.id} in (${picked})`)
        .returning(),
    )
    // The input photo's row comes along, so a job starts without reading it again.
    const rows = await tx
      .with(claimed)
      .select()
      .from(claimed)
      .leftJoin(assets, eq(assets.id, claimed.inputAssetId))
    return rows
      .map((row) => ({ row: row.claimed, input: row.assets }))
      .sort((a, b) => a.row.createdAt.getTime() - b.row.createdAt.getTime())
  }

  /**
   * One claim. Serialized claims wait for each other, so each one's snapshot counts every job
   * the previous ones started: without that, two overlapping claims could each see a user below
   * the cap (e.g. one sees a retry that has just come due and the other does not) and together
   * start more than the cap allows.
   */
  async function claim(limit: number): Promise<Claimed[]> {
    if (!options.isClaimSerialized) return claimIn(db, limit)
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${claimLockId})`)
      return claimIn(tx as unknown as Db, limit)
    })
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
  log.info(
    { concurrency: options.concurrency, maxRunningPerUser: options.maxRunningPerUser },
    'worker started',
  )

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
