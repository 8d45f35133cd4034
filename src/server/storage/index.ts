import { join } from 'node:path'
import type { Config } from '#server/config.ts'
import { createLocalDiskStorage } from './local-disk.ts'
import type { ObjectStorage } from './types.ts'

/** Local disk under DATA_DIR/files unless an S3-compatible store is configured (S3_BUCKET). */
export async function createStorage(config: Config): Promise<ObjectStorage> {
  if (config.storage.kind === 's3' && config.storage.s3) {
    // Imported here so the embedded default never loads s3.ts or the AWS SDK behind it.
    const { createS3Storage } = await import('./s3.ts')
    return createS3Storage(config.storage.s3)
  }
  return createLocalDiskStorage(join(config.dataDir, 'files'))
}
