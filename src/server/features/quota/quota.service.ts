import { and, eq, sql } from 'drizzle-orm'
import type { UsageResponse } from '../../../shared/contracts/billing.ts'
import { AppError } from '../../../shared/errors.ts'
import { getPlan } from '../../../shared/plans.ts'
import { type QuotaResource, usagePeriod } from '../../../shared/quota.ts'
import type { Db } from '../../db/client.ts'
import { quotaReservations, usageMonthly } from '../../db/schema/index.ts'
import {
  getActiveSubscription,
  presentSubscription,
  type SubscriptionRow,
} from '../billing/subscription.service.ts'

const usedColumn = { images: usageMonthly.imagesUsed, videos: usageMonthly.videosUsed } as const
const usedField = { images: 'imagesUsed', videos: 'videosUsed' } as const
const usedColumnName = { images: 'images_used', videos: 'videos_used' } as const

/**
 * Holds one image or video of this month's quota for a generation. Atomic: the counter only
 * moves while it is below the plan's quota, so concurrent requests can never overshoot it.
 * Throws NO_SUBSCRIPTION or QUOTA_EXCEEDED_IMAGES / QUOTA_EXCEEDED_VIDEOS.
 */
export async function reserveQuota(
  db: Db,
  userId: string,
  resource: QuotaResource,
  now: Date,
  /** The active subscription, when the caller has just read it (saves reading it again). */
  knownSubscription?: SubscriptionRow | null,
): Promise<{ reservationId: string }> {
  const subscription =
    knownSubscription === undefined ? await getActiveSubscription(db, userId, now) : knownSubscription
  if (!subscription) throw new AppError('NO_SUBSCRIPTION', 'No active plan')
  const plan = getPlan(subscription.planId)
  const quota = resource === 'images' ? plan.imageQuota : plan.videoQuota
  const period = usagePeriod(now)

  const exceeded = () =>
    new AppError(
      resource === 'images' ? 'QUOTA_EXCEEDED_IMAGES' : 'QUOTA_EXCEEDED_VIDEOS',
      `Monthly ${resource === 'images' ? 'image' : 'video'} quota reached`,
    )
  if (quota <= 0) throw exceeded()
  // One statement, atomic on its own: count the unit in this month's row (made on first use)
  // only while it is under the quota, and record the reservation only if it was counted.
  const result = (await db.execute(sql`
    with counted as (
      insert into ${usageMonthly} (user_id, period, ${sql.raw(usedColumnName[resource])})
      values (${userId}, ${period}, 1)
      on conflict (user_id, period) do update
        set ${sql.raw(usedColumnName[resource])} = ${usageMonthly}.${sql.raw(usedColumnName[resource])} + 1
        where ${usageMonthly}.${sql.raw(usedColumnName[resource])} < ${quota}
      returning id
    )
    insert into ${quotaReservations} (user_id, period, resource)
    select ${userId}, ${period}, ${resource} from counted
    returning id
  `)) as unknown as { rows: { id: string }[] }
  const reservationId = result.rows[0]?.id
  if (!reservationId) throw exceeded()
  return { reservationId }
}

/** Keeps a reserved unit (the generation succeeded). Only the first settle of a reservation counts. */
export async function commitQuota(db: Db, reservationId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(quotaReservations)
    .set({ status: 'committed', settledAt: now })
    .where(and(eq(quotaReservations.id, reservationId), eq(quotaReservations.status, 'reserved')))
    .returning({ id: quotaReservations.id })
  return rows.length > 0
}

/** Gives a reserved unit back (failure or cancel), exactly once, to the month it was taken from. */
export async function releaseQuota(db: Db, reservationId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [released] = await tx
      .update(quotaReservations)
      .set({ status: 'released', settledAt: now })
      .where(and(eq(quotaReservations.id, reservationId), eq(quotaReservations.status, 'reserved')))
      .returning({
        userId: quotaReservations.userId,
        period: quotaReservations.period,
        resource: quotaReservations.resource,
      })
    if (!released) return false
    const column = usedColumn[released.resource]
    await tx
      .update(usageMonthly)
      .set({ [usedField[released.resource]]: sql`greatest(${column} - 1, 0)` })
      .where(and(eq(usageMonthly.userId, released.userId), eq(usageMonthly.period, released.period)))
    return true
  })
}

/** This month's usage against the active plan (no plan: quotas of 0). No usage row means 0 used. */
export async function getUsage(db: Db, userId: string, now: Date): Promise<UsageResponse> {
  const period = usagePeriod(now)
  const subscription = await getActiveSubscription(db, userId, now)
  const [row] = await db
    .select()
    .from(usageMonthly)
    .where(and(eq(usageMonthly.userId, userId), eq(usageMonthly.period, period)))
  const plan = subscription ? getPlan(subscription.planId) : null
  return {
    period,
    subscription: subscription ? presentSubscription(subscription) : null,
    images: { used: row?.imagesUsed ?? 0, quota: plan?.imageQuota ?? 0 },
    videos: { used: row?.videosUsed ?? 0, quota: plan?.videoQuota ?? 0 },
    seo: { unlimited: true },
  }
}
