import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { assets, generations } from '#server/db/schema/index.ts'
import type { ClaimedJob, HeldJob, JobQueueDeps } from './job-queue.ts'

// A worker's hold on jobs (job-queue.ts): claiming due ones fairly, under a lease, and what it
// writes while it holds one (the lease renewed, the provider's request id, its queue position).
// Every write applies only while the worker still holds the job.

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
