import { useState } from 'react'
import type { PreferencesResponse } from '#shared/contracts/marketplaces.ts'
import { defaultRatioFor } from '#shared/marketplaces/default-ratio.ts'
import type { MarketplaceId } from '#shared/marketplaces/ids.ts'
import type { AspectRatio } from '#shared/scenes.ts'
import { useResource } from '#web/lib/use-resource.ts'
import { getPreferences } from '../api/marketplaces-api.ts'

/**
 * The seller's default marketplace (GET /api/preferences): its id once loaded, null when none is
 * chosen or it cannot be loaded (the forms then keep their own defaults).
 */
export function usePreferredMarketplace(): MarketplaceId | null {
  const preferences = useResource<PreferencesResponse>(getPreferences)
  return preferences.status === 'ready' ? preferences.data.marketplaceProfile : null
}

/**
 * A form's ratio, starting from the seller's marketplace's main-image shape (Trendyol 2:3, the
 * others 1:1; without a marketplace 1:1 for products and 9:16 for fashion) until the seller picks
 * one: their pick then stays, whatever loads later.
 */
export function usePreferredRatio(tool: 'product' | 'fashion'): [AspectRatio, (ratio: AspectRatio) => void] {
  const marketplace = usePreferredMarketplace()
  const [chosen, setChosen] = useState<AspectRatio | null>(null)
  return [chosen ?? defaultRatioFor(marketplace, tool), setChosen]
}
