import type { Auth } from '#server/auth/auth.ts'
import type { Config } from '#server/config.ts'
import type { SecretBox } from '#server/crypto/secret-box.ts'
import type { Db } from '#server/db/client.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { AccountDeps } from './account.service.ts'
import type { SettingsDeps } from './settings.service.ts'

/** The settings pages' dependencies from the process's infrastructure (AppDeps's fields of these names). */
export function settingsDeps(infra: {
  database: { db: Db }
  keyBox: SecretBox
  billing: { isLive: boolean }
  config: Pick<Config, 'providers'>
  now: () => Date
}): SettingsDeps & { now: () => Date } {
  return {
    db: infra.database.db,
    keyBox: infra.keyBox,
    isBillingLive: infra.billing.isLive,
    providers: infra.config.providers,
    now: infra.now,
  }
}

/** The account page's dependencies (deleting an account, its files with it). */
export function accountDeps(infra: {
  database: { db: Db }
  storage: ObjectStorage
  auth: Auth
  rateLimiter: RateLimiter
}): AccountDeps {
  return { db: infra.database.db, storage: infra.storage, auth: infra.auth, rateLimiter: infra.rateLimiter }
}
