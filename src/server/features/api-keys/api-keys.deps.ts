import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { requireApiKey } from './api-keys.routes.ts'
import type { ApiKeysDeps } from './api-keys.service.ts'

/** The API keys' dependencies from the process's infrastructure (AppDeps's fields of these names). */
export function apiKeysDeps(infra: { database: { db: Db }; now: () => Date }): ApiKeysDeps {
  return { db: infra.database.db, now: infra.now }
}

/** What /v1 checks on every request (requireApiKey): the key, and the requests counted per key. */
export function apiKeyGuardDeps(infra: {
  database: { db: Db }
  now: () => Date
  rateLimiter: RateLimiter
  config: { limits: Pick<Config['limits'], 'apiReadsPerMinute' | 'apiWritesPerMinute'> }
}): Parameters<typeof requireApiKey>[0] {
  return {
    ...apiKeysDeps(infra),
    rateLimiter: infra.rateLimiter,
    readsPerMinute: infra.config.limits.apiReadsPerMinute,
    writesPerMinute: infra.config.limits.apiWritesPerMinute,
  }
}
