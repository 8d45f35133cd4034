import { and, eq, getTableColumns, sql } from 'drizzle-orm'
import {
  type AssetRow,
  type GenerationResultRecord,
  type GenerationRow,
  generations,
  type NewGenerationRow,
} from '#server/db/schema/index.ts'
import type { ErrorCode } from '#shared/errors.ts'
import type { HeldJob, JobOutcomeDeps } from './job-queue.ts'

// A job's end (job-queue.ts): its outcome applied with its quota settled and the registered
// outcomes' writes, in one statement (settle), or a queued job canceled by its owner.

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
