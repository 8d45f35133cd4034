/**
 * Marketplace presets a batch can name. Only the ids for now: the batch stores the id, and the
 * presets feature (sizes, export columns) comes later. Names are `catalogue.presets.<id>`.
 */
export const marketplacePresetIds = [
  'trendyol',
  'hepsiburada',
  'n11',
  'amazon-tr',
  'ciceksepeti',
  'etsy',
  'shopify',
  'instagram',
] as const

export type MarketplacePresetId = (typeof marketplacePresetIds)[number]

export function isMarketplacePresetId(value: string): value is MarketplacePresetId {
  return (marketplacePresetIds as readonly string[]).includes(value)
}
