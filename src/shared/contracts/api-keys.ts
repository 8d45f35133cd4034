import { z } from 'zod'
import { safeText } from '#shared/validation.ts'

/**
 * Keys for the public API (/v1). A key is `vtr_` and 43 base62 characters (256 random bits); it
 * is shown once, when it is made, and only its SHA-256 is stored (db/schema/api.ts).
 */
export const apiKeyPrefix = 'vtr_'
/** How many random base62 characters follow `vtr_`: 43 × log2(62) ≈ 256 bits. */
export const apiKeyRandomLength = 43
/** The shape of a whole key; anything else is refused before the database is asked. */
export const apiKeyPattern = new RegExp(`^${apiKeyPrefix}[0-9A-Za-z]{${apiKeyRandomLength}}$`)
/** How much of a key is kept readable and listed (`vtr_` and 8 characters), to tell keys apart. */
export const apiKeyShownLength = 12
/**
 * The most live (unrevoked) keys an account may hold: enough for one per environment and
 * integration, few enough that a list stays readable and a leaked session cannot mint many.
 */
export const maxLiveApiKeys = 20
/** Revoked keys stay listed for the record; the most recent this many are shown. */
export const revokedApiKeysShown = 20
export const apiKeyNameMaxLength = 60

/** POST /api/api-keys */
export const createApiKeyRequestSchema = z.object({
  name: safeText().trim().min(1).max(apiKeyNameMaxLength),
})
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>

/** One key as listed: never the key itself, only its first characters. ISO timestamps. */
export type ApiKeyView = {
  id: string
  name: string
  /** The key's first characters, e.g. `vtr_AbCd1234`. */
  prefix: string
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}

/** GET /api/api-keys: live keys first (newest first), then the most recently revoked. */
export type ApiKeysResponse = {
  /** Whether the account's plan includes API access (`apiAccess` in shared/plans.ts). */
  hasApiAccess: boolean
  maxLiveKeys: number
  keys: ApiKeyView[]
}

/** POST /api/api-keys (201): the one answer that carries the whole key. */
export type CreateApiKeyResponse = { key: ApiKeyView; secret: string }

/** DELETE /api/api-keys/:id: the key as it is now, revoked. */
export type RevokeApiKeyResponse = { key: ApiKeyView }
