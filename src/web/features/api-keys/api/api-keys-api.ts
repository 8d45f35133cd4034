import type {
  ApiKeysResponse,
  CreateApiKeyResponse,
  RevokeApiKeyResponse,
} from '#shared/contracts/api-keys.ts'
import { apiRequest } from '#web/lib/api-client.ts'

export function listApiKeys(signal?: AbortSignal): Promise<ApiKeysResponse> {
  return apiRequest<ApiKeysResponse>('/api/api-keys', { signal })
}

/** Makes a key; the answer is the only place its whole value ever appears. */
export function createApiKey(name: string): Promise<CreateApiKeyResponse> {
  return apiRequest<CreateApiKeyResponse>('/api/api-keys', { method: 'POST', body: { name } })
}

export function revokeApiKey(id: string): Promise<RevokeApiKeyResponse> {
  return apiRequest<RevokeApiKeyResponse>(`/api/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' })
}
