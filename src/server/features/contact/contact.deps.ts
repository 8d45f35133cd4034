import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import type { Mailer } from '#server/email/outbox.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { ContactDeps } from './contact.service.ts'

/** The contact form's dependencies from the process's infrastructure (AppDeps's fields of these names). */
export function contactDeps(infra: {
  database: { db: Db }
  mailer: Mailer
  rateLimiter: RateLimiter
  config: Pick<Config, 'supportEmail' | 'supportLanguage'>
}): ContactDeps {
  return {
    db: infra.database.db,
    mailer: infra.mailer,
    rateLimiter: infra.rateLimiter,
    supportEmail: infra.config.supportEmail,
    supportLanguage: infra.config.supportLanguage,
  }
}
