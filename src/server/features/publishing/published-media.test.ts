import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { publishedMedia } from '#server/db/schema/index.ts'
import { deleteUpload, storeAsset } from '#server/features/assets/assets.service.ts'
import {
  createInspections,
  createVideoSlots,
  type MarketplaceDeps,
  measureVideoBytes,
} from '#server/features/marketplaces/marketplaces.service.ts'
import { createLogger } from '#server/logger.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { AppError } from '#shared/errors.ts'
import { trendyolCategoryAttributes } from '#tests/fakes/trendyol-catalog.ts'
import {
  defaultTrendyolSeller,
  startTrendyolFake,
  type TrendyolFake,
  trendyolFailureReasons,
} from '#tests/fakes/trendyol-server.ts'
import { createUser, nextClientIp } from '#tests/support/factories.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestServer,
} from '#tests/support/test-server.ts'
import {
  newMediaToken,
  type PublishedMediaDeps,
  publicMediaUrl,
  publishedStorageKey,
  publishMedia,
  revokeMedia,
  sweepOrphanedMedia,
  tokenPattern,
} from './published-media.service.ts'
import { createTrendyolApi, type TrendyolProductItem } from './trendyol-api.ts'

// Images published for a marketplace, over real HTTP: rendered once in the marketplace's size,
// served without a session at an unguessable, stable address with a year's caching, gone (404,
// like an unknown token) once revoked; and downloaded by the fake Trendyol as it would be.

const silentLog = createLogger({ level: 'silent' })
let server: TestServer
let photo: Buffer

beforeAll(async () => {
  server = await startTestServer()
  photo = await productPhoto()
})
beforeEach(async () => {
  await resetDatabase(server.database)
})
afterAll(async () => {
  await server.close()
})

function deps(overrides: Partial<PublishedMediaDeps> = {}): PublishedMediaDeps {
  const marketplaces: MarketplaceDeps = {
    db: server.database.db,
    storage: server.deps.storage,
    segmenter: sharedSegmenter(),
    inspections: createInspections(),
    videoSlots: createVideoSlots(),
    ffmpegPath: server.config.providers.ffmpegPath,
  }
  return {
    db: server.database.db,
    storage: server.deps.storage,
    marketplaces,
    config: server.config,
    ...overrides,
  }
}

async function userWithImage() {
  const userId = await createUser(server.database.db)
  const asset = await storeAsset(
    { db: server.database.db, storage: server.deps.storage },
    {
      userId,
      kind: 'result',
      bytes: photo,
      mime: 'image/jpeg',
      fileName: 'cup.jpg',
      width: 1200,
      height: 1200,
    },
  )
  return { userId, assetId: asset.id }
}

/** The files in local storage's published folder (the files are not emptied between tests). */
function publishedFiles(): string[] {
  try {
    return readdirSync(join(server.dataDir, 'files', 'published'))
  } catch {
    return []
  }
}

/** Files there now that were not in `before`, temporary ones included, sorted. */
function newFiles(before: string[]): string[] {
  return publishedFiles()
    .filter((file) => !before.includes(file))
    .sort()
}

function tokenOf(url: string): string {
  const match = /\/media\/([^/]+)\.jpg$/.exec(url)
  if (!match?.[1]) throw new Error(`not a media URL: ${url}`)
  return match[1]
}

/** A real MP4 of `seconds` seconds (ffmpeg's test pattern, 320×240, no sound). */
async function testClip(seconds: number): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'published-clip-'))
  const path = join(dir, 'clip.mp4')
  try {
    execFileSync(server.config.providers.ffmpegPath, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=320x240:rate=24:duration=${seconds}`,
      '-pix_fmt',
      'yuv420p',
      path,
    ])
    return readFileSync(path)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** An error answer without its request id, to compare two answers. */
async function errorOf(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string; requestId?: string } }
  const { requestId: _, ...rest } = body.error
  return rest
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`)
  return error
}

describe('media tokens', () => {
  it('are 192 random bits, URL-safe and distinct', () => {
    const tokens = Array.from({ length: 2000 }, () => newMediaToken())
    expect(new Set(tokens).size).toBe(tokens.length)
    for (const token of tokens) {
      expect(token).toMatch(tokenPattern)
      expect(Buffer.from(token, 'base64url')).toHaveLength(24)
    }
    // Every character of the alphabet turns up, so no position is fixed or biased to a subset.
    expect(new Set(tokens.join('')).size).toBe(64)
  })
})

describe('publicMediaUrl', () => {
  it('is PUBLIC_URL/media/<token>.jpg, or the bucket’s public URL of the key under its prefix', () => {
    const row = { token: 'A'.repeat(32), storageKey: publishedStorageKey('A'.repeat(32)) }
    expect(publicMediaUrl({ publicUrl: 'https://vitrin.example.com', storage: { kind: 'local' } }, row)).toBe(
      `https://vitrin.example.com/media/${'A'.repeat(32)}.jpg`,
    )
    const s3 = {
      bucket: 'b',
      region: 'us-east-1',
      endpoint: undefined,
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: false,
      publicUrl: 'https://media.example.com',
    }
    expect(
      publicMediaUrl(
        { publicUrl: 'https://vitrin.example.com', storage: { kind: 's3', s3: { ...s3, prefix: 'vitrin' } } },
        row,
      ),
    ).toBe(`https://media.example.com/vitrin/published/${'A'.repeat(32)}.jpg`)
    expect(
      publicMediaUrl(
        {
          publicUrl: 'https://vitrin.example.com',
          storage: { kind: 's3', s3: { ...s3, prefix: undefined } },
        },
        row,
      ),
    ).toBe(`https://media.example.com/published/${'A'.repeat(32)}.jpg`)
  })
})

describe('published media', () => {
  it('renders in the marketplace’s size once, and publishing again gives the same address', async () => {
    const { userId, assetId } = await userWithImage()
    const before = publishedFiles()
    const first = await publishMedia(deps(), userId, assetId, 'trendyol')
    expect(first.url).toMatch(new RegExp(`^${server.url}/media/[A-Za-z0-9_-]{32}\\.jpg$`))
    expect(first).toMatchObject({
      assetId,
      profile: 'trendyol',
      mime: 'image/jpeg',
      width: 1200,
      height: 1800,
    })
    expect(tokenOf(first.url)).toBe(first.token)
    const again = await publishMedia(deps(), userId, assetId, 'trendyol')
    expect(again.url).toBe(first.url)
    // Another marketplace's size is another file at another address.
    const other = await publishMedia(deps(), userId, assetId, 'hepsiburada')
    expect(other.url).not.toBe(first.url)
    expect(other).toMatchObject({ width: 1500, height: 1500 })
    const rows = await server.database.db.select().from(publishedMedia)
    expect(rows).toHaveLength(2)
    expect(newFiles(before)).toEqual(rows.map((row) => `${row.token}.jpg`).sort())
  })

  it('gives one address and stores one file when the same image is published twice at once', async () => {
    const { userId, assetId } = await userWithImage()
    const before = publishedFiles()
    const [a, b, c] = await Promise.all([
      publishMedia(deps(), userId, assetId, 'trendyol'),
      publishMedia(deps(), userId, assetId, 'trendyol'),
      publishMedia(deps(), userId, assetId, 'trendyol'),
    ])
    expect(new Set([a?.url, b?.url, c?.url]).size).toBe(1)
    expect(await server.database.db.select().from(publishedMedia)).toHaveLength(1)
    expect(newFiles(before)).toEqual([`${a?.token}.jpg`])
  })

  it('serves the stored bytes to anyone, with a year’s caching, an ETag, 304 and HEAD', async () => {
    const { userId, assetId } = await userWithImage()
    const published = await publishMedia(deps(), userId, assetId, 'trendyol')
    const stored = await server.deps.storage.get(publishedStorageKey(published.token))

    // No cookie, no key: a marketplace's downloader has neither.
    const response = await fetch(published.url)
    expect(response.status).toBe(200)
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(bytes.equals(stored)).toBe(true)
    expect(bytes).toHaveLength(published.bytes)
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 1800 })
    const etag = `"${createHash('sha256').update(stored).digest('hex')}"`
    expect(response.headers.get('content-type')).toBe('image/jpeg')
    expect(response.headers.get('content-length')).toBe(String(stored.length))
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(response.headers.get('etag')).toBe(etag)
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    expect(response.headers.get('set-cookie')).toBeNull()

    const unchanged = await fetch(published.url, { headers: { 'if-none-match': etag } })
    expect(unchanged.status).toBe(304)
    expect(unchanged.headers.get('etag')).toBe(etag)
    expect(unchanged.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect((await unchanged.arrayBuffer()).byteLength).toBe(0)
    const otherTag = await fetch(published.url, { headers: { 'if-none-match': '"something-else"' } })
    expect(otherTag.status).toBe(200)
    await otherTag.arrayBuffer()

    const head = await fetch(published.url, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-type')).toBe('image/jpeg')
    expect(head.headers.get('content-length')).toBe(String(stored.length))
    expect(head.headers.get('etag')).toBe(etag)
    expect((await head.arrayBuffer()).byteLength).toBe(0)
  })

  it('publishes a video as MP4 at its own .mp4 address, made to the marketplace’s rules', async () => {
    const userId = await createUser(server.database.db)
    const clip = await storeAsset(
      { db: server.database.db, storage: server.deps.storage },
      {
        userId,
        kind: 'result',
        bytes: await testClip(2),
        mime: 'video/mp4',
        fileName: 'clip.mp4',
      },
    )
    const published = await publishMedia(deps(), userId, clip.id, 'trendyol')
    expect(published.url).toMatch(new RegExp(`^${server.url}/media/[A-Za-z0-9_-]{32}\\.mp4$`))
    expect(published).toMatchObject({ mime: 'video/mp4', width: 320, height: 240 })
    expect(await publishMedia(deps(), userId, clip.id, 'trendyol')).toEqual(published)

    const response = await fetch(published.url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('video/mp4')
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(bytes).toHaveLength(published.bytes)
    // Trendyol's video service takes 8–120 s: the 2 s clip went out lengthened past the floor.
    const facts = await measureVideoBytes(deps().marketplaces, bytes)
    expect(facts.durationSeconds).toBeGreaterThan(8)
    // Its token is an address only under the extension it was given with.
    expect((await fetch(published.url.replace(/\.mp4$/, '.jpg'))).status).toBe(404)
  })

  it('answers a revoked token exactly like an unknown one, and publishing again gives a new address', async () => {
    const { userId, assetId } = await userWithImage()
    const published = await publishMedia(deps(), userId, assetId, 'trendyol')
    expect((await fetch(published.url)).status).toBe(200)

    // Only its owner can revoke it.
    const stranger = await createUser(server.database.db)
    expect((await rejection(revokeMedia(deps(), stranger, published.token))).code).toBe('NOT_FOUND')
    expect((await fetch(published.url)).status).toBe(200)

    await revokeMedia(deps(), userId, published.token)
    const revoked = await fetch(published.url)
    expect(revoked.status).toBe(404)
    expect(revoked.headers.get('cache-control')).toBe('no-store')
    const unknown = await fetch(`${server.url}/media/${newMediaToken()}.jpg`)
    expect(unknown.status).toBe(404)
    expect(await errorOf(revoked)).toEqual(await errorOf(unknown))
    const head = await fetch(published.url, { method: 'HEAD' })
    expect(head.status).toBe(404)
    // The file is gone too, and revoking twice finds nothing.
    await expect(server.deps.storage.get(publishedStorageKey(published.token))).rejects.toThrow()
    expect((await rejection(revokeMedia(deps(), userId, published.token))).code).toBe('NOT_FOUND')

    const republished = await publishMedia(deps(), userId, assetId, 'trendyol')
    expect(republished.url).not.toBe(published.url)
    expect((await fetch(republished.url)).status).toBe(200)
  })

  it('answers 404 for malformed media paths', async () => {
    const token = newMediaToken()
    for (const path of [
      `/media/${token}.png`,
      `/media/${token}`,
      '/media/short.jpg',
      `/media/${token}x.jpg`,
    ]) {
      const response = await fetch(`${server.url}${path}`, { redirect: 'manual' })
      expect(response.status, path).toBe(404)
      expect((await errorOf(response)).code).toBe('NOT_FOUND')
    }
  })

  it('refuses another user’s image, an unknown marketplace and a file that is neither an image nor a video', async () => {
    const { assetId } = await userWithImage()
    const stranger = await createUser(server.database.db)
    expect((await rejection(publishMedia(deps(), stranger, assetId, 'trendyol'))).code).toBe('NOT_FOUND')
    const { userId, assetId: own } = await userWithImage()
    expect((await rejection(publishMedia(deps(), userId, own, 'ebay'))).code).toBe('NOT_FOUND')
    const video = await storeAsset(
      { db: server.database.db, storage: server.deps.storage },
      {
        userId,
        kind: 'result',
        bytes: Buffer.from('not really a video'),
        mime: 'video/mp4',
        fileName: 'clip.mp4',
      },
    )
    expect((await rejection(publishMedia(deps(), userId, video.id, 'trendyol'))).code).toBe(
      'VALIDATION_FAILED',
    )
    expect(await server.database.db.select().from(publishedMedia)).toEqual([])
  })

  it('refuses before rendering anything when marketplaces could not fetch from the public origin', async () => {
    const { userId, assetId } = await userWithImage()
    const outsideTests = { ...server.config, env: 'production' as const, enableTestHooks: false }
    const cases = [
      ['http://vitrin.example.com', 'PUBLIC_URL_NOT_HTTPS'],
      ['https://localhost', 'PUBLIC_URL_LOOPBACK'],
      ['https://10.0.0.5', 'PUBLIC_URL_PRIVATE'],
      ['https://vitrin.local', 'PUBLIC_URL_NOT_PUBLIC_NAME'],
    ] as const
    for (const [publicUrl, code] of cases) {
      const error = await rejection(
        publishMedia(deps({ config: { ...outsideTests, publicUrl } }), userId, assetId, 'trendyol'),
      )
      expect(error.code).toBe(code)
      expect(error.status).toBe(409)
    }
    expect(
      await server.database.db.select().from(publishedMedia).where(eq(publishedMedia.assetId, assetId)),
    ).toEqual([])
    const published = await publishMedia(
      deps({ config: { ...outsideTests, publicUrl: 'https://vitrin.example.com' } }),
      userId,
      assetId,
      'trendyol',
    )
    expect(published.url).toBe(`https://vitrin.example.com/media/${published.token}.jpg`)
  })
})

describe('deleting the image a published one was rendered from', () => {
  it('stops serving it at once, and the sweep revokes it and removes its file', async () => {
    const userId = await createUser(server.database.db)
    const storageDeps = { db: server.database.db, storage: server.deps.storage }
    const upload = await storeAsset(storageDeps, {
      userId,
      kind: 'upload',
      bytes: photo,
      mime: 'image/jpeg',
      fileName: 'cup.jpg',
    })
    const kept = await userWithImage()
    const keptMedia = await publishMedia(deps(), kept.userId, kept.assetId, 'trendyol')
    const published = await publishMedia(deps(), userId, upload.id, 'trendyol')
    expect((await fetch(published.url)).status).toBe(200)

    await deleteUpload(storageDeps, userId, upload.id, silentLog)
    expect((await fetch(published.url)).status).toBe(404)
    expect(await sweepOrphanedMedia({ ...storageDeps, log: silentLog })).toBe(1)
    await expect(server.deps.storage.get(publishedStorageKey(published.token))).rejects.toThrow()
    const [row] = await server.database.db
      .select()
      .from(publishedMedia)
      .where(eq(publishedMedia.token, published.token))
    expect(row?.revokedAt).toBeInstanceOf(Date)
    expect(await sweepOrphanedMedia({ ...storageDeps, log: silentLog })).toBe(0)
    // Others' published images stay.
    expect((await fetch(keptMedia.url)).status).toBe(200)
  })
})

describe('deleting the account', () => {
  it('removes its published images with its other files, and their addresses answer 404', async () => {
    const client = createTestClient(server, { clientIp: nextClientIp() })
    const password = 'secret-pass-1'
    const email = `publisher-${newMediaToken()}@example.com`
    expect((await client.request('/api/auth/sign-up', { json: { email, password } })).status).toBe(201)
    const userId = (await (await client.request('/api/session')).json()).user.id as string
    const asset = await storeAsset(
      { db: server.database.db, storage: server.deps.storage },
      { userId, kind: 'result', bytes: photo, mime: 'image/jpeg', fileName: 'cup.jpg' },
    )
    const other = await userWithImage()
    const kept = await publishMedia(deps(), other.userId, other.assetId, 'trendyol')
    const published = await publishMedia(deps(), userId, asset.id, 'trendyol')
    const revoked = await publishMedia(deps(), userId, asset.id, 'hepsiburada')
    await revokeMedia(deps(), userId, revoked.token)
    expect((await fetch(published.url)).status).toBe(200)

    const deleted = await client.request('/api/account', { method: 'DELETE', json: { password } })
    expect(deleted.status).toBe(204)
    expect((await fetch(published.url)).status).toBe(404)
    await expect(server.deps.storage.get(publishedStorageKey(published.token))).rejects.toThrow()
    // Another account's published image is untouched.
    expect((await fetch(kept.url)).status).toBe(200)
  })
})

describe('the fake Trendyol downloading a published image', () => {
  let trendyol: TrendyolFake
  beforeAll(async () => {
    trendyol = await startTrendyolFake({ allowHttpImages: true })
  })
  afterAll(async () => {
    await trendyol.close()
  })

  const cupAttributes = trendyolCategoryAttributes.get(1111) ?? []
  function valueId(attributeName: string, value: string): number {
    const found = cupAttributes
      .find((a) => a.attribute.name === attributeName)
      ?.attributeValues.find((v) => v.name === value)
    if (!found) throw new Error(`no ${attributeName}=${value}`)
    return found.id
  }
  function cupItem(barcode: string, imageUrl: string): TrendyolProductItem {
    return {
      barcode,
      title: 'Kahve Fincan Takımı 6 Kişilik Porselen Beyaz',
      productMainId: `model-${barcode}`,
      brandId: 101,
      categoryId: 1111,
      quantity: 20,
      stockCode: `stk-${barcode}`,
      dimensionalWeight: 2,
      description: '<p>6 kişilik porselen kahve fincan takımı.</p>',
      currencyType: 'TRY',
      listPrice: 899.9,
      salePrice: 749.9,
      vatRate: 20,
      origin: 'TR',
      images: [{ url: imageUrl }],
      attributes: [
        { attributeId: 47, attributeValueId: valueId('Renk', 'Beyaz') },
        { attributeId: 14, attributeValueId: valueId('Materyal', 'Porselen') },
        { attributeId: 343, attributeValueId: valueId('Boyut/Ebat', 'Tek Ebat') },
        { attributeId: 711, attributeValueId: valueId('Parça Sayısı', '12') },
      ],
    }
  }

  it('accepts the image at its published address, and cannot fetch it once revoked', async () => {
    const { userId, assetId } = await userWithImage()
    const published = await publishMedia(deps(), userId, assetId, 'trendyol')
    const client = createTrendyolApi({ baseUrl: trendyol.apiBase, credentials: defaultTrendyolSeller })

    const accepted = await client.createProducts([cupItem('VTR-PUB-1', published.url)])
    await trendyol.idle()
    expect((await client.batchResult(accepted)).items).toEqual([
      { barcode: 'VTR-PUB-1', status: 'SUCCESS', failureReasons: [] },
    ])

    await revokeMedia(deps(), userId, published.token)
    const refused = await client.createProducts([cupItem('VTR-PUB-2', published.url)])
    await trendyol.idle()
    expect((await client.batchResult(refused)).items).toEqual([
      {
        barcode: 'VTR-PUB-2',
        status: 'FAILED',
        failureReasons: [trendyolFailureReasons.imageUnreachable(published.url, 404)],
      },
    ])
  })
})
