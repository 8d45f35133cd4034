/**
 * The plan catalogue: the one definition of what each plan costs and allows.
 * Every page and the server read it; nothing else may restate these numbers.
 */
export const planIds = ['starter', 'growth', 'pro'] as const
export type PlanId = (typeof planIds)[number]

/** Feature keys are i18n keys under `plans.features.*`. */
export type PlanFeature = 'seoCopy' | 'emailSupport' | 'priorityChat' | 'prioritySupport' | 'apiAccess'

export type Plan = {
  id: PlanId
  /** Display name; the same in every language. */
  name: string
  /** Whole US dollars per month. */
  priceMonthlyUsd: number
  imageQuota: number
  videoQuota: number
  /** SEO copy is unlimited on every plan. */
  seoUnlimited: true
  isMostPopular: boolean
  features: readonly PlanFeature[]
}

export const plans: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    priceMonthlyUsd: 99,
    imageQuota: 250,
    videoQuota: 10,
    seoUnlimited: true,
    isMostPopular: false,
    features: ['seoCopy', 'emailSupport'],
  },
  {
    id: 'growth',
    name: 'Growth',
    priceMonthlyUsd: 299,
    imageQuota: 1000,
    videoQuota: 30,
    seoUnlimited: true,
    isMostPopular: true,
    features: ['seoCopy', 'priorityChat'],
  },
  {
    id: 'pro',
    name: 'Pro',
    priceMonthlyUsd: 499,
    imageQuota: 2500,
    videoQuota: 60,
    seoUnlimited: true,
    isMostPopular: false,
    features: ['seoCopy', 'prioritySupport', 'apiAccess'],
  },
]

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (planIds as readonly string[]).includes(value)
}

/** Returns the plan with this id; throws for an unknown id, which is a programming error. */
export function getPlan(id: PlanId): Plan {
  const plan = plans.find((p) => p.id === id)
  if (!plan) throw new Error(`unknown plan: ${id}`)
  return plan
}

/** A beta access code gives this plan for this many days. */
export const betaTrial = { planId: 'growth' as PlanId, days: 30 } as const
