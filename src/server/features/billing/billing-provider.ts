import type { Db } from '#server/db/client.ts'
import type { BillingProviderKind } from '#shared/contracts/billing.ts'
import type { PlanId } from '#shared/plans.ts'
import { activatePlan, cancelSubscription } from './subscription.service.ts'

/** Who takes payment for plans. Routes talk to this interface only. */
export interface BillingProvider {
  readonly kind: BillingProviderKind
  /** Whether there is a customer portal (invoices, cards) to send users to. */
  readonly hasCustomerPortal: boolean
  /** Whether money really moves, so that auto top-up can take effect. */
  readonly isLive: boolean
  /** Whether users may choose or cancel their own plan; when not, an operator sets plans. */
  readonly canUsersChangePlan: boolean
  changePlan(userId: string, planId: PlanId, now: Date): Promise<void>
  cancel(userId: string, now: Date): Promise<boolean>
}

/**
 * Manual billing: a plan change takes effect at once and no payment is taken. Users may change
 * their own plan only where that costs nothing real (development, tests); in production an
 * operator sets plans with `npm run billing -- set-plan`, else anyone could take Pro for free.
 */
export function createManualBillingProvider(
  db: Db,
  options: { canUsersChangePlan: boolean } = { canUsersChangePlan: true },
): BillingProvider {
  return {
    kind: 'manual',
    hasCustomerPortal: false,
    isLive: false,
    canUsersChangePlan: options.canUsersChangePlan,
    async changePlan(userId, planId, now) {
      await activatePlan(db, { userId, planId, provider: 'manual', now })
    },
    cancel: (userId, now) => cancelSubscription(db, userId, now),
  }
}
