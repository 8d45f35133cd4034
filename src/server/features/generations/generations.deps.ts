import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import type { Notifier } from '#server/events/notifier.ts'
import type { JobOutcomes } from '#server/job-queue/outcomes.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { GenerationDeps } from './generations.service.ts'

/**
 * The generations' dependencies from the process's infrastructure (AppDeps's fields of these
 * names), with the auto top-up billing offers (given at composition: this feature uses no billing).
 */
export function generationDeps(
  infra: {
    database: { db: Db }
    storage: ObjectStorage
    rateLimiter: RateLimiter
    notifier: Notifier
    jobOutcomes: JobOutcomes
    config: Pick<Config, 'providers' | 'limits'> & { worker: Pick<Config['worker'], 'maxQueuedPerUser'> }
    now: () => Date
  },
  topUp: GenerationDeps['topUp'],
): GenerationDeps {
  const { config } = infra
  return {
    db: infra.database.db,
    storage: infra.storage,
    rateLimiter: infra.rateLimiter,
    notifier: infra.notifier,
    outcomes: infra.jobOutcomes,
    providers: config.providers,
    limits: config.limits,
    maxQueuedPerUser: config.worker.maxQueuedPerUser,
    now: infra.now,
    topUp,
  }
}
