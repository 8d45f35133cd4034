import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { generations } from '#server/db/schema/index.ts'
import type { Providers } from '#server/providers/index.ts'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { createOpenAiSeoProvider } from '#server/providers/openai-compatible/openai-seo.ts'
import type { SeoRequest } from '#server/providers/types.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { CatalogueImportView } from '#shared/contracts/catalogue.ts'
import type { ProductDetails } from '#shared/seo.ts'
import { factViolations } from '#shared/seo-facts.ts'
import { type OpenAiFake, startOpenAiFake } from '#tests/fakes/openai-server.ts'
import { csvOf, productRow, zipOf } from '#tests/support/catalogue-fixtures.ts'
import { createScriptedProviders, makeJpeg } from '#tests/support/fake-providers.ts'
import {
  createGeneration,
  signedInClient,
  uploadPhoto,
  usage,
  waitForStatus,
} from '#tests/support/generation-client.ts'
import {
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'

// The seller's facts from the form (and from a catalogue row) to the SEO writer and back, with
// the language-model path against the OpenAI-compatible fake: an answer that drops a fact is
// asked again, naming the fact; two such answers are refused with their own error code.

describe('SEO copy keeps the seller facts', () => {
  let openai: OpenAiFake
  let server: TestServer
  /** What the SEO writer was asked, per call. */
  const seen: SeoRequest[] = []

  beforeAll(async () => {
    openai = await startOpenAiFake()
    const scripted = createScriptedProviders().providers
    const model = createOpenAiSeoProvider({
      apiKey: 'sk-test',
      baseUrl: openai.url,
      model: 'gpt-4o-mini',
      maxRetries: 0,
    })
    const providers: Providers = {
      ...scripted,
      seo: {
        name: 'openai',
        writeSeo(request, ctx) {
          seen.push(request)
          return model.writeSeo(request, ctx)
        },
      },
    }
    server = await startTestServer({ TRUST_PROXY: 'true' }, { providers })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    openai.reset()
    openai.clearRequests()
    seen.length = 0
  })
  afterAll(async () => {
    await server.close()
    await openai.close()
  })

  const details: ProductDetails = {
    name: 'Türk Kahvesi Fincan Takımı',
    brand: 'Atölye',
    material: 'porselen',
    color: 'Kırmızı',
    description: 'İki kişilik el yapımı porselen fincan takımı. Bulaşık makinesinde yıkanabilir.',
    features: ['2 kişilik takım', '90 ml fincan'],
  }

  async function seoJob(client: TestClient, body: Record<string, unknown>) {
    const imageAssetId = await uploadPhoto(client)
    const response = await createGeneration(client, { mode: 'seo', imageAssetId, ...body })
    expect(response.status, await response.clone().text()).toBe(202)
    const { generation } = (await response.json()) as { generation: { id: string } }
    return waitForStatus(client, generation.id, ['succeeded', 'failed'])
  }

  const prompts = () =>
    openai.requests.map(
      (r) => (r.body as { messages: { content: { text?: string }[] }[] }).messages[0]?.content[0]?.text ?? '',
    )

  it('passes colour, description and key features from the form to the writer, as typed', async () => {
    const client = await signedInClient(server)
    const done = await seoJob(client, { details })
    expect(done.status).toBe('succeeded')
    expect(seen[0]?.details).toEqual(details)
    const [row] = await server.database.db.select().from(generations).where(eq(generations.id, done.id))
    expect(row?.context).toEqual(details)
    if (done.result?.type !== 'seo') throw new Error('no SEO result')
    expect(factViolations(done.result, details)).toEqual([])
    expect(done.result.colourFromPhoto).toBeUndefined()
  })

  it('asks again when the answer drops a fact, naming it, and takes the second answer', async () => {
    openai.script(['drops-facts', 'valid'])
    const client = await signedInClient(server)
    const done = await seoJob(client, { details })
    expect(done.status).toBe('succeeded')
    const [first, second] = prompts()
    expect(first).toContain('Satıcının verdiği bilgiler kesindir')
    expect(first).not.toContain('önceki yanıt')
    expect(second).toContain('Renk başlıkta ya da özelliklerde aynen geçmeli: "Kırmızı"')
    expect(second).toContain('"beyaz" rengini hiçbir yerde kullanma')
    expect(second).toContain('Satıcının bu özelliği özelliklerde aynen geçmeli: "2 kişilik takım"')
    if (done.result?.type !== 'seo') throw new Error('no SEO result')
    expect(factViolations(done.result, details)).toEqual([])
    expect(done.result.features.some((line) => line.includes('Kırmızı'))).toBe(true)
  })

  it('refuses copy that drops a fact twice, with its own code, and counts nothing', async () => {
    openai.script(['drops-facts', 'drops-facts'])
    const client = await signedInClient(server)
    const before = await usage(client)
    const done = await seoJob(client, { details })
    expect(done.status).toBe('failed')
    expect(done.errorCode).toBe('SEO_FACTS_BROKEN')
    expect(done.result).toBeNull()
    // One job, asked twice, not retried by the queue: the same answer would come back.
    expect(openai.requests).toHaveLength(2)
    const after = await usage(client)
    expect([after.images.used, after.videos.used]).toEqual([before.images.used, before.videos.used])
    expect(after.seo).toEqual({ unlimited: true })
  })

  it("brings a catalogue row's colour and description to the writer and into the copy unchanged", async () => {
    const client = await signedInClient(server)
    const done = await catalogueSeo(server, client, cupRow)
    expect(done.status).toBe('succeeded')
    expect(seen[0]?.details).toMatchObject({
      name: 'Espresso Fincanı',
      color: 'Kırmızı',
      material: 'Porselen',
      description: 'Sırlı porselen espresso fincanı. Tabağıyla birlikte gelir.',
    })
    if (done.result?.type !== 'seo') throw new Error('no SEO result')
    expect(done.result.features).toContain('Renk: Kırmızı')
    expect(done.result.description).toContain('Sırlı porselen espresso fincanı.')
  })
})

describe('offline SEO copy of a catalogue row', () => {
  let server: TestServer
  beforeAll(async () => {
    const providers: Providers = {
      ...createScriptedProviders().providers,
      seo: createOfflineStudio({ segmenter: sharedSegmenter(), ffmpegPath: 'ffmpeg' }),
    }
    server = await startTestServer({ TRUST_PROXY: 'true' }, { providers })
  })
  afterAll(async () => {
    await server.close()
  })

  it("keeps the row's colour as given among the features, and marks nothing as read from the photo", async () => {
    const client = await signedInClient(server)
    const done = await catalogueSeo(server, client, cupRow)
    expect(done.status).toBe('succeeded')
    if (done.result?.type !== 'seo') throw new Error('no SEO result')
    expect(done.result.features).toContain('Renk: Kırmızı')
    expect(done.result.colourFromPhoto).toBeUndefined()
    expect(
      factViolations(done.result, {
        name: 'Espresso Fincanı',
        color: 'Kırmızı',
        material: 'Porselen',
        description: 'Sırlı porselen espresso fincanı. Tabağıyla birlikte gelir.',
      }),
    ).toEqual([])
  })
})

const cupRow = productRow(1, {
  'Ürün Adı': 'Espresso Fincanı',
  Kategori: 'Mutfak > Fincan',
  Marka: '',
  Renk: 'Kırmızı',
  Materyal: 'Porselen',
  Açıklama: 'Sırlı porselen espresso fincanı. Tabağıyla birlikte gelir.',
})

/** Imports a one-row list with its photo, starts SEO copy for it and waits for the job to end. */
async function catalogueSeo(server: TestServer, client: TestClient, row: string[]) {
  const imported = await client.request('/api/catalogue/imports', {
    method: 'POST',
    body: formOf('list', csvOf([row]), 'ürünler.csv'),
  })
  const draft = (await imported.json()) as CatalogueImportView
  const zip = await zipOf([{ name: 'SKU-1.jpg', data: await makeJpeg(80, 60), store: true }])
  const photos = await client.request(`/api/catalogue/batches/${draft.batch.id}/photos`, {
    method: 'POST',
    body: formOf('photos', zip, 'fotoğraflar.zip'),
  })
  expect(photos.status).toBe(200)
  const started = await client.request(`/api/catalogue/batches/${draft.batch.id}/start`, {
    json: { outputs: { seo: true } },
  })
  expect(started.status).toBe(200)
  const [job] = await server.database.db.select().from(generations).where(eq(generations.mode, 'seo'))
  if (!job) throw new Error('no SEO job')
  return waitForStatus(client, job.id, ['succeeded', 'failed'])
}

function formOf(field: string, bytes: Buffer, name: string): FormData {
  const body = new FormData()
  body.append(field, new Blob([new Uint8Array(bytes)]), name)
  return body
}
