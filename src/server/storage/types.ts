import type { Readable } from 'node:stream'

/** Where uploads and results live: local disk by default, any S3-compatible store by configuration. */
export interface ObjectStorage {
  readonly kind: 'local' | 's3'
  /**
   * Writes an object whole; a reader never sees a half-written one. `cacheControl` is stored with
   * it where the store serves objects itself (S3: published images behind S3_PUBLIC_URL).
   */
  put(key: string, bytes: Buffer, contentType: string, options?: { cacheControl?: string }): Promise<void>
  /** Reads an object; throws StorageNotFoundError when it is not there. */
  get(key: string): Promise<Buffer>
  /**
   * Reads an object as a stream, for files too large to hold whole (a catalogue export copies
   * hundreds of them). Throws StorageNotFoundError before returning when it is not there; the
   * caller must read the stream to its end or destroy it.
   */
  getStream(key: string): Promise<Readable>
  /** Removes an object; removing a missing one is not an error. */
  delete(key: string): Promise<void>
}

export class StorageNotFoundError extends Error {
  constructor(key: string) {
    super(`no object at ${key}`)
    this.name = 'StorageNotFoundError'
  }
}
