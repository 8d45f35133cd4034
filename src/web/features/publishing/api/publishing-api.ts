import type { IntegrationMarketplace, IntegrationsResponse } from '#shared/contracts/integrations.ts'
import type {
  CategorySearchResponse,
  PublicationView,
  PublishDraftRequest,
  PublishDraftResponse,
  PublishRequest,
  PublishResponse,
} from '#shared/contracts/publishing.ts'
import { apiRequest } from '#web/lib/api-client.ts'

export function getConnections(signal?: AbortSignal): Promise<IntegrationsResponse> {
  return apiRequest<IntegrationsResponse>('/api/integrations', { signal })
}

export function searchCategories(
  marketplace: IntegrationMarketplace,
  query: string,
  signal?: AbortSignal,
): Promise<CategorySearchResponse> {
  const search = new URLSearchParams({ q: query })
  return apiRequest<CategorySearchResponse>(`/api/integrations/${marketplace}/categories?${search}`, {
    signal,
  })
}

export function draftListing(request: PublishDraftRequest): Promise<PublishDraftResponse> {
  return apiRequest<PublishDraftResponse>('/api/publications/draft', { method: 'POST', body: request })
}

export function publish(request: PublishRequest): Promise<PublishResponse> {
  return apiRequest<PublishResponse>('/api/publications', { method: 'POST', body: request })
}

export function getPublication(id: string, signal?: AbortSignal): Promise<{ publication: PublicationView }> {
  return apiRequest<{ publication: PublicationView }>(`/api/publications/${encodeURIComponent(id)}`, {
    signal,
  })
}
