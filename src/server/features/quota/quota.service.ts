import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { Db } from '#server/db/client.ts'
import { assets, quotaReservations, type SubscriptionRow, usageMonthly } from '#server/db/schema/index.ts'
import { getActiveSubscription, presentSubscription } from '#server/features/billing/subscription.service.ts'
import type { UsageResponse } from '#shared/contracts/billing.ts'
import { AppError } from '#shared/errors.ts'
import { getPlan } from '#shared/plans.ts'
import { type QuotaResource, usagePeriod } from '#shared/quota.ts'

const usedColumnName = { images: 'images_used', videos: 'videos_used' } as const

/** What a reservation needs: the active plan's quota for the resource, and this month. */
export type QuotaHold = { userId: string; resource: QuotaResource; period: string; quota: number }

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
  return { userId, resource, period: usagePeriod(now), quota }
}

export function quotaExceeded(resource: QuotaResource): AppError {
  return new AppError(
    resource === 'images' ? 'QUOTA_EXCEEDED_IMAGES' : 'QUOTA_EXCEEDED_VIDEOS',
    `Monthly ${resource === 'images' ? 'image' : 'video'} quota reached`,
  )
}

/**
 * The two common table expressions that hold a unit, for the start of a `with` statement:
 * `counted` counts the unit in this month's row (made on first use) only while it is under the
 * quota, and `reserved` records the reservation only if it was counted. One statement is atomic
 * on its own, so concurrent requests can never overshoot the quota; a statement built on them
 * (inserting the generation, say) writes nothing when `reserved` is empty. With `onlyIf` (a
 * boolean expression of the same statement), nothing is counted or reserved when it is false.
 */
export function reservationCtes(hold: QuotaHold, onlyIf?: SQL): SQL {
  const used = sql.raw(usedColumnName[hold.resource])
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
    reserved as (
      insert into ${quotaReservations} (user_id, period, resource)
      select ${hold.userId}, ${hold.period}, ${hold.resource} from counted
      returning id
    )`
}

/**
 * Holds one image or video of this month's quota on its own (generations hold theirs in the
 * statement that queues them: acceptJob in features/generations/job-queue.ts). Throws
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
 * Gives a reserved unit back (failure or cancel), exactly once, to the month it was taken from:
 * the statements, for use as common table expressions beside the generation's own update.
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
      }),
  )
  const resource = sql`(select ${released.resource} from ${released})`
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
        ),
      )
      .returning({ id: usageMonthly.id }),
  )
  return [released, usage] as const
}

/** Keeps a reserved unit on its own. True when this call settled it. */
export async function commitQuota(db: Db, reservationId: string, now: Date): Promise<boolean> {
  const [committed] = commitQuotaCtes(db, reservationId, now)
  const rows = await db.with(committed).select().from(committed)
  return rows.length > 0
}

/** Gives a reserved unit back on its own, in one statement. True when this call settled it. */
export async function releaseQuota(db: Db, reservationId: string, now: Date): Promise<boolean> {
  const [released, usage] = releaseQuotaCtes(db, reservationId, now)
  const rows = await db.with(released, usage).select().from(released)
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

/** This month's usage against the active plan (no plan: quotas of 0). No usage row means 0 used. */
export async function getUsage(db: Db, userId: string, now: Date): Promise<UsageResponse> {
  const period = usagePeriod(now)
  const [subscription, [row], storageUsed] = await Promise.all([
    getActiveSubscription(db, userId, now),
    db
      .select()
      .from(usageMonthly)
      .where(and(eq(usageMonthly.userId, userId), eq(usageMonthly.period, period))),
    storageUsedBytes(db, userId),
  ])
  const plan = subscription ? getPlan(subscription.planId) : null
  return {
    period,
    subscription: subscription ? presentSubscription(subscription) : null,
    images: { used: row?.imagesUsed ?? 0, quota: plan?.imageQuota ?? 0 },
    videos: { used: row?.videosUsed ?? 0, quota: plan?.videoQuota ?? 0 },
    seo: { unlimited: true },
    storage: { usedBytes: storageUsed, quotaBytes: storageQuotaBytes(subscription) },
  }
}
