import type { Auth } from '#server/auth/auth.ts'
import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { AccessDeps } from './access.routes.ts'

/**
 * The access codes' dependencies from the process's infrastructure (AppDeps's fields of these
 * names), with billing's startTrial (given at composition: this feature uses no billing).
 */
export function accessDeps(
  infra: {
    database: { db: Db }
    auth: Auth
    rateLimiter: RateLimiter
    config: { limits: Pick<Config['limits'], 'trialsPerDayPerClient'> }
    now: () => Date
  },
  startTrial: AccessDeps['startTrial'],
): AccessDeps {
  return {
    db: infra.database.db,
    auth: infra.auth,
    rateLimiter: infra.rateLimiter,
    now: infra.now,
    trialsPerClient: infra.config.limits.trialsPerDayPerClient,
    startTrial,
  }
}
