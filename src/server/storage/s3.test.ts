import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '#server/config.ts'
import { makeJpeg } from '#tests/support/fake-providers.ts'
import { signedInClient, upload } from '#tests/support/generation-client.ts'
import { startTestServer } from '#tests/support/test-server.ts'
import { createStorage } from './index.ts'
import { createS3Storage } from './s3.ts'
import { StorageNotFoundError } from './types.ts'

// s3rver ships no type declarations, and an untyped module cannot be imported under strict
// settings; require() it and give it the small shape these tests use.
type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void> }
type S3rverConstructor = new (options: {
  address: string
  port: number
  silent: boolean
  directory: string
  configureBuckets: { name: string }[]
}) => S3rverInstance
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor

const bucket = 'vitrin-test'
// s3rver checks request signatures against this built-in account, so the keys really are used.
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }

let s3rver: S3rverInstance
let s3rverDir: string
let endpoint: string
/** A client of our own, to look at the bucket from outside Vitrin. */
let inspector: S3Client

/** The S3_* settings for the server under test, as an operator would write them. */
function s3Env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    ...extra,
  }
}

/** S3 storage built the way the app builds it: from configuration. */
async function storageFrom(env: Record<string, string>) {
  const config = loadConfig({ APP_SECRET: 'x'.repeat(32), ...env })
  expect(config.storage.kind).toBe('s3')
  return createStorage(config)
}

async function keysInBucket(prefix = ''): Promise<string[]> {
  const listed = await inspector.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }))
  return (listed.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])).sort()
}

async function objectInBucket(key: string): Promise<{ bytes: Buffer; contentType: string | undefined }> {
  const object = await inspector.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
  const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? [])
  return { bytes, contentType: object.ContentType }
}

beforeAll(async () => {
  s3rverDir = mkdtempSync(join(tmpdir(), 'vitrin-s3rver-'))
  s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3rverDir,
    configureBuckets: [{ name: bucket }],
  })
  const { port } = await s3rver.run()
  endpoint = `http://127.0.0.1:${port}`
  inspector = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials })
})

afterAll(async () => {
  inspector?.destroy()
  await s3rver?.close()
  rmSync(s3rverDir, { recursive: true, force: true })
})

describe('S3 configuration', () => {
  it('stays on local files unless S3_BUCKET is set', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'local' })
  })

  it('refuses S3_BUCKET without both keys, naming them', () => {
    for (const missing of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) {
      const env: Record<string, string | undefined> = { ...s3Env(), [missing]: undefined }
      expect(() => loadConfig(env)).toThrow(ConfigError)
      expect(() => loadConfig(env)).toThrow(/S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: are both required/)
    }
  })

  it('reads every S3 key, with us-east-1 and virtual-host style by default', () => {
    const config = loadConfig({ ...s3Env({ S3_PREFIX: '/shop/uploads/' }), S3_FORCE_PATH_STYLE: '' })
    expect(config.storage).toEqual({
      kind: 's3',
      s3: {
        bucket,
        region: 'us-east-1',
        endpoint,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: false,
        prefix: 'shop/uploads',
      },
    })
  })
})

describe('S3 storage', () => {
  it('round-trips binary content: put, get, overwrite, delete', async () => {
    const storage = await storageFrom(s3Env())
    expect(storage.kind).toBe('s3')
    // Every byte value, then noise: nothing may be re-encoded on the way.
    const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(300_000)])
    await storage.put('user-1/round-trip.jpg', bytes, 'image/jpeg')
    expect((await storage.get('user-1/round-trip.jpg')).equals(bytes)).toBe(true)
    expect(await objectInBucket('user-1/round-trip.jpg')).toMatchObject({ contentType: 'image/jpeg' })

    const replacement = randomBytes(1024)
    await storage.put('user-1/round-trip.jpg', replacement, 'image/jpeg')
    expect((await storage.get('user-1/round-trip.jpg')).equals(replacement)).toBe(true)

    await storage.delete('user-1/round-trip.jpg')
    await expect(storage.get('user-1/round-trip.jpg')).rejects.toBeInstanceOf(StorageNotFoundError)
    expect(await keysInBucket('user-1/')).toEqual([])
  })

  it('answers StorageNotFoundError for a missing key, and deleting one is not an error', async () => {
    const storage = await storageFrom(s3Env())
    await expect(storage.get('nobody/never-stored.png')).rejects.toBeInstanceOf(StorageNotFoundError)
    await expect(storage.delete('nobody/never-stored.png')).resolves.toBeUndefined()
  })

  it('streams an object as it is stored, and answers StorageNotFoundError before streaming a missing one', async () => {
    const storage = await storageFrom(s3Env({ S3_PREFIX: 'streamed' }))
    // Larger than one socket read, so the body really arrives in several chunks.
    const bytes = randomBytes(3 * 1024 * 1024 + 17)
    await storage.put('user-4/video.mp4', bytes, 'video/mp4')
    const stream = await storage.getStream('user-4/video.mp4')
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    expect(chunks.length).toBeGreaterThan(1)
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true)

    await expect(storage.getStream('user-4/never-stored.mp4')).rejects.toBeInstanceOf(StorageNotFoundError)
    await storage.delete('user-4/video.mp4')
  })

  it('releases a streamed object that is destroyed half-read', async () => {
    const storage = await storageFrom(s3Env())
    await storage.put('user-5/big.mp4', randomBytes(2 * 1024 * 1024), 'video/mp4')
    const stream = await storage.getStream('user-5/big.mp4')
    const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()))
    await new Promise<void>((resolve) => stream.once('data', () => resolve()))
    stream.destroy()
    await closed
    expect(stream.destroyed).toBe(true)
    // The store still answers afterwards: the destroyed read left nothing hanging.
    expect((await storage.get('user-5/big.mp4')).length).toBe(2 * 1024 * 1024)
    await storage.delete('user-5/big.mp4')
  })

  it('keeps its objects under S3_PREFIX, out of reach of an unprefixed store', async () => {
    const prefixed = await storageFrom(s3Env({ S3_PREFIX: 'tenant-a/' }))
    const unprefixed = await storageFrom(s3Env())
    const bytes = randomBytes(4096)
    await prefixed.put('user-2/photo.png', bytes, 'image/png')

    expect(await keysInBucket('tenant-a/')).toEqual(['tenant-a/user-2/photo.png'])
    expect((await objectInBucket('tenant-a/user-2/photo.png')).bytes.equals(bytes)).toBe(true)
    expect((await prefixed.get('user-2/photo.png')).equals(bytes)).toBe(true)
    await expect(unprefixed.get('user-2/photo.png')).rejects.toBeInstanceOf(StorageNotFoundError)

    await prefixed.delete('user-2/photo.png')
    expect(await keysInBucket('tenant-a/')).toEqual([])
  })

  it('reports a missing bucket as a failure, not as a missing object', async () => {
    const storage = await createS3Storage({
      bucket: 'no-such-bucket',
      region: 'us-east-1',
      endpoint,
      ...credentials,
      forcePathStyle: true,
      prefix: undefined,
    })
    const failure = await storage.get('user-3/photo.jpg').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    expect(failure).not.toBeInstanceOf(StorageNotFoundError)
    const streamFailure = await storage.getStream('user-3/photo.jpg').catch((error: unknown) => error)
    expect(streamFailure).toBeInstanceOf(Error)
    expect(streamFailure).not.toBeInstanceOf(StorageNotFoundError)
  })
})

describe('uploads with S3 storage', () => {
  it('stores an uploaded photo in the bucket, serves it back, and writes nothing to local files', async () => {
    const server = await startTestServer({ TRUST_PROXY: 'true', ...s3Env({ S3_PREFIX: 'app-e2e' }) })
    try {
      expect(server.deps.storage.kind).toBe('s3')
      const owner = await signedInClient(server)
      const response = await upload(owner, await makeJpeg(400, 300), 'product.jpg')
      expect(response.status).toBe(201)
      const { asset } = (await response.json()) as { asset: { id: string; url: string; bytes: number } }

      const served = await owner.request(asset.url)
      expect(served.status).toBe(200)
      expect(served.headers.get('content-type')).toBe('image/jpeg')
      const servedBytes = Buffer.from(await served.arrayBuffer())
      expect(servedBytes.length).toBe(asset.bytes)

      // The object is in the bucket, under the prefix, named by its asset id, with the same bytes.
      const keys = await keysInBucket('app-e2e/')
      expect(keys).toHaveLength(1)
      const [key = ''] = keys
      expect(key).toMatch(new RegExp(`^app-e2e/[^/]+/${asset.id}\\.jpg$`))
      const stored = await objectInBucket(key)
      expect(stored.bytes.equals(servedBytes)).toBe(true)
      expect(stored.contentType).toBe('image/jpeg')

      expect(existsSync(join(server.dataDir, 'files'))).toBe(false)
    } finally {
      await server.close()
    }
  })
})
