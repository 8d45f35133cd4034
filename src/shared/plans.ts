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
  /** SEO copy is unlimited on every plan (but needs an active plan or trial, and is rate-limited). */
  seoUnlimited: true
  /** Storage for the user's uploads and results together, in bytes (decimal: 1 GB = 10^9 bytes). */
  storageBytes: number
  isMostPopular: boolean
  features: readonly PlanFeature[]
}

const gigabyte = 1_000_000_000

export const plans: readonly Plan[] = [
  {
    id: 'starter',
    name: 'Starter',
    priceMonthlyUsd: 99,
    imageQuota: 250,
    videoQuota: 10,
    storageBytes: 5 * gigabyte,
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
    storageBytes: 20 * gigabyte,
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
    storageBytes: 50 * gigabyte,
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
