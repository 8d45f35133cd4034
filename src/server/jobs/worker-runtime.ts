import type { AppDeps } from '../app.ts'
import { readFalKey } from '../features/settings/settings.service.ts'
import { createProviders, describeProviders } from '../providers/index.ts'
import { startWorker, type Worker } from './worker.ts'

/** Per-mode time limits: a video may legitimately take minutes at a provider. */
export const jobTimeoutMs = { image: 5 * 60_000, video: 15 * 60_000, seo: 3 * 60_000 } as const

/** Builds the configured providers, says which serve what, and starts a worker on them. */
export async function startConfiguredWorker(deps: AppDeps): Promise<Worker> {
  const { config, logger } = deps
  for (const line of describeProviders(config.providers)) logger[line.level](line.message)
  const providers = await createProviders(config.providers, { logger })
  return startWorker({
    db: deps.database.db,
    storage: deps.storage,
    notifier: deps.notifier,
    logger,
    providers,
    readOwnFalKey: (userId) =>
      readFalKey({ db: deps.database.db, keyBox: deps.keyBox, billing: deps.billing }, userId),
    concurrency: config.worker.concurrency,
    leaseMs: 30_000,
    pollMs: 1000,
    maxAttempts: config.worker.maxAttempts,
    retryBaseMs: config.worker.retryBaseMs,
    timeoutMs: jobTimeoutMs,
  })
}
