import type { IntegrationMarketplace, IntegrationsResponse } from '#shared/contracts/integrations.ts'
import type {
  CataloguePublishDraftRequest,
  CataloguePublishDraftResponse,
  CataloguePublishRequest,
  CategoryAttributesResponse,
  CategorySearchResponse,
  PublicationView,
  PublishDraftRequest,
  PublishDraftResponse,
  PublishRequest,
  PublishResponse,
  ResubmitRequest,
  ResubmitResponse,
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

/** The seller's publications, newest first; with `batchId`, only those of that catalogue batch. */
export function listPublications(
  options: { batchId?: string } = {},
  signal?: AbortSignal,
): Promise<{ publications: PublicationView[] }> {
  const search = options.batchId ? `?${new URLSearchParams({ batchId: options.batchId })}` : ''
  return apiRequest<{ publications: PublicationView[] }>(`/api/publications${search}`, { signal })
}

export function getCategoryAttributes(
  marketplace: IntegrationMarketplace,
  categoryId: string,
  signal?: AbortSignal,
): Promise<CategoryAttributesResponse> {
  return apiRequest<CategoryAttributesResponse>(
    `/api/integrations/${marketplace}/categories/${encodeURIComponent(categoryId)}/attributes`,
    { signal },
  )
}

export function resubmitPublication(
  id: string,
  request: Partial<ResubmitRequest>,
): Promise<ResubmitResponse> {
  return apiRequest<ResubmitResponse>(`/api/publications/${encodeURIComponent(id)}/resubmit`, {
    method: 'POST',
    body: request,
  })
}

export function draftCataloguePublish(
  request: CataloguePublishDraftRequest,
): Promise<CataloguePublishDraftResponse> {
  return apiRequest<CataloguePublishDraftResponse>('/api/publications/catalogue/draft', {
    method: 'POST',
    body: request,
  })
}

export function publishCatalogue(request: CataloguePublishRequest): Promise<PublishResponse> {
  return apiRequest<PublishResponse>('/api/publications/catalogue', { method: 'POST', body: request })
}
