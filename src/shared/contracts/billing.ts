import { z } from 'zod'
import { type PlanId, planIds, type TopUpPackId, topUpPackIds } from '#shared/plans.ts'

export const subscriptionStatuses = ['active', 'past_due', 'canceled', 'expired'] as const
export type SubscriptionStatus = (typeof subscriptionStatuses)[number]

/** The user's subscription as the web app sees it. */
export type SubscriptionView = {
  planId: PlanId
  status: SubscriptionStatus
  /** ISO timestamps of the current period. */
  currentPeriodStart: string
  currentPeriodEnd: string
  /** A beta (access-code) trial rather than a chosen plan. */
  isTrial: boolean
  autoTopupEnabled: boolean
  byoApiEnabled: boolean
  /** The plan ends with this period instead of renewing (a paid provider's cancel, undoable until then). */
  cancelAtPeriodEnd: boolean
  /** A downgrade that takes effect when this period ends. */
  scheduledPlanId: PlanId | null
}

/** Which billing provider is in charge; `manual` takes no payment (test billing). */
export type BillingProviderKind = 'manual' | 'stripe'

export type BillingResponse = {
  provider: BillingProviderKind
  /** Whether the provider has a customer portal to send the user to. */
  hasCustomerPortal: boolean
  /** Whether the user may choose or cancel a plan here; when not, the operator sets plans. */
  canChangePlan: boolean
  /** Whether plans and top-up packs are paid on the provider's hosted checkout (POST /api/billing/checkout, /top-up). */
  hasCheckout: boolean
  subscription: SubscriptionView | null
}

/** POST /api/billing/top-up: one pack, paid on the hosted checkout page. */
export const topUpRequestSchema = z.object({ packId: z.enum(topUpPackIds) })
export type TopUpRequest = z.input<typeof topUpRequestSchema>

/**
 * GET /api/billing/checkout/:sessionId, asked by the return page: `pending` until the payment is
 * through (ask again), `applied` once the plan or pack took effect here, `expired` when the
 * session was abandoned. `subscription` and `credits` are the user's, as they are now.
 */
export type CheckoutStatusResponse = {
  state: 'pending' | 'applied' | 'expired'
  kind: 'plan' | 'pack'
  /** The pack bought, for `kind: 'pack'`. */
  packId: TopUpPackId | null
  subscription: SubscriptionView | null
  credits: { images: number; videos: number }
}

/** POST /api/billing/checkout, /top-up and /portal: where to send the browser. */
export type BillingRedirectResponse = { url: string }

export const choosePlanRequestSchema = z.object({ planId: z.enum(planIds) })
export type ChoosePlanRequest = z.input<typeof choosePlanRequestSchema>

/** GET /api/usage: the current period's usage against the active plan's quotas, and credits. */
export type UsageResponse = {
  /**
   * The quota period, which is the subscription's billing period (ISO timestamps); `end` is when
   * the quota renews (or a trial ends). Null without an active plan.
   */
  period: { start: string; end: string } | null
  subscription: SubscriptionView | null
  images: { used: number; quota: number }
  videos: { used: number; quota: number }
  /** Bought images and videos left: used after the period's plan quota, never expiring. */
  credits: { images: number; videos: number }
  seo: { unlimited: true }
  /** Bytes the user's uploads and results take, against the plan's storage (0 without a plan). */
  storage: { usedBytes: number; quotaBytes: number }
}
