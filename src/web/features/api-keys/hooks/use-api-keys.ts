import { useCallback } from 'react'
import type { ApiKeysResponse, ApiKeyView, CreateApiKeyResponse } from '#shared/contracts/api-keys.ts'
import { useResource } from '#web/lib/use-resource.ts'
import { createApiKey, listApiKeys, revokeApiKey } from '../api/api-keys-api.ts'

/** Puts a key in the list where the server would: live keys newest first, then revoked ones. */
function withKey(list: ApiKeysResponse, key: ApiKeyView): ApiKeysResponse {
  const others = list.keys.filter((k) => k.id !== key.id)
  const live = others.filter((k) => k.revokedAt === null)
  const revoked = others.filter((k) => k.revokedAt !== null)
  return {
    ...list,
    keys: key.revokedAt === null ? [key, ...live, ...revoked] : [...live, key, ...revoked],
  }
}

/**
 * The signed-in user's API keys, with create and revoke applied to the list as soon as the server
 * answers (no reload). The created key's secret is handed to the caller and never kept here.
 */
export function useApiKeys() {
  const resource = useResource(listApiKeys)
  const { update } = resource

  const create = useCallback(
    async (name: string): Promise<CreateApiKeyResponse> => {
      const created = await createApiKey(name)
      update((current) => withKey(current, created.key))
      return created
    },
    [update],
  )

  const revoke = useCallback(
    async (id: string): Promise<ApiKeyView> => {
      const { key } = await revokeApiKey(id)
      update((current) => withKey(current, key))
      return key
    },
    [update],
  )

  return { resource, create, revoke }
}
