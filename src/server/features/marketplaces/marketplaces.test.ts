import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { generations, imageFacts } from '#server/db/schema/index.ts'
import type { Providers } from '#server/jobs/run-generation.ts'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { MarketplaceCheckView, PreferencesResponse } from '#shared/contracts/marketplaces.ts'
import type { CheckResult } from '#shared/marketplaces/check.ts'
import { codePointLength } from '#shared/marketplaces/text.ts'
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
import { measureVideo } from './video.ts'

// The marketplace panel over HTTP, on results made by a real worker with the offline studio
// (1080×1080 images, 8.0 s videos made with ffmpeg) and an SEO writer that returns copy too long
// for Trendyol, with a "!" Amazon forbids.

const ffmpegPath = 'ffmpeg'
const longTitle =
  'Anka El Yapımı Hakiki Deri Erkek Cüzdan Kartlık Bölmeli İnce Tasarım Günlük Kullanım İçin Şık ve Dayanıklı Hediye!'
const seoCopy = {
  title: longTitle,
  description: 'El yapımı hakiki deri cüzdan. İnce, dayanıklı ve şık.',
  features: ['Hakiki deri', 'El yapımı', 'İnce', 'Dayanıklı'],
  keywords: ['cüzdan', 'deri', 'erkek', 'kartlık', 'hediye', 'ince', 'el yapımı', 'şık', 'günlük', 'anka'],
  model: 'scripted',
}

describe('marketplace check and export over HTTP', () => {
  let server: TestServer
  let owner: TestClient
  let photoId: string
  let imageId: string
  let imageDone: GenerationView | null = null
  /** The shared image result, once it has succeeded. */
  async function imageResult(): Promise<GenerationView> {
    if (!imageDone) {
      imageDone = await waitForStatus(owner, imageId, ['succeeded', 'failed'], 60_000)
      expect(imageDone.status).toBe('succeeded')
    }
    return imageDone
  }

  const studio = createOfflineStudio({ ffmpegPath, segmenter: sharedSegmenter() })
  const providers: Providers = {
    image: studio,
    video: studio,
    seo: { name: 'offline', writeSeo: async () => seoCopy },
  }

  async function makeResult(client: TestClient, body: Record<string, unknown>): Promise<GenerationView> {
    const response = await createGeneration(client, body)
    expect(response.status).toBe(202)
    const { generation } = (await response.json()) as { generation: GenerationView }
    const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'], 60_000)
    expect(done.status).toBe('succeeded')
    return done
  }

  async function check(client: TestClient, id: string, profile: string, query = '') {
    return client.request(`/api/generations/${id}/marketplace/${profile}${query}`)
  }

  async function view(client: TestClient, id: string, profile: string, query = '') {
    const response = await check(client, id, profile, query)
    expect(response.status).toBe(200)
    return (await response.json()) as MarketplaceCheckView
  }

  const rule = (results: CheckResult[] | undefined, ruleId: string) =>
    results?.find((result) => result.ruleId === ruleId)

  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true', GENERATIONS_PER_MINUTE: '1000' }, { providers })
    owner = await signedInClient(server)
    const uploaded = await upload(owner, await productPhoto({ width: 600, height: 600 }))
    expect(uploaded.status).toBe(201)
    photoId = ((await uploaded.json()) as { asset: { id: string } }).asset.id
    // Queued here, waited for in the tests (expect.poll runs inside tests only).
    const queued = await createGeneration(owner, { mode: 'image', imageAssetId: photoId, prompt: 'marble' })
    expect(queued.status).toBe(202)
    imageId = ((await queued.json()) as { generation: GenerationView }).generation.id
  }, 90_000)
  afterAll(async () => {
    await server?.close()
  })

  it('checks an image result against Trendyol: its 1080×1080 size fails with the resize fix', async () => {
    const image = await imageResult()
    const result = await view(owner, image.id, 'trendyol')
    expect(result).toMatchObject({ profile: 'trendyol', generationId: image.id, video: null, copy: null })
    expect(result.image?.slot).toBe('main')
    expect(result.image?.facts).toMatchObject({ width: 1080, height: 1080, isGenerated: true })
    expect(rule(result.image?.results, 'image.size')).toMatchObject({
      status: 'fail',
      fix: 'resize',
      reason: { key: 'marketplaces.reasons.sizeNotExact' },
    })
    expect(rule(result.image?.results, 'image.background')?.status).toBe('not-published')
    expect(result.exportUrl).toBe(`/api/generations/${image.id}/marketplace/trendyol/export?n=1`)
    const results = result.image?.results ?? []
    expect(result.summary).toEqual({
      pass: results.filter((r) => r.status === 'pass').length,
      warn: results.filter((r) => r.status === 'warn').length,
      fail: results.filter((r) => r.status === 'fail').length,
    })
    expect(result.summary.fail).toBeGreaterThanOrEqual(1)
  })

  it("checks Amazon's main image: a made scene fails the real-photo rule, the seller's own product on white passes it", async () => {
    const image = await imageResult()
    const main = await view(owner, image.id, 'amazon-tr', '?slot=main')
    expect(rule(main.image?.results, 'image.realPhoto')).toMatchObject({
      status: 'fail',
      fix: 'use-original-photo',
    })
    expect(['pass', 'warn', 'fail']).toContain(rule(main.image?.results, 'image.background')?.status)
    expect(main.image?.facts.product).not.toBeNull()
    // The same image as an additional one: Amazon's real-photo rule is for the main image only.
    const additional = await view(owner, image.id, 'amazon-tr', '?slot=additional')
    expect(additional.image?.slot).toBe('additional')
    expect(rule(additional.image?.results, 'image.realPhoto')?.status).toBe('not-published')

    // The white studio keeps the seller's own product, measured as kept: a real photo as Amazon
    // means it, with its white background.
    const white = await makeResult(owner, {
      mode: 'image',
      imageAssetId: photoId,
      prompt: 'white studio background',
    })
    const onWhite = await view(owner, white.id, 'amazon-tr', '?slot=main')
    expect(onWhite.image?.facts.productFidelity?.changed).toBe(false)
    expect(rule(onWhite.image?.results, 'image.realPhoto')).toMatchObject({
      status: 'pass',
      reason: { key: 'marketplaces.reasons.ownProductOnWhite' },
    })
    expect(rule(onWhite.image?.results, 'image.background')?.status).toBe('pass')
  }, 90_000)

  it('measures an image once: later checks and a white export reuse it, and its facts are stored', async () => {
    const fresh = await makeResult(owner, { mode: 'image', imageAssetId: photoId, prompt: 'linen' })
    if (fresh.result?.type !== 'image') throw new Error('expected an image result')
    const assetId = fresh.result.image.id
    const factsRows = () =>
      server.database.db.select().from(imageFacts).where(eq(imageFacts.assetId, assetId))
    expect(await factsRows()).toHaveLength(0)

    const segment = vi.spyOn(sharedSegmenter(), 'segment')
    try {
      // Two requests at once still measure once: the result, and the seller's photo it is
      // compared with for the product's fidelity.
      const [first, second] = await Promise.all([
        view(owner, fresh.id, 'trendyol'),
        view(owner, fresh.id, 'hepsiburada'),
      ])
      expect(segment).toHaveBeenCalledTimes(2)
      expect(first.image?.facts.productFidelity?.changed).toBe(false)
      expect(second.image?.facts).toEqual(first.image?.facts)
      const stored = await factsRows()
      expect(stored).toHaveLength(1)
      expect(stored[0]?.facts).toEqual(first.image?.facts)

      await view(owner, fresh.id, 'amazon-tr')
      const exported = await owner.request(`/api/generations/${fresh.id}/marketplace/amazon-tr/export`)
      expect(exported.status).toBe(200)
      expect(segment).toHaveBeenCalledTimes(2)
      // Amazon's target: 2000×2000 on pure white (the product's own backdrop replaced along its mask).
      const bytes = Buffer.from(await exported.arrayBuffer())
      const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true })
      expect([info.width, info.height]).toEqual([2000, 2000])
      expect([data[0], data[1], data[2]]).toEqual([255, 255, 255])
    } finally {
      segment.mockRestore()
    }
  }, 90_000)

  it('warns when the edit changed the product: a result whose label differs from the seller’s photo', async () => {
    // A result made from the bottle with its label's marks replaced, then recorded as an edit of
    // the unchanged photo: what an AI edit that rewrote the label looks like to the checker.
    const changed = await upload(
      owner,
      await productPhoto({ width: 600, height: 600, variant: { labelMarks: 'swapped' } }),
    )
    expect(changed.status).toBe(201)
    const changedId = ((await changed.json()) as { asset: { id: string } }).asset.id
    const edited = await makeResult(owner, { mode: 'image', imageAssetId: changedId, prompt: 'marble' })
    await server.database.db
      .update(generations)
      .set({ inputAssetId: photoId })
      .where(eq(generations.id, edited.id))
    const result = await view(owner, edited.id, 'trendyol')
    expect(result.image?.facts.productFidelity?.changed).toBe(true)
    expect(rule(result.image?.results, 'image.fidelity')).toMatchObject({
      status: 'warn',
      fix: 'keep-product',
      source: { vitrin: true },
    })
    // The kept product passes.
    const kept = await view(owner, (await imageResult()).id, 'trendyol')
    expect(rule(kept.image?.results, 'image.fidelity')?.status).toBe('pass')

    // Facts stored before the check existed get it once, and keep it.
    if (edited.result?.type !== 'image') throw new Error('expected an image result')
    const assetId = edited.result.image.id
    const [stored] = await server.database.db.select().from(imageFacts).where(eq(imageFacts.assetId, assetId))
    if (!stored) throw new Error('facts not stored')
    const { productFidelity: _dropped, ...older } = stored.facts
    await server.database.db.update(imageFacts).set({ facts: older }).where(eq(imageFacts.assetId, assetId))
    const again = await view(owner, edited.id, 'amazon-tr')
    expect(rule(again.image?.results, 'image.fidelity')?.status).toBe('warn')
    const [updated] = await server.database.db
      .select()
      .from(imageFacts)
      .where(eq(imageFacts.assetId, assetId))
    expect(updated?.facts.productFidelity?.changed).toBe(true)
  }, 120_000)

  it('exports an image for Trendyol as a 1200×1800 JPEG download named after the product', async () => {
    const image = await imageResult()
    const response = await owner.request(`/api/generations/${image.id}/marketplace/trendyol/export?n=2`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/jpeg')
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="vitrin-trendyol-2\.jpg"/,
    )
    const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata()
    expect(metadata).toMatchObject({ format: 'jpeg', width: 1200, height: 1800, space: 'srgb' })
    expect(metadata.exif).toBeUndefined()

    const badNumber = await owner.request(`/api/generations/${image.id}/marketplace/trendyol/export?n=0`)
    expect(badNumber.status).toBe(400)
  })

  it("answers only the owner: another user's result, an unknown generation or profile are 404", async () => {
    const image = await imageResult()
    const stranger = await signedInClient(server)
    expect((await check(stranger, image.id, 'trendyol')).status).toBe(404)
    const theirExport = await stranger.request(`/api/generations/${image.id}/marketplace/trendyol/export`)
    expect(theirExport.status).toBe(404)
    expect((await check(owner, crypto.randomUUID(), 'trendyol')).status).toBe(404)
    expect((await check(owner, 'not-an-id', 'trendyol')).status).toBe(404)
    const unknown = await check(owner, image.id, 'ebay')
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND')
    expect((await check(owner, image.id, 'trendyol', '?slot=cover')).status).toBe(400)
    const signedOut = createTestClient(server)
    expect((await check(signedOut, image.id, 'trendyol')).status).toBe(401)
  })

  it('answers 409 GENERATION_NOT_READY while the result does not exist yet', async () => {
    const client = await signedInClient(server)
    // Running elsewhere, with a lease no worker here takes over.
    const [row] = await server.database.db
      .insert(generations)
      .values({
        userId: await userIdOf(client),
        tool: 'product',
        mode: 'image',
        aspectRatio: '1:1',
        provider: 'offline',
        status: 'running',
        lockedBy: 'another-worker',
        leaseUntil: new Date(Date.now() + 3_600_000),
      })
      .returning()
    if (!row) throw new Error('no row')
    for (const path of ['', '/export']) {
      const response = await client.request(`/api/generations/${row.id}/marketplace/trendyol${path}`)
      expect(response.status).toBe(409)
      const body = (await response.json()) as { error: { code: string; message: string } }
      expect(body.error.code).toBe('GENERATION_NOT_READY')
    }
  })

  it('checks SEO copy and fits it to the profile: Trendyol title ≤ 100 at a word boundary, Amazon refuses "!"', async () => {
    const seo = await makeResult(owner, {
      mode: 'seo',
      imageAssetId: photoId,
      details: { name: 'Deri Cüzdan', brand: 'Anka' },
    })
    const trendyol = await view(owner, seo.id, 'trendyol')
    expect(trendyol.image).toBeNull()
    expect(trendyol.video).toBeNull()
    expect(trendyol.exportUrl).toBeNull()
    expect(rule(trendyol.copy?.results, 'copy.titleLength')).toMatchObject({
      status: 'fail',
      fix: 'shorten-title',
      reason: { values: { length: codePointLength(longTitle), max: 100 } },
    })
    expect(rule(trendyol.copy?.results, 'copy.brand')?.status).toBe('pass')
    const fitted = trendyol.copy?.fitted
    if (!fitted) throw new Error('expected fitted copy')
    expect(codePointLength(fitted.title)).toBeLessThanOrEqual(100)
    expect(codePointLength(fitted.title)).toBeGreaterThan(80)
    expect(longTitle.startsWith(fitted.title)).toBe(true)
    expect(longTitle[fitted.title.length]).toBe(' ')
    expect(fitted.description).toBe(seoCopy.description)
    expect(trendyol.summary.fail).toBeGreaterThanOrEqual(1)

    const amazon = await view(owner, seo.id, 'amazon-tr')
    expect(rule(amazon.copy?.results, 'copy.titleCharacters')).toMatchObject({
      status: 'fail',
      reason: { values: { chars: '!' } },
    })
    // Amazon's 200 characters hold it: nothing to cut.
    expect(amazon.copy?.fitted.title).toBe(longTitle)

    const exported = await owner.request(`/api/generations/${seo.id}/marketplace/trendyol/export`)
    expect(exported.status).toBe(400)
  }, 60_000)

  it('checks a video result and exports it for Trendyol lengthened past the 8 s floor with margin', async () => {
    const image = await imageResult()
    const response = await owner.request(`/api/generations/${image.id}/video`, { json: { prompt: '' } })
    expect(response.status).toBe(202)
    const { generation } = (await response.json()) as { generation: GenerationView }
    const video = await waitForStatus(owner, generation.id, ['succeeded', 'failed'], 90_000)
    expect(video.status).toBe('succeeded')

    const result = await view(owner, video.id, 'trendyol')
    expect(result.image).toBeNull()
    expect(result.video?.facts.format).toBe('mp4')
    expect(result.video?.facts.durationSeconds).toBeCloseTo(8, 0)
    expect(rule(result.video?.results, 'video.duration')?.status).not.toBe('not-published')
    expect(result.exportUrl).toBe(`/api/generations/${video.id}/marketplace/trendyol/export?n=1`)

    const exported = await owner.request(result.exportUrl ?? '')
    expect(exported.status).toBe(200)
    expect(exported.headers.get('content-type')).toBe('video/mp4')
    expect(exported.headers.get('content-disposition')).toMatch(/filename="vitrin-trendyol-1\.mp4"/)
    const facts = await measureVideo(Buffer.from(await exported.arrayBuffer()), { ffmpegPath })
    expect(facts.durationSeconds).toBeGreaterThanOrEqual(8.2)
    expect(facts.format).toBe('mp4')

    // Amazon takes 16:9 videos of at least 1280×720: the 1:1 clip is framed, not refused.
    const amazon = await view(owner, video.id, 'amazon-tr')
    expect(rule(amazon.video?.results, 'video.ratio')?.status).not.toBe('pass')
    const forAmazon = await owner.request(amazon.exportUrl ?? '')
    expect(forAmazon.status).toBe(200)
    const framed = await measureVideo(Buffer.from(await forAmazon.arrayBuffer()), { ffmpegPath })
    expect([framed.width, framed.height]).toEqual([1280, 720])
    expect(framed.durationSeconds).toBeCloseTo(8, 0)
  }, 150_000)

  it('keeps the profile preference: a round trip, a refused unknown profile, and a cleared choice', async () => {
    const client = await signedInClient(server)
    const read = async () => {
      const response = await client.request('/api/preferences')
      expect(response.status).toBe(200)
      return (await response.json()) as PreferencesResponse
    }
    expect(await read()).toEqual({ marketplaceProfile: null })
    const patch = (body: unknown) => client.request('/api/preferences', { method: 'PATCH', json: body })

    const saved = await patch({ marketplaceProfile: 'trendyol' })
    expect(saved.status).toBe(200)
    expect(await saved.json()).toEqual({ marketplaceProfile: 'trendyol' })
    expect(await read()).toEqual({ marketplaceProfile: 'trendyol' })
    expect(
      ((await (await patch({ marketplaceProfile: 'n11' })).json()) as PreferencesResponse).marketplaceProfile,
    ).toBe('n11')

    const refused = await patch({ marketplaceProfile: 'ebay' })
    expect(refused.status).toBe(400)
    const body = (await refused.json()) as {
      error: { code: string; details?: { fields?: Record<string, string> } }
    }
    expect(body.error.code).toBe('VALIDATION_FAILED')
    expect(body.error.details?.fields).toHaveProperty('marketplaceProfile')
    expect((await patch({})).status).toBe(400)
    expect(await read()).toEqual({ marketplaceProfile: 'n11' })

    expect((await (await patch({ marketplaceProfile: null })).json()) as PreferencesResponse).toEqual({
      marketplaceProfile: null,
    })
    // One user's choice is theirs only.
    const other = await signedInClient(server)
    expect(await (await other.request('/api/preferences')).json()).toEqual({ marketplaceProfile: null })
    expect((await createTestClient(server).request('/api/preferences')).status).toBe(401)
  })
})
