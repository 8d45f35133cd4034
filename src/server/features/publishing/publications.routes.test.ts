import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSecretBox } from '#server/crypto/secret-box.ts'
import { createNotifier } from '#server/events/notifier.ts'
import { webhookEvents } from '#server/features/webhooks/webhook-events.service.ts'
import { createLogger } from '#server/logger.ts'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { createRateLimiter } from '#server/rate-limit/rate-limiter.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { PublicationView, PublishDraftResponse, PublishResponse } from '#shared/contracts/publishing.ts'
import {
  defaultHepsiburadaMerchant,
  type HepsiburadaFake,
  hepsiburadaFakeDefaults,
  startHepsiburadaFake,
} from '#tests/fakes/hepsiburada-server.ts'
import {
  defaultTrendyolSeller,
  startTrendyolFake,
  type TrendyolFake,
  trendyolFakeDefaults,
} from '#tests/fakes/trendyol-server.ts'
import { createGeneration, signedInClient, upload, waitForStatus } from '#tests/support/generation-client.ts'
import { cupAttributes } from '#tests/support/publishing-fixtures.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import {
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'
import { claimDuePublication, type PublisherDeps } from './publications.service.ts'
import { stepPublication } from './step-publication.service.ts'

// A studio result published to Trendyol over HTTP, on the offline studio, against the fake
// seller API: the image is checked, rendered in Trendyol's size at a public address the fake
// downloads, the copy comes from the SEO result, and the product is followed until it is live.

describe('publishing studio results (/api/publications)', () => {
  let trendyol: TrendyolFake
  let hepsiburada: HepsiburadaFake
  let server: TestServer
  const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg', segmenter: sharedSegmenter() })
  let clock = Date.now()

  beforeAll(async () => {
    trendyol = await startTrendyolFake({ allowHttpImages: true })
    hepsiburada = await startHepsiburadaFake({ allowHttpImages: true })
    server = await startTestServer(
      {
        TRUST_PROXY: 'true',
        GENERATIONS_PER_MINUTE: '1000',
        TRENDYOL_API_BASE: trendyol.apiBase,
        HEPSIBURADA_API_BASE: hepsiburada.url,
      },
      { providers: { image: studio, video: studio, seo: studio } },
    )
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    trendyol.reset()
    trendyol.requests.length = 0
    hepsiburada.reset()
  })
  afterAll(async () => {
    await server.close()
    await trendyol.close()
    await hepsiburada.close()
  })

  /** The publisher as a worker runs it, stepped by hand with the test's clock. */
  function publisher(): PublisherDeps {
    const now = () => new Date(clock)
    return {
      db: server.database.db,
      rateLimiter: createRateLimiter(server.database.db, now),
      connections: {
        db: server.database.db,
        box: createSecretBox(server.config.appSecret ?? '', 'marketplace-connections v1'),
        apis: { trendyol: trendyol.apiBase, hepsiburada: hepsiburada.url },
        log: createLogger({ level: 'silent' }),
      },
      log: createLogger({ level: 'silent' }),
      now,
      allowHttpImages: true,
      events: webhookEvents,
      pollMs: { processing: 1000, review: 60_000 },
      notifier: createNotifier(),
    }
  }

  async function runDue(deps: PublisherDeps) {
    for (;;) {
      const claimed = await claimDuePublication(deps.db, 'test', 60_000, deps.now())
      if (!claimed) return
      await stepPublication(deps, claimed)
      await trendyol.idle()
      await hepsiburada.idle()
    }
  }

  async function generated(client: TestClient, body: Record<string, unknown>): Promise<GenerationView> {
    const response = await createGeneration(client, body)
    expect(response.status).toBe(202)
    const { generation } = (await response.json()) as { generation: GenerationView }
    return waitForStatus(client, generation.id, ['succeeded'], 60_000)
  }

  /** An image result from the test photo and the video made from it (Create's "Make a video"). */
  async function imageWithVideo(client: TestClient) {
    const uploaded = await upload(client, await productPhoto({ width: 900, height: 900 }))
    const imageAssetId = ((await uploaded.json()) as { asset: { id: string } }).asset.id
    const image = await generated(client, { mode: 'image', imageAssetId })
    const started = await client.request(`/api/generations/${image.id}/video`, { json: { prompt: '' } })
    expect(started.status).toBe(202)
    const { generation } = (await started.json()) as { generation: GenerationView }
    return { image, video: await waitForStatus(client, generation.id, ['succeeded'], 120_000) }
  }

  async function connected(): Promise<TestClient> {
    const client = await signedInClient(server)
    const put = await client.request('/api/integrations/trendyol', {
      method: 'PUT',
      json: {
        sellerId: defaultTrendyolSeller.sellerId,
        apiKey: defaultTrendyolSeller.apiKey,
        apiSecret: defaultTrendyolSeller.apiSecret,
      },
    })
    expect(put.status).toBe(200)
    return client
  }

  const listing = {
    barcode: 'VTR-CUP-100',
    stockCode: 'FNC-100',
    brand: 'Paşabahçe',
    salePrice: 749.9,
    listPrice: 899.9,
    stock: 20,
    vatRate: 20,
    desi: 2,
    origin: 'TR',
  }

  it('publishes a studio result with its SEO copy and follows it until it is live', async () => {
    const client = await connected()
    const uploaded = await upload(client, await productPhoto({ width: 900, height: 900 }))
    const imageAssetId = ((await uploaded.json()) as { asset: { id: string } }).asset.id
    const image = await generated(client, { mode: 'image', imageAssetId })
    const copy = await generated(client, {
      mode: 'seo',
      imageAssetId,
      details: { name: 'Kahve Fincan Takımı', brand: 'Paşabahçe', material: 'porselen', color: 'Beyaz' },
    })

    const response = await client.request('/api/publications', {
      json: {
        marketplace: 'trendyol',
        categoryId: '1111',
        products: [
          {
            imageGenerationIds: [image.id],
            copyGenerationId: copy.id,
            listing,
            attributes: cupAttributes('seller'),
          },
        ],
      },
    })
    expect(response.status).toBe(202)
    const [started] = ((await response.json()) as PublishResponse).publications
    if (!started) throw new Error('no publication')
    expect(started).toMatchObject({ marketplace: 'trendyol', status: 'queued' })
    expect(started.items).toEqual([
      expect.objectContaining({ barcode: 'VTR-CUP-100', status: 'queued', problems: [] }),
    ])
    if (copy.result?.type !== 'seo') throw new Error('no copy')
    expect(copy.result.title.startsWith(started.items[0]?.title ?? '-')).toBe(true)

    // The publisher's clock from here (the app queued it at the real time).
    clock = Date.now()
    const deps = publisher()
    await runDue(deps)
    // The one create request carried the image at its public address, in Trendyol's size.
    const create = trendyol.requests.find((r) => r.method === 'POST' && r.path.endsWith('/v2/products'))
    const sent = ((create?.body ?? { items: [] }) as { items: { images: { url: string }[] }[] }).items[0]
    expect(sent?.images[0]?.url).toMatch(new RegExp(`^${server.url}/media/[A-Za-z0-9_-]{32}\\.jpg$`))
    clock += 1000
    await runDue(deps)
    trendyol.advance(trendyolFakeDefaults.approvalMs)
    clock += 60_000
    await runDue(deps)

    const read = await client.request(`/api/publications/${started.id}`)
    const { publication } = (await read.json()) as { publication: PublicationView }
    expect(publication.status).toBe('done')
    expect(publication.items[0]).toMatchObject({ status: 'live', reasons: [] })
    expect(publication.items[0]?.productUrl).toMatch(/^https:\/\//)
    expect(publication.counts.live).toBe(1)
    const listed = (await (await client.request('/api/publications')).json()) as {
      publications: PublicationView[]
    }
    expect(listed.publications.map((p) => p.id)).toEqual([started.id])
  }, 180_000)

  it('drafts the attributes: the seller’s facts first, the photo’s colour, and what is left to ask', async () => {
    const client = await connected()
    const uploaded = await upload(client, await productPhoto({ width: 900, height: 900 }))
    const imageAssetId = ((await uploaded.json()) as { asset: { id: string } }).asset.id
    const image = await generated(client, { mode: 'image', imageAssetId })
    const copy = await generated(client, {
      mode: 'seo',
      imageAssetId,
      details: { name: 'Kahve Fincan Takımı', brand: 'Paşabahçe', material: 'porselen', color: 'Beyaz' },
    })
    const draft = async (imageGenerationId: string, copyGenerationId: string | null) => {
      const response = await client.request('/api/publications/draft', {
        json: { marketplace: 'trendyol', categoryId: '1111', imageGenerationId, copyGenerationId },
      })
      expect(response.status).toBe(200)
      return (await response.json()) as PublishDraftResponse
    }
    const byName = (answer: PublishDraftResponse, name: string) => {
      const attribute = answer.attributes.find((a) => a.name === name)
      return answer.filled.find((f) => f.attributeId === attribute?.id)
    }
    // Without naming it, the copy is the newest SEO result made from the same photo.
    const withFacts = await draft(image.id, null)
    expect(withFacts.copy?.generationId).toBe(copy.id)
    expect(withFacts.category.path.at(-1)).toBe('Fincan Takımı')
    expect(withFacts.brand).toBe('Paşabahçe')
    expect(byName(withFacts, 'Renk')).toMatchObject({ value: 'Beyaz', source: 'details' })
    expect(byName(withFacts, 'Materyal')).toMatchObject({ value: 'Porselen', source: 'details' })
    // Nothing says how many pieces: asked, not guessed.
    const pieces = withFacts.attributes.find((a) => a.name === 'Parça Sayısı')
    expect(withFacts.missing).toContain(pieces?.id)

    // Another photo with no copy: the colour comes from the photo (an amber glass bottle).
    const other = await upload(client, await productPhoto({ width: 800, height: 800 }))
    const otherAssetId = ((await other.json()) as { asset: { id: string } }).asset.id
    const bare = await generated(client, { mode: 'image', imageAssetId: otherAssetId })
    const fromPhoto = await draft(bare.id, null)
    expect(fromPhoto.copy).toBeNull()
    expect(byName(fromPhoto, 'Renk')).toMatchObject({ source: 'photo' })
    expect(byName(fromPhoto, 'Renk')?.value).not.toBe('Beyaz')
  }, 180_000)

  it('sends the video made from the image with a Hepsiburada listing, as Video1', async () => {
    const client = await connected()
    const put = await client.request('/api/integrations/hepsiburada', {
      method: 'PUT',
      json: defaultHepsiburadaMerchant,
    })
    expect(put.status).toBe(200)
    const { image, video } = await imageWithVideo(client)

    // The draft offers the video made from this image.
    const drafted = await client.request('/api/publications/draft', {
      json: { marketplace: 'hepsiburada', categoryId: '60001001', imageGenerationId: image.id },
    })
    expect(((await drafted.json()) as PublishDraftResponse).video).toEqual({ generationId: video.id })

    const product = (barcode: string) => ({
      imageGenerationIds: [image.id],
      videoGenerationId: video.id,
      listing: {
        ...listing,
        barcode,
        stockCode: barcode,
        warrantyMonths: 24,
        title: 'Paşabahçe Kahve Fincan Takımı 6 Kişilik',
        description: 'Altı kişilik porselen kahve fincan takımı.',
      },
      attributes: [
        { attributeId: 'materyal', valueId: 'Porselen', value: 'Porselen', source: 'seller' },
        { attributeId: 'kisi_sayisi', valueId: '6', value: '6', source: 'seller' },
        { attributeId: 'renk_variant_property', valueId: 'Beyaz', value: 'Beyaz', source: 'seller' },
      ],
    })
    const response = await client.request('/api/publications', {
      json: { marketplace: 'hepsiburada', categoryId: '60001001', products: [product('VTR-VID-2')] },
    })
    expect(response.status).toBe(202)
    const [publication] = ((await response.json()) as PublishResponse).publications
    if (!publication) throw new Error('no publication')
    expect(publication.items[0]?.problems).toEqual([])
    clock = Date.now()
    const deps = publisher()
    for (let round = 0; round < 4; round++) {
      await runDue(deps)
      hepsiburada.advance(hepsiburadaFakeDefaults.approvalMs)
      clock += 60_000
    }
    await runDue(deps)
    const read = await client.request(`/api/publications/${publication.id}`)
    const { publication: done } = (await read.json()) as { publication: PublicationView }
    expect(done.items[0]).toMatchObject({ status: 'live', reasons: [] })
    // The import carried the video at its public address, which the fake downloaded as an MP4.
    const sent = [...hepsiburada.products.values()].find((p) => p.attributes.Barcode === 'VTR-VID-2')
    expect(sent?.attributes.Video1).toMatch(new RegExp(`^${server.url}/media/[A-Za-z0-9_-]{32}\\.mp4$`))
    const served = await fetch(String(sent?.attributes.Video1))
    expect(served.headers.get('content-type')).toBe('video/mp4')
    await served.arrayBuffer()
  }, 300_000)

  it('sends the video to Trendyol’s video service once the product is approved, and follows it', async () => {
    const client = await connected()
    const { image, video } = await imageWithVideo(client)
    const title = 'Paşabahçe Porselen Kahve Fincan Takımı 6 Kişilik Beyaz Yaldızlı Hediyelik'
    const response = await client.request('/api/publications', {
      json: {
        marketplace: 'trendyol',
        categoryId: '1111',
        products: [
          {
            imageGenerationIds: [image.id],
            videoGenerationId: video.id,
            listing: { ...listing, barcode: 'VTR-VID-T', title, description: 'Altı kişilik fincan takımı.' },
            attributes: cupAttributes('seller'),
          },
        ],
      },
    })
    expect(response.status).toBe(202)
    const [publication] = ((await response.json()) as PublishResponse).publications
    if (!publication) throw new Error('no publication')
    const read = async () => {
      const answer = await client.request(`/api/publications/${publication.id}`)
      return ((await answer.json()) as { publication: PublicationView }).publication
    }
    clock = Date.now()
    const deps = publisher()
    await runDue(deps)
    clock += 1000
    await runDue(deps)
    // Nothing goes to the video service before the product is approved: it has no content id yet.
    expect(trendyol.videos.size).toBe(0)
    trendyol.advance(trendyolFakeDefaults.approvalMs)
    clock += 60_000
    await runDue(deps)
    // Live, and its video created from its public address for the product's content id.
    const [created] = [...trendyol.videos.values()]
    const listed = trendyol.listings.get(`${defaultTrendyolSeller.sellerId}:VTR-VID-T`)
    expect(created?.productContentIds).toEqual([String(listed?.contentId)])
    expect(created?.videoUrl).toMatch(new RegExp(`^${server.url}/media/[A-Za-z0-9_-]{32}\\.mp4$`))
    // Trendyol's title is 3–50 characters: the listing's title fitted at a word.
    expect(created?.title).toBe('Paşabahçe Porselen Kahve Fincan Takımı 6 Kişilik')
    await trendyol.idle()
    expect((await read()).items[0]).toMatchObject({ status: 'live', video: { status: 'processing' } })
    expect((await read()).status).toBe('reviewing')
    // Processed and approved on the fake's clock: the video is on the product, and the
    // publication is done.
    trendyol.advance(trendyolFakeDefaults.approvalMs)
    clock += 60_000
    await runDue(deps)
    const done = await read()
    expect(done.items[0]).toMatchObject({ status: 'live', video: { status: 'live', reasons: [] } })
    expect(done.status).toBe('done')
    expect(trendyol.videos.size).toBe(1)
  }, 300_000)

  it('refuses without a connection, and for results that are not the seller’s own finished images', async () => {
    const stranger = await signedInClient(server)
    const body = (ids: string[]) => ({
      marketplace: 'trendyol',
      categoryId: '1111',
      products: [{ imageGenerationIds: ids, listing, attributes: [] }],
    })
    const notConnected = await stranger.request('/api/publications', { json: body([crypto.randomUUID()]) })
    expect(notConnected.status).toBe(409)
    expect((await notConnected.json()).error.code).toBe('MARKETPLACE_NOT_CONNECTED')

    const client = await connected()
    const unknown = await client.request('/api/publications', { json: body([crypto.randomUUID()]) })
    expect(unknown.status).toBe(404)
    const uploaded = await upload(client, await productPhoto({ width: 600, height: 600 }))
    const imageAssetId = ((await uploaded.json()) as { asset: { id: string } }).asset.id
    const copy = await generated(client, { mode: 'seo', imageAssetId, details: { name: 'Fincan' } })
    const notImage = await client.request('/api/publications', { json: body([copy.id]) })
    expect(notImage.status).toBe(400)
    expect((await notImage.json()).error.code).toBe('VALIDATION_FAILED')
    const badListing = await client.request('/api/publications', {
      json: {
        ...body([copy.id]),
        products: [{ imageGenerationIds: [copy.id], listing: { ...listing, vatRate: 18 } }],
      },
    })
    expect(badListing.status).toBe(400)
    // Nothing was sent anywhere.
    expect(trendyol.requests.filter((r) => r.method === 'POST')).toHaveLength(0)
    expect(await (await client.request('/api/publications/not-an-id')).json()).toMatchObject({
      error: { code: 'NOT_FOUND' },
    })
  }, 120_000)
})
