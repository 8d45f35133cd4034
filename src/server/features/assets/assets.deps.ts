import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import type { AssetRow } from '#server/db/schema/index.ts'
import type { Logger } from '#server/logger.ts'
import type { Providers } from '#server/providers/index.ts'
import type { ImageMime } from '#server/providers/types.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { AssetDeps } from './assets.service.ts'

/** The assets' dependencies from the process's infrastructure (AppDeps's fields of these names). */
export function assetDeps(infra: {
  database: { db: Db }
  storage: ObjectStorage
  rateLimiter: RateLimiter
  config: { limits: Config['limits'] }
  logger: Logger
  now: () => Date
  warmUpStudio?: Providers['warmUp']
}): AssetDeps {
  const { storage, logger: log, warmUpStudio } = infra
  // The model's process ends after an idle minute: a new photo starts it again, and its product
  // is cut, ahead of the image job that usually follows. A failure here is the job's to report.
  const photoArrived = warmUpStudio
    ? (asset: AssetRow) =>
        void storage
          .get(asset.storageKey)
          .then((bytes) => warmUpStudio({ bytes, mime: asset.mime as ImageMime, sha256: asset.checksum }))
          .catch((error: unknown) =>
            log.debug({ err: error, assetId: asset.id }, 'preparing a new photo failed'),
          )
    : undefined
  return {
    db: infra.database.db,
    storage,
    rateLimiter: infra.rateLimiter,
    limits: infra.config.limits,
    now: infra.now,
    photoArrived,
  }
}
