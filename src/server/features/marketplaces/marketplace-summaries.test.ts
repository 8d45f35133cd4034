import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { generations, imageFacts } from '#server/db/schema/index.ts'
import type { Providers } from '#server/jobs/run-generation.ts'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type {
  MarketplaceCheckView,
  MarketplaceSummariesResponse,
  MarketplaceSummary,
} from '#shared/contracts/marketplaces.ts'
import {
  createGeneration,
  signedInClient,
  upload,
  userIdOf,
  waitForStatus,
} from '#tests/support/generation-client.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import {
  createTestClient,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'
import { summaryWork } from './check-for-marketplace.service.ts'

// The library cards' checklist summaries over HTTP (GET /api/marketplace/summaries), on results
// made by a real worker with the offline studio: the same counts a single check gives, a bounded
// amount of measuring per request, and only the asker's own finished results.

const seoCopy = {
  title: 'Anka El Yapımı Hakiki Deri Erkek Cüzdan İNCE Tasarım Hediye!',
  description: 'El yapımı hakiki deri cüzdan.',
  features: ['Hakiki deri'],
  keywords: ['cüzdan', 'deri'],
  model: 'scripted',
}

describe('marketplace summaries for library cards', () => {
  let server: TestServer
  let owner: TestClient
  let photoId: string

  const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg', segmenter: sharedSegmenter() })
  const providers: Providers = {
    image: studio,
    video: studio,
    seo: { name: 'offline', writeSeo: async () => seoCopy },
  }

  async function makeResult(client: TestClient, body: Record<string, unknown>): Promise<GenerationView> {
    const response = await createGeneration(client, body)
    expect(response.status).toBe(202)
    const { generation } = (await response.json()) as { generation: GenerationView }
    const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'], 90_000)
    expect(done.status).toBe('succeeded')
    return done
  }

  function summaries(client: TestClient, query: string) {
    return client.request(`/api/marketplace/summaries${query}`)
  }

  async function summariesOf(client: TestClient, profile: string, ids: string[]) {
    const response = await summaries(client, `?profile=${profile}&ids=${ids.join(',')}`)
    expect(response.status).toBe(200)
    return (await response.json()) as MarketplaceSummariesResponse
  }

  /** Whether an image result's facts are stored (it has been measured). */
  async function storedFacts(generation: GenerationView): Promise<boolean> {
    if (generation.result?.type !== 'image') throw new Error('expected an image result')
    const rows = await server.database.db
      .select()
      .from(imageFacts)
      .where(eq(imageFacts.assetId, generation.result.image.id))
    return rows.length > 0
  }

  async function checkSummary(id: string, profile: string): Promise<MarketplaceCheckView['summary']> {
    const response = await owner.request(`/api/generations/${id}/marketplace/${profile}?slot=main`)
    expect(response.status).toBe(200)
    return ((await response.json()) as MarketplaceCheckView).summary
  }

  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true', GENERATIONS_PER_MINUTE: '1000' }, { providers })
    owner = await signedInClient(server)
    const uploaded = await upload(owner, await productPhoto({ width: 600, height: 600 }))
    expect(uploaded.status).toBe(201)
    photoId = ((await uploaded.json()) as { asset: { id: string } }).asset.id
  }, 90_000)
  afterAll(async () => {
    await server?.close()
  })

  it('gives each result the counts its check gives, measuring one new image per request', async () => {
    const first = await makeResult(owner, { mode: 'image', imageAssetId: photoId, prompt: 'marble' })
    const second = await makeResult(owner, { mode: 'image', imageAssetId: photoId, prompt: 'linen' })
    const seo = await makeResult(owner, {
      mode: 'seo',
      imageAssetId: photoId,
      details: { name: 'Deri Cüzdan', brand: 'Anka' },
    })
    const converted = await owner.request(`/api/generations/${first.id}/video`, { json: { prompt: '' } })
    expect(converted.status).toBe(202)
    const { generation: queuedVideo } = (await converted.json()) as { generation: GenerationView }
    const video = await waitForStatus(owner, queuedVideo.id, ['succeeded', 'failed'], 120_000)
    expect(video.status).toBe('succeeded')

    const ids = [first.id, second.id, seo.id, video.id]
    expect(summaryWork.images).toBe(1)
    const segment = vi.spyOn(sharedSegmenter(), 'segment')
    try {
      const answer = await summariesOf(owner, 'trendyol', ids)
      expect(answer.profile).toBe('trendyol')
      // In the order asked; the second image waits: one new image is measured per request.
      expect(answer.summaries.map((s) => [s.generationId, s.status])).toEqual([
        [first.id, 'ready'],
        [second.id, 'pending'],
        [seo.id, 'ready'],
        [video.id, 'ready'],
      ])
      expect(await storedFacts(first)).toBe(true)
      expect(await storedFacts(second)).toBe(false)

      // Asked again for what was pending, it is measured now.
      const again = await summariesOf(owner, 'trendyol', [second.id])
      expect(again.summaries).toMatchObject([{ generationId: second.id, status: 'ready' }])
      expect(await storedFacts(second)).toBe(true)
      const segmentedSoFar = segment.mock.calls.length
      expect(segmentedSoFar).toBeGreaterThanOrEqual(2)

      // A whole page again: every image's facts are stored, so nothing more is measured.
      const stored = await summariesOf(owner, 'amazon-tr', ids)
      expect(stored.summaries.every((s) => s.status === 'ready')).toBe(true)
      expect(segment).toHaveBeenCalledTimes(segmentedSoFar)

      // The counts are the single check's, for each kind and profile.
      const byId = (list: readonly MarketplaceSummary[], id: string) =>
        list.find((s) => s.generationId === id)
      for (const [profile, list] of [
        ['trendyol', [...again.summaries, ...answer.summaries]],
        ['amazon-tr', stored.summaries],
      ] as const) {
        for (const id of ids) {
          const summary = byId(list, id)
          if (summary?.status !== 'ready') throw new Error(`expected a summary for ${id}`)
          expect(summary.summary).toEqual(await checkSummary(id, profile))
        }
      }
      // A 1080×1080 image is not Trendyol's 1200×1800; the copy's "!" fails Amazon.
      const firstSummary = byId(answer.summaries, first.id)
      expect(firstSummary?.status === 'ready' && firstSummary.summary.fail).toBeGreaterThanOrEqual(1)
      const seoSummary = byId(stored.summaries, seo.id)
      expect(seoSummary?.status === 'ready' && seoSummary.summary.fail).toBeGreaterThanOrEqual(1)
    } finally {
      segment.mockRestore()
    }
  }, 300_000)

  it("answers for the asker's own finished results only; others are absent", async () => {
    const mine = await makeResult(owner, {
      mode: 'seo',
      imageAssetId: photoId,
      details: { name: 'Cüzdan', brand: 'Anka' },
    })
    const stranger = await signedInClient(server)
    expect((await summariesOf(stranger, 'trendyol', [mine.id])).summaries).toEqual([])

    // Running with a lease no worker here takes over: not finished, so absent like a 409.
    const [running] = await server.database.db
      .insert(generations)
      .values({
        userId: await userIdOf(owner),
        tool: 'product',
        mode: 'image',
        aspectRatio: '1:1',
        provider: 'offline',
        status: 'running',
        lockedBy: 'another-worker',
        leaseUntil: new Date(Date.now() + 3_600_000),
      })
      .returning()
    if (!running) throw new Error('no row')
    const answer = await summariesOf(owner, 'n11', [crypto.randomUUID(), running.id, mine.id, mine.id])
    expect(answer.summaries.map((s) => [s.generationId, s.status])).toEqual([[mine.id, 'ready']])
  }, 120_000)

  it('validates the profile and the ids, and needs a session', async () => {
    const id = crypto.randomUUID()
    const tooMany = Array.from({ length: 21 }, () => crypto.randomUUID()).join(',')
    for (const query of [
      `?profile=trendyol`,
      `?profile=trendyol&ids=`,
      `?profile=trendyol&ids=not-an-id`,
      `?profile=trendyol&ids=${tooMany}`,
      `?profile=ebay&ids=${id}`,
      `?ids=${id}`,
    ]) {
      const response = await summaries(owner, query)
      expect(response.status, query).toBe(400)
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED')
    }
    const twenty = Array.from({ length: 20 }, () => crypto.randomUUID()).join(',')
    expect((await summaries(owner, `?profile=trendyol&ids=${twenty}`)).status).toBe(200)
    expect((await summaries(createTestClient(server), `?profile=trendyol&ids=${id}`)).status).toBe(401)
  })
})
