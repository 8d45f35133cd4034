import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import type { Notifier } from '#server/events/notifier.ts'
import type { EventRecorder } from '#server/events/recorder.ts'
import type { GenerationDeps } from '#server/features/generations/generations.service.ts'
import type { MarketplaceDeps } from '#server/features/marketplaces/marketplaces.service.ts'
import type { EventStreams } from '#server/http/event-streams.ts'
import type { Logger } from '#server/logger.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { CatalogueRouteDeps } from './catalogue.routes.ts'
import type { ListReader } from './import/list-reader.ts'

/**
 * The catalogue's dependencies, for /api/catalogue and /v1 alike: the process's infrastructure
 * (AppDeps's fields of these names) and the objects it shares with other services, built once
 * beside it (services.ts).
 */
export function catalogueDeps(
  infra: {
    database: { db: Db }
    storage: ObjectStorage
    events: EventRecorder
    config: Pick<Config, 'fetchAllowPrivateHosts' | 'limits'>
    logger: Logger
    now: () => Date
    incomingDir: string
    listReader: ListReader
    notifier: Notifier
    rateLimiter: RateLimiter
  },
  shared: { generations: GenerationDeps; marketplaces: MarketplaceDeps; streams: EventStreams },
): CatalogueRouteDeps {
  const { config, logger: log } = infra
  return {
    db: infra.database.db,
    storage: infra.storage,
    generations: shared.generations,
    events: infra.events,
    fetch: { allowPrivateHosts: config.fetchAllowPrivateHosts, log },
    log,
    now: infra.now,
    tempDir: infra.incomingDir,
    listReader: infra.listReader,
    notifier: infra.notifier,
    streams: shared.streams,
    marketplaces: shared.marketplaces,
    rateLimiter: infra.rateLimiter,
    limits: config.limits,
    photoStepSeconds: config.limits.cataloguePhotoStepSeconds,
  }
}
