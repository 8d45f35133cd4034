import type { ChangePasswordRequest } from '#shared/contracts/auth.ts'
import type { OkResponse } from '#shared/contracts/common.ts'
import type {
  ConnectHepsiburadaRequest,
  ConnectTrendyolRequest,
  IntegrationMarketplace,
  IntegrationsResponse,
} from '#shared/contracts/integrations.ts'
import type {
  DeleteAccountRequest,
  SettingsResponse,
  UpdateSettingsRequest,
} from '#shared/contracts/settings.ts'
import { apiRequest } from '#web/lib/api-client.ts'

export function getSettings(signal?: AbortSignal): Promise<SettingsResponse> {
  return apiRequest<SettingsResponse>('/api/settings', { signal })
}

/** Stores the auto top-up and bring-your-own-key switches (needs an active plan). */
export function updateSettings(patch: UpdateSettingsRequest): Promise<SettingsResponse> {
  return apiRequest<SettingsResponse>('/api/settings', { method: 'PATCH', body: patch })
}

/** Saves the user's fal key; the answer carries only its mask. */
export function saveFalKey(key: string): Promise<SettingsResponse> {
  return apiRequest<SettingsResponse>('/api/settings/fal-key', { method: 'PUT', body: { key } })
}

export function deleteFalKey(): Promise<SettingsResponse> {
  return apiRequest<SettingsResponse>('/api/settings/fal-key', { method: 'DELETE' })
}

/** Changes the password; the server ends the user's other sessions. */
export function changePassword(request: ChangePasswordRequest): Promise<OkResponse> {
  return apiRequest<OkResponse>('/api/auth/password', { method: 'POST', body: request })
}

/** Deletes the account, its files and data; the server ends every session and clears the cookie. */
export async function deleteAccount(request: DeleteAccountRequest): Promise<void> {
  await apiRequest<null>('/api/account', { method: 'DELETE', body: request })
}

/** The seller's marketplace connections: each as its account and a mask, never the secret. */
export function getIntegrations(signal?: AbortSignal): Promise<IntegrationsResponse> {
  return apiRequest<IntegrationsResponse>('/api/integrations', { signal })
}

/** Tries the credentials at the marketplace; saved only once it accepts them. */
export function connectMarketplace(
  request:
    | { marketplace: 'trendyol'; body: ConnectTrendyolRequest }
    | { marketplace: 'hepsiburada'; body: ConnectHepsiburadaRequest },
): Promise<IntegrationsResponse> {
  return apiRequest<IntegrationsResponse>(`/api/integrations/${request.marketplace}`, {
    method: 'PUT',
    body: request.body,
  })
}

/** Asks the marketplace again with the saved credentials; the answer carries the new check time. */
export function testMarketplace(marketplace: IntegrationMarketplace): Promise<IntegrationsResponse> {
  return apiRequest<IntegrationsResponse>(`/api/integrations/${marketplace}/test`, { method: 'POST' })
}

export function disconnectMarketplace(marketplace: IntegrationMarketplace): Promise<IntegrationsResponse> {
  return apiRequest<IntegrationsResponse>(`/api/integrations/${marketplace}`, { method: 'DELETE' })
}
