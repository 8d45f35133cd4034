import type { Db } from '#server/db/client.ts'
import type { IdempotentPostsDeps } from './idempotency.routes.ts'

/** The idempotency keys' dependencies from the process's infrastructure (AppDeps's fields of these names). */
export function idempotencyDeps(infra: { database: { db: Db }; now: () => Date }): IdempotentPostsDeps {
  return { db: infra.database.db, now: infra.now }
}
