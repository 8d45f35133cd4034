import { join } from 'node:path'
import type { Config } from '../config.ts'
import { createLocalDiskStorage } from './local-disk.ts'
import type { ObjectStorage } from './types.ts'

/** Local disk under DATA_DIR/files unless an S3-compatible store is configured. */
export async function createStorage(config: Config): Promise<ObjectStorage> {
  return createLocalDiskStorage(join(config.dataDir, 'files'))
}
