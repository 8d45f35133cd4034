import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { assets, imageFacts } from '#server/db/schema/index.ts'
import type { Providers } from '#server/jobs/run-generation.ts'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { MarketplaceCheckView } from '#shared/contracts/marketplaces.ts'
import { createGeneration, signedInClient, upload, waitForStatus } from '#tests/support/generation-client.ts'
import { productPhoto } from '#tests/support/test-photos.ts'
import { startTestServer, type TestClient, type TestServer } from '#tests/support/test-server.ts'
import type { TextReader } from './read-text.ts'

// The text-on-image rule over HTTP, with the real OCR (read-text.ts) the app starts by default
// (MARKETPLACE_OCR): results made by a worker with the offline studio, one of them with a promo
// overlay written over its stored file, as an AI edit that drew text would leave it.

// OCR runs in a thread of its own and these results are checked one by one: generous timeouts
// for a busy machine.
const slow = 120_000

/** The offline studio's result with "BÜYÜK İNDİRİM %50" in large dark letters on a light band across its top. */
async function withPromoOverlay(bytes: Buffer): Promise<Buffer> {
  const { width = 1080, height = 1080 } = await sharp(bytes).metadata()
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect x="0" y="60" width="${width}" height="160" fill="#f4f1ec"/>
    <text x="80" y="175" font-family="DejaVu Sans" font-weight="bold" font-size="80"
      fill="#1a1a1a">BÜYÜK İNDİRİM %50</text>
  </svg>`
  return sharp(bytes)
    .composite([{ input: Buffer.from(svg) }])
    .jpeg({ quality: 90 })
    .toBuffer()
}

describe('the text-on-image rule over HTTP', () => {
  let server: TestServer
  let owner: TestClient
  let photoId: string
  let reader: TextReader

  const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg', segmenter: sharedSegmenter() })
  const providers: Providers = {
    image: studio,
    video: studio,
    seo: {
      name: 'offline',
      writeSeo: async () => ({
        title: 'Deri cüzdan',
        description: 'Deri.',
        features: [],
        keywords: [],
        model: 'scripted',
      }),
    },
  }

  async function imageResult(prompt: string): Promise<{ id: string; assetId: string; storageKey: string }> {
    const response = await createGeneration(owner, { mode: 'image', imageAssetId: photoId, prompt })
    expect(response.status).toBe(202)
    const { generation } = (await response.json()) as { generation: GenerationView }
    const done = await waitForStatus(owner, generation.id, ['succeeded', 'failed'], 60_000)
    expect(done.status).toBe('succeeded')
    if (done.result?.type !== 'image') throw new Error('expected an image result')
    const assetId = done.result.image.id
    const [asset] = await server.database.db.select().from(assets).where(eq(assets.id, assetId))
    if (!asset) throw new Error('no result asset')
    return { id: done.id, assetId, storageKey: asset.storageKey }
  }

  async function textRule(id: string, profile: string, slot = 'main') {
    const response = await owner.request(`/api/generations/${id}/marketplace/${profile}?slot=${slot}`)
    expect(response.status).toBe(200)
    const view = (await response.json()) as MarketplaceCheckView
    return { facts: view.image?.facts, rule: view.image?.results.find((r) => r.ruleId === 'image.text') }
  }

  const storedFacts = async (assetId: string) => {
    const [row] = await server.database.db.select().from(imageFacts).where(eq(imageFacts.assetId, assetId))
    return row
  }

  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true', GENERATIONS_PER_MINUTE: '1000' }, { providers })
    if (!server.deps.textReader) throw new Error('the test server should read text (MARKETPLACE_OCR)')
    reader = server.deps.textReader
    owner = await signedInClient(server)
    const uploaded = await upload(owner, await productPhoto({ width: 600, height: 600 }))
    expect(uploaded.status).toBe(201)
    photoId = ((await uploaded.json()) as { asset: { id: string } }).asset.id
  }, 90_000)
  afterEach(() => {
    vi.restoreAllMocks()
  })
  afterAll(async () => {
    await server?.close()
  })

  it(
    'warns with the words when the result carries a promo overlay (Amazon; Trendyol publishes no text rule)',
    async () => {
      const result = await imageResult('marble')
      const original = await server.deps.storage.get(result.storageKey)
      await server.deps.storage.put(result.storageKey, await withPromoOverlay(original), 'image/jpeg')
      const read = vi.spyOn(reader, 'read')

      const amazon = await textRule(result.id, 'amazon-tr')
      expect(amazon.facts?.text).toEqual(expect.arrayContaining(['BÜYÜK', 'İNDİRİM']))
      expect(amazon.rule).toMatchObject({
        status: 'warn',
        // Amazon's main image: text is allowed only where it is printed on the product.
        reason: {
          key: 'marketplaces.reasons.textFound',
          values: { words: expect.stringMatching(/^BÜYÜK, İNDİRİM/) },
        },
      })
      const additional = await textRule(result.id, 'amazon-tr', 'additional')
      expect(additional.rule?.reason.key).toBe('marketplaces.reasons.textFoundWatermark')
      // Trendyol publishes no such rule (src/shared/marketplaces/not-found.ts); the facts still carry the words.
      const trendyol = await textRule(result.id, 'trendyol')
      expect(trendyol.rule?.status).toBe('not-published')
      expect(trendyol.facts?.text).toEqual(amazon.facts?.text)
      // Read once, with the measurement; the later checks use the stored facts.
      expect(read).toHaveBeenCalledTimes(1)
      expect((await storedFacts(result.assetId))?.facts.text).toEqual(amazon.facts?.text)
    },
    slow,
  )

  it(
    'passes a clean result: OCR ran and found no words',
    async () => {
      const result = await imageResult('linen')
      const read = vi.spyOn(reader, 'read')
      const { facts, rule } = await textRule(result.id, 'amazon-tr')
      expect(read).toHaveBeenCalledTimes(1)
      expect(facts?.text).toEqual([])
      expect(rule).toMatchObject({ status: 'pass', reason: { key: 'marketplaces.reasons.noTextFound' } })
      expect((await textRule(result.id, 'amazon-tr', 'additional')).rule?.status).toBe('pass')
    },
    slow,
  )

  it(
    'reads the text of facts stored without it on the next check, once, changing only that key',
    async () => {
      const result = await imageResult('marble')
      // Measured (and stored) while the file was clean; then the file gains the overlay and the
      // row loses its text, as a row stored before OCR existed would have none. A fresh read is
      // the only way the row can come to hold the overlay's words.
      await textRule(result.id, 'trendyol')
      const measured = await storedFacts(result.assetId)
      if (!measured) throw new Error('facts not stored')
      expect(measured.facts.text).toEqual([])
      const original = await server.deps.storage.get(result.storageKey)
      await server.deps.storage.put(result.storageKey, await withPromoOverlay(original), 'image/jpeg')
      const { text: _text, ...withoutText } = measured.facts
      await server.database.db
        .update(imageFacts)
        .set({ facts: { ...withoutText, text: null } })
        .where(eq(imageFacts.assetId, result.assetId))
      const read = vi.spyOn(reader, 'read')
      const segment = vi.spyOn(sharedSegmenter(), 'segment')

      const first = await textRule(result.id, 'amazon-tr')
      expect(first.rule?.status).toBe('warn')
      expect(first.facts?.text).toEqual(expect.arrayContaining(['BÜYÜK', 'İNDİRİM']))
      expect(read).toHaveBeenCalledTimes(1)
      // OCR alone: the image is not measured again.
      expect(segment).not.toHaveBeenCalled()
      const updated = await storedFacts(result.assetId)
      expect(updated?.facts).toEqual({ ...measured.facts, text: first.facts?.text })
      expect(updated?.measuredAt).toEqual(measured.measuredAt)

      const second = await textRule(result.id, 'amazon-tr', 'additional')
      expect(second.facts?.text).toEqual(first.facts?.text)
      expect(second.rule?.status).toBe('warn')
      expect(read).toHaveBeenCalledTimes(1)
    },
    slow,
  )

  it(
    'keeps "check by eye" and the row as it is when OCR cannot read, and reads on a later check',
    async () => {
      const result = await imageResult('linen')
      await textRule(result.id, 'trendyol')
      const measured = await storedFacts(result.assetId)
      if (!measured) throw new Error('facts not stored')
      await server.database.db
        .update(imageFacts)
        .set({ facts: { ...measured.facts, text: null } })
        .where(eq(imageFacts.assetId, result.assetId))
      const read = vi.spyOn(reader, 'read').mockResolvedValueOnce(null)

      const unread = await textRule(result.id, 'amazon-tr')
      expect(unread.rule).toMatchObject({
        status: 'check-by-eye',
        reason: { key: 'marketplaces.reasons.textUnread' },
      })
      expect((await storedFacts(result.assetId))?.facts.text).toBeNull()

      const later = await textRule(result.id, 'amazon-tr')
      expect(later.rule?.status).toBe('pass')
      expect(read).toHaveBeenCalledTimes(2)
      expect((await storedFacts(result.assetId))?.facts.text).toEqual([])
    },
    slow,
  )
})
