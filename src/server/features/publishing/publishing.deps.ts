import type { Config } from '#server/config.ts'
import type { SecretBox } from '#server/crypto/secret-box.ts'
import type { Db } from '#server/db/client.ts'
import type { Notifier } from '#server/events/notifier.ts'
import type { EventRecorder } from '#server/events/recorder.ts'
import type { MarketplaceDeps } from '#server/features/marketplaces/marketplaces.service.ts'
import type { Logger } from '#server/logger.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import { visionFromConfig } from './attribute-vision.ts'
import type { CataloguePublishDeps } from './catalogue-publish.service.ts'
import type { ConnectionsDeps } from './connections.service.ts'
import { isUnderTest } from './public-origin.ts'
import { createTaxonomy, type Taxonomy } from './taxonomy.service.ts'

/** What publishing builds from the process's infrastructure (AppDeps's fields of these names). */
export type PublishingInfrastructure = {
  database: { db: Db }
  storage: ObjectStorage
  rateLimiter: RateLimiter
  notifier: Notifier
  events: EventRecorder
  segmenter: Segmenter
  marketplaceBox: SecretBox
  config: Pick<
    Config,
    'env' | 'enableTestHooks' | 'publicUrl' | 'storage' | 'providers' | 'marketplaceApis' | 'publisher'
  >
  logger: Logger
  now: () => Date
}

/**
 * Publishing's dependencies: the seller's marketplace connections (the integrations page, /v1 and
 * the publisher), the taxonomy (one per process: it keeps its category index and brand answers in
 * memory) and the publications, which render through the marketplaces' one set of measurements.
 */
export function publishingDeps(
  infra: PublishingInfrastructure,
  shared: { marketplaces: MarketplaceDeps },
): {
  connections: ConnectionsDeps & { now: () => Date }
  taxonomy: Taxonomy
  publications: CataloguePublishDeps
} {
  const { config, logger: log, now, storage } = infra
  const { db } = infra.database
  const connections = { db, box: infra.marketplaceBox, apis: config.marketplaceApis, log, now }
  const taxonomy = createTaxonomy(connections)
  // One per process, beside the taxonomy: the single-product draft and the catalogue batch's
  // drafts choose attributes from the photo through it (null without VISION_MODEL).
  const vision = visionFromConfig(config.providers, log)
  const publications: CataloguePublishDeps = {
    db,
    rateLimiter: infra.rateLimiter,
    events: infra.events,
    connections,
    log,
    now,
    allowHttpImages: isUnderTest(config),
    pollMs: config.publisher.pollMs,
    notifier: infra.notifier,
    marketplaces: shared.marketplaces,
    media: { storage, config, log },
    draft: { db, storage, segmenter: infra.segmenter, taxonomy, vision },
  }
  return { connections, taxonomy, publications }
}
