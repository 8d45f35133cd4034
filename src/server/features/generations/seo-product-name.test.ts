import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generations } from '#server/db/schema/index.ts'
import en from '#shared/i18n/locales/en/errors.json' with { type: 'json' }
import tr from '#shared/i18n/locales/tr/errors.json' with { type: 'json' }
import { createGeneration, signedInClient, uploadPhoto } from '#tests/support/generation-client.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

// The offline writer cannot see what a photo shows: SEO copy with neither a product name nor a
// category is refused when it is asked for, before anything is queued, instead of a listing for a
// "Renkli Ürün". A language model sees the photo, so with SEO_PROVIDER=openai the same request runs.

describe('offline SEO copy asks for the product name', () => {
  let offline: TestServer
  let model: TestServer
  beforeAll(async () => {
    ;[offline, model] = await Promise.all([
      startTestServer(),
      startTestServer({ SEO_PROVIDER: 'openai', OPENAI_API_KEY: 'test-key' }),
    ])
  })
  afterAll(async () => {
    await Promise.all([offline?.close(), model?.close()])
  })

  it('refuses with 422 SEO_NEEDS_PRODUCT_NAME and queues nothing, with neither a name nor a category', async () => {
    const client = await signedInClient(offline)
    const imageAssetId = await uploadPhoto(client)
    for (const details of [
      undefined,
      {},
      { brand: 'Karaca', color: 'Kırmızı', material: 'Porselen' },
      { name: '  ' },
    ]) {
      const response = await createGeneration(client, {
        mode: 'seo',
        imageAssetId,
        ...(details ? { details } : {}),
      })
      expect(response.status).toBe(422)
      expect((await response.json()).error.code).toBe('SEO_NEEDS_PRODUCT_NAME')
    }
    expect(await offline.database.db.select().from(generations)).toHaveLength(0)
    // The message the Create page shows for the code, in both languages.
    expect(en.SEO_NEEDS_PRODUCT_NAME).toMatch(/product name/)
    expect(tr.SEO_NEEDS_PRODUCT_NAME).toMatch(/ürün adını/)
  })

  it('accepts a name or a category, and other modes without either', async () => {
    const client = await signedInClient(offline)
    const imageAssetId = await uploadPhoto(client)
    for (const details of [
      { name: 'Türk Kahvesi Fincan Takımı, 2 Kişilik' },
      { category: 'Ev & Yaşam > Mutfak > Fincan' },
    ]) {
      expect((await createGeneration(client, { mode: 'seo', imageAssetId, details })).status).toBe(202)
    }
    expect((await createGeneration(client, { mode: 'image', imageAssetId })).status).toBe(202)
  })

  it('lets a language model write from the photo alone', async () => {
    const client = await signedInClient(model)
    const imageAssetId = await uploadPhoto(client)
    expect((await createGeneration(client, { mode: 'seo', imageAssetId })).status).toBe(202)
  })
})
