import type {
  CreateGenerationRequest,
  CreateVideoRequest,
  GenerationListResponse,
  GenerationMode,
  GenerationResponse,
  GenerationView,
} from '#shared/contracts/generations.ts'
import { ApiError, apiRequest } from '#web/lib/api-client.ts'

export async function createGeneration(request: CreateGenerationRequest): Promise<GenerationView> {
  return (await apiRequest<GenerationResponse>('/api/generations', { body: request })).generation
}

export async function createVideoFrom(imageGenerationId: string, request: CreateVideoRequest) {
  const path = `/api/generations/${encodeURIComponent(imageGenerationId)}/video`
  return (await apiRequest<GenerationResponse>(path, { body: request })).generation
}

export async function getGeneration(id: string): Promise<GenerationView> {
  return (await apiRequest<GenerationResponse>(`/api/generations/${encodeURIComponent(id)}`)).generation
}

export type LibraryFilter = { mode?: GenerationMode | undefined; saved?: boolean | undefined }

export function listGenerations(
  filter: LibraryFilter,
  cursor?: string | null,
  limit = 20,
  signal?: AbortSignal,
): Promise<GenerationListResponse> {
  const query = new URLSearchParams({ limit: String(limit) })
  if (filter.mode) query.set('mode', filter.mode)
  if (filter.saved) query.set('saved', '1')
  if (cursor) query.set('cursor', cursor)
  return apiRequest<GenerationListResponse>(`/api/generations?${query}`, { signal })
}

export async function setSaved(id: string, saved: boolean): Promise<GenerationView> {
  const path = `/api/generations/${encodeURIComponent(id)}/save`
  return (await apiRequest<GenerationResponse>(path, { method: saved ? 'POST' : 'DELETE' })).generation
}

export async function cancelGeneration(id: string): Promise<GenerationView> {
  const path = `/api/generations/${encodeURIComponent(id)}/cancel`
  return (await apiRequest<GenerationResponse>(path, { method: 'POST' })).generation
}

export async function deleteGeneration(id: string): Promise<void> {
  try {
    await apiRequest<void>(`/api/generations/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      fallbackCode: 'INTERNAL',
    })
  } catch (error) {
    // Already gone (deleted in another tab): what the user asked for is done.
    if (!(error instanceof ApiError && error.status === 404)) throw error
  }
}
