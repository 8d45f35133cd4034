/**
 * The marketplace profiles a result can be checked against and exported for, by id. The ids are
 * stored with catalogue batches (their preset id), so they never change; names are
 * `marketplaces.profiles.<id>`. Apart from the profiles (profiles.ts), so that the profiles'
 * types can name an id without importing the profiles.
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
