import { isMarketplaceId, type MarketplaceId, marketplaceIds } from '#shared/marketplaces/ids.ts'

/**
 * Marketplace presets a batch can name: the shared marketplace profiles' ids (the batch stores
 * the id). Names are `catalogue.presets.<id>`.
 */
export const marketplacePresetIds = marketplaceIds

export type MarketplacePresetId = MarketplaceId

export function isMarketplacePresetId(value: string): value is MarketplacePresetId {
  return isMarketplaceId(value)
}
