import { amazonTr } from './amazon-tr.ts'
import { ciceksepeti } from './ciceksepeti.ts'
import { etsy } from './etsy.ts'
import { hepsiburada } from './hepsiburada.ts'
import { instagram } from './instagram.ts'
import { n11 } from './n11.ts'
import { shopify } from './shopify.ts'
import { trendyol } from './trendyol.ts'
import type { MarketplaceProfile } from './types.ts'

/**
 * The marketplace profiles a result can be checked against and exported for. The ids are stored
 * with catalogue batches (their preset id), so they never change; names are
 * `marketplaces.profiles.<id>`.
 */
export const marketplaceIds = [
  'trendyol',
  'hepsiburada',
  'n11',
  'amazon-tr',
  'ciceksepeti',
  'etsy',
  'shopify',
  'instagram',
] as const

export type MarketplaceId = (typeof marketplaceIds)[number]

export function isMarketplaceId(value: string): value is MarketplaceId {
  return (marketplaceIds as readonly string[]).includes(value)
}

/** Every profile, in the order of `marketplaceIds`. */
export const marketplaceProfiles: readonly MarketplaceProfile[] = [
  trendyol,
  hepsiburada,
  n11,
  amazonTr,
  ciceksepeti,
  etsy,
  shopify,
  instagram,
]

export function getProfile(id: MarketplaceId): MarketplaceProfile {
  const profile = marketplaceProfiles.find((candidate) => candidate.id === id)
  if (!profile) throw new Error(`No marketplace profile ${id}`)
  return profile
}
