import type {
  ImageSlot,
  MarketplaceCheckView,
  MarketplaceSummariesResponse,
  PreferencesResponse,
  UpdatePreferencesRequest,
} from '#shared/contracts/marketplaces.ts'
import type { MarketplaceId } from '#shared/marketplaces/ids.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/** A finished result checked against one profile's rules (`slot` only matters for images). */
export function getMarketplaceCheck(
  generationId: string,
  profile: MarketplaceId,
  slot: ImageSlot,
  signal?: AbortSignal,
): Promise<MarketplaceCheckView> {
  const path = `/api/generations/${encodeURIComponent(generationId)}/marketplace/${profile}?slot=${slot}`
  return apiRequest<MarketplaceCheckView>(path, { signal })
}

/** The library cards' checklist summaries for up to maxSummaryIds results (contracts/marketplaces.ts). */
export function getMarketplaceSummaries(
  profile: MarketplaceId,
  generationIds: string[],
  signal?: AbortSignal,
): Promise<MarketplaceSummariesResponse> {
  const query = new URLSearchParams({ profile, ids: generationIds.join(',') })
  return apiRequest<MarketplaceSummariesResponse>(`/api/marketplace/summaries?${query}`, { signal })
}

export function getPreferences(signal?: AbortSignal): Promise<PreferencesResponse> {
  return apiRequest<PreferencesResponse>('/api/preferences', { signal })
}

export function updatePreferences(patch: UpdatePreferencesRequest): Promise<PreferencesResponse> {
  return apiRequest<PreferencesResponse>('/api/preferences', { method: 'PATCH', body: patch })
}
