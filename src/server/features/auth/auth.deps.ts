import type { Auth } from '#server/auth/auth.ts'
import type { Db } from '#server/db/client.ts'
import type { Mailer } from '#server/email/outbox.ts'
import type { Logger } from '#server/logger.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { AuthDeps } from './auth.service.ts'

/** The auth routes' dependencies from the process's infrastructure (AppDeps's fields of these names). */
export function authDeps(infra: {
  auth: Auth
  rateLimiter: RateLimiter
  database: { db: Db }
  mailer: Mailer
  config: AuthDeps['config']
  logger: Logger
  now: () => Date
}): AuthDeps {
  return {
    auth: infra.auth,
    rateLimiter: infra.rateLimiter,
    db: infra.database.db,
    mailer: infra.mailer,
    // The process's config itself: its public URL is read when an email is written.
    config: infra.config,
    logger: infra.logger,
    now: infra.now,
  }
}
