import type {
  AssetView,
  CreateGenerationRequest,
  CreateVideoRequest,
  GenerationListResponse,
  GenerationMode,
  GenerationView,
} from '../../../../shared/contracts/generations.ts'
import { type ErrorBody, isErrorCode } from '../../../../shared/errors.ts'
import { ApiError, apiRequest } from '../../../lib/api-client.ts'

/**
 * Sends one photo to POST /api/assets. The server decides by content whether it is an image
 * and answers with a translated code when it is not (it may disagree with the browser's check).
 */
export async function uploadAsset(file: File, signal?: AbortSignal): Promise<AssetView> {
  const form = new FormData()
  form.append('file', file, file.name)
  let response: Response
  try {
    response = await fetch('/api/assets', {
      method: 'POST',
      body: form,
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      signal,
    })
  } catch (error) {
    if (signal?.aborted) throw error
    throw new ApiError('NETWORK', 0, 'network error')
  }
  const payload: unknown = await response.json().catch(() => undefined)
  if (response.ok) return (payload as { asset: AssetView }).asset
  const error = (payload as Partial<ErrorBody> | undefined)?.error
  const code = isErrorCode(error?.code)
    ? error.code
    : response.status >= 500
      ? 'INTERNAL'
      : 'FILE_TYPE_INVALID'
  throw new ApiError(code, response.status, error?.message ?? response.statusText, error?.details)
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
  let response: Response
  try {
    response = await fetch(`/api/generations/${encodeURIComponent(id)}`, {
      method: 'DELETE',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    })
  } catch {
    throw new ApiError('NETWORK', 0, 'network error')
  }
  if (response.ok || response.status === 404) return
  const payload = (await response.json().catch(() => undefined)) as Partial<ErrorBody> | undefined
  const code = isErrorCode(payload?.error?.code) ? payload.error.code : 'INTERNAL'
  throw new ApiError(code, response.status, payload?.error?.message ?? response.statusText)
}
