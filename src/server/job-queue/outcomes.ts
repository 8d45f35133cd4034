import type { SQL } from 'drizzle-orm'
import type { WithSubquery } from 'drizzle-orm/subquery'
import type { Db } from '#server/db/client.ts'
import type { GenerationRow } from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import type { AppError } from '#shared/errors.ts'
import type { QuotaResource } from '#shared/quota.ts'

// What other features add to a job's life, registered at composition (src/server/job-outcomes.ts)
// and handed to the queue with its database: the queue imports none of them. The quota is held
// in the statement that queues a job and kept or given back in the one that settles it; a
// finished job's other writes (its webhook events) join that same statement; what may follow
// the commit (a catalogue row finishing its batch) runs after it.

/**
 * One unit of quota a job asks for: the active plan's quota of the resource, and the quota period
 * (the subscription's billing period, keyed by its start). The quota feature makes it.
 */
export type QuotaHold = { userId: string; resource: QuotaResource; period: string; quota: number }

/** A common table expression for a `with` statement (drizzle's `$with(...).as(...)`). */
export type Cte = WithSubquery

/** The quota's part in the queue's statements (features/quota: quotaLedger). */
export type QuotaLedger = {
  /**
   * Raw common table expressions, for the start of a `with`, that hold one unit only while
   * `onlyIf` holds; the last, `reserved`, returns the reservation's id (none when nothing was held).
   */
  reservationCtes(hold: QuotaHold, onlyIf: SQL): SQL
  /** Holds `count` units inside the caller's transaction, all or none (null: too few are left). */
  reserveUnits(tx: Db, hold: QuotaHold, count: number): Promise<string[] | null>
  /** Keeps the unit `reservationId` names (an expression of the same statement). */
  commitCtes(db: Db, reservationId: SQL, now: Date): readonly Cte[]
  /** Gives that unit back to where it was taken from. */
  releaseCtes(db: Db, reservationId: SQL, now: Date): readonly Cte[]
  /** Gives units back inside the caller's transaction. */
  releaseUnits(tx: Db, reservationIds: string[], now: Date): Promise<number>
  /** The bytes a user's files take, as an expression. */
  storageUsedSql(userId: string): SQL<number>
  /** The errors a refused hold is reported with. */
  exceeded(resource: QuotaResource): AppError
  storageExceeded(): AppError
}

/** A finished job (succeeded or failed) as its settle statement writes it. */
export type FinishedJob = {
  row: GenerationRow
  now: Date
  /** True in the statement exactly when the outcome applied (the worker still held the job). */
  applied: SQL
}

/**
 * What a feature writes when a job finishes, in the settle statement itself (so it exists exactly
 * when the outcome does): its common table expressions, the last of which returns one row per
 * thing written; `afterCommit` then hears how many.
 */
export type FinishedWrite = {
  ctes(db: Db, job: FinishedJob): readonly Cte[]
  afterCommit?(written: number, notifier: Notifier): void
}

/**
 * What runs once a job's final outcome (succeeded, failed, canceled) is committed, outside its
 * statement. It handles its own failures (they must not undo the outcome).
 */
export type AfterSettled = (row: GenerationRow, queue: { db: Db; notifier: Notifier }) => Promise<void>

export type JobOutcomes = {
  quota: QuotaLedger
  finished: readonly FinishedWrite[]
  afterSettled: readonly AfterSettled[]
}
