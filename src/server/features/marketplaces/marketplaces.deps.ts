import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import { marketplaceDeps } from './marketplaces.routes.ts'
import type { Inspections, MarketplaceDeps } from './marketplaces.service.ts'
import type { TextReader } from './read-text.ts'

/**
 * The marketplaces' dependencies from the process's infrastructure (AppDeps's fields of these
 * names): one set of measurements and video slots for the marketplace routes, the catalogue's
 * preset exports and published media. Measuring runs the process's one segmentation model, which
 * the offline studio shares.
 */
export function marketplacesDeps(infra: {
  database: { db: Db }
  storage: ObjectStorage
  segmenter: Pick<Segmenter, 'segment'>
  textReader: TextReader | null
  imageInspections: Inspections
  config: { providers: Pick<Config['providers'], 'ffmpegPath'> }
  incomingDir: string
}): MarketplaceDeps {
  return marketplaceDeps({
    db: infra.database.db,
    storage: infra.storage,
    segmenter: infra.segmenter,
    textReader: infra.textReader,
    inspections: infra.imageInspections,
    ffmpegPath: infra.config.providers.ffmpegPath,
    tempDir: infra.incomingDir,
  })
}
