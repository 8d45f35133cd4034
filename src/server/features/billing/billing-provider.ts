import type { BillingProviderKind } from '../../../shared/contracts/billing.ts'
import type { PlanId } from '../../../shared/plans.ts'
import type { Db } from '../../db/client.ts'
import { activatePlan, cancelSubscription } from './subscription.service.ts'

/** Who takes payment for plans. Routes talk to this interface only. */
export interface BillingProvider {
  readonly kind: BillingProviderKind
  /** Whether there is a customer portal (invoices, cards) to send users to. */
  readonly hasCustomerPortal: boolean
  /** Whether money really moves, so that auto top-up can take effect. */
  readonly isLive: boolean
  changePlan(userId: string, planId: PlanId, now: Date): Promise<void>
  cancel(userId: string, now: Date): Promise<boolean>
}

/** Test billing: a plan change takes effect at once and no payment is taken. */
export function createManualBillingProvider(db: Db): BillingProvider {
  return {
    kind: 'manual',
    hasCustomerPortal: false,
    isLive: false,
    async changePlan(userId, planId, now) {
      await activatePlan(db, { userId, planId, provider: 'manual', now })
    },
    cancel: (userId, now) => cancelSubscription(db, userId, now),
  }
}
