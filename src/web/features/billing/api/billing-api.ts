import type { BillingResponse } from '#shared/contracts/billing.ts'
import type { PlanId } from '#shared/plans.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/** The user's latest subscription and what the billing provider offers. */
export function getBilling(signal?: AbortSignal): Promise<BillingResponse> {
  return apiRequest<BillingResponse>('/api/billing', { signal })
}

/** Makes `planId` the active plan at once (test billing takes no payment). */
export function choosePlan(planId: PlanId): Promise<BillingResponse> {
  return apiRequest<BillingResponse>('/api/billing/subscription', { method: 'POST', body: { planId } })
}

/** Ends the active subscription now. */
export function cancelSubscription(): Promise<BillingResponse> {
  return apiRequest<BillingResponse>('/api/billing/subscription', { method: 'DELETE' })
}
