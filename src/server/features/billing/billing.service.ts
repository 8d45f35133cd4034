import type { Db } from '#server/db/client.ts'
import type { Mailer } from '#server/email/outbox.ts'
import { getCredits } from '#server/features/quota/credits.service.ts'
import { presentSubscription } from '#server/plans/live-plan.ts'
import type {
  BillingRedirectResponse,
  BillingResponse,
  CheckoutStatusResponse,
} from '#shared/contracts/billing.ts'
import { AppError } from '#shared/errors.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import type { PlanId, TopUpPackId } from '#shared/plans.ts'
import type { BillingProvider } from './billing-provider.ts'
import { applyBillingEffect } from './billing-webhook.service.ts'
import { getLatestSubscription } from './subscription.service.ts'

// Other features hold the provider (settings says whether billing is live) through this file.
export type { BillingProvider } from './billing-provider.ts'

export type BillingDeps = {
  db: Db
  billing: BillingProvider
  now: () => Date
  /** Delivers the billing emails a change writes, after its commit. */
  mailer?: Mailer | undefined
  /** The public origin, for the links in those emails. */
  publicUrl?: string | undefined
  /** Several server processes share the database: webhooks lock their subject across them. */
  isSharedDatabase?: boolean | undefined
}

/** The billing page: the user's latest subscription and what the provider offers. */
export async function getBillingView(deps: BillingDeps, userId: string): Promise<BillingResponse> {
  const subscription = await getLatestSubscription(deps.db, userId, deps.now())
  return {
    provider: deps.billing.kind,
    hasCustomerPortal: deps.billing.hasCustomerPortal,
    canChangePlan: deps.billing.canUsersChangePlan,
    hasCheckout: deps.billing.hasCheckout,
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

/** Undoes a cancel at the period's end (paid providers); answers with the new billing view. */
export async function resumePlan(deps: BillingDeps, userId: string): Promise<BillingResponse> {
  ensureUsersMayChangePlan(deps)
  await deps.billing.resume(userId, deps.now())
  return getBillingView(deps, userId)
}

/** The provider's hosted checkout for a first paid plan (BILLING_PAYMENTS_UNAVAILABLE with manual billing). */
export function startPlanCheckout(
  deps: BillingDeps,
  input: { userId: string; locale: Locale; planId: PlanId },
): Promise<BillingRedirectResponse> {
  return deps.billing.startPlanCheckout(input)
}

/** The provider's hosted checkout for one top-up pack. */
export function startTopUpCheckout(
  deps: BillingDeps,
  input: { userId: string; locale: Locale; packId: TopUpPackId },
): Promise<BillingRedirectResponse> {
  return deps.billing.startTopUpCheckout(input)
}

/** A customer-portal session (BILLING_PORTAL_UNAVAILABLE with manual billing). */
export function openCustomerPortal(
  deps: BillingDeps,
  input: { userId: string; locale: Locale },
): Promise<BillingRedirectResponse> {
  return deps.billing.openPortal(input)
}

/**
 * The return page's check of the user's own checkout session: asks the provider for it and, once
 * paid, applies it here the way its webhook does (so the page need not wait for the webhook; the
 * webhook arriving later, or first, changes nothing more). NOT_FOUND for another user's session.
 */
export async function getCheckoutStatus(
  deps: BillingDeps,
  userId: string,
  sessionId: string,
): Promise<CheckoutStatusResponse> {
  const checkout = await deps.billing.getCheckout(sessionId)
  if (checkout.userId !== userId) throw new AppError('NOT_FOUND', 'No such checkout session')
  let state: CheckoutStatusResponse['state'] = checkout.state === 'expired' ? 'expired' : 'pending'
  if (checkout.state === 'complete') {
    const applied = await applyBillingEffect(deps, checkout.subject, checkout.effect)
    state = applied ? 'applied' : 'pending'
  }
  const subscription = await getLatestSubscription(deps.db, userId, deps.now())
  return {
    state,
    kind: checkout.kind,
    packId: checkout.packId,
    subscription: subscription ? presentSubscription(subscription) : null,
    credits: await getCredits(deps.db, userId),
  }
}
