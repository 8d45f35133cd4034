import type {
  AssetView,
  CreateGenerationRequest,
  CreateVideoRequest,
  GenerationListResponse,
  GenerationMode,
  GenerationView,
} from '#shared/contracts/generations.ts'
import { ApiError, apiRequest } from '#web/lib/api-client.ts'

/**
 * Sends one photo to POST /api/assets. The server decides by content whether it is an image
 * and answers with a translated code when it is not (it may disagree with the browser's check).
 */
export async function uploadAsset(file: File, signal?: AbortSignal): Promise<AssetView> {
  const form = new FormData()
  form.append('file', file, file.name)
  const answer = await apiRequest<{ asset: AssetView }>('/api/assets', {
    body: form,
    signal,
    fallbackCode: 'FILE_TYPE_INVALID',
  })
  return answer.asset
}

export async function createGeneration(request: CreateGenerationRequest): Promise<GenerationView> {
  return (await apiRequest<{ generation: GenerationView }>('/api/generations', { body: request })).generation
}

export async function createVideoFrom(imageGenerationId: string, request: CreateVideoRequest) {
  const path = `/api/generations/${encodeURIComponent(imageGenerationId)}/video`
  return (await apiRequest<{ generation: GenerationView }>(path, { body: request })).generation
}

export async function getGeneration(id: string): Promise<GenerationView> {
  return (await apiRequest<{ generation: GenerationView }>(`/api/generations/${encodeURIComponent(id)}`))
    .generation
}

export type LibraryFilter = { mode?: GenerationMode | undefined; saved?: boolean | undefined }

export function listGenerations(
  filter: LibraryFilter,
  cursor?: string | null,
  limit = 20,
): Promise<GenerationListResponse> {
  const query = new URLSearchParams({ limit: String(limit) })
  if (filter.mode) query.set('mode', filter.mode)
  if (filter.saved) query.set('saved', '1')
  if (cursor) query.set('cursor', cursor)
  return apiRequest<GenerationListResponse>(`/api/generations?${query}`)
}

export async function setSaved(id: string, saved: boolean): Promise<GenerationView> {
  const path = `/api/generations/${encodeURIComponent(id)}/save`
  return (await apiRequest<{ generation: GenerationView }>(path, { method: saved ? 'POST' : 'DELETE' }))
    .generation
}

export async function cancelGeneration(id: string): Promise<GenerationView> {
  const path = `/api/generations/${encodeURIComponent(id)}/cancel`
  return (await apiRequest<{ generation: GenerationView }>(path, { method: 'POST' })).generation
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
