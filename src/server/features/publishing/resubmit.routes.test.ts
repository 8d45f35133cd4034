import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSecretBox } from '#server/crypto/secret-box.ts'
import { publicationItems, publications } from '#server/db/schema/index.ts'
import { createNotifier } from '#server/events/notifier.ts'
import { webhookEvents } from '#server/features/webhooks/webhook-events.service.ts'
import { createLogger } from '#server/logger.ts'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { createRateLimiter } from '#server/rate-limit/rate-limiter.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { PublicationView, PublishResponse, ResubmitResponse } from '#shared/contracts/publishing.ts'
import { promotionalPhrasesIn } from '#shared/seo-facts.ts'
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
  trendyolFailureReasons,
  trendyolFakeDefaults,
  trendyolReviewReasons,
} from '#tests/fakes/trendyol-server.ts'
import { createGeneration, signedInClient, upload, waitForStatus } from '#tests/support/generation-client.ts'
import { cupAttribute, cupAttributes } from '#tests/support/publishing-fixtures.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import {
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'
import { claimDuePublication, type PublisherDeps } from './publications.service.ts'
import { stepPublication } from './step-publication.service.ts'

// Fix and resubmit over HTTP, against both marketplace fakes: products published from a studio
// result, refused for different reasons (the fakes' own checks, and rejections scripted through
// their control endpoints), sent again one row and then all rows with the seller's answers and
// Vitrin's own fixes, until every one is live; and each barcode once at the marketplace, even after
// a send that was cut off and made again.

describe('Fix and resubmit (/api/publications/:id/resubmit)', () => {
  let trendyol: TrendyolFake
  let hepsiburada: HepsiburadaFake
  let server: TestServer
  const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg', segmenter: sharedSegmenter() })
  let clock = Date.now()

  beforeAll(async () => {
    trendyol = await startTrendyolFake({ allowHttpImages: true, control: true })
    hepsiburada = await startHepsiburadaFake({ allowHttpImages: true, control: true })
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
    await control(trendyol.url, '/__control/reset')
    await control(hepsiburada.url, '/__control/reset')
  })
  afterAll(async () => {
    await server.close()
    await trendyol.close()
    await hepsiburada.close()
  })

  async function control(origin: string, path: string, body: unknown = {}, method = 'POST') {
    const response = await fetch(`${origin}${path}`, {
      method,
      ...(method === 'POST'
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : {}),
    })
    expect(response.status).toBe(200)
    return (await response.json()) as Record<string, unknown>
  }

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

  /** Every due step until the marketplace has decided: sent, read, reviewed after its approval time. */
  async function runToTheEnd(deps: PublisherDeps, fakeOrigin: string, approvalMs: number) {
    await runDue(deps)
    clock += 1000
    await runDue(deps)
    await control(fakeOrigin, '/__control/advance', { ms: approvalMs })
    clock += 60_000
    await runDue(deps)
  }

  async function generated(client: TestClient, body: Record<string, unknown>): Promise<GenerationView> {
    const response = await createGeneration(client, body)
    expect(response.status).toBe(202)
    const { generation } = (await response.json()) as { generation: GenerationView }
    return waitForStatus(client, generation.id, ['succeeded'], 60_000)
  }

  /** A seller connected to both fakes, with one image result and (unless told) its SEO copy. */
  async function seller(options: { withCopy?: boolean } = {}) {
    const client = await signedInClient(server)
    const trendyolPut = await client.request('/api/integrations/trendyol', {
      method: 'PUT',
      json: defaultTrendyolSeller,
    })
    expect(trendyolPut.status).toBe(200)
    const hepsiburadaPut = await client.request('/api/integrations/hepsiburada', {
      method: 'PUT',
      json: defaultHepsiburadaMerchant,
    })
    expect(hepsiburadaPut.status).toBe(200)
    const uploaded = await upload(client, await productPhoto({ width: 900, height: 900 }))
    const imageAssetId = ((await uploaded.json()) as { asset: { id: string } }).asset.id
    const image = await generated(client, { mode: 'image', imageAssetId })
    const writeCopy = () =>
      generated(client, {
        mode: 'seo',
        imageAssetId,
        details: { name: 'Kahve Fincan Takımı', brand: 'Paşabahçe', material: 'porselen', color: 'Beyaz' },
      })
    const copy = options.withCopy === false ? null : await writeCopy()
    return { client, image, copy, writeCopy }
  }

  async function read(client: TestClient, id: string): Promise<PublicationView> {
    const response = await client.request(`/api/publications/${id}`)
    expect(response.status).toBe(200)
    return ((await response.json()) as { publication: PublicationView }).publication
  }

  async function resubmit(client: TestClient, id: string, body: Record<string, unknown>) {
    const response = await client.request(`/api/publications/${id}/resubmit`, { json: body })
    expect(response.status).toBe(202)
    return (await response.json()) as ResubmitResponse
  }

  const byBarcode = (view: PublicationView) =>
    Object.fromEntries(view.items.map((item) => [item.barcode, item]))

  /** The publication found `sending` with its lease run out and nothing written of what was sent. */
  async function cutOffAfterSending(deps: PublisherDeps, id: string) {
    const claimed = await claimDuePublication(deps.db, 'stopped-holder', 1000, deps.now())
    expect(claimed?.id).toBe(id)
    if (!claimed) return
    await stepPublication(deps, claimed)
    await trendyol.idle()
    await hepsiburada.idle()
    await server.database.db
      .update(publications)
      .set({ status: 'sending', leaseOwner: 'stopped-holder', leaseUntil: new Date(clock + 1000) })
      .where(eq(publications.id, id))
    await server.database.db
      .update(publicationItems)
      .set({ status: 'queued', remoteId: null })
      .where(eq(publicationItems.publicationId, id))
    clock += 2000
  }

  const listing = (barcode: string, overrides: Record<string, unknown> = {}) => ({
    barcode,
    stockCode: `STK-${barcode}`,
    brand: 'Paşabahçe',
    salePrice: 749.9,
    listPrice: 899.9,
    stock: 20,
    vatRate: 20,
    desi: 2,
    origin: 'TR',
    warrantyMonths: 24,
    ...overrides,
  })

  const longTitle =
    `Atölye Kahve Fincan Takımı 6 Kişilik Porselen Beyaz ${'El Yapımı Sırlı '.repeat(6)}`.trim()

  it('on Trendyol: one row, then every refused row, fixed and sent again until live, each barcode once', async () => {
    const { client, image } = await seller()
    const tooLong = trendyolFailureReasons.titleTooLong(longTitle.length)
    await control(trendyol.url, '/__control/script', {
      script: {
        rejectOnce: {
          'VTR-C': [trendyolReviewReasons.forbiddenWords],
          'VTR-D': [trendyolReviewReasons.imageSize],
          'VTR-E': [{ rejectReason: 'Ürün Başlığı', rejectReasonDetail: tooLong }],
        },
      },
    })
    const withoutPieces = cupAttributes('seller').filter(
      (a) => a.attributeId !== cupAttribute('Parça Sayısı', '12').attributeId,
    )
    const products = [
      { barcode: 'VTR-A' },
      // The fake's own check refuses it: a required attribute is missing.
      { barcode: 'VTR-B', attributes: withoutPieces },
      { barcode: 'VTR-C', title: 'Kahve Fincan Takımı Porselen Ücretsiz Kargo İndirimli' },
      { barcode: 'VTR-D' },
      { barcode: 'VTR-E', title: longTitle },
    ].map((product) => ({
      imageGenerationIds: [image.id],
      listing: listing(product.barcode, product.title ? { title: product.title } : {}),
      attributes: product.attributes ?? cupAttributes('seller'),
    }))
    const published = await client.request('/api/publications', {
      json: { marketplace: 'trendyol', categoryId: '1111', products },
    })
    expect(published.status).toBe(202)
    const [first] = ((await published.json()) as PublishResponse).publications
    if (!first) throw new Error('no publication')
    clock = Date.now()
    const deps = publisher()
    await runToTheEnd(deps, trendyol.url, trendyolFakeDefaults.approvalMs)
    const refused = byBarcode(await read(client, first.id))
    expect(Object.fromEntries(Object.values(refused).map((item) => [item.barcode, item.status]))).toEqual({
      'VTR-A': 'live',
      'VTR-B': 'rejected',
      'VTR-C': 'rejected',
      'VTR-D': 'rejected',
      'VTR-E': 'rejected',
    })
    expect(refused['VTR-B']?.reasons).toEqual([trendyolFailureReasons.attributeRequired('Parça Sayısı')])
    const oldImage = trendyol.listings.get(`${defaultTrendyolSeller.sellerId}:VTR-D`)?.item.images

    // One row: the attribute form's answer.
    const pieces = cupAttribute('Parça Sayısı', '12', 'seller')
    const one = await resubmit(client, first.id, { itemIds: [refused['VTR-B']?.id], attributes: [pieces] })
    expect(one.publication).toMatchObject({ resubmitOf: first.id, catalogueBatchId: null, status: 'queued' })
    expect(one.publication.items).toEqual([
      expect.objectContaining({ barcode: 'VTR-B', status: 'queued', generationId: image.id }),
    ])
    expect(one.applied).toEqual([
      { itemId: refused['VTR-B']?.id, barcode: 'VTR-B', fixes: ['attribute-form'] },
    ])
    await runToTheEnd(deps, trendyol.url, trendyolFakeDefaults.approvalMs)
    expect(byBarcode(await read(client, one.publication.id))['VTR-B']?.status).toBe('live')

    // Every refused row (VTR-B again too: the marketplace has it live and leaves it so).
    const all = await resubmit(client, first.id, { itemIds: null, attributes: [pieces] })
    const fixes = Object.fromEntries(all.applied.map((entry) => [entry.barcode, entry.fixes]))
    expect(fixes).toEqual({
      'VTR-B': ['attribute-form'],
      'VTR-C': ['attribute-form', 'checker-fix'],
      'VTR-D': ['attribute-form', 're-export-images'],
      'VTR-E': ['attribute-form', 'fit-title'],
    })
    const queued = byBarcode(all.publication)
    expect(promotionalPhrasesIn(queued['VTR-C']?.title ?? 'hemen')).toEqual([])
    expect(queued['VTR-C']?.title).toBe('Kahve Fincan Takımı Porselen')
    expect(queued['VTR-E']?.title.length).toBeLessThanOrEqual(100)
    expect(longTitle.startsWith(queued['VTR-E']?.title ?? '-')).toBe(true)

    // The send is cut off once and made again: the marketplace updates what it has.
    await cutOffAfterSending(deps, all.publication.id)
    await runToTheEnd(deps, trendyol.url, trendyolFakeDefaults.approvalMs)
    const final = await read(client, all.publication.id)
    expect(final.status).toBe('done')
    expect(final.counts.live).toBe(4)

    // At the fake: five listings, one for each barcode, and none refused as a duplicate.
    expect(await control(trendyol.url, '/__control/stats', undefined, 'GET')).toMatchObject({ listings: 5 })
    const barcodes = [...trendyol.listings.values()].map((l) => l.barcode).sort()
    expect(barcodes).toEqual(['VTR-A', 'VTR-B', 'VTR-C', 'VTR-D', 'VTR-E'])
    const failures = [...trendyol.batches.values()].flatMap((b) => b.items.flatMap((i) => i.failureReasons))
    expect(failures.filter((reason) => reason.includes('kayıtlı bir ürününüz'))).toEqual([])
    const listed = (barcode: string) => trendyol.listings.get(`${defaultTrendyolSeller.sellerId}:${barcode}`)
    expect(String(listed('VTR-C')?.item.title)).toBe('Kahve Fincan Takımı Porselen')
    // The image was rendered again at a new address; the old one is no longer served.
    const newImage = listed('VTR-D')?.item.images as { url: string }[]
    const [oldUrl] = (oldImage as { url: string }[]).map((i) => i.url)
    expect(newImage[0]?.url).not.toBe(oldUrl)
    expect((await fetch(oldUrl ?? '')).status).toBe(404)
    expect((await fetch(newImage[0]?.url ?? '')).status).toBe(200)
  }, 240_000)

  it('on Hepsiburada: the missing attribute answered, the review’s reasons fixed, each barcode once', async () => {
    const { client, image } = await seller()
    await control(hepsiburada.url, '/__control/script', {
      script: {
        blockOnce: {
          'STK-HB-C': ['Ürün adında yasaklı ifade var: "ücretsiz kargo".'],
          'STK-HB-D': ['Görsel boyutu uygun değil (1200x1800 piksel olmalı).'],
        },
      },
    })
    const attributes = [
      { attributeId: 'materyal', valueId: 'Porselen', value: 'Porselen', source: 'details' },
      { attributeId: 'kisi_sayisi', valueId: '6', value: '6', source: 'seller' },
      { attributeId: 'renk_variant_property', valueId: 'Beyaz', value: 'Beyaz', source: 'photo' },
    ]
    const products = [
      { barcode: 'HB-A' },
      // Hepsiburada takes it but lacks a mandatory attribute: MISSING_INFO.
      { barcode: 'HB-B', attributes: attributes.filter((a) => a.attributeId !== 'kisi_sayisi') },
      { barcode: 'HB-C', title: 'Kahve Fincan Takımı Porselen Ücretsiz Kargo' },
      { barcode: 'HB-D' },
    ].map((product) => ({
      imageGenerationIds: [image.id],
      listing: listing(product.barcode, product.title ? { title: product.title } : {}),
      attributes: product.attributes ?? attributes,
    }))
    const published = await client.request('/api/publications', {
      json: { marketplace: 'hepsiburada', categoryId: '60001001', products },
    })
    expect(published.status).toBe(202)
    const [first] = ((await published.json()) as PublishResponse).publications
    if (!first) throw new Error('no publication')
    clock = Date.now()
    const deps = publisher()
    await runToTheEnd(deps, hepsiburada.url, hepsiburadaFakeDefaults.approvalMs)
    const refused = byBarcode(await read(client, first.id))
    expect(Object.fromEntries(Object.values(refused).map((item) => [item.barcode, item.status]))).toEqual({
      'HB-A': 'live',
      'HB-B': 'rejected',
      'HB-C': 'rejected',
      'HB-D': 'rejected',
    })

    const answer = { attributeId: 'kisi_sayisi', valueId: '6', value: '6', source: 'seller' }
    const one = await resubmit(client, first.id, { itemIds: [refused['HB-B']?.id], attributes: [answer] })
    expect(one.applied).toEqual([{ itemId: refused['HB-B']?.id, barcode: 'HB-B', fixes: ['attribute-form'] }])
    await runToTheEnd(deps, hepsiburada.url, hepsiburadaFakeDefaults.approvalMs)
    expect(byBarcode(await read(client, one.publication.id))['HB-B']?.status).toBe('live')

    // Hepsiburada knows a product by its stock code: a sent one cannot take another.
    const renamed = await client.request(`/api/publications/${first.id}/resubmit`, {
      json: { itemIds: [refused['HB-C']?.id], listing: { stockCode: 'STK-NEW' } },
    })
    expect(renamed.status).toBe(400)
    expect((await renamed.json()).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { fields: { 'listing.stockCode': 'invalid' } },
    })

    // The rest, with a listing correction for all of them (the stock, say).
    const all = await resubmit(client, first.id, {
      itemIds: [refused['HB-C']?.id, refused['HB-D']?.id],
      listing: { stock: 35 },
    })
    expect(Object.fromEntries(all.applied.map((entry) => [entry.barcode, entry.fixes]))).toEqual({
      'HB-C': ['edit-listing', 'checker-fix'],
      'HB-D': ['edit-listing', 're-export-images'],
    })
    await cutOffAfterSending(deps, all.publication.id)
    await runToTheEnd(deps, hepsiburada.url, hepsiburadaFakeDefaults.approvalMs)
    const final = await read(client, all.publication.id)
    expect(final.counts.live).toBe(2)

    expect(await control(hepsiburada.url, '/__control/stats', undefined, 'GET')).toMatchObject({
      products: 4,
    })
    const stored = [...hepsiburada.products.values()]
    expect(stored.map((p) => String(p.attributes.Barcode)).sort()).toEqual(['HB-A', 'HB-B', 'HB-C', 'HB-D'])
    const productC = stored.find((p) => p.attributes.Barcode === 'HB-C')
    expect(productC?.attributes.UrunAdi).toBe('Kahve Fincan Takımı Porselen')
    expect(productC?.attributes.stock).toBe('35')
  }, 240_000)

  it('sends blocked products again with the seller’s answer and the SEO copy, and refuses what is not refused', async () => {
    // No SEO copy yet: a product without its own title and description is held back.
    const { client, image, writeCopy } = await seller({ withCopy: false })
    const own = { title: 'Atölye Kahve Fincan Takımı', description: 'Altı kişilik porselen takım.' }
    const products = [
      listing('VTR-L', own),
      listing('VTR-O', { ...own, origin: null }),
      listing('VTR-T'),
    ].map((fields) => ({ imageGenerationIds: [image.id], listing: fields, attributes: cupAttributes() }))
    const published = await client.request('/api/publications', {
      json: { marketplace: 'trendyol', categoryId: '1111', products },
    })
    expect(published.status).toBe(202)
    const [first] = ((await published.json()) as PublishResponse).publications
    if (!first) throw new Error('no publication')
    clock = Date.now()
    const deps = publisher()
    await runToTheEnd(deps, trendyol.url, trendyolFakeDefaults.approvalMs)
    const sent = byBarcode(await read(client, first.id))
    expect(sent['VTR-L']?.status).toBe('live')
    expect(sent['VTR-O']).toMatchObject({ status: 'blocked', problems: [{ code: 'origin-missing' }] })
    expect(sent['VTR-T']?.status).toBe('blocked')
    expect(sent['VTR-T']?.problems.map((p) => p.code)).toEqual(['title-missing', 'description-missing'])

    const named = await client.request(`/api/publications/${first.id}/resubmit`, {
      json: { itemIds: [sent['VTR-L']?.id] },
    })
    expect(named.status).toBe(422)
    expect((await named.json()).error).toMatchObject({
      code: 'PUBLICATION_NOT_RESUBMITTABLE',
      details: { fields: { 'itemIds.0': 'invalid' } },
    })
    const notIn = await client.request(`/api/publications/${first.id}/resubmit`, {
      json: { itemIds: [sent['VTR-O']?.id, crypto.randomUUID()] },
    })
    expect(notIn.status).toBe(422)
    expect((await notIn.json()).error.details).toEqual({ fields: { 'itemIds.1': 'invalid' } })
    const stranger = await signedInClient(server)
    const other = await stranger.request(`/api/publications/${first.id}/resubmit`, { json: {} })
    expect(other.status).toBe(404)
    expect((await other.json()).error.code).toBe('NOT_FOUND')
    expect(await server.database.db.select().from(publications)).toHaveLength(1)

    // The copy written since; every held-back product sent again with the origin answered.
    const copy = await writeCopy()
    if (copy.result?.type !== 'seo') throw new Error('no copy')
    // The description cleared: the SEO copy's is taken, as when publishing.
    const again = await resubmit(client, first.id, {
      itemIds: null,
      listing: { origin: 'TR', description: null },
    })
    expect(Object.fromEntries(again.applied.map((entry) => [entry.barcode, entry.fixes]))).toEqual({
      'VTR-O': ['edit-listing'],
      'VTR-T': ['edit-listing', 'fit-title', 'fit-description'],
    })
    const queued = byBarcode(again.publication)
    expect(queued['VTR-O']).toMatchObject({ status: 'queued', title: own.title })
    const [stored] = await server.database.db
      .select()
      .from(publicationItems)
      .where(eq(publicationItems.id, queued['VTR-O']?.id ?? ''))
    expect(stored?.listing).toMatchObject({ origin: 'TR', description: copy.result.description })
    // The SEO result's title, fitted to Trendyol's 100 characters.
    expect(queued['VTR-T']?.status).toBe('queued')
    expect(queued['VTR-T']?.title).not.toBe('')
    expect(queued['VTR-T']?.title.length).toBeLessThanOrEqual(100)
    expect(copy.result.title.startsWith(queued['VTR-T']?.title ?? '-')).toBe(true)
    await runToTheEnd(deps, trendyol.url, trendyolFakeDefaults.approvalMs)
    expect((await read(client, again.publication.id)).counts.live).toBe(2)
    // Nothing in the new publication is refused: there is nothing to send again.
    const none = await client.request(`/api/publications/${again.publication.id}/resubmit`, { json: {} })
    expect(none.status).toBe(422)
    expect((await none.json()).error.details).toEqual({ fields: { itemIds: 'invalid' } })
  }, 180_000)
})
