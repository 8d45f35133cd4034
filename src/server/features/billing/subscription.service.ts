import { and, desc, eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { subscriptions } from '#server/db/schema/index.ts'
import {
  addOneMonth,
  getActiveSubscription,
  periodContaining,
  type SubscriptionRow,
} from '#server/plans/live-plan.ts'
import { betaTrial, type PlanId } from '#shared/plans.ts'

/**
 * The period a plan chosen now runs in. Usage is counted per period (quota.service.ts keys it by
 * the period's start), so a change of plan keeps the period it is made in, even after a cancel
 * (choosing again must not reset usage); a renewing plan whose period has passed moves on to
 * the period containing now. Only a first plan, or one after the last has run out (an expired
 * trial, an ended plan), starts a new month-long period now.
 */
function periodForChange(previous: SubscriptionRow | undefined, now: Date): { start: Date; end: Date } {
  if (previous && previous.currentPeriodEnd > now) {
    return { start: previous.currentPeriodStart, end: previous.currentPeriodEnd }
  }
  if (previous && previous.status === 'active' && !previous.isTrial && previous.provider === 'manual') {
    return periodContaining(previous, now)
  }
  return { start: now, end: addOneMonth(now) }
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
 * one already has changes nothing. Settings (auto top-up, own key) carry over, and so does the
 * period (periodForChange), except for a trial started with its own `periodEnd`.
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
    const previous =
      current ??
      (
        await tx
          .select()
          .from(subscriptions)
          .where(eq(subscriptions.userId, input.userId))
          .orderBy(desc(subscriptions.createdAt))
          .limit(1)
      )[0]
    const period = input.periodEnd
      ? { start: input.now, end: input.periodEnd }
      : periodForChange(previous, input.now)
    const [created] = await tx
      .insert(subscriptions)
      .values({
        userId: input.userId,
        planId: input.planId,
        status: 'active',
        provider: input.provider,
        isTrial: input.isTrial ?? false,
        currentPeriodStart: period.start,
        currentPeriodEnd: period.end,
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
