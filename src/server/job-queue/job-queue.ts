import { and, eq, getTableColumns, sql } from 'drizzle-orm'
import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import {
  type AssetRow,
  assets,
  type GenerationResultRecord,
  type GenerationRow,
  generations,
  type NewGenerationRow,
} from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import type { RateLimiter, RateLimitRule } from '#server/rate-limit/rate-limiter.ts'
import { AppError, type ErrorCode } from '#shared/errors.ts'
import type { JobOutcomes, QuotaHold } from './outcomes.ts'

// The job queue (decision 11): a generations row is its job, and every change of a job's state
// is written here, each in one statement with the quota it settles (decision 14 says why one
// statement). What other features add to a job's life (the quota, a finished job's webhook
// events, a catalogue row finishing) is registered at composition (outcomes.ts); this module
// imports no feature; a catalogue batch's jobs, many at a time, are in batch-jobs.ts. The states: accepted (queued, quota held), claimed (running, leased), its lease renewed, its
// progress saved, finished (succeeded: quota kept; failed or canceled: quota given back), handed
// back or retried (queued again), canceled by its owner. A job whose worker stopped renewing its
// lease is due again and taken by the next claim; there is no separate recovery. Callers decide
// what should happen (the generations service who may queue what, the worker what a failure
// means); the functions here make it happen exactly once and announce it on the notifier.

/** What every state change needs: the database, and the notifier that announces the change. */
export type JobQueueDeps = { db: Db; notifier: Notifier }

/** What accepting, settling and canceling need besides: the outcomes features registered. */
export type JobOutcomeDeps = JobQueueDeps & { outcomes: JobOutcomes }

/** A job a worker has claimed: its writes apply only while that worker still holds it. */
export type HeldJob = { row: GenerationRow; workerId: string }

/** A claimed job and its input photo's row (null when the photo is gone). */
export type ClaimedJob = { row: GenerationRow; input: AssetRow | null }

// --- Admission -------------------------------------------------------------------------------

/** SEO copy is unlimited, but not unthrottled: 30 per user per 10 minutes. */
export const seoRateLimit: RateLimitRule = { name: 'seo', limit: 30, windowSeconds: 600 }

export type AdmissionLimits = Pick<Config['limits'], 'generationsPerMinute' | 'generationsPerMinutePerClient'>

/** Per-minute limits on starting generations of every kind: per account, and per client address. */
export function generationRateLimits(limits: AdmissionLimits): {
  perAccount: RateLimitRule
  perClient: RateLimitRule
} {
  return {
    perAccount: { name: 'generation', limit: limits.generationsPerMinute, windowSeconds: 60 },
    perClient: { name: 'generation-ip', limit: limits.generationsPerMinutePerClient, windowSeconds: 60 },
  }
}

/** Counts one attempt to start a generation; RATE_LIMITED past either per-minute limit. */
export async function admitJob(
  rateLimiter: RateLimiter,
  limits: AdmissionLimits,
  userId: string,
  clientIp: string,
): Promise<void> {
  const rules = generationRateLimits(limits)
  await rateLimiter.consumeAll([
    [rules.perAccount, userId],
    [rules.perClient, clientIp],
  ])
}

/** Counts one SEO job against its own limit; RATE_LIMITED past it. */
export async function admitSeoJob(rateLimiter: RateLimiter, userId: string): Promise<void> {
  await rateLimiter.consume(seoRateLimit, userId)
}

// --- Accept ----------------------------------------------------------------------------------

/** The columns of a job its request decides; the queue fills in status, lease and quota ones. */
export type JobRequest = Pick<
  NewGenerationRow,
  | 'userId'
  | 'tool'
  | 'mode'
  | 'aspectRatio'
  | 'prompt'
  | 'context'
  | 'inputAssetId'
  | 'referenceAssetId'
  | 'sourceGenerationId'
  | 'provider'
  | 'keepProduct'
  | 'view'
> & { usesOwnKey: boolean }

export type AcceptLimits = {
  /** The unit of quota to hold (images and videos on the server's key), or null (SEO, own key). */
  hold: QuotaHold | null
  /** The plan's storage in bytes; nothing is queued once the user's files take that much. */
  storageQuotaBytes: number
  /** Jobs one user may have queued or running; more are refused with QUEUE_FULL. */
  maxQueuedPerUser: number
}

/** A generations row as a raw statement returned it (database names and values), typed. */
function rowFromDriver(raw: Record<string, unknown>): GenerationRow {
  return Object.fromEntries(
    Object.entries(getTableColumns(generations)).map(([key, column]) => {
      const value = raw[column.name]
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)]
    }),
  ) as GenerationRow
}

/**
 * Queues a job. The queue and storage checks, the quota hold and the row are one statement (no
 * transaction kept open across round trips): with the user's queue full (QUEUE_FULL), their
 * storage full (STORAGE_QUOTA_EXCEEDED; the result would be stored, and one result may go past
 * it), or the quota used up (QUOTA_EXCEEDED_*), nothing is written. Returns the row as inserted.
 */
export async function acceptJob(
  deps: JobOutcomeDeps,
  job: JobRequest,
  limits: AcceptLimits,
): Promise<GenerationRow> {
  const { hold } = limits
  // Batch jobs (catalogue rows) are not counted: a batch runs at the user's fair share instead.
  const hasRoom = sql`(select count(*) from ${generations} active
    where active.user_id = ${job.userId} and active.status in ('queued', 'running')
      and active.batch_row_id is null) < ${limits.maxQueuedPerUser}`
  const { quota } = deps.outcomes
  const hasStorage = sql`${quota.storageUsedSql(job.userId)} < ${limits.storageQuotaBytes}`
  const result = (await deps.db.execute(sql`
    with room as (select ${hasRoom} as is_open, ${hasStorage} as has_storage),
    ${hold ? sql`${quota.reservationCtes(hold, sql`(select is_open and has_storage from room)`)},` : sql``}
    inserted as (
      insert into ${generations} (
        user_id, tool, mode, aspect_ratio, prompt, context, input_asset_id, reference_asset_id,
        source_generation_id, provider, uses_own_key, keep_product, view, quota_reservation_id
      )
      select ${job.userId}, ${job.tool}, ${job.mode}, ${job.aspectRatio}, ${job.prompt ?? ''},
        ${JSON.stringify(job.context ?? {})}::jsonb, ${job.inputAssetId ?? null},
        ${job.referenceAssetId ?? null}, ${job.sourceGenerationId ?? null}, ${job.provider},
        ${job.usesOwnKey}, ${job.keepProduct ?? false}, ${job.view ?? 'auto'}, ${hold ? sql`reserved.id from reserved` : sql`null where (select is_open and has_storage from room)`}
      returning *
    )
    select room.is_open as queue_open, room.has_storage, inserted.* from room left join inserted on true
  `)) as unknown as { rows: Record<string, unknown>[] }
  const [raw] = result.rows
  if (!raw?.queue_open) {
    throw new AppError('QUEUE_FULL', `At most ${limits.maxQueuedPerUser} generations may wait at once`)
  }
  if (!raw.has_storage) throw quota.storageExceeded()
  if (raw.id === null || raw.id === undefined) {
    if (hold) throw quota.exceeded(hold.resource)
    throw new Error('generation insert returned no row')
  }
  // The row as inserted (a read afterwards could already see the worker's claim).
  const created = rowFromDriver(raw)
  deps.notifier.workAvailable()
  return created
}

// --- Claim -----------------------------------------------------------------------------------

/** The advisory lock serialized claims take; any constant unused elsewhere (see db/client.ts). */
export const claimLockId = 727_274_602

export type ClaimOptions = {
  workerId: string
  /** Free slots: at most this many jobs are claimed. */
  limit: number
  /**
   * At most this many of them may be catalogue batch jobs (all of them when absent): a worker
   * keeps a slot that batches never take, so another seller's single job starts at once.
   */
  batchLimit?: number
  /** Jobs one user may have running at once, across every worker sharing the queue. */
  maxRunningPerUser: number
  /** How long a claim holds without a renewal. */
  leaseMs: number
  /** Take the database-wide claim lock first (PostgreSQL; see claimJobs). */
  isSerialized: boolean
}

/**
 * Claims up to `limit` due jobs in one statement, fairly: each user's jobs take turns, and a
 * user's turn counts the jobs they already have running, so the next free slot goes to whoever
 * has the fewest (then to the oldest job). Jobs past a user's running cap wait. A burst of new
 * requests is picked up in one round trip, and the rows come back whole (no second read per job).
 */
async function claimIn(tx: Db, options: ClaimOptions): Promise<ClaimedJob[]> {
  // A job made from another's result (a batch's video from its image) is due once that one has
  // settled: succeeded, it takes its result as input; failed or canceled, it is due so that the
  // worker fails it with SOURCE_FAILED and gives its quota back.
  const isDue = (alias: string) => {
    const column = (name: string) => sql.raw(`${alias}.${name}`)
    return sql`((${column('status')} = 'queued' and ${column('run_after')} <= now()
        and (${column('source_generation_id')} is null or ${column('input_asset_id')} is not null
          or exists (select 1 from ${generations} src where src.id = ${column('source_generation_id')}
            and src.status in ('succeeded', 'failed', 'canceled'))))
      or (${column('status')} = 'running' and ${column('lease_until')} < now()))`
  }
  // A user's turn for each due job: their running jobs (live leases only; expired ones are due
  // again) plus the job's place among their due ones. FOR UPDATE is not allowed beside window
  // functions, so the turns are worked out in a subquery and the rows locked outside it, where
  // a row another claim took meanwhile is skipped or, once that claim is committed, no longer
  // passes the due check (it is checked again on the newest version of the row). Batch jobs
  // past the batch limit, counted in the claim's own order, are left for a later claim.
  const batchLimit = options.batchLimit ?? options.limit
  const picked = sql`
    select g.id from ${generations} g
    join (
      select ranked.id, ranked.turn from (
        select turns.id, turns.turn, turns.is_batch,
          count(*) filter (where turns.is_batch)
            over (order by turns.turn, turns.created_at, turns.id) as batch_place
        from (
          select due.id, due.created_at, due.is_batch, coalesce(busy.running, 0) + due.place as turn
          from (
            select d.id, d.user_id, d.created_at, d.batch_row_id is not null as is_batch,
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
        ) turns
      ) ranked
      where not ranked.is_batch or ranked.batch_place <= ${batchLimit}
    ) fair on fair.id = g.id
    where ${isDue('g')}
    order by fair.turn, g.created_at, g.id
    limit ${options.limit}
    for update of g skip locked`
  const claimed = tx.$with('claimed').as(
    tx
      .update(generations)
      .set({
        status: 'running',
        attempts: sql`${generations.attempts} + 1`,
        lockedBy: options.workerId,
        // The clock, not now(): a serialized claim's transaction began before it waited for the
        // claim lock, and now() is that moment, earlier than the job really started.
        leaseUntil: sql`clock_timestamp() + ${options.leaseMs} * interval '1 millisecond'`,
        startedAt: sql`coalesce(${generations.startedAt}, clock_timestamp())`,
        updatedAt: sql`clock_timestamp()`,
        inputAssetId: sql`coalesce(${generations.inputAssetId}, (select (src.result->>'assetId')::uuid
          from ${generations} src where src.id = ${generations.sourceGenerationId} and src.status = 'succeeded'))`,
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
 * Claims due jobs (queued ones whose time has come, and running ones whose lease ran out) for a
 * worker, oldest first, and announces each as running. Serialized claims wait for each other,
 * so each one's snapshot counts every job the previous ones started: without that, two
 * overlapping claims could each see a user below the cap (e.g. one sees a retry that has just
 * come due and the other does not) and together start more than the cap allows.
 */
export async function claimJobs(deps: JobQueueDeps, options: ClaimOptions): Promise<ClaimedJob[]> {
  const claimed = options.isSerialized
    ? await deps.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${claimLockId})`)
        return claimIn(tx as unknown as Db, options)
      })
    : await claimIn(deps.db, options)
  for (const { row } of claimed) deps.notifier.generationChanged(row.id, row)
  return claimed
}

// --- While a job runs --------------------------------------------------------------------------

/**
 * Extends a held job's lease: `lost` when the worker no longer holds it (another claim took it
 * after the lease ran out, or the row is gone), `cancel-requested` when its owner asked to stop.
 */
export async function renewLease(
  db: Db,
  held: HeldJob,
  leaseMs: number,
): Promise<'held' | 'cancel-requested' | 'lost'> {
  const [lease] = await db
    .update(generations)
    .set({ leaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
    .where(and(eq(generations.id, held.row.id), eq(generations.lockedBy, held.workerId)))
    .returning({ cancelRequested: generations.cancelRequested })
  if (!lease) return 'lost'
  return lease.cancelRequested ? 'cancel-requested' : 'held'
}

/** Writes down the provider's request id before waiting on it, so a later claim resumes it. */
export async function recordProviderRequest(db: Db, held: HeldJob, requestId: string): Promise<void> {
  await db
    .update(generations)
    .set({ providerRequestId: requestId })
    .where(and(eq(generations.id, held.row.id), eq(generations.lockedBy, held.workerId)))
}

/** The provider request id on record now (a running job may have written it since its claim). */
export async function readProviderRequestId(db: Db, id: string): Promise<string | null> {
  const [current] = await db
    .select({ requestId: generations.providerRequestId })
    .from(generations)
    .where(eq(generations.id, id))
  return current?.requestId ?? null
}

/** Saves the provider's queue position of a running job, and announces it. */
export async function saveQueuePosition(
  deps: JobQueueDeps,
  held: HeldJob,
  queuePosition: number | null,
): Promise<void> {
  const [changed] = await deps.db
    .update(generations)
    .set({ queuePosition })
    .where(
      and(
        eq(generations.id, held.row.id),
        eq(generations.lockedBy, held.workerId),
        eq(generations.status, 'running'),
      ),
    )
    .returning()
  if (changed) deps.notifier.generationChanged(held.row.id, changed)
}

// --- Outcomes --------------------------------------------------------------------------------

/**
 * Applies an outcome only while the worker still holds the job, and settles its quota in the
 * same statement (kept on success, given back on failure): both happen, or neither. True when
 * it applied; the change is announced with the row (and the files it stored). The job no longer
 * counts against its owner's running cap, so when the owner has jobs waiting (perhaps held back
 * by that cap) it is also announced as new work: any worker, in any process, may take one now.
 * A success or failure also writes what the registered outcomes write when a job finishes (its
 * webhook deliveries) in the same statement, so they exist exactly when the outcome does; once a
 * final outcome is committed, the registered after-steps run (a catalogue row's batch finishing).
 */
async function settle(
  deps: JobOutcomeDeps,
  held: HeldJob,
  values: Partial<NewGenerationRow>,
  keepsQuota: 'commit' | 'release' | 'keep',
  storedAssets: AssetRow[] = [],
): Promise<boolean> {
  const { db, outcomes } = deps
  const { row } = held
  const now = new Date()
  const done = db.$with('done').as(
    db
      .update(generations)
      .set({ ...values, lockedBy: null, leaseUntil: null })
      .where(
        and(
          eq(generations.id, row.id),
          eq(generations.lockedBy, held.workerId),
          eq(generations.status, 'running'),
        ),
      )
      .returning({
        ...getTableColumns(generations),
        // Read before this update (one snapshot): the job itself is not among them.
        ownerHasWaiting: sql<boolean>`exists (select 1 from ${generations} waiting
          where waiting.user_id = ${generations.userId} and waiting.status = 'queued'
            and waiting.run_after <= now())`.as('owner_has_waiting'),
      }),
  )
  const reservation = sql`(select ${done.quotaReservationId} from ${done})`
  const quotaCtes =
    !row.quotaReservationId || keepsQuota === 'keep'
      ? []
      : keepsQuota === 'commit'
        ? outcomes.quota.commitCtes(db, reservation, now)
        : outcomes.quota.releaseCtes(db, reservation, now)
  const outcome = { ...row, ...values } as GenerationRow
  const isFinished = outcome.status === 'succeeded' || outcome.status === 'failed'
  const writes = isFinished ? outcomes.finished : []
  let settled: (GenerationRow & { ownerHasWaiting: boolean }) | undefined
  let written: number[] = []
  if (writes.length === 0) {
    ;[settled] = await db
      .with(done, ...quotaCtes)
      .select()
      .from(done)
  } else {
    const applied = sql`exists (select 1 from ${done})`
    const writeCtes = writes.map((write) => write.ctes(db, { row: outcome, now, applied }))
    // One row counting what each write's last expression returned.
    const names = writeCtes.map((_, index) => `written_${index}`)
    const counted = db
      .$with(
        'finished_written',
        Object.fromEntries(names.map((name) => [name, sql<number>`${sql.identifier(name)}`.as(name)])),
      )
      .as(
        sql`select ${sql.join(
          writeCtes.map(
            (ctes, index) =>
              sql`(select count(*)::int from ${ctes.at(-1)}) as ${sql.identifier(names[index] ?? '')}`,
          ),
          sql`, `,
        )}`,
      )
    const [joined] = await db
      .with(done, ...quotaCtes, ...writeCtes.flat(), counted)
      .select()
      .from(done)
      .innerJoin(counted, sql`true`)
    settled = joined?.done
    written = names.map((name) => Number(joined?.finished_written[name] ?? 0))
  }
  if (!settled) return false
  const { ownerHasWaiting, ...updated } = settled
  deps.notifier.generationChanged(row.id, updated, storedAssets)
  if (ownerHasWaiting) deps.notifier.workAvailable()
  for (const [index, write] of writes.entries()) write.afterCommit?.(written[index] ?? 0, deps.notifier)
  if (isFinished || updated.status === 'canceled') {
    for (const step of outcomes.afterSettled) await step(updated, deps)
  }
  return true
}

/** Succeeded, with its result (and the files it stored); the quota is kept. */
export function succeedJob(
  deps: JobOutcomeDeps,
  held: HeldJob,
  result: GenerationResultRecord,
  storedAssets: AssetRow[],
): Promise<boolean> {
  return settle(
    deps,
    held,
    { status: 'succeeded', result, errorCode: null, finishedAt: new Date(), queuePosition: null },
    'commit',
    storedAssets,
  )
}

/** Failed for good with an error code; the quota is given back. */
export function failJob(deps: JobOutcomeDeps, held: HeldJob, errorCode: ErrorCode): Promise<boolean> {
  return settle(
    deps,
    held,
    { status: 'failed', errorCode, finishedAt: new Date(), queuePosition: null },
    'release',
  )
}

/**
 * Stopped while running, by its owner's cancel (canceled) or its time limit (failed); the quota
 * is given back.
 */
export function stopJob(
  deps: JobOutcomeDeps,
  held: HeldJob,
  errorCode: 'GENERATION_CANCELED' | 'GENERATION_TIMEOUT',
): Promise<boolean> {
  return settle(
    deps,
    held,
    {
      status: errorCode === 'GENERATION_CANCELED' ? 'canceled' : 'failed',
      errorCode,
      finishedAt: new Date(),
    },
    'release',
  )
}

/** Back to the queue after a transient failure, due again at `runAfter`; the quota stays held. */
export function retryJob(deps: JobOutcomeDeps, held: HeldJob, runAfter: Date): Promise<boolean> {
  return settle(deps, held, { status: 'queued', runAfter }, 'keep')
}

/**
 * Back to the queue untouched, at once, on shutdown (and not counted as a try): a provider
 * request id, if any, stays, so the next worker resumes it instead of paying for it twice.
 * Announced as new work, so workers in other processes take it without waiting for a poll.
 */
export async function handBackJob(deps: JobOutcomeDeps, held: HeldJob): Promise<boolean> {
  const isHandedBack = await settle(
    deps,
    held,
    { status: 'queued', attempts: Math.max(0, held.row.attempts - 1), runAfter: new Date() },
    'keep',
  )
  if (isHandedBack) deps.notifier.workAvailable()
  return isHandedBack
}

// --- Cancel ----------------------------------------------------------------------------------

/**
 * Cancels a job for its owner. A queued one stops at once, its quota given back in the same
 * statement; a running one is flagged, and its worker stops it (renewLease reports the flag) and
 * gives the quota back with stopJob. A finished one is left as it is.
 */
export async function cancelJob(
  deps: JobOutcomeDeps,
  job: { id: string; userId: string },
  now: () => Date,
): Promise<void> {
  const { db } = deps
  const { id } = job
  // A queued one: canceled, and its quota given back, in one statement.
  const canceled = db.$with('canceled').as(
    db
      .update(generations)
      .set({
        status: 'canceled',
        errorCode: 'GENERATION_CANCELED',
        finishedAt: now(),
        lockedBy: null,
        leaseUntil: null,
      })
      .where(and(eq(generations.id, id), eq(generations.status, 'queued')))
      .returning(),
  )
  const [canceledNow] = await db
    .with(
      canceled,
      ...deps.outcomes.quota.releaseCtes(
        db,
        sql`(select ${canceled.quotaReservationId} from ${canceled})`,
        now(),
      ),
    )
    .select({ id: canceled.id })
    .from(canceled)
  // A running one: flagged; its worker stops it and gives the quota back.
  if (!canceledNow) {
    await db
      .update(generations)
      .set({ cancelRequested: true })
      .where(and(eq(generations.id, id), eq(generations.status, 'running')))
  }
  deps.notifier.generationChanged(id, undefined, undefined, job.userId)
  if (!canceledNow) deps.notifier.workAvailable()
}
