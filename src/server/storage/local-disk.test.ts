import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createLocalDiskStorage } from './local-disk.ts'
import { StorageNotFoundError } from './types.ts'

const root = mkdtempSync(join(tmpdir(), 'vitrin-local-disk-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

async function readAll(stream: AsyncIterable<unknown>): Promise<{ bytes: Buffer; chunks: number }> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return { bytes: Buffer.concat(chunks), chunks: chunks.length }
}

describe('local disk storage: streamed reads', () => {
  it('streams an object in chunks, byte for byte', async () => {
    const storage = createLocalDiskStorage(root)
    const bytes = randomBytes(1024 * 1024 + 3)
    await storage.put('user-1/video.mp4', bytes, 'video/mp4')
    const { bytes: read, chunks } = await readAll(await storage.getStream('user-1/video.mp4'))
    expect(read.equals(bytes)).toBe(true)
    // Read in pieces, not whole: that is what keeps an export's memory flat.
    expect(chunks).toBeGreaterThan(1)
  })

  it('answers StorageNotFoundError before streaming a missing object', async () => {
    const storage = createLocalDiskStorage(root)
    await expect(storage.getStream('user-1/never-stored.jpg')).rejects.toBeInstanceOf(StorageNotFoundError)
  })

  it('refuses a key that leaves the root', async () => {
    const storage = createLocalDiskStorage(root)
    await expect(storage.getStream('../outside.jpg')).rejects.toThrow(/escapes the root/)
  })

  it('closes the file when a stream is destroyed half-read', async () => {
    const storage = createLocalDiskStorage(root)
    await storage.put('user-2/big.bin', randomBytes(512 * 1024), 'application/octet-stream')
    const stream = await storage.getStream('user-2/big.bin')
    const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()))
    await new Promise<void>((resolve) => stream.once('data', () => resolve()))
    stream.destroy()
    await closed
    expect(stream.destroyed).toBe(true)
  })
})
