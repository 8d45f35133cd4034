import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { Db } from '#server/db/client.ts'
import {
  assets,
  creditBalances,
  quotaReservations,
  type SubscriptionRow,
  usageMonthly,
} from '#server/db/schema/index.ts'
import type { QuotaHold, QuotaLedger } from '#server/job-queue/outcomes.ts'
import { getActiveSubscription } from '#server/plans/live-plan.ts'
import { AppError } from '#shared/errors.ts'
import { getPlan } from '#shared/plans.ts'
import { type QuotaResource, quotaPeriodKey } from '#shared/quota.ts'

const usedColumnName = { images: 'images_used', videos: 'videos_used' } as const

/**
 * What a reservation needs: the active plan's quota for the resource, and the quota period (the
 * subscription's billing period, keyed by its start: quotaPeriodKey). The job queue holds it.
 */
export type { QuotaHold }

/**
 * Checks that a unit of quota can be asked for at all, and says how much the plan allows.
 * Throws NO_SUBSCRIPTION, or QUOTA_EXCEEDED_* for a plan without any of this resource.
 */
export async function quotaHoldFor(
  db: Db,
  userId: string,
  resource: QuotaResource,
  now: Date,
  /** The active subscription, when the caller has just read it (saves reading it again). */
  knownSubscription?: SubscriptionRow | null,
): Promise<QuotaHold> {
  const subscription =
    knownSubscription === undefined ? await getActiveSubscription(db, userId, now) : knownSubscription
  if (!subscription) throw new AppError('NO_SUBSCRIPTION', 'No active plan')
  const plan = getPlan(subscription.planId)
  const quota = resource === 'images' ? plan.imageQuota : plan.videoQuota
  if (quota <= 0) throw quotaExceeded(resource)
  return { userId, resource, period: quotaPeriodKey(subscription.currentPeriodStart), quota }
}

export function quotaExceeded(resource: QuotaResource): AppError {
  return new AppError(
    resource === 'images' ? 'QUOTA_EXCEEDED_IMAGES' : 'QUOTA_EXCEEDED_VIDEOS',
    `Monthly ${resource === 'images' ? 'image' : 'video'} quota reached`,
  )
}

/**
 * The common table expressions that hold a unit, for the start of a `with` statement: `counted`
 * counts the unit in the period's row (made on first use) only while it is under the plan's
 * quota; `credited`, only when the plan had none left, takes it from the bought credits while
 * the balance is above 0; `reserved` records the reservation with where it came from, if either
 * gave it. One statement, so nothing is kept open between round trips, and exact under
 * concurrency: each counter's condition is checked again on the row's newest version once a
 * concurrent writer commits (PostgreSQL's read committed re-check for updates and for
 * `on conflict do update`), so neither the quota nor the balance is ever overshot, and the
 * plan's quota is always spent before credits. A statement built on them (inserting the
 * generation, say) writes nothing when `reserved` is empty. With `onlyIf` (a boolean expression
 * of the same statement), nothing is counted, taken or reserved when it is false.
 */
export function reservationCtes(hold: QuotaHold, onlyIf?: SQL): SQL {
  const used = sql.raw(usedColumnName[hold.resource])
  const credits = sql.raw(hold.resource)
  const source = onlyIf
    ? sql`select ${hold.userId}, ${hold.period}, 1 where ${onlyIf}`
    : sql`values (${hold.userId}, ${hold.period}, 1)`
  return sql`counted as (
      insert into ${usageMonthly} (user_id, period, ${used})
      ${source}
      on conflict (user_id, period) do update
        set ${used} = ${usageMonthly}.${used} + 1
        where ${usageMonthly}.${used} < ${hold.quota}
      returning id
    ),
    credited as (
      update ${creditBalances}
        set ${credits} = ${creditBalances}.${credits} - 1, updated_at = now()
        where ${creditBalances}.user_id = ${hold.userId}
          and ${creditBalances}.${credits} > 0
          and not exists (select 1 from counted)
          ${onlyIf ? sql`and ${onlyIf}` : sql``}
      returning user_id
    ),
    reserved as (
      insert into ${quotaReservations} (user_id, period, resource, source)
      select ${hold.userId}, ${hold.period}, ${hold.resource}, 'plan' from counted
      union all
      select ${hold.userId}, ${hold.period}, ${hold.resource}, 'credit' from credited
      returning id
    )`
}

/**
 * Holds one image or video (of the period's quota, else of the credits) on its own (generations hold theirs in the
 * statement that queues them: acceptJob in job-queue/accept-job.ts). Throws
 * NO_SUBSCRIPTION or QUOTA_EXCEEDED_IMAGES / _VIDEOS.
 */
export async function reserveQuota(
  db: Db,
  userId: string,
  resource: QuotaResource,
  now: Date,
  knownSubscription?: SubscriptionRow | null,
): Promise<{ reservationId: string }> {
  const hold = await quotaHoldFor(db, userId, resource, now, knownSubscription)
  const result = (await db.execute(
    sql`with ${reservationCtes(hold)} select id from reserved`,
  )) as unknown as { rows: { id: string }[] }
  const reservationId = result.rows[0]?.id
  if (!reservationId) throw quotaExceeded(resource)
  return { reservationId }
}

/** Units of a resource the user can still hold now: the period's plan quota left, plus credits. */
export async function availableUnits(db: Db, hold: QuotaHold): Promise<number> {
  const used = sql.raw(usedColumnName[hold.resource])
  const credits = sql.raw(hold.resource)
  const result = (await db.execute(sql`select
      coalesce((select ${used} from ${usageMonthly}
        where user_id = ${hold.userId} and period = ${hold.period}), 0)::int as used,
      coalesce((select ${credits} from ${creditBalances} where user_id = ${hold.userId}), 0)::int as credits
  `)) as unknown as { rows: { used: number; credits: number }[] }
  const row = result.rows[0]
  return Math.max(0, hold.quota - Number(row?.used ?? 0)) + Number(row?.credits ?? 0)
}

/**
 * Holds `count` units at once (a catalogue batch), inside the caller's transaction: the period's
 * plan quota first, then credits, like single reservations. The period's row and the credit
 * balance are locked for the rest of the transaction, so concurrent single reservations wait and
 * then see the new counts. Returns the reservation ids, or null (nothing held) when fewer than
 * `count` units are left.
 */
export async function reserveUnits(tx: Db, hold: QuotaHold, count: number): Promise<string[] | null> {
  if (count <= 0) return []
  const used = sql.raw(usedColumnName[hold.resource])
  const credits = sql.raw(hold.resource)
  await tx.execute(sql`insert into ${usageMonthly} (user_id, period) values (${hold.userId}, ${hold.period})
    on conflict (user_id, period) do nothing`)
  const locked = (await tx.execute(sql`select
      (select ${used} from ${usageMonthly} where user_id = ${hold.userId} and period = ${hold.period}
        for update)::int as used,
      coalesce((select ${credits} from ${creditBalances} where user_id = ${hold.userId} for update), 0)::int
        as credits`)) as unknown as { rows: { used: number; credits: number }[] }
  const state = locked.rows[0]
  const fromPlan = Math.min(count, Math.max(0, hold.quota - Number(state?.used ?? 0)))
  const fromCredits = count - fromPlan
  if (fromCredits > Number(state?.credits ?? 0)) return null
  if (fromPlan > 0) {
    await tx.execute(sql`update ${usageMonthly} set ${used} = ${used} + ${fromPlan}
      where user_id = ${hold.userId} and period = ${hold.period}`)
  }
  if (fromCredits > 0) {
    await tx.execute(sql`update ${creditBalances} set ${credits} = ${credits} - ${fromCredits}, updated_at = now()
      where user_id = ${hold.userId}`)
  }
  const inserted = (await tx.execute(sql`insert into ${quotaReservations} (user_id, period, resource, source)
    select ${hold.userId}, ${hold.period}, ${hold.resource}, case when n <= ${fromPlan} then 'plan' else 'credit' end
    from generate_series(1, ${count}) as n
    order by n
    returning id`)) as unknown as { rows: { id: string }[] }
  return inserted.rows.map((row) => row.id)
}

/** A reservation id, or an expression giving one (a column of an earlier expression). */
type ReservationRef = string | SQL

/**
 * Keeps a reserved unit (the generation succeeded): the statement, for use as a common table
 * expression beside the generation's own update. Only the first settle of a reservation counts.
 */
export function commitQuotaCtes(db: Db, reservationId: ReservationRef, now: Date) {
  return [
    db.$with('quota_committed').as(
      db
        .update(quotaReservations)
        .set({ status: 'committed', settledAt: now })
        .where(and(eq(quotaReservations.id, reservationId), eq(quotaReservations.status, 'reserved')))
        .returning({ id: quotaReservations.id }),
    ),
  ] as const
}

/**
 * Gives a reserved unit back (failure or cancel), exactly once, to where it was taken from: the
 * period's plan counter, or the credit balance. The statements, for use as common table
 * expressions beside the generation's own update (each runs whether or not it is read).
 */
export function releaseQuotaCtes(db: Db, reservationId: ReservationRef, now: Date) {
  const released = db.$with('quota_released').as(
    db
      .update(quotaReservations)
      .set({ status: 'released', settledAt: now })
      .where(and(eq(quotaReservations.id, reservationId), eq(quotaReservations.status, 'reserved')))
      .returning({
        userId: quotaReservations.userId,
        period: quotaReservations.period,
        resource: quotaReservations.resource,
        source: quotaReservations.source,
      }),
  )
  const resource = sql`(select ${released.resource} from ${released})`
  const source = sql`(select ${released.source} from ${released})`
  const givenBack = (column: AnyPgColumn, name: QuotaResource) =>
    sql`case when ${resource} = ${name} then greatest(${column} - 1, 0) else ${column} end`
  const usage = db.$with('quota_given_back').as(
    db
      .update(usageMonthly)
      .set({
        imagesUsed: givenBack(usageMonthly.imagesUsed, 'images'),
        videosUsed: givenBack(usageMonthly.videosUsed, 'videos'),
      })
      .where(
        and(
          eq(usageMonthly.userId, sql`(select ${released.userId} from ${released})`),
          eq(usageMonthly.period, sql`(select ${released.period} from ${released})`),
          eq(source, 'plan'),
        ),
      )
      .returning({ id: usageMonthly.id }),
  )
  const creditBack = (column: AnyPgColumn, name: QuotaResource) =>
    sql`case when ${resource} = ${name} then ${column} + 1 else ${column} end`
  const credits = db.$with('quota_credit_given_back').as(
    db
      .update(creditBalances)
      .set({
        images: creditBack(creditBalances.images, 'images'),
        videos: creditBack(creditBalances.videos, 'videos'),
        updatedAt: now,
      })
      .where(
        and(
          eq(creditBalances.userId, sql`(select ${released.userId} from ${released})`),
          eq(source, 'credit'),
        ),
      )
      .returning({ userId: creditBalances.userId }),
  )
  return [released, usage, credits] as const
}

/** Keeps a reserved unit on its own. True when this call settled it. */
export async function commitQuota(db: Db, reservationId: string, now: Date): Promise<boolean> {
  const [committed] = commitQuotaCtes(db, reservationId, now)
  const rows = await db.with(committed).select().from(committed)
  return rows.length > 0
}

/**
 * Gives many reserved units back (a batch canceled), inside the caller's transaction, each
 * exactly once, to where it came from. Returns how many this call released.
 */
export async function releaseUnits(tx: Db, reservationIds: string[], now: Date): Promise<number> {
  if (reservationIds.length === 0) return 0
  const result = (await tx.execute(sql`with released as (
      update ${quotaReservations} set status = 'released', settled_at = ${now.toISOString()}::timestamptz
      where id = any(${`{${reservationIds.join(',')}}`}::uuid[]) and status = 'reserved'
      returning user_id, period, resource, source
    ),
    plan as (
      select user_id, period,
        count(*) filter (where resource = 'images')::int as images,
        count(*) filter (where resource = 'videos')::int as videos
      from released where source = 'plan' group by user_id, period
    ),
    credit as (
      select user_id,
        count(*) filter (where resource = 'images')::int as images,
        count(*) filter (where resource = 'videos')::int as videos
      from released where source = 'credit' group by user_id
    ),
    plan_back as (
      update ${usageMonthly} u set images_used = greatest(u.images_used - plan.images, 0),
        videos_used = greatest(u.videos_used - plan.videos, 0)
      from plan where u.user_id = plan.user_id and u.period = plan.period
      returning u.id
    ),
    credit_back as (
      update ${creditBalances} c set images = c.images + credit.images, videos = c.videos + credit.videos,
        updated_at = ${now.toISOString()}::timestamptz
      from credit where c.user_id = credit.user_id
      returning c.user_id
    )
    select count(*)::int as released from released`)) as unknown as { rows: { released: number }[] }
  return Number(result.rows[0]?.released ?? 0)
}

/** Gives a reserved unit back on its own, in one statement. True when this call settled it. */
export async function releaseQuota(db: Db, reservationId: string, now: Date): Promise<boolean> {
  const [released, usage, credits] = releaseQuotaCtes(db, reservationId, now)
  const rows = await db.with(released, usage, credits).select().from(released)
  return rows.length > 0
}

/** The bytes the user's files (uploads and results) take in storage, as an SQL expression. */
export function storageUsedSql(userId: string): SQL<number> {
  return sql<number>`(select coalesce(sum(${assets.bytes}), 0)::float8 from ${assets} where ${assets.userId} = ${userId})`
}

/** Bytes the user's files (uploads and results) take in storage. */
export async function storageUsedBytes(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ used: storageUsedSql(userId) }).from(sql`(select 1) as one`)
  return Number(row?.used ?? 0)
}

/** The plan's storage in bytes; 0 without an active plan. */
export function storageQuotaBytes(subscription: SubscriptionRow | null): number {
  return subscription ? getPlan(subscription.planId).storageBytes : 0
}

export function storageQuotaExceeded(): AppError {
  return new AppError('STORAGE_QUOTA_EXCEEDED', 'Storage quota reached')
}

/**
 * Refuses with STORAGE_QUOTA_EXCEEDED unless `addedBytes` more still fit in the plan's storage
 * (with 0: unless the user is below it). A check, not a hold: requests racing each other may
 * together go past the quota by what they carry (an upload is at most 10 MB), and a job's
 * result is stored by the worker after the check, so a user may end slightly over.
 */
export async function ensureStorageRoom(
  db: Db,
  userId: string,
  subscription: SubscriptionRow | null,
  addedBytes: number,
): Promise<void> {
  const quota = storageQuotaBytes(subscription)
  const used = await storageUsedBytes(db, userId)
  const isFull = addedBytes > 0 ? used + addedBytes > quota : used >= quota
  if (isFull) throw storageQuotaExceeded()
}

/** The quota's part in the job queue's statements, registered at composition (job-outcomes.ts). */
export const quotaLedger: QuotaLedger = {
  reservationCtes,
  reserveUnits,
  commitCtes: commitQuotaCtes,
  releaseCtes: releaseQuotaCtes,
  releaseUnits,
  storageUsedSql,
  exceeded: quotaExceeded,
  storageExceeded: storageQuotaExceeded,
}
