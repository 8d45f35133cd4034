import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { PublishDraftResponse } from '#shared/contracts/publishing.ts'
import { type OpenAiFake, startOpenAiFake } from '#tests/fakes/openai-server.ts'
import { defaultTrendyolSeller, startTrendyolFake, type TrendyolFake } from '#tests/fakes/trendyol-server.ts'
import { createGeneration, signedInClient, upload, waitForStatus } from '#tests/support/generation-client.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import { startTestServer, type TestClient, type TestServer } from '#tests/support/test-server.ts'

// POST /api/publications/draft with VISION_MODEL set, the model being the fake OpenAI-compatible
// server: a required attribute nothing else could fill comes back chosen from the photo (source
// `vision`), and a model that fails leaves it for the seller without failing the draft. (Without
// VISION_MODEL the same attribute is `missing`: publications.routes.test.ts.)

describe('the publishing draft with a vision model', () => {
  let trendyol: TrendyolFake
  let openai: OpenAiFake
  let server: TestServer
  const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg', segmenter: sharedSegmenter() })

  beforeAll(async () => {
    trendyol = await startTrendyolFake({ allowHttpImages: true })
    openai = await startOpenAiFake()
    server = await startTestServer(
      {
        GENERATIONS_PER_MINUTE: '1000',
        TRENDYOL_API_BASE: trendyol.apiBase,
        VISION_MODEL: 'gpt-4o-mini',
        OPENAI_API_KEY: 'sk-test-draft-vision',
        OPENAI_BASE_URL: openai.url,
      },
      { providers: { image: studio, video: studio, seo: studio } },
    )
  })
  afterAll(async () => {
    await server.close()
    await trendyol.close()
    await openai.close()
  })

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

  it('fills a required attribute from the photo, and asks for it when the model fails', async () => {
    const client = await connected()
    const uploaded = await upload(client, await productPhoto({ width: 900, height: 900 }))
    const imageAssetId = ((await uploaded.json()) as { asset: { id: string } }).asset.id
    const created = await createGeneration(client, { mode: 'image', imageAssetId })
    expect(created.status).toBe(202)
    const { generation } = (await created.json()) as { generation: GenerationView }
    const image = await waitForStatus(client, generation.id, ['succeeded'], 60_000)

    const draft = async () => {
      const response = await client.request('/api/publications/draft', {
        json: {
          marketplace: 'trendyol',
          categoryId: '1111',
          imageGenerationId: image.id,
          copyGenerationId: null,
        },
      })
      expect(response.status).toBe(200)
      return (await response.json()) as PublishDraftResponse
    }

    openai.clearRequests()
    const chosen = await draft()
    const pieces = chosen.attributes.find((attribute) => attribute.name === 'Parça Sayısı')
    if (!pieces) throw new Error('no Parça Sayısı in the category')
    expect(pieces.isRequired).toBe(true)
    // The fake, held to the schema, answers each attribute's first allowed value.
    expect(chosen.filled.filter((value) => value.attributeId === pieces.id)).toEqual([
      {
        attributeId: pieces.id,
        valueId: pieces.values[0]?.id,
        value: pieces.values[0]?.name,
        source: 'vision',
      },
    ])
    expect(chosen.missing).not.toContain(pieces.id)
    // The colour still comes from the photo's pixels, not from the model.
    const colour = chosen.attributes.find((attribute) => attribute.name === 'Renk')
    expect(chosen.filled.find((value) => value.attributeId === colour?.id)?.source).toBe('photo')

    // What the model got: the seller's photo at 768 px as JPEG, and the category named.
    expect(openai.requests).toHaveLength(1)
    const body = openai.requests[0]?.body as {
      model: string
      messages: { content: { type: string; text?: string; image_url?: { url: string } }[] }[]
    }
    expect(body.model).toBe('gpt-4o-mini')
    const [text, part] = body.messages[0]?.content ?? []
    expect(text?.text).toContain(`Kategori: ${chosen.category.path.join(' > ')}`)
    const url = part?.image_url?.url ?? ''
    const sent = await sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).metadata()
    expect(sent).toMatchObject({ format: 'jpeg', width: 768, height: 768 })

    // A model that fails: the draft still answers, and the attribute is the seller's to give.
    openai.script(500)
    const asked = await draft()
    expect(asked.filled.filter((value) => value.source === 'vision')).toEqual([])
    expect(asked.missing).toContain(pieces.id)
    expect(asked.filled.find((value) => value.attributeId === colour?.id)?.source).toBe('photo')
    openai.reset()
  }, 180_000)
})
