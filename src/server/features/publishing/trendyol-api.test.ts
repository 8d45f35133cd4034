import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { trendyolCategoryAttributes } from '#tests/fakes/trendyol-catalog.ts'
import {
  defaultTrendyolSeller,
  startTrendyolFake,
  type TrendyolFake,
  trendyolFailureReasons,
  trendyolFakeDefaults,
  trendyolVideoErrors,
  trendyolVideoFailures,
} from '#tests/fakes/trendyol-server.ts'
import { MarketplaceApiError } from './marketplace-api-error.ts'
import { createTrendyolApi, type TrendyolProductItem } from './trendyol-api.ts'

// The Trendyol client against the fake seller API (tests/fakes/trendyol-server.ts), over real
// HTTP: lookups, a product batch and its per-item outcome, the reviewers' rejections, and each
// kind of failure as publishing sees it.

let fake: TrendyolFake
let imageServer: Server
let images = ''

beforeAll(async () => {
  const photo = await sharp({ create: { width: 1200, height: 1800, channels: 3, background: '#f4efe6' } })
    .jpeg()
    .toBuffer()
  // An MP4's opening box: the fake reads a video's type from its first bytes.
  const clip = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)])
  imageServer = createServer((req, res) => {
    if (req.url === '/clip.mp4') return res.writeHead(200, { 'content-type': 'video/mp4' }).end(clip)
    if (req.url !== '/cup.jpg') return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo)
  })
  await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve))
  images = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`
  fake = await startTrendyolFake({ allowHttpImages: true })
})

afterAll(async () => {
  await fake.close()
  await new Promise((resolve) => imageServer.close(resolve))
})

beforeEach(() => fake.reset())

const api = () => createTrendyolApi({ baseUrl: fake.apiBase, credentials: defaultTrendyolSeller })

const cupAttributes = trendyolCategoryAttributes.get(1111) ?? []
function valueId(attributeName: string, value: string): number {
  const found = cupAttributes
    .find((a) => a.attribute.name === attributeName)
    ?.attributeValues.find((v) => v.name === value)
  if (!found) throw new Error(`no ${attributeName}=${value}`)
  return found.id
}

function cupItem(barcode: string, overrides: Partial<TrendyolProductItem> = {}): TrendyolProductItem {
  return {
    barcode,
    title: 'Kahve Fincan Takımı 6 Kişilik Porselen Beyaz',
    productMainId: `model-${barcode}`,
    brandId: 101,
    categoryId: 1111,
    quantity: 20,
    stockCode: `stk-${barcode}`,
    dimensionalWeight: 2,
    description: '<p>6 kişilik porselen kahve fincan takımı.</p>',
    currencyType: 'TRY',
    listPrice: 899.9,
    salePrice: 749.9,
    vatRate: 20,
    origin: 'TR',
    images: [{ url: `${images}/cup.jpg` }],
    attributes: [
      { attributeId: 47, attributeValueId: valueId('Renk', 'Beyaz') },
      { attributeId: 14, attributeValueId: valueId('Materyal', 'Porselen') },
      { attributeId: 343, attributeValueId: valueId('Boyut/Ebat', 'Tek Ebat') },
      { attributeId: 711, attributeValueId: valueId('Parça Sayısı', '12') },
    ],
    ...overrides,
  }
}

/** The error a promise rejects with. */
async function failureOf(promise: Promise<unknown>): Promise<MarketplaceApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  if (!(error instanceof MarketplaceApiError)) throw new Error(`expected a MarketplaceApiError, got ${error}`)
  return error
}

describe('the Trendyol client', () => {
  it('finds a brand, the category, its required attributes and their allowed values', async () => {
    const client = api()
    expect(await client.brandsByName('Paşa')).toEqual([{ id: 102, name: 'Paşabahçe' }])
    const tree = await client.categoryTree()
    const names = JSON.stringify(tree)
    expect(names).toContain('Fincan Takımı')
    const attributes = await client.categoryAttributes(1111)
    expect(attributes.filter((a) => a.required).map((a) => a.attribute.name)).toEqual(
      expect.arrayContaining(['Renk', 'Materyal', 'Boyut/Ebat', 'Parça Sayısı']),
    )
    const colours = await client.attributeValues(1111, 47)
    expect(colours).toContainEqual({ attributeValueId: valueId('Renk', 'Beyaz'), attributeValue: 'Beyaz' })
    // Every request carried the key, the secret and the User-Agent Trendyol requires.
    expect(fake.requests.every((r) => r.headers['user-agent'] === '123456 - SelfIntegration')).toBe(true)
  })

  it('creates products and reads each one back from its batch, with the reasons a product failed', async () => {
    const client = api()
    const tooLong = 'Kahve Fincan Takımı '.repeat(6)
    const batchRequestId = await client.createProducts([
      cupItem('VTR-CUP-1'),
      cupItem('VTR-CUP-2', { title: tooLong }),
    ])
    expect(batchRequestId).toMatch(/\S/)
    await fake.idle()
    const result = await client.batchResult(batchRequestId)
    expect(result.status).toBe('COMPLETED')
    expect(result.items).toEqual([
      { barcode: 'VTR-CUP-1', status: 'SUCCESS', failureReasons: [] },
      {
        barcode: 'VTR-CUP-2',
        status: 'FAILED',
        failureReasons: expect.arrayContaining([trendyolFailureReasons.titleTooLong(tooLong.length)]),
      },
    ])
  })

  it("reads the reviewers' rejection of a product back, with their reasons", async () => {
    fake.script({
      reject: {
        'VTR-CUP-3': [{ rejectReason: 'Görsel', rejectReasonDetail: 'Ürün görseli beyaz fonda değil.' }],
      },
    })
    const client = api()
    const batchRequestId = await client.createProducts([cupItem('VTR-CUP-3'), cupItem('VTR-CUP-4')])
    await fake.idle()
    expect((await client.batchResult(batchRequestId)).status).toBe('COMPLETED')
    expect(await client.unapproved(['VTR-CUP-3', 'VTR-CUP-4'])).toEqual([
      { barcode: 'VTR-CUP-3', status: 'pendingApproval', rejectReasons: [] },
      { barcode: 'VTR-CUP-4', status: 'pendingApproval', rejectReasons: [] },
    ])
    fake.advance(trendyolFakeDefaults.approvalMs)
    // The approved one is no longer among the unapproved; the rejected one says why.
    expect(await client.unapproved(['VTR-CUP-3', 'VTR-CUP-4'])).toEqual([
      {
        barcode: 'VTR-CUP-3',
        status: 'rejected',
        rejectReasons: [{ reason: 'Görsel', detail: 'Ürün görseli beyaz fonda değil.' }],
      },
    ])
  })

  it('sends a video for an approved product to the video service, and follows it until it shows', async () => {
    const client = api()
    await client.createProducts([cupItem('VTR-CUP-7')])
    await fake.idle()
    fake.advance(trendyolFakeDefaults.approvalMs)
    const [approved] = await client.approved(['VTR-CUP-7'])
    expect(approved?.contentId).toMatch(/^\d+$/)
    const contentId = approved?.contentId ?? ''

    const videoId = await client.createVideo({
      title: 'Kahve Fincan Takımı',
      videoUrl: `${images}/clip.mp4`,
      productContentIds: [contentId],
    })
    expect(fake.videos.get(videoId)).toMatchObject({
      productContentIds: [contentId],
      title: 'Kahve Fincan Takımı',
    })
    await fake.idle()
    expect(await client.video(videoId)).toEqual({
      id: videoId,
      status: 'SUCCESS',
      isApproved: false,
      errorCode: null,
    })
    fake.advance(trendyolFakeDefaults.approvalMs)
    expect(await client.video(videoId)).toMatchObject({ status: 'SUCCESS', isApproved: true })
    expect(await client.video('no-such-video')).toBeNull()

    // A file that is not a movie fails with the guide's format code; a bad title is refused at once.
    const picture = await client.createVideo({
      title: 'Fincan',
      videoUrl: `${images}/cup.jpg`,
      productContentIds: [contentId],
    })
    await fake.idle()
    expect(await client.video(picture)).toMatchObject({
      status: 'FAILED',
      errorCode: trendyolVideoFailures.format,
    })
    const refused = await failureOf(
      client.createVideo({ title: 'Ab', videoUrl: `${images}/clip.mp4`, productContentIds: [contentId] }),
    )
    expect(refused).toMatchObject({
      failure: 'rejected',
      status: 400,
      messages: [trendyolVideoErrors.titleLength[1]],
    })
  })

  it('says how it failed: refused keys, a spent budget, a refused request, an outage, no answer', async () => {
    const wrongSecret = createTrendyolApi({
      baseUrl: fake.apiBase,
      credentials: { ...defaultTrendyolSeller, apiSecret: 'not-the-secret' },
    })
    expect(await failureOf(wrongSecret.categoryTree())).toMatchObject({ failure: 'auth', status: 401 })

    fake.script({ requests: [429], retryAfterSeconds: 7 })
    // A scripted 429 carries no Retry-After; the budget's own does when the script sets one.
    const limited = await failureOf(api().categoryTree())
    expect(limited).toMatchObject({ failure: 'rate-limited', status: 429, isTransient: true })

    fake.script({ writeLimitPerMinute: 1, retryAfterSeconds: 7 })
    const client = api()
    await client.createProducts([cupItem('VTR-CUP-5')])
    const overBudget = await failureOf(client.createProducts([cupItem('VTR-CUP-6')]))
    expect(overBudget).toMatchObject({ failure: 'rate-limited', retryAfterMs: 7000 })

    fake.reset()
    const notLeaf = await failureOf(api().categoryAttributes(1))
    expect(notLeaf).toMatchObject({ failure: 'rejected', status: 400, isTransient: false })
    expect(notLeaf.messages).toEqual(['Kategori bulunamadı ya da en alt seviyede değil.'])

    fake.script({ requests: [503] })
    expect(await failureOf(api().categoryTree())).toMatchObject({ failure: 'unavailable', status: 503 })

    const nobody = createTrendyolApi({
      baseUrl: 'http://127.0.0.1:9/integration',
      credentials: defaultTrendyolSeller,
    })
    expect(await failureOf(nobody.categoryTree())).toMatchObject({ failure: 'unavailable', status: null })
  })
})
