import type { BillingResponse } from '#shared/contracts/billing.ts'
import { getPlan, type Plan } from '#shared/plans.ts'

/**
 * What choosing a plan does. test: manual billing, at once and free. checkout: the first paid
 * plan, paid on the provider's hosted page. upgrade: now, the difference charged (prorated).
 * downgrade: when the current period ends.
 */
export type PlanChange = 'test' | 'checkout' | 'upgrade' | 'downgrade'

type BillingFacts = Pick<BillingResponse, 'hasCheckout' | 'subscription'>

/**
 * Whether the user pays for a plan at the provider now (active or past due, not a beta trial).
 * A trial or a plan from before payments were switched on is replaced through checkout.
 */
export function hasPaidPlan(billing: BillingFacts): boolean {
  const subscription = billing.subscription
  return (
    billing.hasCheckout &&
    subscription !== null &&
    !subscription.isTrial &&
    (subscription.status === 'active' || subscription.status === 'past_due')
  )
}

export function planChangeFor(billing: BillingFacts, plan: Plan): PlanChange {
  if (!billing.hasCheckout) return 'test'
  if (!hasPaidPlan(billing) || !billing.subscription) return 'checkout'
  const current = getPlan(billing.subscription.planId)
  return plan.priceMonthlyUsd > current.priceMonthlyUsd ? 'upgrade' : 'downgrade'
}
