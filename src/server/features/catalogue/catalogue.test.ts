import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq, inArray } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { assets, catalogueBatches, catalogueRows, generations } from '#server/db/schema/index.ts'
import { deleteUnusedUploads } from '#server/features/assets/assets.service.ts'
import { setPeriodUsage } from '#server/features/quota/usage.service.ts'
import type { Worker } from '#server/jobs/worker.ts'
import type { BatchView, CatalogueImportView } from '#shared/contracts/catalogue.ts'
import type { ErrorBody } from '#shared/errors.ts'
import {
  binaryRenamedCsv,
  csvOf,
  productRow,
  trendyolTemplateXlsx,
  turkishExcelCsv,
  xlsxBomb,
  zipOf,
} from '#tests/support/catalogue-fixtures.ts'
import { createScriptedProviders, makeJpeg } from '#tests/support/fake-providers.ts'
import {
  signedInClient,
  uploadPhoto,
  usage,
  userIdOf,
  waitForStatus,
} from '#tests/support/generation-client.ts'
import { startTestServer, type TestClient, type TestServer } from '#tests/support/test-server.ts'
import { type Unzipped, unzip } from '#tests/support/unzip.ts'
import { draftRetentionDays, sweepStaleDrafts } from './catalogue.service.ts'

// The catalogue through the real app over HTTP: a list in, its photos checked and stored, a
// batch started with the quota for all of it, run on the queue, canceled and retried.

let server: TestServer
let fake: ReturnType<typeof createScriptedProviders>
let imageHost: Server
let imageOrigin: string
const workers: Worker[] = []

function form(field: string, bytes: Buffer, name: string): FormData {
  const body = new FormData()
  body.append(field, new Blob([new Uint8Array(bytes)]), name)
  return body
}

async function importList(client: TestClient, bytes: Buffer, name = 'ürünler.csv') {
  const response = await client.request('/api/catalogue/imports', {
    method: 'POST',
    body: form('list', bytes, name),
  })
  return { response, view: (await response.clone().json()) as CatalogueImportView }
}

async function sendPhotos(client: TestClient, batchId: string, zip: Buffer | null) {
  const response = await client.request(`/api/catalogue/batches/${batchId}/photos`, {
    method: 'POST',
    ...(zip ? { body: form('photos', zip, 'fotoğraflar.zip') } : {}),
  })
  return { response, view: (await response.clone().json()) as CatalogueImportView }
}

async function start(client: TestClient, batchId: string, body: Record<string, unknown>) {
  const response = await client.request(`/api/catalogue/batches/${batchId}/start`, { json: body })
  return { response, view: (await response.clone().json()) as BatchView }
}

async function batchView(client: TestClient, batchId: string): Promise<BatchView> {
  return (await (await client.request(`/api/catalogue/batches/${batchId}`)).json()) as BatchView
}

/** A draft of `count` products whose photos are real JPEGs in a ZIP, photos checked. */
async function readyDraft(client: TestClient, count: number): Promise<CatalogueImportView> {
  const rows = Array.from({ length: count }, (_, i) => productRow(i + 1))
  const { view } = await importList(client, csvOf(rows))
  const photo = await makeJpeg(80, 60)
  const zip = await zipOf(rows.map((_, i) => ({ name: `SKU-${i + 1}.jpg`, data: photo, store: true })))
  const checked = await sendPhotos(client, view.batch.id, zip)
  expect(checked.response.status).toBe(200)
  return checked.view
}

function runWorker(): Worker {
  const worker = server.startWorker({ providers: fake.providers })
  workers.push(worker)
  return worker
}

describe('catalogue', () => {
  beforeAll(async () => {
    const jpeg = await makeJpeg(90, 90)
    imageHost = createServer((request, response) => {
      if (request.url === '/cup.jpg') {
        response.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg)
      } else if (request.url === '/page.html') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>')
      } else response.writeHead(404).end()
    })
    await new Promise<void>((resolve) => imageHost.listen(0, '127.0.0.1', resolve))
    imageOrigin = `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}`
    server = await startTestServer({
      FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      TRUST_PROXY: 'true',
      MAX_QUEUED_PER_USER: '5',
      GENERATIONS_PER_MINUTE: '10000',
      GENERATIONS_PER_MINUTE_PER_CLIENT: '10000',
    })
  })
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()))
  })
  afterAll(async () => {
    await server?.close()
    await new Promise((resolve) => imageHost?.close(resolve))
  })

  it('reads a Turkish Excel CSV into a draft: headers intact, mapping detected, text problems by line', async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const { response, view } = await importList(client, turkishExcelCsv())
    expect(response.status).toBe(201)
    expect(view.headers.slice(0, 3)).toEqual(['Stok Kodu', 'Ürün Adı', 'Marka'])
    expect(view.mapping).toMatchObject({ sku: 0, name: 1, brand: 2, image1: 7, image2: 8 })
    expect(view.sampleRows.map((row) => row.line)).toEqual([2, 4, 5, 7])
    expect(view.sampleRows[0]?.cells[1]).toBe('İpek Eşarp')
    expect(view.batch).toMatchObject({ status: 'draft', rowCount: 4, productCount: 4 })
    expect(view.photosChecked).toBe(false)
    expect(view.needsZip).toBe(true)
  })

  it("stores the listing columns of Trendyol's template as read, and bad values as row problems", async () => {
    const client = await signedInClient(server)
    const { response, view } = await importList(
      client,
      await trendyolTemplateXlsx(`${imageOrigin}/cup.jpg`),
      'trendyol.xlsx',
    )
    expect(response.status).toBe(201)
    expect(view.mapping).toEqual({
      barcode: 0,
      brand: 2,
      category: 3,
      name: 5,
      description: 6,
      listPrice: 7,
      price: 8,
      stock: 9,
      sku: 10,
      vatRate: 11,
      desi: 12,
      image1: 13,
    })
    expect(view.problems).toEqual([
      { line: 4, code: 'barcodeInvalid', field: 'barcode', column: 0, value: '8,69E+12' },
      { line: 4, code: 'priceInvalid', field: 'price', column: 8, value: 'sorunuz' },
      { line: 4, code: 'stockInvalid', field: 'stock', column: 9, value: '12.5' },
      { line: 4, code: 'vatRateInvalid', field: 'vatRate', column: 11, value: '18' },
    ])
    expect(view.batch).toMatchObject({ rowCount: 3, productCount: 2 })
    const listings = async () =>
      (
        await server.database.db
          .select({ line: catalogueRows.line, sku: catalogueRows.sku, listing: catalogueRows.listing })
          .from(catalogueRows)
          .where(eq(catalogueRows.batchId, view.batch.id))
          .orderBy(catalogueRows.line)
      ).map((row) => [row.line, row.sku, row.listing])
    const read = [
      [
        2,
        'FNC-1',
        { barcode: '8690000000011', price: 1299.9, listPrice: 1499.9, stock: 25, vatRate: 20, desi: 2 },
      ],
      [
        3,
        'FNC-2',
        { barcode: 'TY-FNC_2.B', price: 1199.9, listPrice: 1499.9, stock: 1000, vatRate: 10, desi: 1.5 },
      ],
      [4, 'FNC-3', {}],
    ]
    expect(await listings()).toEqual(read)

    // The photo step stores the rows again: the values stay.
    // The photos are links: the step gets a form without a file.
    const checked = await client.request(`/api/catalogue/batches/${view.batch.id}/photos`, {
      method: 'POST',
      body: new FormData(),
    })
    expect(checked.status).toBe(200)
    expect(((await checked.json()) as CatalogueImportView).batch.productCount).toBe(2)
    expect(await listings()).toEqual(read)

    // A column the seller unmaps is no longer read.
    const { desi: _desi, ...withoutDesi } = view.mapping
    const remapped = await client.request(`/api/catalogue/batches/${view.batch.id}/mapping`, {
      method: 'PUT',
      json: { mapping: withoutDesi },
    })
    expect(remapped.status).toBe(200)
    expect((await listings()).map(([line, , listing]) => [line, listing])).toEqual([
      [2, { barcode: '8690000000011', price: 1299.9, listPrice: 1499.9, stock: 25, vatRate: 20 }],
      [3, { barcode: 'TY-FNC_2.B', price: 1199.9, listPrice: 1499.9, stock: 1000, vatRate: 10 }],
      [4, {}],
    ])
  })

  it('checks photos against the ZIP and image links, storing each good row photo like an upload', async () => {
    const client = await signedInClient(server)
    const rows = [
      productRow(1),
      productRow(2, { 'Görsel 1': 'missing.jpg' }),
      productRow(3, { 'Görsel 1': 'not-a-photo.jpg' }),
      productRow(4, { 'Görsel 1': `${imageOrigin}/cup.jpg` }),
      productRow(5, { 'Görsel 1': `${imageOrigin}/gone.jpg` }),
      productRow(6, { 'Görsel 1': `${imageOrigin}/page.html` }),
      productRow(7, { 'Ürün Adı': '' }),
    ]
    const { view } = await importList(client, csvOf(rows))
    const zip = await zipOf([
      { name: 'SKU-1.jpg', data: await makeJpeg(120, 80) },
      { name: 'not-a-photo.jpg', data: 'plain text, not an image' },
    ])
    const { response, view: checked } = await sendPhotos(client, view.batch.id, zip)
    expect(response.status).toBe(200)
    expect(checked.photosChecked).toBe(true)
    expect(checked.problems.map((p) => [p.line, p.code])).toEqual([
      [3, 'photoNotInZip'],
      [4, 'imageNotAnImage'],
      [6, 'imageUnreachable'],
      [7, 'imageNotAnImage'],
      [8, 'nameEmpty'],
      [8, 'photoNotInZip'],
    ])
    expect(checked.batch.productCount).toBe(2)
    // The list of batches counts the same rows and products as the draft's own view.
    const listed = (await (await client.request('/api/catalogue/batches')).json()) as {
      batches: { id: string; rowCount: number; productCount: number }[]
    }
    expect(listed.batches).toEqual([
      expect.objectContaining({ id: view.batch.id, rowCount: 7, productCount: 2 }),
    ])
    const stored = await server.database.db
      .select({ assetId: catalogueRows.inputAssetId, line: catalogueRows.line })
      .from(catalogueRows)
      .where(eq(catalogueRows.batchId, view.batch.id))
    const photoIds = stored.flatMap((row) => (row.assetId ? [row.assetId] : []))
    expect(stored.filter((row) => row.assetId).map((row) => row.line)).toEqual([2, 5])
    const photos = await server.database.db.select().from(assets).where(inArray(assets.id, photoIds))
    expect(photos.every((photo) => photo.kind === 'upload' && photo.mime === 'image/jpeg')).toBe(true)
  })

  it('stores a photo named by many rows once, and keeps it while any row uses it', async () => {
    const client = await signedInClient(server)
    const userId = await userIdOf(client)
    // Five rows name one file, two another whose bytes are the same, two the same image link.
    const rows = [
      ...Array.from({ length: 5 }, (_, i) => productRow(i + 1, { 'Görsel 1': 'shared.jpg' })),
      productRow(6, { 'Görsel 1': 'copy-a.jpg' }),
      productRow(7, { 'Görsel 1': 'copy-b.jpg' }),
      productRow(8, { 'Görsel 1': `${imageOrigin}/cup.jpg` }),
      productRow(9, { 'Görsel 1': `${imageOrigin}/cup.jpg` }),
    ]
    const { view } = await importList(client, csvOf(rows))
    const photo = await makeJpeg(120, 80)
    const zip = await zipOf([
      { name: 'shared.jpg', data: photo },
      { name: 'copy-a.jpg', data: await makeJpeg(60, 60) },
      { name: 'copy-b.jpg', data: await makeJpeg(60, 60) },
    ])
    const checked = await sendPhotos(client, view.batch.id, zip)
    expect(checked.response.status).toBe(200)
    expect(checked.view.batch.productCount).toBe(9)
    const stored = await server.database.db
      .select({ assetId: catalogueRows.inputAssetId, line: catalogueRows.line })
      .from(catalogueRows)
      .where(eq(catalogueRows.batchId, view.batch.id))
      .orderBy(catalogueRows.line)
    const ids = stored.map((row) => row.assetId as string)
    expect(new Set(ids.slice(0, 5)).size).toBe(1)
    expect(ids[5]).toBe(ids[6])
    expect(ids[7]).toBe(ids[8])
    expect(new Set(ids).size).toBe(3)
    const owned = await server.database.db.select().from(assets).where(eq(assets.userId, userId))
    expect(owned).toHaveLength(3)

    // A clean-up of one row's photo leaves it to the rows that still name it.
    await deleteUnusedUploads(
      { db: server.database.db, storage: server.deps.storage },
      userId,
      [ids[0] as string],
      server.deps.logger,
    )
    expect(await server.database.db.select().from(assets).where(eq(assets.userId, userId))).toHaveLength(3)
    // Deleting the draft takes each shared photo once, and nothing is left behind.
    const deleted = await client.request(`/api/catalogue/batches/${view.batch.id}`, { method: 'DELETE' })
    expect(deleted.status).toBe(204)
    expect(await server.database.db.select().from(assets).where(eq(assets.userId, userId))).toHaveLength(0)
  })

  it('starts with the quota for the whole batch, never partly: says how many fit, then starts those', async () => {
    const client = await signedInClient(server, 'starter')
    const before = await usage(client)
    const left = before.images.quota - before.images.used
    const draft = await readyDraft(client, 3)
    // Use up all but two images, so two of the three products fit.
    const userId = await userIdOf(client)
    await setPeriodUsage(server.database.db, userId, new Date(), {
      imagesUsed: before.images.used + left - 2,
      videosUsed: 0,
    })
    const outputs = { studio: { prompt: 'on marble', aspectRatio: '1:1' }, seo: true }
    const short = await start(client, draft.batch.id, { outputs })
    expect(short.response.status).toBe(402)
    const error = ((await short.response.json()) as ErrorBody).error
    expect(error.code).toBe('CATALOGUE_QUOTA_SHORT')
    expect(error.details).toMatchObject({
      fits: 2,
      needed: { images: 3, videos: 0 },
      available: { images: 2 },
    })
    expect((await usage(client)).images.used).toBe(before.images.used + left - 2)
    expect(await server.database.db.select().from(generations)).toHaveLength(0)

    const started = await start(client, draft.batch.id, { outputs, limitRows: 2, presetId: 'trendyol' })
    expect(started.response.status).toBe(200)
    expect(started.view.batch).toMatchObject({ status: 'running', presetId: 'trendyol' })
    expect(started.view.counts).toEqual({ queued: 2, running: 0, done: 0, failed: 0, canceled: 0 })
    expect(started.view.rows.map((row) => row.outputs.map((o) => o.mode))).toEqual([
      ['image', 'seo'],
      ['image', 'seo'],
    ])
    expect((await usage(client)).images.used).toBe(before.images.quota)
  })

  it('queues a batch beyond the per-user queue cap, and the user can still start a single job', async () => {
    const client = await signedInClient(server)
    const draft = await readyDraft(client, 8)
    const started = await start(client, draft.batch.id, { outputs: { seo: true } })
    expect(started.response.status).toBe(200)
    expect(started.view.counts.queued).toBe(8)
    const single = await client.request('/api/generations', {
      json: { mode: 'seo', imageAssetId: started.view.rows[0]?.photo?.id, details: { name: 'Fincan' } },
    })
    expect(single.status).toBe(202)
  })

  it("runs at the user's fair share: another user's single job starts ahead of a queued 500-row batch", async () => {
    fake = createScriptedProviders()
    const seller = await signedInClient(server)
    const draft = await readyDraft(seller, 500)
    expect((await start(seller, draft.batch.id, { outputs: { seo: true } })).view.counts.queued).toBe(500)
    const worker = runWorker()
    const other = await signedInClient(server)
    const photo = await uploadPhoto(other)
    const single = (await (
      await other.request('/api/generations', {
        json: { mode: 'seo', imageAssetId: photo, details: { name: 'Fincan' } },
      })
    ).json()) as { generation: { id: string } }
    const done = await waitForStatus(other, single.generation.id, ['succeeded'], 20_000)
    await worker.stop()
    const [job] = await server.database.db.select().from(generations).where(eq(generations.id, done.id))
    const batchJobs = await server.database.db
      .select({ status: generations.status, startedAt: generations.startedAt })
      .from(generations)
      .where(
        inArray(
          generations.batchRowId,
          (await batchView(seller, draft.batch.id)).rows.map((row) => row.id),
        ),
      )
    // The bound: between its arrival and its start, at most three claims' worth of the batch's
    // jobs started (the worker's two slots each): claims already under way when it was queued,
    // which could not see it (on PostgreSQL one may be waiting for the claim lock); the next claim
    // takes it first. A queue in arrival order would start hundreds first. And the batch was far
    // from done when it finished.
    const startedMeanwhile = batchJobs.filter(
      (row) =>
        row.startedAt &&
        job?.createdAt &&
        job.startedAt &&
        row.startedAt > job.createdAt &&
        row.startedAt < job.startedAt,
    )
    expect(startedMeanwhile.length).toBeLessThanOrEqual(6)
    expect(batchJobs.filter((row) => row.status === 'queued').length).toBeGreaterThan(250)
    // The rest of the batch is not left for the next test's worker.
    await seller.request(`/api/catalogue/batches/${draft.batch.id}/cancel`, { method: 'POST' })
  })

  it("keeps a worker's slot from batches: another seller's job starts while every batch job still runs", async () => {
    fake = createScriptedProviders()
    const seller = await signedInClient(server)
    const draft = await readyDraft(seller, 6)
    // Every batch job hangs at the provider: none finishes to free a slot.
    for (let i = 0; i < 6; i++) fake.script.image.push({ hang: true })
    await start(seller, draft.batch.id, { outputs: { studio: { prompt: 'x', aspectRatio: '1:1' } } })
    runWorker()
    await expect
      .poll(async () => (await batchView(seller, draft.batch.id)).counts, { timeout: 20_000 })
      .toMatchObject({ running: 1, queued: 5 })
    const other = await signedInClient(server)
    const photo = await uploadPhoto(other)
    const single = (await (
      await other.request('/api/generations', {
        json: { mode: 'seo', imageAssetId: photo, details: { name: 'Fincan' } },
      })
    ).json()) as { generation: { id: string } }
    const done = await waitForStatus(other, single.generation.id, ['succeeded'], 20_000)
    expect(done.status).toBe('succeeded')
    // It did not wait for a batch job to end: none has.
    expect((await batchView(seller, draft.batch.id)).counts).toMatchObject({ running: 1, queued: 5, done: 0 })
    // Nothing of this batch is left for the next test's worker: stopped (its job handed back), then canceled.
    await Promise.all(workers.splice(0).map((worker) => worker.stop()))
    const canceled = await seller.request(`/api/catalogue/batches/${draft.batch.id}/cancel`, {
      method: 'POST',
    })
    expect(((await canceled.json()) as BatchView).counts).toMatchObject({ canceled: 6 })
  })

  it('survives a restart mid-batch: nothing lost, the quota exact', async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const draft = await readyDraft(client, 6)
    // The first job hangs at the provider until its worker stops; the rest wait, since a batch
    // runs in all of a worker's slots but the one kept for other sellers.
    fake.script.image.push({ hang: true })
    await start(client, draft.batch.id, { outputs: { studio: { prompt: 'x', aspectRatio: '1:1' } } })
    const first = runWorker()
    await expect
      .poll(async () => (await batchView(client, draft.batch.id)).counts, { timeout: 20_000 })
      .toMatchObject({ running: 1, queued: 5 })
    await first.stop()
    // Stopping handed the running job back: queued again, its quota still held.
    expect((await batchView(client, draft.batch.id)).counts).toMatchObject({ queued: 6, running: 0 })
    expect((await usage(client)).images.used).toBe(6)
    runWorker()
    await expect
      .poll(async () => (await batchView(client, draft.batch.id)).batch.status, { timeout: 20_000 })
      .toBe('finished')
    expect((await batchView(client, draft.batch.id)).counts).toMatchObject({ done: 6, failed: 0 })
    expect((await usage(client)).images.used).toBe(6)
  })

  it('runs on the queue to the end: a video is made from its image result', async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const draft = await readyDraft(client, 2)
    const outputs = { studio: { prompt: 'studio light', aspectRatio: '1:1' }, video: { prompt: 'turn' } }
    const { view } = await start(client, draft.batch.id, { outputs })
    runWorker()
    await expect
      .poll(async () => (await batchView(client, draft.batch.id)).batch.status, { timeout: 20_000 })
      .toBe('finished')
    const finished = await batchView(client, view.batch.id)
    expect(finished.counts).toMatchObject({ done: 2, failed: 0 })
    const jobs = await server.database.db
      .select()
      .from(generations)
      .where(
        inArray(
          generations.batchRowId,
          finished.rows.map((row) => row.id),
        ),
      )
    for (const video of jobs.filter((job) => job.mode === 'video')) {
      const image = jobs.find((job) => job.id === video.sourceGenerationId)
      expect(image?.result?.type).toBe('image')
      expect(video.inputAssetId).toBe(image?.result?.type === 'image' ? image.result.assetId : 'none')
    }
    const after = await usage(client)
    expect(after.images.used).toBe(2)
    expect(after.videos.used).toBe(2)
  })

  it('exports the results as a ZIP per SKU with a listing whose formula-looking cells are neutralised', async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const rows = [productRow(1, { Açıklama: '=HYPERLINK("http://evil.example","tıkla")' }), productRow(2)]
    const { view } = await importList(client, csvOf(rows), 'Ürün Listesi.csv')
    const photo = await makeJpeg(80, 60)
    await sendPhotos(
      client,
      view.batch.id,
      await zipOf(rows.map((_, i) => ({ name: `SKU-${i + 1}.jpg`, data: photo }))),
    )
    const early = await client.request(`/api/catalogue/batches/${view.batch.id}/export`)
    expect(early.status).toBe(409)
    await start(client, view.batch.id, {
      outputs: { studio: { prompt: 'x', aspectRatio: '1:1' }, seo: true },
    })
    runWorker()
    await expect
      .poll(async () => (await batchView(client, view.batch.id)).batch.status, { timeout: 20_000 })
      .toBe('finished')
    const other = await signedInClient(server)
    expect((await other.request(`/api/catalogue/batches/${view.batch.id}/export`)).status).toBe(404)

    const response = await client.request(`/api/catalogue/batches/${view.batch.id}/export`, {
      headers: { 'x-vitrin-locale': 'tr' },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''%C3%9Cr%C3%BCn%20Listesi-vitrin.zip",
    )
    const entries = await unzip(Buffer.from(await response.arrayBuffer()))
    expect(entries.map((entry) => entry.name)).toEqual([
      'SKU-1/SKU-1-1.jpg',
      'SKU-2/SKU-2-1.jpg',
      'listing.csv',
      'listing.xlsx',
    ])
    const csv = entries.find((entry) => entry.name === 'listing.csv')?.bytes as Buffer
    expect([...csv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = csv.toString('utf8')
    expect(text).toContain(`'=HYPERLINK(""http://evil.example"",""tıkla"")`)
    expect(text.split('\r\n')[0]).toContain(';')
    expect(text.split('\r\n')[0]).toMatch(/^\uFEFFSEO başlığı;Meta açıklama;/)

    // The page downloads through a plain link, which names its language in the query instead.
    const listingHeader = async (query: string) => {
      const linked = await client.request(`/api/catalogue/batches/${view.batch.id}/export${query}`)
      const listing = (await unzip(Buffer.from(await linked.arrayBuffer()))).find(
        (entry) => entry.name === 'listing.csv',
      )
      return listing?.bytes.toString('utf8').split('\r\n')[0]
    }
    expect(await listingHeader('?lang=tr')).toMatch(/^\uFEFFSEO başlığı;/)
    expect(await listingHeader('?lang=en')).toMatch(/^\uFEFFSEO title;/)
    expect(await listingHeader('?lang=xx')).toMatch(/^\uFEFFSEO title;/)
  })

  it("exports a batch with Trendyol's preset: files rendered to 1200×1800 and named by the marketplace rule", async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const rows = [productRow(1)]
    const { view } = await importList(client, csvOf(rows), 'Liste.csv')
    await sendPhotos(
      client,
      view.batch.id,
      await zipOf([{ name: 'SKU-1.jpg', data: await makeJpeg(80, 60) }]),
    )
    await start(client, view.batch.id, {
      outputs: { studio: { prompt: 'x', aspectRatio: '1:1' }, seo: true },
      presetId: 'trendyol',
    })
    runWorker()
    await expect
      .poll(async () => (await batchView(client, view.batch.id)).batch.status, { timeout: 20_000 })
      .toBe('finished')
    const response = await client.request(`/api/catalogue/batches/${view.batch.id}/export?lang=tr`)
    expect(response.status).toBe(200)
    const entries = await unzip(Buffer.from(await response.arrayBuffer()))
    expect(entries.map((entry) => entry.name)).toEqual([
      'SKU-1/SKU-1-trendyol-1.jpg',
      'listing.csv',
      'listing.xlsx',
    ])
    const [image, listing] = entries as [Unzipped, Unzipped]
    expect(await sharp(image.bytes).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 1800 })
    const csv = listing.bytes.toString('utf8')
    expect(csv).toContain('SKU-1/SKU-1-trendyol-1.jpg')
  })

  it('streams the batch view as it changes and ends once the batch is finished', async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const draft = await readyDraft(client, 3)
    await start(client, draft.batch.id, { outputs: { seo: true } })
    const response = await client.request(`/api/catalogue/batches/${draft.batch.id}/events`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    runWorker()
    // Read to the end: the stream closes by itself after the finished view (else the test times out).
    const text = await response.text()
    const views = text
      .split('\n\n')
      .filter((block) => block.includes('event: batch'))
      .map((block) => {
        const data = block.split('\n').find((line) => line.startsWith('data: '))
        return JSON.parse(data?.slice('data: '.length) ?? '{}') as BatchView
      })
    expect(views[0]?.batch.status).toBe('running')
    expect(views.at(-1)?.batch.status).toBe('finished')
    expect(views.at(-1)?.counts.done).toBe(3)
    const other = await signedInClient(server)
    expect((await other.request(`/api/catalogue/batches/${draft.batch.id}/events`)).status).toBe(404)
  })

  it('fails a video whose image failed, gives its quota back, and retries both', async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const draft = await readyDraft(client, 1)
    fake.script.image.push('rejected')
    const outputs = { studio: { prompt: 'studio', aspectRatio: '1:1' }, video: { prompt: '' } }
    await start(client, draft.batch.id, { outputs })
    runWorker()
    await expect
      .poll(async () => (await batchView(client, draft.batch.id)).batch.status, { timeout: 20_000 })
      .toBe('finished')
    const failed = await batchView(client, draft.batch.id)
    expect(failed.rows[0]?.state).toBe('failed')
    expect(failed.rows[0]?.outputs.map((o) => o.errorCode)).toEqual(['PROVIDER_REJECTED', 'SOURCE_FAILED'])
    expect(await usage(client)).toMatchObject({ images: { used: 0 }, videos: { used: 0 } })

    const retried = await client.request(`/api/catalogue/batches/${draft.batch.id}/retry`, { method: 'POST' })
    expect(retried.status).toBe(200)
    await expect
      .poll(async () => (await batchView(client, draft.batch.id)).batch.status, { timeout: 20_000 })
      .toBe('finished')
    expect((await batchView(client, draft.batch.id)).counts).toMatchObject({ done: 1, failed: 0 })
    expect(await usage(client)).toMatchObject({ images: { used: 1 }, videos: { used: 1 } })
  })

  it('cancels what has not started and gives its quota back exactly', async () => {
    const client = await signedInClient(server)
    const draft = await readyDraft(client, 5)
    await start(client, draft.batch.id, { outputs: { studio: { prompt: 'x', aspectRatio: '1:1' } } })
    expect((await usage(client)).images.used).toBe(5)
    const canceled = await client.request(`/api/catalogue/batches/${draft.batch.id}/cancel`, {
      method: 'POST',
    })
    const view = (await canceled.json()) as BatchView
    expect(view.batch.status).toBe('canceled')
    expect(view.counts).toMatchObject({ canceled: 5, queued: 0 })
    expect((await usage(client)).images.used).toBe(0)
    // Twice changes nothing more.
    await client.request(`/api/catalogue/batches/${draft.batch.id}/cancel`, { method: 'POST' })
    expect((await usage(client)).images.used).toBe(0)
  })

  it('sweeps drafts never started after a week, with their photos; newer drafts and started batches stay', async () => {
    const client = await signedInClient(server)
    const old = await readyDraft(client, 2)
    const fresh = await readyDraft(client, 1)
    const started = await readyDraft(client, 1)
    await start(client, started.batch.id, { outputs: { seo: true } })
    const weekAgo = new Date(Date.now() - (draftRetentionDays * 86_400_000 + 60_000))
    await server.database.db
      .update(catalogueBatches)
      .set({ createdAt: weekAgo })
      .where(inArray(catalogueBatches.id, [old.batch.id, started.batch.id]))
    const photos = await server.database.db
      .select({ id: catalogueRows.inputAssetId })
      .from(catalogueRows)
      .where(eq(catalogueRows.batchId, old.batch.id))
    const swept = await sweepStaleDrafts(
      { db: server.database.db, storage: server.deps.storage, log: server.deps.logger },
      new Date(),
    )
    expect(swept).toBe(1)
    const left = (await (await client.request('/api/catalogue/batches')).json()) as {
      batches: { id: string }[]
    }
    expect(left.batches.map((batch) => batch.id).sort()).toEqual([fresh.batch.id, started.batch.id].sort())
    const ids = photos.flatMap((row) => (row.id ? [row.id] : []))
    expect(ids).toHaveLength(2)
    expect(await server.database.db.select().from(assets).where(inArray(assets.id, ids))).toHaveLength(0)
  })

  it('answers bad files with a translated error and stores nothing', async () => {
    const client = await signedInClient(server)
    const tr = { headers: { 'x-vitrin-locale': 'tr' } }
    const refusals: [Buffer, string, string][] = [
      [Buffer.alloc(0), 'boş.csv', 'CATALOGUE_FILE_EMPTY'],
      [binaryRenamedCsv(), 'photo.csv', 'CATALOGUE_FILE_TYPE'],
      [await xlsxBomb(), 'bomb.xlsx', 'CATALOGUE_FILE_UNSAFE'],
      [Buffer.alloc(11 * 1024 * 1024, 'a'), 'huge.csv', 'FILE_TOO_LARGE'],
    ]
    for (const [bytes, name, code] of refusals) {
      const response = await client.request('/api/catalogue/imports', {
        method: 'POST',
        body: form('list', bytes, name),
        ...tr,
      })
      expect(response.status, name).toBeLessThan(500)
      const body = (await response.json()) as ErrorBody
      expect(body.error.code, name).toBe(code)
    }
    expect(
      ((await (await client.request('/api/catalogue/batches')).json()) as { batches: unknown[] }).batches,
    ).toEqual([])

    // A photo ZIP with an entry escaping its folder and a file that is no ZIP at all.
    const { view } = await importList(client, csvOf([productRow(1), productRow(2)]))
    const escaping = await zipOf([
      { name: 'SKU-1.jpg', data: await makeJpeg(40, 40) },
      { name: '../SKU-2.jpg', rawName: Buffer.from('../SKU-2.jpg'), data: await makeJpeg(40, 40) },
    ])
    const checked = await sendPhotos(client, view.batch.id, escaping)
    expect(checked.response.status).toBe(200)
    expect(checked.view.problems.map((p) => [p.line, p.code])).toEqual([[3, 'photoNotInZip']])
    const notZip = await sendPhotos(client, view.batch.id, Buffer.from('not a zip at all'))
    expect(((await notZip.response.json()) as ErrorBody).error.code).toBe('CATALOGUE_ZIP_INVALID')
    // The earlier check stands: the refused upload changed nothing.
    const again = (await (
      await client.request(`/api/catalogue/batches/${view.batch.id}/import`)
    ).json()) as CatalogueImportView
    expect(again.photosChecked).toBe(true)
    expect(again.batch.productCount).toBe(1)
  })

  it('keeps batches to their owner', async () => {
    const owner = await signedInClient(server)
    const other = await signedInClient(server)
    const draft = await readyDraft(owner, 1)
    for (const [method, path] of [
      ['GET', ''],
      ['POST', '/cancel'],
      ['POST', '/retry'],
      ['DELETE', ''],
    ] as const) {
      const response = await other.request(`/api/catalogue/batches/${draft.batch.id}${path}`, { method })
      expect(response.status).toBe(404)
    }
    expect(
      ((await (await other.request('/api/catalogue/batches')).json()) as { batches: unknown[] }).batches,
    ).toEqual([])
  })
})
