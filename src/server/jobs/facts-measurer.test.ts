import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { generations, imageFacts, imageFactsClaims } from '#server/db/schema/index.ts'
import { checkForMarketplace } from '#server/features/marketplaces/check-for-marketplace.service.ts'
import { claimUnmeasuredResult } from '#server/features/marketplaces/facts-claims.ts'
import { createInspections, createVideoSlots } from '#server/features/marketplaces/marketplaces.service.ts'
import type { TextReader } from '#server/features/marketplaces/read-text.ts'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { createScriptedProviders } from '#tests/support/fake-providers.ts'
import {
  createGeneration,
  signedInClient,
  upload,
  userIdOf,
  waitForStatus,
} from '#tests/support/generation-client.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import { startTestServer, type TestClient, type TestServer } from '#tests/support/test-server.ts'
import { type FactsMeasurerSettings, type FactsPass, startFactsMeasurer } from './facts-measurer.ts'
import type { Worker } from './worker.ts'

// The worker's facts measurer (decision 44): a new image result's facts (size, background, fill,
// text, fidelity) are measured after its job has settled, without anyone opening its check, so a
// check is rules only; a restart picks up results left unmeasured; and a measurement waits while
// every generation slot is taken. Real segmentation and OCR, counted where a test says "nothing
// was measured".

/** The process's segmenter, with its calls counted. */
function countingSegmenter() {
  const segmenter = sharedSegmenter()
  const counter = {
    calls: 0,
    segment: (...args: Parameters<typeof segmenter.segment>) => {
      counter.calls += 1
      return segmenter.segment(...args)
    },
  }
  return counter
}

describe('the facts measurer', () => {
  let server: TestServer
  let owner: TestClient
  let userId: string
  let photoId: string
  const workers: Worker[] = []

  beforeAll(async () => {
    server = await startTestServer({ GENERATIONS_PER_MINUTE: '1000', WORKER_MAX_RUNNING_PER_USER: '2' })
    owner = await signedInClient(server)
    userId = await userIdOf(owner)
    const uploaded = await upload(owner, await productPhoto({ width: 600, height: 600 }))
    expect(uploaded.status).toBe(201)
    photoId = ((await uploaded.json()) as { asset: { id: string } }).asset.id
  }, 60_000)
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()))
  })
  afterAll(async () => {
    await server?.close()
  })

  function startWorker(
    providers: ReturnType<typeof createScriptedProviders>['providers'],
    facts: Partial<FactsMeasurerSettings> | null,
    timeoutMs = 20_000,
  ): Worker {
    const worker = server.startWorker({
      providers,
      timeoutMs: { image: timeoutMs, video: timeoutMs, seo: timeoutMs },
      facts: facts
        ? { concurrency: 1, segmenter: sharedSegmenter(), textReader: server.deps.textReader, ...facts }
        : undefined,
    })
    workers.push(worker)
    return worker
  }

  async function makeImage(prompt: string, timeout = 20_000): Promise<GenerationView> {
    const response = await createGeneration(owner, { mode: 'image', imageAssetId: photoId, prompt })
    expect(response.status).toBe(202)
    const { generation } = (await response.json()) as { generation: GenerationView }
    const done = await waitForStatus(owner, generation.id, ['succeeded', 'failed'], timeout)
    expect(done.errorCode).toBeNull()
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

  /** Waits (by asking) until the file has its facts row. */
  async function factsArrive(assetId: string, timeout = 60_000) {
    await expect.poll(() => storedFacts(assetId), { timeout, interval: 100 }).not.toBeNull()
    return storedFacts(assetId)
  }

  it('measures a new result after its job, and its check then measures nothing', async () => {
    const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg', segmenter: sharedSegmenter() })
    const scripted = createScriptedProviders()
    const measuring = countingSegmenter()
    startWorker({ ...scripted.providers, image: studio }, { segmenter: measuring }, 120_000)
    const image = await makeImage('marble', 150_000)
    expect(image.status).toBe('succeeded')
    const assetId = await resultAssetId(image.id)
    // Nobody opens its check: the worker measures it on its own, after the job has settled.
    const facts = await factsArrive(assetId, 120_000)
    expect(measuring.calls).toBeGreaterThan(0)
    expect(facts).toMatchObject({ isGenerated: true })
    expect(facts?.product?.fillShare).toBeGreaterThan(0)
    // The product's fidelity to the seller's photo, and the text on the image, are measured too.
    expect(facts?.productFidelity).toBeDefined()
    expect(Array.isArray(facts?.text)).toBe(true)
    // The claim is gone once the facts are stored.
    expect(
      await server.database.db.select().from(imageFactsClaims).where(eq(imageFactsClaims.assetId, assetId)),
    ).toEqual([])

    // A check now reads the stored facts: no segmentation, no OCR, not even the file is read.
    const counts = { segments: 0, textReads: 0, fileReads: 0 }
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
    const segmenter = sharedSegmenter()
    const view = await checkForMarketplace(
      {
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
      },
      userId,
      { generationId: image.id, profile: 'amazon-tr', slot: 'main' },
    )
    expect(view.image?.facts).toEqual(facts)
    expect(view.image?.results.length).toBeGreaterThan(0)
    expect(counts).toEqual({ segments: 0, textReads: 0, fileReads: 0 })
  }, 300_000)

  it('picks up, after a restart, a result made while no measurer ran', async () => {
    const scripted = createScriptedProviders()
    const before = startWorker(scripted.providers, null)
    const image = await makeImage('linen')
    const assetId = await resultAssetId(image.id)
    await before.stop()
    expect(await storedFacts(assetId)).toBeNull()

    // The restarted worker finds it without being told (no job settles, nothing is checked).
    startWorker(scripted.providers, {})
    const facts = await factsArrive(assetId)
    expect(facts).toMatchObject({ width: 108, height: 108, isGenerated: true })
  }, 120_000)

  it('does not measure while every generation slot is taken, and measures once one frees', async () => {
    const scripted = createScriptedProviders()
    const before = startWorker(scripted.providers, null)
    const waiting = await makeImage('wood')
    const waitingAssetId = await resultAssetId(waiting.id)
    await before.stop()

    // Two jobs that hold both slots of the next worker until the test lets them finish.
    scripted.script.image.push({ queue: 'first' }, { queue: 'second' })
    const held: string[] = []
    for (const prompt of ['stone', 'paper']) {
      const response = await createGeneration(owner, { mode: 'image', imageAssetId: photoId, prompt })
      expect(response.status).toBe(202)
      held.push(((await response.json()) as { generation: GenerationView }).generation.id)
    }
    const passes: FactsPass[] = []
    const measuring = countingSegmenter()
    startWorker(scripted.providers, { segmenter: measuring, onPass: (pass) => passes.push(pass) })
    for (const id of held) await waitForStatus(owner, id, ['running'])
    // The measurer looked once the worker had claimed, and stood back.
    await expect.poll(() => passes, { timeout: 20_000, interval: 50 }).toContain('busy')
    expect(passes).not.toContain('measured')
    expect(measuring.calls).toBe(0)
    expect(await storedFacts(waitingAssetId)).toBeNull()

    // One job finishes: a slot is free, and the waiting result is measured.
    scripted.complete('first')
    await factsArrive(waitingAssetId)
    expect(measuring.calls).toBeGreaterThan(0)
    scripted.complete('second')
    for (const id of held) {
      expect((await waitForStatus(owner, id, ['succeeded', 'failed'])).status).toBe('succeeded')
      await factsArrive(await resultAssetId(id))
    }
  }, 180_000)

  it('lets one process at a time claim a result, and another once the claim has lapsed', async () => {
    const scripted = createScriptedProviders()
    const maker = startWorker(scripted.providers, null)
    const image = await makeImage('cork')
    const assetId = await resultAssetId(image.id)
    await maker.stop()
    const options = { leaseMs: 60_000, windowMs: 60 * 60_000, maxAttempts: 2 }
    const db = server.database.db
    const [first, second] = await Promise.all([
      claimUnmeasuredResult(db, { ...options, claimedBy: 'worker-a' }),
      claimUnmeasuredResult(db, { ...options, claimedBy: 'worker-b' }),
    ])
    const taken = [first, second].filter((claimed) => claimed?.asset.id === assetId)
    expect(taken).toHaveLength(1)
    expect(taken[0]).toMatchObject({ generationId: image.id, originalAssetId: photoId })

    // A claim whose lease ran out (its process stopped) is taken again, up to maxAttempts.
    await db.update(imageFactsClaims).set({ until: new Date(Date.now() - 1000) })
    const again = await claimUnmeasuredResult(db, { ...options, claimedBy: 'worker-c' })
    expect(again?.asset.id).toBe(assetId)
    const [claim] = await db.select().from(imageFactsClaims).where(eq(imageFactsClaims.assetId, assetId))
    expect(claim).toMatchObject({ claimedBy: 'worker-c', attempts: 2 })
    await db.update(imageFactsClaims).set({ until: new Date(Date.now() - 1000) })
    expect(await claimUnmeasuredResult(db, { ...options, claimedBy: 'worker-d' })).toBeNull()
    await db.delete(imageFactsClaims)
  }, 60_000)

  it('stops without waiting out a long measurement, giving its result back', async () => {
    const scripted = createScriptedProviders()
    const maker = startWorker(scripted.providers, null)
    const image = await makeImage('felt')
    const assetId = await resultAssetId(image.id)
    await maker.stop()
    // A segmenter that answers only when the test lets it: a measurement that outlasts the stop.
    let letGo = () => {}
    const gate = new Promise<void>((resolve) => {
      letGo = resolve
    })
    const segmenter = sharedSegmenter()
    let calls = 0
    const measurer = startFactsMeasurer(
      {
        db: server.database.db,
        storage: server.deps.storage,
        log: server.deps.logger,
        claimedBy: 'stopping',
      },
      {
        concurrency: 1,
        textReader: null,
        stopWaitMs: 200,
        segmenter: {
          segment: async (...args: Parameters<typeof segmenter.segment>) => {
            calls += 1
            await gate
            return segmenter.segment(...args)
          },
        },
      },
      () => true,
    )
    measurer.wake()
    await expect.poll(() => calls, { timeout: 20_000, interval: 50 }).toBeGreaterThan(0)
    // The oldest unmeasured result is the one taken (an earlier test may have left one older).
    const held = () =>
      server.database.db.select().from(imageFactsClaims).where(eq(imageFactsClaims.claimedBy, 'stopping'))
    const [claim] = await held()
    expect(claim).toBeDefined()
    await measurer.stop()
    expect(await held()).toEqual([])
    expect(await storedFacts(claim?.assetId ?? assetId)).toBeNull()
    // The measurement that was under way still ends, and stores its facts.
    letGo()
    await factsArrive(claim?.assetId ?? assetId)
  }, 60_000)
})
