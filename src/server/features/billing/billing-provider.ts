import type { Db } from '#server/db/client.ts'
import type { BillingProviderKind } from '#shared/contracts/billing.ts'
import { AppError } from '#shared/errors.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import type { PlanId, TopUpPackId } from '#shared/plans.ts'
import { activatePlan, cancelSubscription } from './subscription.service.ts'

/** A subscription as the provider holds it now, in Vitrin's terms (the webhook applies it). */
export type ProviderSubscription = {
  subscriptionId: string
  customerId: string
  /** The user the provider's metadata names; the stored customer id wins when they differ. */
  userId: string | null
  /** Null when the price is none of Vitrin's plans (then nothing is applied). */
  planId: PlanId | null
  /** Null while the provider has not started it (first payment pending): nothing is applied. */
  status: 'active' | 'past_due' | 'canceled' | 'expired' | null
  periodStart: Date
  periodEnd: Date
  cancelAtPeriodEnd: boolean
  /** A downgrade that takes effect when the period ends. */
  scheduledPlanId: PlanId | null
}

/** What a verified webhook delivery means for Vitrin, read after fetching the provider's current state. */
export type BillingWebhookEffect =
  | { kind: 'subscription'; subscription: ProviderSubscription }
  | {
      kind: 'credit'
      customerId: string
      userId: string | null
      packId: TopUpPackId
      /** The payment (e.g. PaymentIntent id): one grant per payment, however often it is delivered. */
      paymentRef: string
      origin: 'checkout' | 'auto_topup'
    }
  | {
      /** A renewal the customer's bank wants them to confirm (3-D Secure) on the provider's invoice page. */
      kind: 'payment_action_required'
      customerId: string
      invoiceUrl: string
    }
  | { kind: 'ignored' }

/** A delivery whose signature checked out. `resolve` may call the provider; it never writes to the database. */
export type VerifiedWebhook = {
  eventId: string
  type: string
  /** The provider object the event is about (subscription, payment), to apply one at a time; null if none. */
  subject: string | null
  resolve(): Promise<BillingWebhookEffect>
}

export type OffSessionCharge =
  | { status: 'succeeded'; paymentRef: string }
  | {
      status: 'failed'
      /** declined: the card said no; authentication_required: the bank wants the customer (3-D Secure). */
      reason: 'declined' | 'authentication_required' | 'no_payment_method' | 'unavailable'
      paymentRef: string | null
    }

export type CheckoutInput = { userId: string; locale: Locale }

/** A hosted checkout session as the provider holds it now (the return page asks for it). */
export type ProviderCheckout = {
  /** The user the session was started for; the route answers NOT_FOUND to anyone else. */
  userId: string | null
  /** open: not paid yet; complete: paid (or its subscription started); expired: abandoned. */
  state: 'open' | 'complete' | 'expired'
  /** What was bought: a plan (subscription mode) or a top-up pack (`packId`). */
  kind: 'plan' | 'pack'
  packId: TopUpPackId | null
  /** The subscription or payment it is about, to apply one at a time with that object's webhooks. */
  subject: string | null
  /** Once complete, the same effect its `checkout.session.completed` webhook resolves to. */
  effect: BillingWebhookEffect
}

/**
 * Who takes payment for plans and packs. Routes and services talk to this interface only; each
 * provider (manual, Stripe; a Paddle or iyzico one later) is one adapter.
 */
export interface BillingProvider {
  readonly kind: BillingProviderKind
  /** Whether there is a customer portal (invoices, cards) to send users to. */
  readonly hasCustomerPortal: boolean
  /** Whether money really moves, so that auto top-up can take effect. */
  readonly isLive: boolean
  /** Whether users may choose or cancel their own plan; when not, an operator sets plans. */
  readonly canUsersChangePlan: boolean
  /** Whether plans and packs are bought on the provider's hosted checkout page. */
  readonly hasCheckout: boolean
  /**
   * Moves the user to `planId`. Manual: at once. A paid provider: an upgrade at once (the
   * difference charged now), a downgrade when the period ends; the plan already held undoes a
   * scheduled downgrade.
   */
  changePlan(userId: string, planId: PlanId, now: Date): Promise<void>
  /** Manual: ends the plan now. A paid provider: at the period's end (undone by `resume`). */
  cancel(userId: string, now: Date): Promise<boolean>
  /** Undoes a cancel at the period's end; false when there is none to undo. */
  resume(userId: string, now: Date): Promise<boolean>
  /** The hosted checkout page for a first paid plan. */
  startPlanCheckout(input: CheckoutInput & { planId: PlanId }): Promise<{ url: string }>
  /** The hosted checkout page for one top-up pack (the card is saved for auto top-up). */
  startTopUpCheckout(input: CheckoutInput & { packId: TopUpPackId }): Promise<{ url: string }>
  /** A checkout session this provider made, read now (NOT_FOUND for an unknown id). */
  getCheckout(sessionId: string): Promise<ProviderCheckout>
  /** A customer-portal session (invoices, card, cancel). */
  openPortal(input: CheckoutInput): Promise<{ url: string }>
  /** Charges one pack to the saved card with the customer away (auto top-up); never retried off-session. */
  chargeOffSession(input: {
    userId: string
    packId: TopUpPackId
    idempotencyKey: string
  }): Promise<OffSessionCharge>
  /** Checks a webhook delivery's signature on its raw bytes; throws WEBHOOK_SIGNATURE_INVALID. */
  verifyWebhook(rawBody: Uint8Array, signature: string | undefined): Promise<VerifiedWebhook>
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
  const noPayments = () =>
    new AppError('BILLING_PAYMENTS_UNAVAILABLE', 'Billing is manual: nothing to pay here')
  return {
    kind: 'manual',
    hasCustomerPortal: false,
    isLive: false,
    canUsersChangePlan: options.canUsersChangePlan,
    hasCheckout: false,
    async changePlan(userId, planId, now) {
      await activatePlan(db, { userId, planId, provider: 'manual', now })
    },
    cancel: (userId, now) => cancelSubscription(db, userId, now),
    // A manual cancel ends the plan at once, so there is never one to undo.
    resume: async () => false,
    startPlanCheckout: async () => {
      throw noPayments()
    },
    startTopUpCheckout: async () => {
      throw noPayments()
    },
    getCheckout: async () => {
      throw noPayments()
    },
    openPortal: async () => {
      throw new AppError('BILLING_PORTAL_UNAVAILABLE', 'Billing is manual: there is no customer portal')
    },
    chargeOffSession: async () => ({ status: 'failed', reason: 'unavailable', paymentRef: null }),
    verifyWebhook: async () => {
      throw new AppError('NOT_FOUND', 'This provider takes no webhooks')
    },
  }
}
