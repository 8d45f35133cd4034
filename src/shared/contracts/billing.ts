import { z } from 'zod'
import { type PlanId, planIds } from '#shared/plans.ts'

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
}

/** Which billing provider is in charge; `manual` takes no payment (test billing). */
export type BillingProviderKind = 'manual' | 'stripe'

export type BillingResponse = {
  provider: BillingProviderKind
  /** Whether the provider has a customer portal to send the user to. */
  hasCustomerPortal: boolean
  /** Whether the user may choose or cancel a plan here; when not, the operator sets plans. */
  canChangePlan: boolean
  subscription: SubscriptionView | null
}

export const choosePlanRequestSchema = z.object({ planId: z.enum(planIds) })
export type ChoosePlanRequest = z.input<typeof choosePlanRequestSchema>

/** GET /api/usage: this month's usage against the active plan's quotas. */
export type UsageResponse = {
  /** YYYY-MM, UTC. */
  period: string
  subscription: SubscriptionView | null
  images: { used: number; quota: number }
  videos: { used: number; quota: number }
  seo: { unlimited: true }
  /** Bytes the user's uploads and results take, against the plan's storage (0 without a plan). */
  storage: { usedBytes: number; quotaBytes: number }
}
