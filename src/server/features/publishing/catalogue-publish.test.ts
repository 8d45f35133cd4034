import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createSecretBox } from '#server/crypto/secret-box.ts'
import { publicationItems, publications } from '#server/db/schema/index.ts'
import { createNotifier } from '#server/events/notifier.ts'
import { webhookEvents } from '#server/features/webhooks/webhook-events.service.ts'
import type { Worker } from '#server/jobs/worker.ts'
import { createLogger } from '#server/logger.ts'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { createRateLimiter } from '#server/rate-limit/rate-limiter.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { BatchView, CatalogueImportView } from '#shared/contracts/catalogue.ts'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import type {
  CataloguePublishDraftResponse,
  FilledAttribute,
  PublicationView,
  PublishResponse,
  ResubmitResponse,
} from '#shared/contracts/publishing.ts'
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
import { csvOf, zipOf } from '#tests/support/catalogue-fixtures.ts'
import { signedInClient } from '#tests/support/generation-client.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import { startTestServer, type TestClient, type TestServer } from '#tests/support/test-server.ts'
import { claimDuePublication, type PublisherDeps } from './publications.service.ts'
import { stepPublication } from './step-publication.service.ts'

// A catalogue batch published over HTTP, made by the offline studio (real images and copy) and
// sent to the fake Trendyol and Hepsiburada seller APIs: drafted (what each row fills and lacks,
// what the batch is asked once), published with the answers and defaults, and followed until
// every product is live or rejected with the marketplace's words; a publisher stopped after its
// request went out leaves no second listing behind.

const header = [
  'Stok Kodu',
  'Ürün Adı',
  'Marka',
  'Kategori',
  'Renk',
  'Materyal',
  'Açıklama',
  'Görsel 1',
  'Barkod',
  'Fiyat',
  'Stok',
  'Desi',
  'Parça Sayısı',
]

/** A cup-set row the marketplaces take once the batch's questions are answered (no VAT column). */
function cupRow(index: number, overrides: Partial<Record<string, string>> = {}): string[] {
  const values: Record<string, string> = {
    'Stok Kodu': `FNC-${index}`,
    'Ürün Adı': `Porselen Kahve Fincan Takımı ${index}`,
    Marka: 'Paşabahçe',
    Kategori: 'Fincan Takımı',
    Renk: 'Beyaz',
    Materyal: 'Porselen',
    Açıklama: 'Altı kişilik porselen kahve fincan takımı.',
    'Görsel 1': `FNC-${index}.jpg`,
    Barkod: `VTR-B-${index}`,
    Fiyat: '749,90',
    Stok: '20',
    Desi: '2',
    // A column named like a category attribute fills it; the 50-row batch leaves it empty.
    'Parça Sayısı': '',
    ...overrides,
  }
  return header.map((name) => values[name] ?? '')
}

function form(field: string, bytes: Buffer, name: string): FormData {
  const body = new FormData()
  body.append(field, new Blob([new Uint8Array(bytes)]), name)
  return body
}

describe('publishing a catalogue batch (/api/publications/catalogue)', () => {
  let trendyol: TrendyolFake
  let hepsiburada: HepsiburadaFake
  let server: TestServer
  let seller: TestClient
  let batch: BatchView
  const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg', segmenter: sharedSegmenter() })
  let clock = Date.now()

  /** A started batch of these rows, made by the offline studio until finished. */
  async function finishedBatch(
    client: TestClient,
    rows: string[][],
    outputs: Record<string, unknown> = { studio: { prompt: 'beyaz stüdyo', aspectRatio: '1:1' }, seo: true },
  ): Promise<BatchView> {
    const imported = await client.request('/api/catalogue/imports', {
      method: 'POST',
      body: form('list', csvOf(rows, header), 'fincanlar.csv'),
    })
    expect(imported.status).toBe(201)
    const draft = (await imported.json()) as CatalogueImportView
    const photo = await productPhoto({ width: 600, height: 600 })
    const zip = await zipOf(rows.map((row) => ({ name: row[7] ?? '', data: photo, store: true })))
    const photos = await client.request(`/api/catalogue/batches/${draft.batch.id}/photos`, {
      method: 'POST',
      body: form('photos', zip, 'fotoğraflar.zip'),
    })
    expect(photos.status).toBe(200)
    const started = await client.request(`/api/catalogue/batches/${draft.batch.id}/start`, {
      json: { outputs },
    })
    expect(started.status).toBe(200)
    // The worker measures each result's facts for the marketplace checker once its job is done,
    // as in production, so publishing reads them instead of measuring 50 images in its request.
    let isMeasured = false
    const worker: Worker = server.startWorker({
      providers: { image: studio, video: studio, seo: studio },
      facts: {
        concurrency: 1,
        segmenter: sharedSegmenter(),
        textReader: null,
        pollMs: 200,
        onPass: (outcome) => {
          isMeasured = outcome === 'idle'
        },
      },
    })
    const view = async () =>
      (await (await client.request(`/api/catalogue/batches/${draft.batch.id}`)).json()) as BatchView
    try {
      // Read until finished (the batch is built once, before the tests, where expect.poll is not allowed).
      await vi.waitFor(async () => expect((await view()).batch.status).toBe('finished'), {
        timeout: 300_000,
        interval: 500,
      })
      isMeasured = false
      await vi.waitFor(() => expect(isMeasured).toBe(true), { timeout: 600_000, interval: 200 })
    } finally {
      await worker.stop()
    }
    return view()
  }

  async function connect(client: TestClient, marketplace: IntegrationMarketplace) {
    const put = await client.request(`/api/integrations/${marketplace}`, {
      method: 'PUT',
      json:
        marketplace === 'trendyol'
          ? {
              sellerId: defaultTrendyolSeller.sellerId,
              apiKey: defaultTrendyolSeller.apiKey,
              apiSecret: defaultTrendyolSeller.apiSecret,
            }
          : defaultHepsiburadaMerchant,
    })
    expect(put.status).toBe(200)
  }

  beforeAll(async () => {
    trendyol = await startTrendyolFake({ allowHttpImages: true })
    hepsiburada = await startHepsiburadaFake({ allowHttpImages: true })
    server = await startTestServer({
      TRUST_PROXY: 'true',
      GENERATIONS_PER_MINUTE: '10000',
      GENERATIONS_PER_MINUTE_PER_CLIENT: '10000',
      TRENDYOL_API_BASE: trendyol.apiBase,
      HEPSIBURADA_API_BASE: hepsiburada.url,
      // Reading the text on 50 images is the checker's slowest step and not what is tested here.
      MARKETPLACE_OCR: 'false',
    })
    seller = await signedInClient(server)
    await connect(seller, 'trendyol')
    await connect(seller, 'hepsiburada')
    batch = await finishedBatch(
      seller,
      Array.from({ length: 50 }, (_, i) => cupRow(i + 1)),
    )
  }, 1_200_000)

  beforeEach(async () => {
    trendyol.reset()
    trendyol.requests.length = 0
    hepsiburada.reset()
    await server.database.db.delete(publications)
  })

  afterAll(async () => {
    await server?.close()
    await trendyol?.close()
    await hepsiburada?.close()
  })

  /** The publisher as a worker runs it, stepped by hand on the test's clock. */
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

  /** Steps every due publication as `holder` until none is due at the test's clock. */
  async function runDue(deps: PublisherDeps, holder = 'publisher-a') {
    for (;;) {
      const claimed = await claimDuePublication(deps.db, holder, 60_000, deps.now())
      if (!claimed) return
      await stepPublication(deps, claimed)
      await trendyol.idle()
      await hepsiburada.idle()
    }
  }

  /** Runs the publisher, letting processing and review time pass, until every publication is final. */
  async function followToFinal(deps: PublisherDeps) {
    for (let round = 0; round < 6; round++) {
      await runDue(deps)
      trendyol.advance(trendyolFakeDefaults.approvalMs)
      hepsiburada.advance(hepsiburadaFakeDefaults.approvalMs)
      clock += 60_000
    }
    await runDue(deps)
  }

  async function draft(marketplace: IntegrationMarketplace, categoryId: string, batchId = batch.batch.id) {
    const response = await seller.request('/api/publications/catalogue/draft', {
      json: { marketplace, categoryId, batchId },
    })
    expect(response.status).toBe(200)
    return (await response.json()) as CataloguePublishDraftResponse
  }

  /** The seller's answer to an attribute question, by the attribute's and the value's names. */
  function answer(drafted: CataloguePublishDraftResponse, name: string, value: string): FilledAttribute {
    const attribute = drafted.attributes.find((a) => a.name === name)
    const allowed = attribute?.values.find((v) => v.name === value)
    if (!attribute || !allowed) throw new Error(`no ${name}=${value}`)
    return { attributeId: attribute.id, valueId: allowed.id, value, source: 'seller' }
  }

  async function publish(body: Record<string, unknown>): Promise<PublicationView[]> {
    const response = await seller.request('/api/publications/catalogue', { json: body })
    expect(response.status).toBe(202)
    // The publisher's clock from here: the app queued the publications at the real time.
    clock = Date.now()
    return ((await response.json()) as PublishResponse).publications
  }

  /** Fix and resubmit every rejected product of a publication, as the seller's one click does. */
  async function resubmitAll(publicationId: string, body: Record<string, unknown> = {}) {
    const response = await seller.request(`/api/publications/${publicationId}/resubmit`, {
      json: { itemIds: null, ...body },
    })
    expect(response.status).toBe(202)
    clock = Math.max(clock, Date.now())
    return (await response.json()) as ResubmitResponse
  }

  async function listed(batchId: string): Promise<PublicationView[]> {
    const response = await seller.request(`/api/publications?batchId=${batchId}`)
    expect(response.status).toBe(200)
    return ((await response.json()) as { publications: PublicationView[] }).publications
  }

  const countBy = (items: { status: string }[]) =>
    items.reduce<Record<string, number>>((counts, item) => {
      counts[item.status] = (counts[item.status] ?? 0) + 1
      return counts
    }, {})

  it('drafts the batch: each row filled from its columns, the rest asked once for all 50', async () => {
    const drafted = await draft('trendyol', '1111')
    expect(drafted.category.path.at(-1)).toBe('Fincan Takımı')
    expect(drafted.rows).toHaveLength(50)
    const name = (id: string) => drafted.attributes.find((a) => a.id === id)?.name
    // Nothing in the file says the size or the pieces: asked once, for every row.
    expect(drafted.questions.map(name).sort()).toEqual(['Boyut/Ebat', 'Parça Sayısı'])
    // No VAT column, and no file has the origin.
    expect(drafted.defaultsAsked).toEqual(['vatRate', 'origin'])
    const first = drafted.rows[0]
    expect(first).toMatchObject({ line: 2, sku: 'FNC-1', barcode: 'VTR-B-1', imageCount: 1, missing: [] })
    expect(first?.lacking.sort()).toEqual(['origin', 'vatRate'])
    const filled = Object.fromEntries((first?.filled ?? []).map((f) => [name(f.attributeId), f]))
    expect(filled.Renk).toMatchObject({ value: 'Beyaz', source: 'catalogue' })
    expect(filled.Materyal).toMatchObject({ value: 'Porselen', source: 'catalogue' })
    expect(first?.title).not.toBe('')

    // The seller's copy edit is the listing's title.
    const rowPath = `/api/catalogue/batches/${batch.batch.id}/rows/${batch.rows[0]?.id}/copy`
    const edit = {
      title: 'Paşabahçe Beyaz Porselen Kahve Fincan Takımı 6 Kişilik',
      description: 'Altı kişilik beyaz porselen Türk kahvesi fincan takımı.',
      features: ['Porselen', '6 kişilik', 'Bulaşık makinesinde yıkanır', 'Beyaz'],
      keywords: ['kahve fincanı', 'porselen fincan'],
    }
    expect((await seller.request(rowPath, { method: 'PUT', json: edit })).status).toBe(200)
    expect((await draft('trendyol', '1111')).rows[0]?.title).toBe(edit.title)
    expect((await seller.request(rowPath, { method: 'DELETE' })).status).toBe(200)
    expect((await draft('trendyol', '1111')).rows[0]?.title).toBe(first?.title)
  }, 600_000)

  it('publishes 50 rows to Trendyol: 47 live, 3 rejected with their reasons, each barcode listed once; the 3 fixed and resubmitted go live', async () => {
    const drafted = await draft('trendyol', '1111')
    trendyol.script({
      failItems: { 'VTR-B-7': [trendyolFailureReasons.titleTooLong(140)] },
      rejectOnce: {
        'VTR-B-21': [trendyolReviewReasons.imageBackground],
        'VTR-B-42': [trendyolReviewReasons.wrongCategory],
      },
    })
    const queued = await publish({
      marketplace: 'trendyol',
      categoryId: '1111',
      batchId: batch.batch.id,
      answers: [answer(drafted, 'Boyut/Ebat', 'Tek Ebat'), answer(drafted, 'Parça Sayısı', '12')],
      defaults: { vatRate: 20, origin: 'TR' },
    })
    expect(queued).toHaveLength(1)
    expect(queued[0]).toMatchObject({ catalogueBatchId: batch.batch.id, status: 'queued' })
    expect(queued[0]?.counts.queued).toBe(50)
    expect(queued[0]?.items.every((item) => item.catalogueRowId !== null)).toBe(true)

    await followToFinal(publisher())
    const [publication] = await listed(batch.batch.id)
    expect(publication?.status).toBe('done')
    expect(countBy(publication?.items ?? [])).toEqual({ live: 47, rejected: 3 })
    const reasons = Object.fromEntries(
      (publication?.items ?? []).filter((i) => i.status === 'rejected').map((i) => [i.barcode, i.reasons]),
    )
    expect(reasons).toEqual({
      'VTR-B-7': [trendyolFailureReasons.titleTooLong(140)],
      'VTR-B-21': ['Görsel: Ürün görseli beyaz fonda değil.'],
      'VTR-B-42': ['Hatalı Kategori: Ürün yanlış kategoride açılmış.'],
    })
    // The sent items carried the row's columns, the answers, the defaults and a public image.
    const create = trendyol.requests.find((r) => r.method === 'POST' && r.path.endsWith('/v2/products'))
    const items = ((create?.body ?? { items: [] }) as { items: Record<string, unknown>[] }).items
    expect(items).toHaveLength(50)
    expect(items[0]).toMatchObject({
      barcode: 'VTR-B-1',
      stockCode: 'FNC-1',
      salePrice: 749.9,
      quantity: 20,
      dimensionalWeight: 2,
      vatRate: 20,
      origin: 'TR',
    })
    expect(((items[0]?.images ?? []) as { url: string }[])[0]?.url).toMatch(
      /\/media\/[A-Za-z0-9_-]{32}\.jpg$/,
    )
    // Each barcode is one listing at the fake (the one its import refused is none), and its
    // write budget was never exceeded.
    const barcodes = [...trendyol.listings.keys()].map((key) => key.split(':')[1])
    expect(barcodes).toHaveLength(49)
    expect(new Set(barcodes).size).toBe(49)
    expect(barcodes).not.toContain('VTR-B-7')
    const writes = trendyol.writeStats()
    expect(writes.refused).toBe(0)
    expect(writes.maxInAnyWindow).toBeLessThanOrEqual(writes.limit)

    // Fix and resubmit all three: the title fitted, the others sent again once the seller has
    // done what the reviewers asked; the marketplace now takes each.
    trendyol.script({})
    const resubmitted = await resubmitAll(publication?.id ?? '')
    expect(resubmitted.publication).toMatchObject({
      resubmitOf: publication?.id,
      catalogueBatchId: batch.batch.id,
    })
    const applied = Object.fromEntries(resubmitted.applied.map((entry) => [entry.barcode, entry.fixes]))
    expect(Object.keys(applied).sort()).toEqual(['VTR-B-21', 'VTR-B-42', 'VTR-B-7'])
    expect(applied['VTR-B-7']).toContain('fit-title')
    await followToFinal(publisher())
    const again = (await listed(batch.batch.id)).find((p) => p.id === resubmitted.publication.id)
    expect(countBy(again?.items ?? [])).toEqual({ live: 3 })
    // Still one listing a barcode, now all 50, and the budget was kept.
    const after = [...trendyol.listings.keys()].map((key) => key.split(':')[1])
    expect(after).toHaveLength(50)
    expect(new Set(after).size).toBe(50)
    expect(trendyol.writeStats().refused).toBe(0)
  }, 900_000)

  it('publishes 50 rows to Hepsiburada: 47 live, 3 blocked at review with their reasons; the 3 resubmitted go live', async () => {
    const drafted = await draft('hepsiburada', '60001001')
    const name = (id: string) => drafted.attributes.find((a) => a.id === id)?.name
    expect(drafted.questions.map(name)).toEqual(['Kişi Sayısı'])
    expect(drafted.defaultsAsked).toEqual(['vatRate', 'warrantyMonths'])
    hepsiburada.script({
      block: {
        'FNC-3': [{ lockReason: 'ImageError' }],
        'FNC-30': [{ lockReason: 'ProductNameError' }],
        'FNC-33': ['Ürün açıklaması ürünle ilgili değil.'],
      },
    })
    await publish({
      marketplace: 'hepsiburada',
      categoryId: '60001001',
      batchId: batch.batch.id,
      answers: [answer(drafted, 'Kişi Sayısı', '6')],
      defaults: { vatRate: 20, warrantyMonths: 24 },
    })
    await followToFinal(publisher())
    const [publication] = await listed(batch.batch.id)
    expect(publication).toMatchObject({ marketplace: 'hepsiburada', status: 'done' })
    expect(countBy(publication?.items ?? [])).toEqual({ live: 47, rejected: 3 })
    const rejected = (publication?.items ?? []).filter((i) => i.status === 'rejected')
    expect(rejected.map((i) => i.barcode).sort()).toEqual(['VTR-B-3', 'VTR-B-30', 'VTR-B-33'])
    for (const item of rejected) expect(item.reasons.length).toBeGreaterThan(0)
    expect(new Set(rejected.map((i) => i.reasons.join()))).toHaveProperty('size', 3)
    // The row's columns went out as the item's own fields, the answer and colour as attributes.
    const product = [...hepsiburada.products.values()].find((p) => p.merchantSku === 'FNC-1')
    expect(product?.attributes).toMatchObject({
      Barcode: 'VTR-B-1',
      price: '749,90',
      stock: '20',
      tax_vat_rate: '20',
      GarantiSuresi: '24',
      kisi_sayisi: '6',
      renk_variant_property: 'Beyaz',
    })
    expect(product?.attributes.Image1).toMatch(/\/media\/[A-Za-z0-9_-]{32}\.jpg$/)
    const skus = [...hepsiburada.products.keys()].map((key) => key.split(':')[1])
    expect(skus).toHaveLength(50)
    expect(new Set(skus).size).toBe(50)
    const rate = hepsiburada.rateStats()
    expect(rate.refused).toBe(0)
    expect(rate.blockedIps).toEqual([])

    // The seller does what the reasons say (the fake's reviewers are satisfied) and resubmits all three.
    hepsiburada.script({})
    const resubmitted = await resubmitAll(publication?.id ?? '')
    expect(resubmitted.applied.map((entry) => entry.barcode).sort()).toEqual([
      'VTR-B-3',
      'VTR-B-30',
      'VTR-B-33',
    ])
    await followToFinal(publisher())
    const again = (await listed(batch.batch.id)).find((p) => p.id === resubmitted.publication.id)
    expect(countBy(again?.items ?? [])).toEqual({ live: 3 })
    const after = [...hepsiburada.products.keys()].map((key) => key.split(':')[1])
    expect(after).toHaveLength(50)
    expect(new Set(after).size).toBe(50)
  }, 900_000)

  it('sends each row’s video with its Hepsiburada listing', async () => {
    const withVideos = await finishedBatch(seller, [cupRow(101), cupRow(102)], {
      studio: { prompt: 'beyaz stüdyo', aspectRatio: '1:1' },
      video: { prompt: '' },
      seo: true,
    })
    const toTrendyol = await draft('trendyol', '1111', withVideos.batch.id)
    expect(toTrendyol.rows.map((row) => row.hasVideo)).toEqual([true, true])
    const drafted = await draft('hepsiburada', '60001001', withVideos.batch.id)
    expect(drafted.rows.map((row) => row.hasVideo)).toEqual([true, true])
    await publish({
      marketplace: 'hepsiburada',
      categoryId: '60001001',
      batchId: withVideos.batch.id,
      answers: [answer(drafted, 'Kişi Sayısı', '6')],
      defaults: { vatRate: 20, warrantyMonths: 24 },
    })
    await followToFinal(publisher())
    const [publication] = await listed(withVideos.batch.id)
    expect(countBy(publication?.items ?? [])).toEqual({ live: 2 })
    for (const sku of ['FNC-101', 'FNC-102']) {
      const product = [...hepsiburada.products.values()].find((p) => p.merchantSku === sku)
      // Downloaded by the fake as an MP4 before it took the item.
      expect(product?.attributes.Video1).toMatch(/\/media\/[A-Za-z0-9_-]{32}\.mp4$/)
    }
  }, 900_000)

  it('leaves no second listing when the publisher stops after its request went out', async () => {
    const drafted = await draft('trendyol', '1111')
    const [queued] = await publish({
      marketplace: 'trendyol',
      categoryId: '1111',
      batchId: batch.batch.id,
      answers: [answer(drafted, 'Boyut/Ebat', 'Tek Ebat'), answer(drafted, 'Parça Sayısı', '12')],
      defaults: { vatRate: 20, origin: 'TR' },
    })
    if (!queued) throw new Error('nothing queued')
    const deps = publisher()
    // The first publisher sends the batch and stops before it writes down what it sent.
    const claimed = await claimDuePublication(deps.db, 'stopped-publisher', 1000, deps.now())
    if (!claimed) throw new Error('nothing due')
    await stepPublication(deps, claimed)
    await trendyol.idle()
    await server.database.db
      .update(publications)
      .set({ status: 'sending', leaseOwner: 'stopped-publisher', leaseUntil: new Date(clock + 1000) })
      .where(eq(publications.id, queued.id))
    await server.database.db
      .update(publicationItems)
      .set({ status: 'queued', remoteId: null })
      .where(eq(publicationItems.publicationId, queued.id))
    // A new publisher takes it over once the stopped one's lease has run out.
    clock += 2000
    await followToFinal(deps)
    const [publication] = await listed(batch.batch.id)
    expect(countBy(publication?.items ?? [])).toEqual({ live: 50 })
    const writes = trendyol.requests.filter((r) => r.method === 'POST').map((r) => r.path.split('/').pop())
    expect(writes).toEqual(['products', 'unapproved-bulk-update'])
    const barcodes = [...trendyol.listings.keys()].map((key) => key.split(':')[1])
    expect(barcodes).toHaveLength(50)
    expect(new Set(barcodes).size).toBe(50)
    expect(trendyol.writeStats().refused).toBe(0)
  }, 600_000)

  it('holds back the rows that still lack something, and refuses what cannot be published', async () => {
    const small = await finishedBatch(seller, [
      cupRow(101, { Renk: '', 'Parça Sayısı': '12' }),
      cupRow(102, { Barkod: '', 'Parça Sayısı': '12' }),
      cupRow(103),
      cupRow(104, { 'Parça Sayısı': '12' }),
    ])
    // A product whose only image the seller left out in the review is not published.
    const left = small.rows[3]
    const excluded = await seller.request(
      `/api/catalogue/batches/${small.batch.id}/rows/${left?.id}/exclusions`,
      {
        method: 'PUT',
        json: { excluded: left?.outputs.filter((o) => o.mode === 'image').map((o) => o.generationId) },
      },
    )
    expect(excluded.status).toBe(200)
    const drafted = await draft('trendyol', '1111', small.batch.id)
    expect(drafted.rows.map((row) => row.sku)).toEqual(['FNC-101', 'FNC-102', 'FNC-103'])
    const byLine = (line: number) => drafted.rows.find((row) => row.line === line)
    const pieces = drafted.attributes.find((a) => a.name === 'Parça Sayısı')?.id
    const size = drafted.attributes.find((a) => a.name === 'Boyut/Ebat')?.id
    // Only the third row's file leaves the pieces out: its own, not the batch's question.
    expect(drafted.questions).toEqual([size])
    expect(byLine(4)?.missing).toEqual([pieces])
    expect(byLine(2)?.filled.find((f) => f.attributeId === pieces)).toMatchObject({
      value: '12',
      source: 'catalogue',
    })
    expect(byLine(3)?.lacking).toContain('barcode')
    // Where the file names no colour, the photo's colour is read (an amber bottle: not white).
    const colour = drafted.attributes.find((a) => a.name === 'Renk')?.id
    const photoColour = byLine(2)?.filled.find((f) => f.attributeId === colour)
    expect(photoColour).toMatchObject({ source: 'photo' })
    expect(photoColour?.value).not.toBe('Beyaz')
    expect(byLine(3)?.filled.find((f) => f.attributeId === colour)).toMatchObject({ source: 'catalogue' })
    const [publication] = await publish({
      marketplace: 'trendyol',
      categoryId: '1111',
      batchId: small.batch.id,
      answers: [answer(drafted, 'Boyut/Ebat', 'Tek Ebat')],
      defaults: { vatRate: 20, origin: 'TR' },
    })
    const items = Object.fromEntries((publication?.items ?? []).map((item) => [item.barcode, item]))
    expect(items['VTR-B-101']).toMatchObject({ status: 'queued', problems: [] })
    expect(items['']).toMatchObject({
      status: 'blocked',
      problems: [{ code: 'barcode-invalid', field: 'barcode' }],
    })
    expect(items['VTR-B-103']).toMatchObject({
      status: 'blocked',
      problems: [{ code: 'attribute-missing', field: `attributes.${pieces}` }],
    })

    // Every row left out, another seller's batch, a seller without a connection.
    const nothing = await seller.request('/api/publications/catalogue', {
      json: {
        marketplace: 'trendyol',
        categoryId: '1111',
        batchId: small.batch.id,
        excludedRowIds: small.rows.slice(0, 3).map((row) => row.id),
      },
    })
    expect(nothing.status).toBe(422)
    expect((await nothing.json()).error.code).toBe('CATALOGUE_NOTHING_TO_PUBLISH')
    const stranger = await signedInClient(server)
    const unconnected = await stranger.request('/api/publications/catalogue/draft', {
      json: { marketplace: 'trendyol', categoryId: '1111', batchId: small.batch.id },
    })
    expect(unconnected.status).toBe(409)
    expect((await unconnected.json()).error.code).toBe('MARKETPLACE_NOT_CONNECTED')
    await connect(stranger, 'trendyol')
    const others = await stranger.request('/api/publications/catalogue', {
      json: { marketplace: 'trendyol', categoryId: '1111', batchId: small.batch.id },
    })
    expect(others.status).toBe(404)
    // The batch filter shows only this batch's publications, and only to its owner.
    expect((await listed(small.batch.id)).map((p) => p.id)).toEqual([publication?.id])
    expect(await listed(batch.batch.id)).toEqual([])
    const foreign = await stranger.request(`/api/publications?batchId=${small.batch.id}`)
    expect(((await foreign.json()) as { publications: unknown[] }).publications).toEqual([])
  }, 900_000)
})
