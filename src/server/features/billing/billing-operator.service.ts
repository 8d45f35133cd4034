import { eq, or } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'
import type { SubscriptionRow } from '#server/plans/live-plan.ts'
import type { PlanId } from '#shared/plans.ts'
import { activatePlan, cancelSubscription } from './subscription.service.ts'

export type OperatorPlanResult =
  | { status: 'no-such-user' }
  | { status: 'set'; userId: string; email: string; subscription: SubscriptionRow }
  | { status: 'removed'; userId: string; email: string; hadPlan: boolean }

/**
 * What the operator's `npm run billing -- set-plan` does: makes `planId` the user's active plan
 * from now (in the current period, so usage is kept; a new month-long period when there was
 * none), or with null ends the active plan. `user` is an email (any case) or a user id.
 */
export async function setPlanByOperator(
  db: Db,
  user: string,
  planId: PlanId | null,
  now: Date,
): Promise<OperatorPlanResult> {
  const [found] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(or(eq(users.id, user), eq(users.email, user.trim().toLowerCase())))
    .limit(1)
  if (!found) return { status: 'no-such-user' }
  if (planId === null) {
    const hadPlan = await cancelSubscription(db, found.id, now)
    return { status: 'removed', userId: found.id, email: found.email, hadPlan }
  }
  const subscription = await activatePlan(db, { userId: found.id, planId, provider: 'manual', now })
  return { status: 'set', userId: found.id, email: found.email, subscription }
}
