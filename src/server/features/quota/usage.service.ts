import { and, eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { usageMonthly } from '#server/db/schema/index.ts'
import { getActiveSubscription, presentSubscription } from '#server/plans/live-plan.ts'
import type { UsageResponse } from '#shared/contracts/billing.ts'
import { AppError } from '#shared/errors.ts'
import { getPlan } from '#shared/plans.ts'
import { quotaPeriodKey } from '#shared/quota.ts'
import { getCredits } from './credits.service.ts'
import { storageQuotaBytes, storageUsedBytes } from './quota.service.ts'

// What an account has used of its plan this period, as the usage meters and `/v1/usage` show it.

/** The period's usage row of the user (undefined before the first use in it). */
async function periodUsage(db: Db, userId: string, period: string) {
  const [row] = await db
    .select()
    .from(usageMonthly)
    .where(and(eq(usageMonthly.userId, userId), eq(usageMonthly.period, period)))
  return row
}

/**
 * The current period's usage against the active plan, and the credits beside it (no plan: no
 * period, quotas of 0; credits are kept). No usage row means 0 used.
 */
export async function getUsage(db: Db, userId: string, now: Date): Promise<UsageResponse> {
  const [subscription, credits, storageUsed] = await Promise.all([
    getActiveSubscription(db, userId, now),
    getCredits(db, userId),
    storageUsedBytes(db, userId),
  ])
  const row = subscription
    ? await periodUsage(db, userId, quotaPeriodKey(subscription.currentPeriodStart))
    : undefined
  const plan = subscription ? getPlan(subscription.planId) : null
  return {
    period: subscription
      ? {
          start: subscription.currentPeriodStart.toISOString(),
          end: subscription.currentPeriodEnd.toISOString(),
        }
      : null,
    subscription: subscription ? presentSubscription(subscription) : null,
    images: { used: row?.imagesUsed ?? 0, quota: plan?.imageQuota ?? 0 },
    videos: { used: row?.videosUsed ?? 0, quota: plan?.videoQuota ?? 0 },
    credits,
    seo: { unlimited: true },
    storage: { usedBytes: storageUsed, quotaBytes: storageQuotaBytes(subscription) },
  }
}

/**
 * Sets the user's usage in the current period to these numbers (end-to-end set-up through the
 * test hooks). NO_SUBSCRIPTION without an active plan: there is no period to set.
 */
export async function setPeriodUsage(
  db: Db,
  userId: string,
  now: Date,
  values: { imagesUsed: number; videosUsed: number },
): Promise<void> {
  const subscription = await getActiveSubscription(db, userId, now)
  if (!subscription) throw new AppError('NO_SUBSCRIPTION', 'No active plan')
  const period = quotaPeriodKey(subscription.currentPeriodStart)
  await db
    .insert(usageMonthly)
    .values({ ...values, userId, period })
    .onConflictDoUpdate({ target: [usageMonthly.userId, usageMonthly.period], set: values })
}
