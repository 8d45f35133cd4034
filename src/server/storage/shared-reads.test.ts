import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { withSharedReads } from './shared-reads.ts'
import { type ObjectStorage, StorageNotFoundError } from './types.ts'

function countingStorage() {
  const files = new Map<string, Buffer>([['a.jpg', Buffer.from('photo')]])
  let reads = 0
  let release: () => void = () => {}
  const gate = () => new Promise<void>((resolve) => (release = resolve))
  let pending = gate()
  const storage: ObjectStorage = {
    kind: 'local',
    put: async (key, bytes) => {
      files.set(key, bytes)
    },
    delete: async (key) => {
      files.delete(key)
    },
    get: async (key) => {
      reads++
      await pending
      const bytes = files.get(key)
      if (!bytes) throw new StorageNotFoundError(key)
      return bytes
    },
    getStream: async (key) => {
      const bytes = files.get(key)
      if (!bytes) throw new StorageNotFoundError(key)
      return Readable.from([bytes])
    },
  }
  return {
    storage,
    get reads() {
      return reads
    },
    finishReads() {
      release()
      pending = gate()
    },
  }
}

describe('shared reads', () => {
  it('gives concurrent readers of one key a single read, and reads again afterwards', async () => {
    const inner = countingStorage()
    const storage = withSharedReads(inner.storage)
    const readers = Array.from({ length: 5 }, () => storage.get('a.jpg'))
    inner.finishReads()
    const results = await Promise.all(readers)
    expect(results.every((bytes) => bytes.toString() === 'photo')).toBe(true)
    expect(inner.reads).toBe(1)

    const later = storage.get('a.jpg')
    inner.finishReads()
    await later
    expect(inner.reads).toBe(2)
  })

  it('shares a failure with the readers waiting on it, then tries again', async () => {
    const inner = countingStorage()
    const storage = withSharedReads(inner.storage)
    const readers = [storage.get('missing.jpg'), storage.get('missing.jpg')]
    inner.finishReads()
    for (const reader of readers) await expect(reader).rejects.toBeInstanceOf(StorageNotFoundError)
    expect(inner.reads).toBe(1)
    const again = storage.get('missing.jpg')
    inner.finishReads()
    await expect(again).rejects.toBeInstanceOf(StorageNotFoundError)
    expect(inner.reads).toBe(2)
  })
})
