import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { catalogueRows, generations } from '#server/db/schema/index.ts'
import { setPeriodUsage } from '#server/features/quota/usage.service.ts'
import type { Worker } from '#server/jobs/worker.ts'
import type { BatchView, CatalogueImportView, RowCopyView } from '#shared/contracts/catalogue.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { csvOf, productRow, zipOf } from '#tests/support/catalogue-fixtures.ts'
import { createScriptedProviders, makeJpeg } from '#tests/support/fake-providers.ts'
import { signedInClient, usage, userIdOf } from '#tests/support/generation-client.ts'
import { startTestServer, type TestClient, type TestServer } from '#tests/support/test-server.ts'
import { unzip } from '#tests/support/unzip.ts'

// The review before export over HTTP: the seller's copy stored per product and used by the
// export, outputs left out of the ZIP, one product made again.

let server: TestServer
let fake: ReturnType<typeof createScriptedProviders>
const workers: Worker[] = []

function form(field: string, bytes: Buffer, name: string): FormData {
  const body = new FormData()
  body.append(field, new Blob([new Uint8Array(bytes)]), name)
  return body
}

const edit = {
  title: 'Kırmızı Porselen Kahve Fincanı',
  description: 'İki kişilik kırmızı porselen Türk kahvesi fincan takımı.',
  features: ['Porselen', 'İki kişilik', 'Bulaşık makinesinde yıkanır', 'Kırmızı'],
  keywords: ['kahve fincanı', 'porselen fincan', 'türk kahvesi takımı'],
}

/** A started batch of `count` products (photos checked), its worker running unless told not to. */
async function startedBatch(
  client: TestClient,
  count: number,
  outputs: Record<string, unknown>,
  options: { run?: boolean } = {},
): Promise<BatchView> {
  const rows = Array.from({ length: count }, (_, i) => productRow(i + 1))
  const imported = await client.request('/api/catalogue/imports', {
    method: 'POST',
    body: form('list', csvOf(rows), 'ürünler.csv'),
  })
  const draft = (await imported.json()) as CatalogueImportView
  const photo = await makeJpeg(80, 60)
  const zip = await zipOf(rows.map((_, i) => ({ name: `SKU-${i + 1}.jpg`, data: photo, store: true })))
  await client.request(`/api/catalogue/batches/${draft.batch.id}/photos`, {
    method: 'POST',
    body: form('photos', zip, 'fotoğraflar.zip'),
  })
  const started = await client.request(`/api/catalogue/batches/${draft.batch.id}/start`, {
    json: { outputs },
  })
  expect(started.status).toBe(200)
  if (options.run === false) return (await started.json()) as BatchView
  // Stopped once the batch is done, so what a test queues next waits for its own worker.
  const worker = runWorker()
  const view = await finished(client, draft.batch.id)
  await worker.stop()
  workers.splice(workers.indexOf(worker), 1)
  return view
}

async function batchView(client: TestClient, batchId: string): Promise<BatchView> {
  return (await (await client.request(`/api/catalogue/batches/${batchId}`)).json()) as BatchView
}

async function finished(client: TestClient, batchId: string): Promise<BatchView> {
  await expect
    .poll(async () => (await batchView(client, batchId)).batch.status, { timeout: 20_000 })
    .toBe('finished')
  return batchView(client, batchId)
}

function runWorker(): Worker {
  const worker = server.startWorker({ providers: fake.providers })
  workers.push(worker)
  return worker
}

const rowPath = (view: BatchView, index = 0) =>
  `/api/catalogue/batches/${view.batch.id}/rows/${view.rows[index]?.id}`

/** The export's ZIP: its entry names and listing.csv's lines. */
async function exported(client: TestClient, batchId: string) {
  const response = await client.request(`/api/catalogue/batches/${batchId}/export?lang=tr`)
  expect(response.status).toBe(200)
  const entries = await unzip(Buffer.from(await response.arrayBuffer()))
  const csv = entries.find((entry) => entry.name === 'listing.csv')?.bytes.toString('utf8') ?? ''
  return { names: entries.map((entry) => entry.name), lines: csv.replace(/^\uFEFF/, '').split('\r\n') }
}

describe('catalogue review before export', () => {
  beforeAll(async () => {
    server = await startTestServer({
      GENERATIONS_PER_MINUTE: '10000',
      GENERATIONS_PER_MINUTE_PER_CLIENT: '10000',
    })
  })
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()))
  })
  afterAll(async () => {
    await server?.close()
  })

  it("stores the seller's copy, exports it instead of the generated copy, and reverts to the generated one", async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const view = await startedBatch(client, 2, { studio: { prompt: 'x', aspectRatio: '1:1' }, seo: true })

    const read = await client.request(`${rowPath(view)}/copy`)
    expect(read.status).toBe(200)
    const generated = (await read.json()) as RowCopyView
    expect(generated).toMatchObject({ rowId: view.rows[0]?.id, edited: null, brand: 'Marka' })
    expect(generated.generated?.title).toBe('Deri Cüzdan')

    const saved = await client.request(`${rowPath(view)}/copy`, { method: 'PUT', json: edit })
    expect(saved.status).toBe(200)
    expect(((await saved.json()) as RowCopyView).edited).toEqual(edit)
    expect((await batchView(client, view.batch.id)).rows.map((row) => row.isCopyEdited)).toEqual([
      true,
      false,
    ])

    const withEdit = await exported(client, view.batch.id)
    const sku1 = withEdit.lines.find((line) => line.includes('SKU-1;')) ?? ''
    const sku2 = withEdit.lines.find((line) => line.includes('SKU-2;')) ?? ''
    expect(sku1.startsWith(`${edit.title};${edit.description};`)).toBe(true)
    expect(sku1).toContain('Porselen | İki kişilik | Bulaşık makinesinde yıkanır | Kırmızı')
    expect(sku1).toContain('"kahve fincanı, porselen fincan, türk kahvesi takımı"')
    expect(sku1).not.toContain('Deri Cüzdan')
    // The other product keeps its generated copy.
    expect(sku2.startsWith('Deri Cüzdan;')).toBe(true)

    const reverted = await client.request(`${rowPath(view)}/copy`, { method: 'DELETE' })
    expect(reverted.status).toBe(200)
    expect(((await reverted.json()) as RowCopyView).edited).toBeNull()
    const afterRevert = await exported(client, view.batch.id)
    expect(afterRevert.lines.find((line) => line.includes('SKU-1;'))?.startsWith('Deri Cüzdan;')).toBe(true)
  })

  it('refuses copy past the limits, with commas in keywords or on two lines, naming each field', async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const view = await startedBatch(client, 1, { seo: true })
    const put = (body: unknown) => client.request(`${rowPath(view)}/copy`, { method: 'PUT', json: body })
    const fieldsOf = async (response: Response) => {
      expect(response.status).toBe(400)
      const error = ((await response.json()) as ErrorBody).error
      expect(error.code).toBe('VALIDATION_FAILED')
      return error.details?.fields
    }
    expect(await fieldsOf(await put({ ...edit, title: 'a'.repeat(61) }))).toEqual({ title: 'tooLong' })
    expect(await fieldsOf(await put({ ...edit, description: 'b'.repeat(161) }))).toEqual({
      description: 'tooLong',
    })
    expect(await fieldsOf(await put({ ...edit, title: '  ' }))).toEqual({ title: 'required' })
    expect(await fieldsOf(await put({ ...edit, title: 'Fincan\nTakımı' }))).toEqual({ title: 'invalid' })
    expect(await fieldsOf(await put({ ...edit, features: ['a', 'b', 'c'] }))).toMatchObject({
      features: 'invalid',
    })
    expect(
      await fieldsOf(await put({ ...edit, keywords: ['fincan', 'türk kahvesi fincan takımı, 2 kişilik'] })),
    ).toEqual({ 'keywords.1': 'invalid' })
    expect(await fieldsOf(await put({ ...edit, keywords: ['mutfak > fincan'] }))).toEqual({
      'keywords.0': 'invalid',
    })
    expect(
      await fieldsOf(await put({ ...edit, keywords: Array.from({ length: 11 }, (_, i) => `k${i}`) })),
    ).toMatchObject({ keywords: 'tooLong' })
    expect(await fieldsOf(await put({ ...edit, title: 'Fincan\u0000' }))).toEqual({ title: 'invalid' })
    // Nothing was stored.
    expect(((await (await client.request(`${rowPath(view)}/copy`)).json()) as RowCopyView).edited).toBeNull()
  })

  it("keeps a product's review to its owner, and to started batches' products", async () => {
    fake = createScriptedProviders()
    const owner = await signedInClient(server)
    const other = await signedInClient(server)
    const view = await startedBatch(owner, 1, { seo: true })
    const path = rowPath(view)
    for (const [method, suffix, json] of [
      ['GET', '/copy', undefined],
      ['PUT', '/copy', edit],
      ['DELETE', '/copy', undefined],
      ['PUT', '/exclusions', { excluded: [] }],
      ['POST', '/regenerate', { scope: 'seo' }],
    ] as const) {
      const response = await other.request(`${path}${suffix}`, { method, ...(json ? { json } : {}) })
      expect(response.status, `${method} ${suffix}`).toBe(404)
    }
    expect((await owner.request(`/api/catalogue/batches/${view.batch.id}/rows/not-a-row/copy`)).status).toBe(
      404,
    )
    expect(
      (await owner.request(`/api/catalogue/batches/${view.batch.id}/rows/${crypto.randomUUID()}/copy`))
        .status,
    ).toBe(404)
    // The other seller's attempt changed nothing.
    expect(((await (await owner.request(`${path}/copy`)).json()) as RowCopyView).edited).toBeNull()
  })

  it('leaves the outputs the seller excluded out of the ZIP and its listing', async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const view = await startedBatch(client, 2, {
      studio: { prompt: 'x', aspectRatio: '1:1' },
      fashion: { aspectRatio: '1:1' },
      seo: true,
    })
    const before = await exported(client, view.batch.id)
    expect(before.names.filter((name) => name.startsWith('SKU-1/'))).toEqual([
      'SKU-1/SKU-1-1.jpg',
      'SKU-1/SKU-1-2.jpg',
    ])
    const studio = view.rows[0]?.outputs.find(
      (output) => output.tool === 'product' && output.mode === 'image',
    )
    const otherRowsImage = view.rows[1]?.outputs[0]?.generationId as string

    const refused = await client.request(`${rowPath(view)}/exclusions`, {
      method: 'PUT',
      json: { excluded: [otherRowsImage] },
    })
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as ErrorBody).error.details?.fields).toEqual({ 'excluded.0': 'invalid' })

    const saved = await client.request(`${rowPath(view)}/exclusions`, {
      method: 'PUT',
      json: { excluded: [studio?.generationId] },
    })
    expect(saved.status).toBe(200)
    expect(((await saved.json()) as BatchView).rows[0]?.excludedResults).toEqual([studio?.generationId])

    const after = await exported(client, view.batch.id)
    // Only the fashion image of SKU-1 goes out, now as its first image; SKU-2 keeps both.
    expect(after.names.filter((name) => name.startsWith('SKU-1/'))).toEqual(['SKU-1/SKU-1-1.jpg'])
    expect(after.names.filter((name) => name.startsWith('SKU-2/'))).toHaveLength(2)
    const sku1 = after.lines.find((line) => line.includes(';SKU-1;')) ?? ''
    expect(sku1).toContain(';SKU-1/SKU-1-1.jpg;;')
    // Both images back in.
    await client.request(`${rowPath(view)}/exclusions`, { method: 'PUT', json: { excluded: [] } })
    expect(
      (await exported(client, view.batch.id)).names.filter((name) => name.startsWith('SKU-1/')),
    ).toHaveLength(2)
  })

  it("regenerates one product's SEO copy without quota, replacing the edit, and refuses while it runs", async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const view = await startedBatch(client, 2, { studio: { prompt: 'x', aspectRatio: '1:1' }, seo: true })
    await client.request(`${rowPath(view)}/copy`, { method: 'PUT', json: edit })
    const usedBefore = await usage(client)
    const oldSeo = view.rows[0]?.outputs.find((output) => output.mode === 'seo')?.generationId
    // Every image used up: copy still regenerates (SEO holds no quota).
    await setPeriodUsage(server.database.db, await userIdOf(client), new Date(), {
      imagesUsed: usedBefore.images.quota,
      videosUsed: 0,
    })

    const response = await client.request(`${rowPath(view)}/regenerate`, { json: { scope: 'seo' } })
    expect(response.status).toBe(200)
    const queued = (await response.json()) as BatchView
    expect(queued.batch.status).toBe('running')
    expect(queued.rows[0]?.state).toBe('queued')
    expect(queued.rows[0]?.isCopyEdited).toBe(false)
    expect(queued.rows[0]?.outputs.map((output) => [output.mode, output.status])).toEqual([
      ['image', 'succeeded'],
      ['seo', 'queued'],
    ])
    expect(queued.rows[1]?.state).toBe('done')

    const busy = await client.request(`${rowPath(view)}/regenerate`, { json: { scope: 'seo' } })
    expect(busy.status).toBe(409)
    expect(((await busy.json()) as ErrorBody).error.code).toBe('CATALOGUE_ROW_BUSY')

    const allShort = await client.request(`${rowPath(view, 1)}/regenerate`, { json: { scope: 'all' } })
    expect(allShort.status).toBe(402)
    expect(((await allShort.json()) as ErrorBody).error.code).toBe('CATALOGUE_QUOTA_SHORT')

    runWorker()
    const done = await finished(client, view.batch.id)
    const seo = done.rows[0]?.outputs.filter((output) => output.mode === 'seo') ?? []
    expect(seo).toHaveLength(1)
    expect(seo[0]?.generationId).not.toBe(oldSeo)
    expect(seo[0]?.status).toBe('succeeded')
    const copy = (await (await client.request(`${rowPath(view)}/copy`)).json()) as RowCopyView
    expect(copy.edited).toBeNull()
    expect(copy.generated?.title).toBe('Deri Cüzdan')
    expect((await usage(client)).images.used).toBe(usedBefore.images.quota)
  })

  it('regenerates all of one product with its quota, keeping the earlier images until the new ones are made', async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    fake.script.image.push('ok', 'rejected')
    const view = await startedBatch(client, 2, { studio: { prompt: 'x', aspectRatio: '1:1' } })
    expect(view.rows.map((row) => row.state).sort()).toEqual(['done', 'failed'])
    const failedIndex = view.rows.findIndex((row) => row.state === 'failed')
    const failedJob = view.rows[failedIndex]?.outputs[0]?.generationId as string
    const usedBefore = (await usage(client)).images.used

    const response = await client.request(`${rowPath(view, failedIndex)}/regenerate`, {
      json: { scope: 'all' },
    })
    expect(response.status).toBe(200)
    expect((await usage(client)).images.used).toBe(usedBefore + 1)
    runWorker()
    const done = await finished(client, view.batch.id)
    expect(done.counts).toMatchObject({ done: 2, failed: 0 })
    // The failed attempt left the batch; it is still the seller's, as a failed generation.
    const [old] = await server.database.db.select().from(generations).where(eq(generations.id, failedJob))
    expect(old).toMatchObject({ status: 'failed', batchRowId: null })
    expect(
      (await exported(client, view.batch.id)).names.filter((name) => name.endsWith('.jpg')),
    ).toHaveLength(2)
  })

  it('answers a draft with CATALOGUE_BATCH_NOT_STARTED', async () => {
    fake = createScriptedProviders()
    const client = await signedInClient(server)
    const imported = await client.request('/api/catalogue/imports', {
      method: 'POST',
      body: form('list', csvOf([productRow(1)]), 'ürünler.csv'),
    })
    const draft = (await imported.json()) as CatalogueImportView
    const [row] = await server.database.db
      .select()
      .from(catalogueRows)
      .where(eq(catalogueRows.batchId, draft.batch.id))
    const response = await client.request(`/api/catalogue/batches/${draft.batch.id}/rows/${row?.id}/copy`)
    expect(response.status).toBe(409)
    expect(((await response.json()) as ErrorBody).error.code).toBe('CATALOGUE_BATCH_NOT_STARTED')
  })
})
