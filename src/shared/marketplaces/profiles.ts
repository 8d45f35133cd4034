import { amazonTr } from './amazon-tr.ts'
import { ciceksepeti } from './ciceksepeti.ts'
import { etsy } from './etsy.ts'
import { hepsiburada } from './hepsiburada.ts'
import type { MarketplaceId } from './ids.ts'
import { instagram } from './instagram.ts'
import { n11 } from './n11.ts'
import { shopify } from './shopify.ts'
import { trendyol } from './trendyol.ts'
import type { MarketplaceProfile } from './types.ts'

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
