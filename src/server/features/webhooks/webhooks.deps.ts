import type { Config } from '#server/config.ts'
import type { SecretBox } from '#server/crypto/secret-box.ts'
import type { Db } from '#server/db/client.ts'
import type { Notifier } from '#server/events/notifier.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { WebhooksDeps } from './webhooks.service.ts'

/** The webhook endpoints' dependencies from the process's infrastructure (AppDeps's fields of these names). */
export function webhooksDeps(infra: {
  database: { db: Db }
  now: () => Date
  webhookBox: SecretBox
  notifier: Notifier
  rateLimiter: RateLimiter
  config: Pick<Config, 'webhookAllowPrivateHosts'> & {
    limits: Pick<Config['limits'], 'webhookSendsPerMinute'>
  }
}): WebhooksDeps {
  return {
    db: infra.database.db,
    now: infra.now,
    secretBox: infra.webhookBox,
    notifier: infra.notifier,
    // With WEBHOOKS_ALLOW_LOOPBACK (development only) this machine's addresses too.
    allowPrivateHosts: infra.config.webhookAllowPrivateHosts,
    rateLimiter: infra.rateLimiter,
    sendsPerMinute: infra.config.limits.webhookSendsPerMinute,
  }
}
