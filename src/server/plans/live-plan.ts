import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { subscriptions } from '#server/db/schema/index.ts'
import type { SubscriptionView } from '#shared/contracts/billing.ts'
import { getPlan } from '#shared/plans.ts'

// The plan an account is on: its live subscription, whose period is the quota period. A layer
// under the features, read like the database: every feature that asks "what may this account
// use" (quota, assets, generations, the catalogue, API keys, webhooks, settings) reads it here,
// and billing, which writes subscriptions (features/billing/subscription.service.ts), reads them
// through it too.

export type SubscriptionRow = typeof subscriptions.$inferSelect

/** The same day next month, clamped to the month's end (Jan 31 → Feb 28/29). */
export function addOneMonth(date: Date): Date {
  const next = new Date(date)
  const day = next.getUTCDate()
  next.setUTCDate(1)
  next.setUTCMonth(next.getUTCMonth() + 1)
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate()
  next.setUTCDate(Math.min(day, lastDay))
  return next
}

/**
 * The statuses of a subscription that gives a plan (at most one per user:
 * subscriptions_one_active_per_user): past_due too, while the provider retries the renewal
 * payment (the web shows a banner with a way to fix the card); the provider ends it if the
 * retries fail.
 */
export const liveStatuses: SubscriptionRow['status'][] = ['active', 'past_due']

/**
 * The user's active subscription, brought up to date: a trial past its end expires; a plan
 * past its period renews for the next one (the manual provider takes no payment).
 */
export async function getActiveSubscription(
  db: Db,
  userId: string,
  now: Date,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, liveStatuses)))
    .limit(1)
  if (!row) return null
  if (row.currentPeriodEnd > now) return row
  // A paid provider's subscription moves to its next period when the provider says it was paid
  // (its webhook), never on a read; until then the period that ended stays the quota period.
  if (row.provider !== 'manual') return row
  if (row.isTrial) {
    await db
      .update(subscriptions)
      .set({ status: 'expired' })
      .where(and(eq(subscriptions.id, row.id), eq(subscriptions.status, 'active')))
    return null
  }
  // One guarded update: readers racing here compute the same period, and only one writes it.
  const { start, end } = periodContaining(row, now)
  const [renewed] = await db
    .update(subscriptions)
    .set({ currentPeriodStart: start, currentPeriodEnd: end })
    .where(and(eq(subscriptions.id, row.id), eq(subscriptions.currentPeriodEnd, row.currentPeriodEnd)))
    .returning()
  if (renewed) return renewed
  const [current] = await db.select().from(subscriptions).where(eq(subscriptions.id, row.id))
  return current && liveStatuses.includes(current.status) ? current : null
}

/**
 * Whether the user's current plan includes the public API (the plan catalogue's `apiAccess`):
 * API keys, their requests, and webhook endpoints and deliveries all ask it.
 */
export async function hasApiAccess(db: Db, userId: string, now: Date): Promise<boolean> {
  const subscription = await getActiveSubscription(db, userId, now)
  return subscription !== null && getPlan(subscription.planId).features.includes('apiAccess')
}

/** The month-long period, following on from this subscription's, that contains `now`. */
export function periodContaining(row: SubscriptionRow, now: Date): { start: Date; end: Date } {
  let start = row.currentPeriodStart
  let end = row.currentPeriodEnd
  while (end <= now) {
    start = end
    end = addOneMonth(end)
  }
  return { start, end }
}

export function presentSubscription(row: SubscriptionRow): SubscriptionView {
  return {
    planId: row.planId,
    status: row.status,
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    isTrial: row.isTrial,
    autoTopupEnabled: row.autoTopupEnabled,
    byoApiEnabled: row.byoApiEnabled,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    scheduledPlanId: row.scheduledPlanId,
  }
}
