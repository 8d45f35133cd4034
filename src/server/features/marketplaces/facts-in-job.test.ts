import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generations, imageFacts } from '#server/db/schema/index.ts'
import type { Providers } from '#server/jobs/run-generation.ts'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import {
  createGeneration,
  signedInClient,
  upload,
  userIdOf,
  waitForStatus,
} from '#tests/support/generation-client.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import { startTestServer, type TestClient, type TestServer } from '#tests/support/test-server.ts'
import { checkForMarketplace, createInspections, createVideoSlots } from './marketplaces.service.ts'
import type { TextReader } from './read-text.ts'

// The checker answers at once: a new image result's facts (size, background, fill, text,
// fidelity) are measured inside the generation job and stored, so opening a check applies rules
// only. Results from a real worker on the offline studio.

describe('image facts measured in the generation job', () => {
  let server: TestServer
  let owner: TestClient
  let userId: string
  let photoId: string

  const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg', segmenter: sharedSegmenter() })
  const providers: Providers = {
    image: studio,
    video: studio,
    seo: {
      name: 'offline',
      writeSeo: async () => ({ title: 't', description: 'd', features: [], keywords: [], model: 'x' }),
    },
  }

  async function makeImage(prompt: string): Promise<GenerationView> {
    const response = await createGeneration(owner, { mode: 'image', imageAssetId: photoId, prompt })
    expect(response.status).toBe(202)
    const { generation } = (await response.json()) as { generation: GenerationView }
    const done = await waitForStatus(owner, generation.id, ['succeeded', 'failed'], 200_000)
    expect(done.errorCode).toBeNull()
    expect(done.status).toBe('succeeded')
    return done
  }

  async function resultAssetId(generationId: string): Promise<string> {
    const [row] = await server.database.db
      .select({ result: generations.result })
      .from(generations)
      .where(eq(generations.id, generationId))
    if (row?.result?.type !== 'image') throw new Error('expected an image result')
    return row.result.assetId
  }

  async function storedFacts(assetId: string) {
    const rows = await server.database.db.select().from(imageFacts).where(eq(imageFacts.assetId, assetId))
    return rows[0]?.facts ?? null
  }

  /** Marketplace deps whose segmenter, text reader and storage reads are counted. */
  function countingDeps() {
    const counts = { segments: 0, textReads: 0, fileReads: 0 }
    const segmenter = sharedSegmenter()
    const storage: ObjectStorage = Object.assign(Object.create(server.deps.storage) as ObjectStorage, {
      get: (key: string) => {
        counts.fileReads += 1
        return server.deps.storage.get(key)
      },
    })
    const reader = server.deps.textReader
    const textReader: TextReader | null = reader && {
      read: (bytes: Buffer) => {
        counts.textReads += 1
        return reader.read(bytes)
      },
      close: () => Promise.resolve(),
    }
    const deps = {
      db: server.database.db,
      storage,
      segmenter: {
        segment: (...args: Parameters<typeof segmenter.segment>) => {
          counts.segments += 1
          return segmenter.segment(...args)
        },
      },
      textReader,
      ffmpegPath: 'ffmpeg',
      inspections: createInspections(),
      videoSlots: createVideoSlots(),
    }
    return { deps, counts }
  }

  beforeAll(async () => {
    // A loaded machine may take the offline studio's first image past the tests' usual 20 s.
    server = await startTestServer(
      { GENERATIONS_PER_MINUTE: '1000' },
      { providers, worker: { timeoutMs: { image: 90_000, video: 90_000, seo: 90_000 } } },
    )
    owner = await signedInClient(server)
    userId = await userIdOf(owner)
    const uploaded = await upload(owner, await productPhoto({ width: 600, height: 600 }))
    expect(uploaded.status).toBe(201)
    photoId = ((await uploaded.json()) as { asset: { id: string } }).asset.id
  }, 90_000)
  afterAll(async () => {
    await server?.close()
  })

  it('stores the facts of a new image result before the generation succeeds', async () => {
    const image = await makeImage('marble')
    const facts = await storedFacts(await resultAssetId(image.id))
    expect(facts).toMatchObject({ width: 1080, height: 1080, isGenerated: true })
    expect(facts?.product?.fillShare).toBeGreaterThan(0)
    // The product's fidelity to the seller's photo, and the text on the image, are measured too.
    expect(facts?.productFidelity).toBeDefined()
    expect(Array.isArray(facts?.text)).toBe(true)
  }, 240_000)

  it('answers a check from the stored facts without measuring anything', async () => {
    const image = await makeImage('wood')
    const { deps, counts } = countingDeps()
    const view = await checkForMarketplace(deps, userId, {
      generationId: image.id,
      profile: 'amazon-tr',
      slot: 'main',
    })
    expect(view.image?.facts).toEqual(await storedFacts(await resultAssetId(image.id)))
    expect(view.image?.results.length).toBeGreaterThan(0)
    expect(counts).toEqual({ segments: 0, textReads: 0, fileReads: 0 })
  }, 240_000)

  it('keeps the generation when measuring fails, and the check measures it then', async () => {
    await server.worker?.stop()
    const failing = { segment: () => Promise.reject(new Error('the model is down')) }
    const worker = server.startWorker({ segmenter: failing })
    try {
      const image = await makeImage('linen')
      const assetId = await resultAssetId(image.id)
      expect(await storedFacts(assetId)).toBeNull()
      const { deps, counts } = countingDeps()
      const view = await checkForMarketplace(deps, userId, {
        generationId: image.id,
        profile: 'amazon-tr',
        slot: 'main',
      })
      expect(counts.segments).toBeGreaterThan(0)
      expect(view.image?.facts).toMatchObject({ width: 1080, height: 1080 })
      expect(await storedFacts(assetId)).not.toBeNull()
    } finally {
      await worker.stop()
    }
  }, 240_000)
})
