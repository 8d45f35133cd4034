import type { ObjectStorage } from './types.ts'

/**
 * Storage whose concurrent reads of one key share one read: jobs started together from the
 * same photo (a seller trying several scenes) read it once, not once each. Only reads in
 * flight are shared, so nothing is cached; callers must not change the bytes they get.
 */
export function withSharedReads(storage: ObjectStorage): ObjectStorage {
  const reading = new Map<string, Promise<Buffer>>()
  return {
    kind: storage.kind,
    put: (key, bytes, contentType, options) => storage.put(key, bytes, contentType, options),
    delete: (key) => storage.delete(key),
    // A stream has one reader, so streamed reads are not shared.
    getStream: (key) => storage.getStream(key),
    get(key) {
      const known = reading.get(key)
      if (known) return known
      const read = storage.get(key).finally(() => reading.delete(key))
      reading.set(key, read)
      return read
    },
  }
}
