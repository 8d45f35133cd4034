import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storeAsset } from '#server/features/assets/assets.service.ts'
import { createInspections, createVideoSlots } from '#server/features/marketplaces/marketplaces.service.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { createUser } from '#tests/support/factories.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { type PublishedMediaDeps, publishMedia, revokeMedia } from './published-media.service.ts'

// With S3_PUBLIC_URL a published image is linked at the bucket's own public address of its key
// (the store, or the CDN in front of it, serves it; Vitrin is not in the path), stored with the
// same year's caching the /media route sends. s3rver stands in for the bucket.

type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void> }
type S3rverConstructor = new (options: {
  address: string
  port: number
  silent: boolean
  directory: string
  configureBuckets: { name: string }[]
}) => S3rverInstance
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverConstructor

const bucket = 'vitrin-media'

let s3rver: S3rverInstance
let s3rverDir: string
let server: TestServer
let endpoint: string

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
  server = await startTestServer({
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
    S3_PREFIX: 'shop',
    // Path style: the bucket's public address is the endpoint and the bucket's name.
    S3_PUBLIC_URL: `${endpoint}/${bucket}/`,
  })
})

afterAll(async () => {
  await server?.close()
  await s3rver?.close()
  rmSync(s3rverDir, { recursive: true, force: true })
})

describe('published images with S3_PUBLIC_URL', () => {
  it("are linked at the bucket's public address of their key, with a year's caching, until revoked", async () => {
    const db = server.database.db
    const storage = server.deps.storage
    const deps: PublishedMediaDeps = {
      db,
      storage,
      config: server.config,
      marketplaces: {
        db,
        storage,
        segmenter: sharedSegmenter(),
        inspections: createInspections(),
        videoSlots: createVideoSlots(),
        ffmpegPath: server.config.providers.ffmpegPath,
      },
    }
    const userId = await createUser(db)
    const asset = await storeAsset(
      { db, storage },
      { userId, kind: 'result', bytes: await productPhoto(), mime: 'image/jpeg', fileName: 'cup.jpg' },
    )
    const published = await publishMedia(deps, userId, asset.id, 'trendyol')
    expect(published.url).toBe(`${endpoint}/${bucket}/shop/published/${published.token}.jpg`)

    // Fetched without credentials, as a marketplace would, from the store itself.
    const response = await fetch(published.url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/jpeg')
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(bytes.equals(await storage.get(`published/${published.token}.jpg`))).toBe(true)

    await revokeMedia(deps, userId, published.token)
    const gone = await fetch(published.url)
    expect(gone.status).toBe(404)
    await gone.arrayBuffer()
  })
})
