import { and, desc, eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { subscriptions } from '#server/db/schema/index.ts'
import type { SubscriptionView } from '#shared/contracts/billing.ts'
import { betaTrial, type PlanId } from '#shared/plans.ts'

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
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')))
    .limit(1)
  if (!row) return null
  if (row.currentPeriodEnd > now) return row
  if (row.isTrial) {
    await db
      .update(subscriptions)
      .set({ status: 'expired' })
      .where(and(eq(subscriptions.id, row.id), eq(subscriptions.status, 'active')))
    return null
  }
  let start = row.currentPeriodStart
  let end = row.currentPeriodEnd
  while (end <= now) {
    start = end
    end = addOneMonth(end)
  }
  const [renewed] = await db
    .update(subscriptions)
    .set({ currentPeriodStart: start, currentPeriodEnd: end })
    .where(eq(subscriptions.id, row.id))
    .returning()
  return renewed ?? null
}

/** The latest subscription in any state, for the billing page. */
export async function getLatestSubscription(
  db: Db,
  userId: string,
  now: Date,
): Promise<SubscriptionRow | null> {
  const active = await getActiveSubscription(db, userId, now)
  if (active) return active
  const [latest] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1)
  return latest ?? null
}

/**
 * Makes `planId` the user's active plan from now on, ending any current one. Choosing the plan
 * one already has changes nothing. Settings (auto top-up, own key) carry over.
 */
export async function activatePlan(
  db: Db,
  input: {
    userId: string
    planId: PlanId
    provider: 'manual'
    now: Date
    isTrial?: boolean
    periodEnd?: Date
  },
): Promise<SubscriptionRow> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, input.userId), eq(subscriptions.status, 'active')))
      .for('update')
    if (
      current &&
      current.planId === input.planId &&
      !current.isTrial &&
      !input.isTrial &&
      current.currentPeriodEnd > input.now
    ) {
      return current
    }
    if (current) {
      await tx
        .update(subscriptions)
        .set({ status: 'canceled', canceledAt: input.now })
        .where(eq(subscriptions.id, current.id))
    }
    const [created] = await tx
      .insert(subscriptions)
      .values({
        userId: input.userId,
        planId: input.planId,
        status: 'active',
        provider: input.provider,
        isTrial: input.isTrial ?? false,
        currentPeriodStart: input.now,
        currentPeriodEnd: input.periodEnd ?? addOneMonth(input.now),
        byoApiEnabled: current?.byoApiEnabled ?? false,
        autoTopupEnabled: current?.autoTopupEnabled ?? false,
      })
      .returning()
    if (!created) throw new Error('subscription insert returned no row')
    return created
  })
}

/** Starts the beta trial (30 days of Growth) of an account made from an access code. */
export function startTrial(db: Db, userId: string, now: Date): Promise<SubscriptionRow> {
  return activatePlan(db, {
    userId,
    planId: betaTrial.planId,
    provider: 'manual',
    now,
    isTrial: true,
    periodEnd: new Date(now.getTime() + betaTrial.days * 24 * 60 * 60 * 1000),
  })
}

/** Ends the active subscription now; returns whether there was one. */
export async function cancelSubscription(db: Db, userId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(subscriptions)
    .set({ status: 'canceled', canceledAt: now })
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')))
    .returning({ id: subscriptions.id })
  return rows.length > 0
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
  }
}
