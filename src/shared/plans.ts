import type { QuotaResource } from './quota.ts'

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

/**
 * Top-up packs: credits bought once, used after the period's plan quota, never expiring. The one
 * place their sizes and prices are written (the Stripe prices are looked up by pack id).
 */
export const topUpPackIds = ['images_100', 'videos_10'] as const
export type TopUpPackId = (typeof topUpPackIds)[number]

export type TopUpPack = {
  id: TopUpPackId
  /** What the pack adds to. */
  resource: QuotaResource
  /** Units added to the credit balance. */
  amount: number
  /** Whole US dollars, paid once. */
  priceUsd: number
}

export const topUpPacks: readonly TopUpPack[] = [
  { id: 'images_100', resource: 'images', amount: 100, priceUsd: 29 },
  { id: 'videos_10', resource: 'videos', amount: 10, priceUsd: 39 },
]

export function isTopUpPackId(value: unknown): value is TopUpPackId {
  return typeof value === 'string' && (topUpPackIds as readonly string[]).includes(value)
}

/** Returns the pack with this id; throws for an unknown id, which is a programming error. */
export function getTopUpPack(id: TopUpPackId): TopUpPack {
  const pack = topUpPacks.find((p) => p.id === id)
  if (!pack) throw new Error(`unknown top-up pack: ${id}`)
  return pack
}

/** The pack that adds to this resource (one per resource). */
export function topUpPackFor(resource: QuotaResource): TopUpPack {
  const pack = topUpPacks.find((p) => p.resource === resource)
  if (!pack) throw new Error(`no top-up pack for ${resource}`)
  return pack
}
