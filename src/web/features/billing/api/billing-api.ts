import type {
  BillingRedirectResponse,
  BillingResponse,
  CheckoutStatusResponse,
} from '#shared/contracts/billing.ts'
import type { PlanId, TopUpPackId } from '#shared/plans.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/** The user's latest subscription and what the billing provider offers. */
export function getBilling(signal?: AbortSignal): Promise<BillingResponse> {
  return apiRequest<BillingResponse>('/api/billing', { signal })
}

/** Makes `planId` the plan: at once with test billing; with a paid provider an upgrade now, a downgrade at the period's end. */
export function choosePlan(planId: PlanId): Promise<BillingResponse> {
  return apiRequest<BillingResponse>('/api/billing/subscription', { method: 'POST', body: { planId } })
}

/** Ends the active subscription: now with test billing, at the period's end with a paid provider. */
export function cancelSubscription(): Promise<BillingResponse> {
  return apiRequest<BillingResponse>('/api/billing/subscription', { method: 'DELETE' })
}

/** Undoes a cancel at the period's end. */
export function resumeSubscription(): Promise<BillingResponse> {
  return apiRequest<BillingResponse>('/api/billing/subscription/resume', { method: 'POST' })
}

/** The provider's hosted checkout page for a first paid plan. */
export function startPlanCheckout(planId: PlanId): Promise<BillingRedirectResponse> {
  return apiRequest<BillingRedirectResponse>('/api/billing/checkout', { method: 'POST', body: { planId } })
}

/** The provider's hosted checkout page for one top-up pack. */
export function startTopUpCheckout(packId: TopUpPackId): Promise<BillingRedirectResponse> {
  return apiRequest<BillingRedirectResponse>('/api/billing/top-up', { method: 'POST', body: { packId } })
}

/** A customer-portal session (invoices, card, cancel). */
export function openCustomerPortal(): Promise<BillingRedirectResponse> {
  return apiRequest<BillingRedirectResponse>('/api/billing/portal', { method: 'POST' })
}

/** Where a checkout session stands; asking also applies it once paid (the return page polls this). */
export function getCheckoutStatus(sessionId: string, signal?: AbortSignal): Promise<CheckoutStatusResponse> {
  return apiRequest<CheckoutStatusResponse>(`/api/billing/checkout/${encodeURIComponent(sessionId)}`, {
    signal,
  })
}
