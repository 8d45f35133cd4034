import type { Db } from '#server/db/client.ts'
import type { BillingResponse } from '#shared/contracts/billing.ts'
import { AppError } from '#shared/errors.ts'
import type { PlanId } from '#shared/plans.ts'
import type { BillingProvider } from './billing-provider.ts'
import { getLatestSubscription, presentSubscription } from './subscription.service.ts'

// Other features hold the provider (settings says whether billing is live) through this file.
export type { BillingProvider } from './billing-provider.ts'

export type BillingDeps = { db: Db; billing: BillingProvider; now: () => Date }

/** The billing page: the user's latest subscription and what the provider offers. */
export async function getBillingView(deps: BillingDeps, userId: string): Promise<BillingResponse> {
  const subscription = await getLatestSubscription(deps.db, userId, deps.now())
  return {
    provider: deps.billing.kind,
    hasCustomerPortal: deps.billing.hasCustomerPortal,
    canChangePlan: deps.billing.canUsersChangePlan,
    subscription: subscription ? presentSubscription(subscription) : null,
  }
}

/**
 * Refuses plan changes by users when the operator sets plans (manual billing in production):
 * BILLING_MANAGED_BY_OPERATOR. The routes ask before reading the request, so such a deployment
 * gives that answer to any plan change, well-formed or not.
 */
export function ensureUsersMayChangePlan(deps: Pick<BillingDeps, 'billing'>): void {
  if (!deps.billing.canUsersChangePlan) {
    throw new AppError('BILLING_MANAGED_BY_OPERATOR', 'Plans are set by the operator')
  }
}

/** Makes `planId` the user's plan through the provider; answers with the new billing view. */
export async function choosePlan(
  deps: BillingDeps,
  userId: string,
  planId: PlanId,
): Promise<BillingResponse> {
  ensureUsersMayChangePlan(deps)
  await deps.billing.changePlan(userId, planId, deps.now())
  return getBillingView(deps, userId)
}

/** Ends the user's active plan through the provider; answers with the new billing view. */
export async function cancelPlan(deps: BillingDeps, userId: string): Promise<BillingResponse> {
  ensureUsersMayChangePlan(deps)
  await deps.billing.cancel(userId, deps.now())
  return getBillingView(deps, userId)
}
