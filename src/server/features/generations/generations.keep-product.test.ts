import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createLogger } from '#server/logger.ts'
import { createProviders } from '#server/providers/index.ts'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { type FalFake, startFalFake } from '#tests/fakes/fal-server.ts'
import {
  createGeneration,
  signedInClient,
  upload,
  usage,
  waitForStatus,
} from '#tests/support/generation-client.ts'
import { productPhoto, subjectlessPhoto } from '#tests/support/test-photos.ts'
import {
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'
import { buildProductLayer, containPlacement, findProductMask } from './keep-product.ts'

// "Keep my product exactly" through the whole job: the request, the row, the worker's composite
// on the provider's scene, the stored file and the view. The product is found by the real
// segmentation model, as in production.

async function uploadBytes(client: TestClient, bytes: Buffer): Promise<string> {
  const response = await upload(client, bytes)
  expect(response.status).toBe(201)
  return ((await response.json()) as { asset: { id: string } }).asset.id
}

async function fileBytes(client: TestClient, url: string): Promise<{ bytes: Buffer; type: string | null }> {
  const response = await client.request(url)
  expect(response.status).toBe(200)
  return { bytes: Buffer.from(await response.arrayBuffer()), type: response.headers.get('content-type') }
}

async function rawOf(bytes: Buffer) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height }
}

async function generate(client: TestClient, body: Record<string, unknown>): Promise<GenerationView> {
  const response = await createGeneration(client, body)
  expect(response.status).toBe(202)
  const { generation } = (await response.json()) as { generation: GenerationView }
  expect(generation.keepProduct).toBe(body.keepProduct === true)
  const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'], 60_000)
  expect([done.status, done.errorCode]).toEqual(['succeeded', null])
  return done
}

describe('keep my product exactly, on fal (the fake)', () => {
  let fal: FalFake
  let server: TestServer

  beforeAll(async () => {
    fal = await startFalFake()
    const env = {
      TRUST_PROXY: 'true',
      IMAGE_PROVIDER: 'fal',
      VIDEO_PROVIDER: 'fal',
      FAL_KEY: 'server-fal-key-0001',
      FAL_BASE_URL: fal.url,
      GENERATIONS_PER_MINUTE: '1000',
    }
    const probe = await startTestServer(env)
    const providers = await createProviders(probe.config.providers, {
      segmenter: sharedSegmenter(),
      logger: createLogger({ level: 'silent' }),
      tuning: { fal: { pollIntervalMs: 20, retry: { baseDelay: 1, maxDelay: 5, backoffMultiplier: 0 } } },
    })
    await probe.close()
    server = await startTestServer(env, { providers })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    fal.script({})
  })
  afterAll(async () => {
    await server.close()
    await fal.close()
  })

  it("stores the scene with the original's product pixels, bit for bit inside the mask", async () => {
    const client = await signedInClient(server)
    const imageAssetId = await uploadBytes(client, await productPhoto({ width: 1080, height: 1080 }))
    const done = await generate(client, { mode: 'image', imageAssetId, keepProduct: true })
    if (done.result?.type !== 'image' || !done.input) throw new Error('expected an image result')
    expect(done.keepProduct).toBe(true)
    expect(done.result.productKept).toBe(true)

    const stored = await fileBytes(client, done.result.image.url)
    expect(stored.type).toBe('image/png')
    const original = (await fileBytes(client, done.input.url)).bytes
    const [result, source] = await Promise.all([rawOf(stored.bytes), rawOf(original)])
    expect([result.width, result.height]).toEqual([1080, 1080])

    // The photo is the frame's own size: the product goes back at scale 1, where it was.
    const frame = { width: 1080, height: 1080 }
    const mask = await findProductMask(original, sharedSegmenter())
    if (!mask) throw new Error('the model should find the bottle')
    const layer = await buildProductLayer(original, mask, containPlacement(frame, frame), frame)
    if (!layer) throw new Error('expected a layer')
    let solid = 0
    let differing = 0
    for (let i = 0; i < layer.alpha.length; i++) {
      if (layer.alpha[i] !== 255) continue
      solid++
      if (result.data.compare(source.data, i * 3, i * 3 + 3, i * 3, i * 3 + 3) !== 0) differing++
    }
    expect(solid).toBeGreaterThan(1080 * 1080 * 0.05)
    expect(differing).toBe(0)
    // Outside the product it is fal's scene (the fake's gradient), not the seller's backdrop.
    const [r, g, b] = [...result.data.subarray(0, 3)]
    const [or, og, ob] = [...source.data.subarray(0, 3)]
    expect(
      Math.abs((r as number) - (or as number)) +
        Math.abs((g as number) - (og as number)) +
        Math.abs((b as number) - (ob as number)),
    ).toBeGreaterThan(20)
  }, 90_000)

  it('keeps the scene as made, and says so, when the photo shows no product', async () => {
    const client = await signedInClient(server)
    const imageAssetId = await uploadBytes(client, await subjectlessPhoto())
    const done = await generate(client, { mode: 'image', imageAssetId, keepProduct: true })
    if (done.result?.type !== 'image') throw new Error('expected an image result')
    expect(done.result.productKept).toBe(false)
    expect((await fileBytes(client, done.result.image.url)).type).toBe('image/jpeg')
    expect((await usage(client)).images.used).toBe(1)
  }, 90_000)

  it('is off unless asked for, and then the result says nothing about it', async () => {
    const client = await signedInClient(server)
    const imageAssetId = await uploadBytes(client, await productPhoto({ width: 600, height: 600 }))
    const done = await generate(client, { mode: 'image', imageAssetId })
    if (done.result?.type !== 'image') throw new Error('expected an image result')
    expect(done.keepProduct).toBe(false)
    expect(done.result.productKept).toBeUndefined()
    expect((await fileBytes(client, done.result.image.url)).type).toBe('image/jpeg')
  }, 90_000)

  it('refuses it for videos, SEO copy and the fashion tool, holding no quota', async () => {
    const client = await signedInClient(server)
    const imageAssetId = await uploadBytes(client, await productPhoto({ width: 600, height: 600 }))
    for (const body of [
      { mode: 'video', imageAssetId, keepProduct: true },
      { mode: 'seo', imageAssetId, keepProduct: true },
      { tool: 'fashion', mode: 'image', imageAssetId, keepProduct: true },
    ]) {
      const response = await createGeneration(client, body)
      expect(response.status).toBe(400)
      const { error } = (await response.json()) as {
        error: { code: string; details?: { fields?: Record<string, string> } }
      }
      expect(error.code).toBe('VALIDATION_FAILED')
      expect(error.details?.fields).toEqual({ keepProduct: 'invalid' })
    }
    // Not a boolean: refused by the schema.
    const wrong = await createGeneration(client, { mode: 'image', imageAssetId, keepProduct: 'yes' })
    expect(wrong.status).toBe(400)
    const quota = await usage(client)
    expect([quota.images.used, quota.videos.used]).toEqual([0, 0])
    // Switched off, the same requests are fine.
    expect(
      (
        await createGeneration(client, {
          mode: 'seo',
          imageAssetId,
          keepProduct: false,
          details: { name: 'Fincan' },
        })
      ).status,
    ).toBe(202)
  }, 60_000)
})

describe('keep my product exactly, on the offline studio', () => {
  let server: TestServer
  const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg', segmenter: sharedSegmenter() })

  beforeAll(async () => {
    server = await startTestServer(
      { TRUST_PROXY: 'true', GENERATIONS_PER_MINUTE: '1000' },
      { providers: { image: studio, video: studio, seo: studio } },
    )
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
  })
  afterAll(async () => {
    await server.close()
  })

  it('lays the original exactly where the studio placed its cut-out (no second product)', async () => {
    const client = await signedInClient(server)
    const imageAssetId = await uploadBytes(client, await productPhoto({ width: 900, height: 900 }))
    const body = { mode: 'image', imageAssetId, prompt: 'marble countertop' }
    const [plain, kept] = [
      await generate(client, body),
      await generate(client, { ...body, keepProduct: true }),
    ]
    if (plain.result?.type !== 'image' || kept.result?.type !== 'image') throw new Error('expected images')
    expect(kept.result.productKept).toBe(true)
    const [a, b] = await Promise.all([
      fileBytes(client, plain.result.image.url).then((file) => rawOf(file.bytes)),
      fileBytes(client, kept.result.image.url).then((file) => rawOf(file.bytes)),
    ])
    expect([b.width, b.height]).toEqual([a.width, a.height])
    // The same product at the same place and size: the two differ only by the cut-out's
    // softer edge, the shadow and JPEG noise. Placed anywhere else, the product would show twice.
    let total = 0
    let far = 0
    for (let i = 0; i < a.data.length; i++) {
      const d = Math.abs((a.data[i] as number) - (b.data[i] as number))
      total += d
      if (d > 60) far++
    }
    expect(total / a.data.length).toBeLessThan(4)
    expect(far / a.data.length).toBeLessThan(0.01)
  }, 120_000)
})
