import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { trendyolCategoryAttributes } from './trendyol-catalog.ts'
import {
  defaultTrendyolSeller,
  startTrendyolFake,
  type TrendyolFake,
  trendyolFailureReasons,
  trendyolFakeDefaults,
  trendyolReviewReasons,
} from './trendyol-server.ts'

// Images the fake downloads, served over plain http (the fake allows it only with allowHttpImages).
let imageServer: Server
let images = ''
let fake: TrendyolFake
const hits = new Map<string, number>()
const seller = defaultTrendyolSeller
const auth = `Basic ${Buffer.from(`${seller.apiKey}:${seller.apiSecret}`).toString('base64')}`
const userAgent = `${seller.sellerId} - SelfIntegration`

beforeAll(async () => {
  const files = new Map<string, { bytes: Buffer; type: string }>([
    ['/good.jpg', { bytes: await solid(1200, 1800, 'jpeg'), type: 'image/jpeg' }],
    ['/good.webp', { bytes: await solid(1200, 1800, 'webp'), type: 'image/webp' }],
    ['/square.png', { bytes: await solid(1080, 1080, 'png'), type: 'image/png' }],
    ['/not-an-image.jpg', { bytes: Buffer.from('<html>not found page</html>'), type: 'image/jpeg' }],
  ])
  imageServer = createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1)
    const file = files.get(req.url ?? '')
    if (!file) return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': file.type }).end(file.bytes)
  })
  await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve))
  images = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`
  fake = await startTrendyolFake({ allowHttpImages: true, control: true })
})

afterAll(async () => {
  await fake.close()
  await new Promise((resolve) => imageServer.close(resolve))
})

beforeEach(() => {
  fake.reset()
  hits.clear()
})

function solid(width: number, height: number, format: 'jpeg' | 'png' | 'webp') {
  return sharp({ create: { width, height, channels: 3, background: '#d9c4a5' } })
    .toFormat(format)
    .toBuffer()
}

async function api(
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${fake.apiBase}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: auth,
      'user-agent': userAgent,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null }
}

const cupAttributes = trendyolCategoryAttributes.get(1111) ?? []
function valueId(attributeName: string, value: string): number {
  const definition = cupAttributes.find((a) => a.attribute.name === attributeName)
  const found = definition?.attributeValues.find((v) => v.name === value)
  if (!definition || !found) throw new Error(`no ${attributeName}=${value}`)
  return found.id
}

/** A listing the fake accepts: the coffee-cup set in Fincan Takımı, with a 1200×1800 image. */
function cupItem(barcode: string, overrides: Record<string, unknown> = {}) {
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
    listPrice: 899.9,
    salePrice: 749.9,
    vatRate: 20,
    origin: 'TR',
    images: [{ url: `${images}/good.jpg` }, { url: `${images}/good.webp` }],
    attributes: [
      { attributeId: 47, attributeValueId: valueId('Renk', 'Beyaz') },
      { attributeId: 14, attributeValueId: valueId('Materyal', 'Porselen') },
      { attributeId: 343, attributeValueId: valueId('Boyut/Ebat', 'Tek Ebat') },
      { attributeId: 711, attributeValueId: valueId('Parça Sayısı', '12') },
    ],
    ...overrides,
  }
}

async function create(items: unknown[]) {
  const answer = await api(`/product/sellers/${seller.sellerId}/v2/products`, {
    method: 'POST',
    body: { items },
  })
  expect(answer.status).toBe(200)
  return answer.body.batchRequestId as string
}

async function completedBatch(batchRequestId: string) {
  await fake.idle()
  const answer = await api(`/product/sellers/${seller.sellerId}/products/batch-requests/${batchRequestId}`)
  expect(answer.status).toBe(200)
  expect(answer.body.status).toBe('COMPLETED')
  return answer.body as {
    items: { requestItem: { barcode: string }; status: string; failureReasons: string[] }[]
    failedItemCount: number
    itemCount: number
    batchRequestType: string
  }
}

function itemFor(batch: Awaited<ReturnType<typeof completedBatch>>, barcode: string) {
  const item = batch.items.find((entry) => entry.requestItem.barcode === barcode)
  if (!item) throw new Error(`no item ${barcode}`)
  return item
}

describe('Trendyol fake: authentication', () => {
  it('refuses a request without the User-Agent with 403', async () => {
    const answer = await api('/product/brands', { headers: { 'user-agent': 'node' } })
    expect(answer.status).toBe(403)
    expect(answer.body.errors[0]).toMatchObject({ key: 'user.agent.required', errorCode: '403' })
  })

  it('answers bad credentials with 401 ClientApiAuthenticationException', async () => {
    const wrong = `Basic ${Buffer.from(`${seller.apiKey}:wrong-secret`).toString('base64')}`
    const answer = await api('/product/brands', { headers: { authorization: wrong } })
    expect(answer.status).toBe(401)
    expect(answer.body).toEqual({ status: 401, exception: 'ClientApiAuthenticationException' })
  })

  it('refuses a seller ID the key does not belong to, in the path or the User-Agent', async () => {
    const inPath = await api('/product/sellers/999999/products/approved')
    expect(inPath.status).toBe(403)
    expect(inPath.body.errors[0].key).toBe('seller.forbidden')
    const inAgent = await api('/product/brands', { headers: { 'user-agent': '999999 - SelfIntegration' } })
    expect(inAgent.status).toBe(403)
    expect(inAgent.body.errors[0].key).toBe('user.agent.seller.mismatch')
  })

  it('accepts an integrator name in the User-Agent', async () => {
    const answer = await api('/product/brands', { headers: { 'user-agent': `${seller.sellerId} - Vitrin` } })
    expect(answer.status).toBe(200)
  })
})

describe('Trendyol fake: lookups', () => {
  it('serves the category tree with the cup set under its real Turkish path', async () => {
    const answer = await api('/product/product-categories')
    expect(answer.status).toBe(200)
    const path: string[] = []
    const find = (
      nodes: { id: number; name: string; subCategories: unknown[] }[],
      trail: string[],
    ): boolean =>
      nodes.some((node) => {
        if (node.name === 'Fincan Takımı') return path.push(...trail, node.name) > 0
        return find(node.subCategories as typeof nodes, [...trail, node.name])
      })
    expect(find(answer.body.categories, [])).toBe(true)
    expect(path).toEqual(['Ev & Mobilya', 'Mutfak', 'Sofra & Servis', 'Fincan Takımı'])
  })

  it('serves attributes v2 without values, the values separately, and v1 with values inline', async () => {
    const v2 = await api('/product/categories/2110/attributes')
    const names = v2.body.categoryAttributes.map((a: { attribute: { name: string } }) => a.attribute.name)
    expect(names).toEqual(expect.arrayContaining(['Renk', 'Beden', 'Materyal', 'Yaş Grubu']))
    expect(v2.body.categoryAttributes[0]).not.toHaveProperty('attributeValues')
    const requiredOnly = await api('/product/categories/2110/attributes?required=true')
    expect(requiredOnly.body.categoryAttributes.every((a: { required: boolean }) => a.required)).toBe(true)
    const colours = await api('/product/categories/2110/attributes/47/values?size=5')
    expect(colours.body).toMatchObject({ page: 0, size: 5, content: expect.any(Array) })
    expect(colours.body.content[0]).toEqual({ attributeValueId: expect.any(Number), attributeValue: 'Beyaz' })
    const v1 = await api('/product/product-categories/1111/attributes')
    const colour = v1.body.categoryAttributes.find(
      (a: { attribute: { id: number } }) => a.attribute.id === 47,
    )
    expect(colour).toMatchObject({ required: true, allowCustom: false, slicer: true })
    expect(colour.attributeValues.map((v: { name: string }) => v.name)).toContain('Kahverengi')
    const branch = await api('/product/categories/1100/attributes')
    expect(branch.status).toBe(400)
  })

  it('finds brands by name, case-sensitively', async () => {
    expect((await api(`/product/brands/by-name?name=${encodeURIComponent('Paşabahçe')}`)).body).toEqual([
      { id: 102, name: 'Paşabahçe' },
    ])
    expect((await api('/product/brands/by-name?name=paşabahçe')).body).toEqual([])
  })
})

describe('Trendyol fake: createProducts v2 and the batch result', () => {
  it('reports one good and two bad items with their reasons, after processing', async () => {
    fake.script({ processingMs: 2000 })
    const batchRequestId = await create([
      cupItem('VTR-GOOD-1'),
      cupItem('VTR-BAD-TITLE', { title: 'x'.repeat(101), attributes: cupItem('x').attributes.slice(1) }),
      cupItem('VTR-BAD-PRICE', { listPrice: 100, salePrice: 120, vatRate: 18 }),
    ])
    expect(batchRequestId).toMatch(/^[0-9a-f-]{36}-\d+$/)
    await fake.idle()
    const early = await api(`/product/sellers/${seller.sellerId}/products/batch-requests/${batchRequestId}`)
    expect(early.body.status).toBe('IN_PROGRESS')
    fake.advance(2000)
    const batch = await completedBatch(batchRequestId)
    expect(batch).toMatchObject({ itemCount: 3, failedItemCount: 2, batchRequestType: 'ProductV2OnBoarding' })
    expect(itemFor(batch, 'VTR-GOOD-1')).toMatchObject({ status: 'SUCCESS', failureReasons: [] })
    expect(itemFor(batch, 'VTR-BAD-TITLE')).toMatchObject({
      status: 'FAILED',
      failureReasons: [
        trendyolFailureReasons.titleTooLong(101),
        trendyolFailureReasons.attributeRequired('Renk'),
      ],
    })
    expect(itemFor(batch, 'VTR-BAD-PRICE').failureReasons).toEqual([
      trendyolFailureReasons.priceRelation(),
      trendyolFailureReasons.vatRate(18),
    ])
    expect([...fake.listings.keys()]).toEqual([`${seller.sellerId}:VTR-GOOD-1`])
  })

  it('checks barcode characters, origin, image count and attribute values', async () => {
    const batch = await completedBatch(
      await create([
        cupItem('VTR 7', { origin: undefined }),
        cupItem('VTR/8', { images: Array.from({ length: 9 }, () => ({ url: `${images}/good.jpg` })) }),
        cupItem('VTR-9', {
          attributes: [...cupItem('x').attributes.slice(0, 3), { attributeId: 711, attributeValueId: 1 }],
        }),
      ]),
    )
    // Inner spaces of a barcode are removed, as Trendyol documents.
    expect(itemFor(batch, 'VTR7').failureReasons).toEqual([trendyolFailureReasons.originMissing()])
    expect(itemFor(batch, 'VTR/8').failureReasons).toEqual([
      trendyolFailureReasons.barcodeCharacters('VTR/8'),
      trendyolFailureReasons.imagesTooMany(9),
    ])
    expect(itemFor(batch, 'VTR-9').failureReasons).toEqual([
      trendyolFailureReasons.attributeValueInvalid('Parça Sayısı', 1),
    ])
  })

  it('fetches every image and fails an item whose image is missing, not an image, or not 1200×1800', async () => {
    const batch = await completedBatch(
      await create([
        cupItem('IMG-404', { images: [{ url: `${images}/gone.jpg` }] }),
        cupItem('IMG-HTML', { images: [{ url: `${images}/not-an-image.jpg` }] }),
        cupItem('IMG-SQUARE', { images: [{ url: `${images}/good.jpg` }, { url: `${images}/square.png` }] }),
        cupItem('IMG-OK', { images: [{ url: `${images}/good.jpg` }] }),
      ]),
    )
    expect(itemFor(batch, 'IMG-404').failureReasons).toEqual([
      trendyolFailureReasons.imageUnreachable(`${images}/gone.jpg`, 404),
    ])
    expect(itemFor(batch, 'IMG-HTML').failureReasons).toEqual([
      trendyolFailureReasons.imageFormat(`${images}/not-an-image.jpg`),
    ])
    expect(itemFor(batch, 'IMG-SQUARE').failureReasons).toEqual([
      trendyolFailureReasons.imageSize(`${images}/square.png`, 1080, 1080, { width: 1200, height: 1800 }),
    ])
    expect(itemFor(batch, 'IMG-OK').status).toBe('SUCCESS')
    // Each URL was downloaded, once per batch even when several items share it.
    expect(Object.fromEntries(hits)).toEqual({
      '/gone.jpg': 1,
      '/not-an-image.jpg': 1,
      '/good.jpg': 1,
      '/square.png': 1,
    })
  })

  it('requires https image URLs unless allowHttpImages is set', async () => {
    const strict = await startTrendyolFake()
    try {
      const response = await fetch(`${strict.apiBase}/product/sellers/${seller.sellerId}/v2/products`, {
        method: 'POST',
        headers: { authorization: auth, 'user-agent': userAgent, 'content-type': 'application/json' },
        body: JSON.stringify({ items: [cupItem('HTTP-1')] }),
      })
      const { batchRequestId } = (await response.json()) as { batchRequestId: string }
      await strict.idle()
      const batch = strict.batches.get(batchRequestId)
      expect(batch?.items[0]?.failureReasons).toEqual([
        trendyolFailureReasons.imageNotHttps(`${images}/good.jpg`),
        trendyolFailureReasons.imageNotHttps(`${images}/good.webp`),
      ])
    } finally {
      await strict.close()
    }
  })

  it('refuses more than 1,000 items in one request', async () => {
    const items = Array.from({ length: 1001 }, (_, i) => cupItem(`MANY-${i}`))
    const answer = await api(`/product/sellers/${seller.sellerId}/v2/products`, {
      method: 'POST',
      body: { items },
    })
    expect(answer.status).toBe(400)
    expect(answer.body.errors[0].key).toBe('items.size.exceeded')
    expect(fake.batches.size).toBe(0)
  })
})

describe('Trendyol fake: approval, rejection and update by barcode', () => {
  it('keeps a product pending approval until its approval time has passed', async () => {
    fake.script({ approvalMs: 60_000 })
    await completedBatch(await create([cupItem('APPROVE-1')]))
    const pending = await api(`/product/sellers/${seller.sellerId}/products/unapproved?barcode=APPROVE-1`)
    expect(pending.body.content[0]).toMatchObject({ barcode: 'APPROVE-1', status: 'pendingApproval' })
    expect(
      (await api(`/product/sellers/${seller.sellerId}/products/approved?barcode=APPROVE-1`)).body.content,
    ).toEqual([])
    fake.advance(60_000)
    const approved = await api(`/product/sellers/${seller.sellerId}/products/approved?barcode=APPROVE-1`)
    expect(approved.body.content[0].variants[0]).toMatchObject({ barcode: 'APPROVE-1', onSale: true })
    const base = await api(`/product/sellers/${seller.sellerId}/product/APPROVE-1`)
    expect(base.body).toMatchObject({ barcode: 'APPROVE-1', approved: true, archived: false })
    const v1 = await api(`/product/sellers/${seller.sellerId}/products?barcode=APPROVE-1`)
    expect(v1.body.content[0]).toMatchObject({ approved: true, onSale: true, rejected: false })
  })

  it('rejects a scripted product with its reasons, and a fixed update goes back to review and is approved', async () => {
    fake.script({
      approvalMs: 1000,
      rejectOnce: {
        'REJECT-1': [
          { rejectReason: 'Sakıncalı Görsel', rejectReasonDetail: 'Görselde başka marka logosu var' },
        ],
      },
    })
    await completedBatch(await create([cupItem('REJECT-1')]))
    fake.advance(1000)
    const rejected = await api(`/product/sellers/${seller.sellerId}/products/unapproved?status=rejected`)
    expect(rejected.body.content).toHaveLength(1)
    expect(rejected.body.content[0]).toMatchObject({
      barcode: 'REJECT-1',
      status: 'rejected',
      rejectReasonDetails: [
        { rejectReason: 'Sakıncalı Görsel', rejectReasonDetail: 'Görselde başka marka logosu var' },
      ],
    })

    const update = await api(`/product/sellers/${seller.sellerId}/products/unapproved-bulk-update`, {
      method: 'POST',
      body: { items: [{ barcode: 'REJECT-1', images: [{ url: `${images}/good.webp` }] }] },
    })
    const batch = await completedBatch(update.body.batchRequestId)
    expect(batch.batchRequestType).toBe('ProductV2Update')
    expect(itemFor(batch, 'REJECT-1').status).toBe('SUCCESS')
    const listing = fake.listings.get(`${seller.sellerId}:REJECT-1`)
    expect(listing && fake.statusOf(listing)).toBe('pendingApproval')
    fake.advance(1000)
    expect(listing && fake.statusOf(listing)).toBe('approved')
    expect(listing?.item.images).toEqual([{ url: `${images}/good.webp` }])
  })

  it('fails a second create for an existing barcode and never holds two listings for it', async () => {
    await completedBatch(await create([cupItem('DUP-1')]))
    const second = await completedBatch(
      await create([cupItem('DUP-1', { title: 'Başka başlık' }), cupItem('DUP-2'), cupItem('DUP-2')]),
    )
    expect(itemFor(second, 'DUP-1').failureReasons).toEqual([
      trendyolFailureReasons.duplicateBarcode('DUP-1'),
    ])
    expect(second.items.filter((i) => i.requestItem.barcode === 'DUP-2').map((i) => i.status)).toEqual([
      'SUCCESS',
      'FAILED',
    ])
    expect([...fake.listings.keys()].sort()).toEqual([`${seller.sellerId}:DUP-1`, `${seller.sellerId}:DUP-2`])
    expect(fake.listings.get(`${seller.sellerId}:DUP-1`)?.item.title).toBe(cupItem('x').title)
  })

  it('lets two racing creates for one barcode make one listing', async () => {
    const [a, b] = await Promise.all([create([cupItem('RACE-1')]), create([cupItem('RACE-1')])])
    const statuses = [(await completedBatch(a)).items[0]?.status, (await completedBatch(b)).items[0]?.status]
    expect(statuses.sort()).toEqual(['FAILED', 'SUCCESS'])
    expect(fake.listings.size).toBe(1)
  })

  it('refuses to update an approved product through the unapproved update', async () => {
    fake.script({ approvalMs: 10 })
    await completedBatch(await create([cupItem('DONE-1')]))
    fake.advance(10)
    const update = await api(`/product/sellers/${seller.sellerId}/products`, {
      method: 'PUT',
      body: { items: [{ barcode: 'DONE-1', title: 'Yeni başlık' }] },
    })
    const batch = await completedBatch(update.body.batchRequestId)
    expect(itemFor(batch, 'DONE-1').failureReasons).toEqual([
      trendyolFailureReasons.productApproved('DONE-1'),
    ])
  })
})

describe('Trendyol fake: limits and scripted failures', () => {
  it('answers 429 beyond the per-seller write budget and counts it', async () => {
    expect(trendyolFakeDefaults.writeLimitPerMinute).toBe(200)
    fake.script({ writeLimitPerMinute: 3 })
    for (let i = 0; i < 3; i++) await create([cupItem(`RATE-${i}`)])
    const refused = await api(`/product/sellers/${seller.sellerId}/v2/products`, {
      method: 'POST',
      body: { items: [cupItem('RATE-3')] },
    })
    expect(refused.status).toBe(429)
    expect(refused.body.errors[0].key).toBe('too.many.requests')
    expect(refused.headers.get('retry-after')).toBeNull()
    // Reads have their own budget.
    expect((await api('/product/brands')).status).toBe(200)
    expect(fake.writeStats()).toMatchObject({ accepted: 3, refused: 1, maxInAnyWindow: 3, limit: 3 })
    fake.advance(60_000)
    await create([cupItem('RATE-3')])
    expect(fake.writeStats()).toMatchObject({ accepted: 4, maxInAnyWindow: 3 })
  })

  it('allows 50 requests to one endpoint in 10 seconds, whichever batch they read', async () => {
    const [a, b] = [await create([cupItem('POLL-1')]), await create([cupItem('POLL-2')])]
    const poll = (id: string) => api(`/product/sellers/${seller.sellerId}/products/batch-requests/${id}`)
    const statuses: number[] = []
    for (let i = 0; i < 51; i++) statuses.push((await poll(i % 2 === 0 ? a : b)).status)
    expect(statuses.slice(0, 50).every((status) => status === 200)).toBe(true)
    expect(statuses[50]).toBe(429)
    // Another endpoint still answers, and the window passes.
    expect((await api('/product/brands')).status).toBe(200)
    fake.advance(10_000)
    expect((await poll(a)).status).toBe(200)
  })

  it('sends Retry-After only when scripted', async () => {
    fake.script({ writeLimitPerMinute: 0, retryAfterSeconds: 7 })
    const refused = await api(`/product/sellers/${seller.sellerId}/v2/products`, {
      method: 'POST',
      body: { items: [cupItem('R')] },
    })
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('7')
  })

  it('answers scripted 5xx and 429 on the next requests, then works', async () => {
    fake.script({ writes: [503, 429] })
    const path = `/product/sellers/${seller.sellerId}/v2/products`
    const statuses = []
    for (let i = 0; i < 3; i++)
      statuses.push((await api(path, { method: 'POST', body: { items: [cupItem('FLAKY-1')] } })).status)
    expect(statuses).toEqual([503, 429, 200])
    expect(fake.batches.size).toBe(1)
    expect(fake.writeStats().accepted).toBe(1)
  })

  it('rejects at every review with `reject`, and only at the next with `rejectOnce`', async () => {
    fake.script({ approvalMs: 10, reject: { 'ALWAYS-1': ['Hatalı Marka Bilgisi'] } })
    await completedBatch(await create([cupItem('ALWAYS-1')]))
    fake.advance(10)
    const update = await api(`/product/sellers/${seller.sellerId}/products/unapproved-bulk-update`, {
      method: 'POST',
      body: { items: [{ barcode: 'ALWAYS-1', brandId: 102 }] },
    })
    await completedBatch(update.body.batchRequestId)
    fake.advance(10)
    const listing = fake.listings.get(`${seller.sellerId}:ALWAYS-1`)
    expect(listing && fake.statusOf(listing)).toBe('rejected')
    expect(listing?.item.brandId).toBe(102)
    expect(listing?.rejectReasons).toEqual([
      { rejectReason: 'Hatalı Marka Bilgisi', rejectReasonDetail: 'Hatalı Marka Bilgisi' },
    ])
  })

  it('fails items with scripted reasons', async () => {
    fake.script({ failItems: { 'SCRIPTED-1': ['Ürün kategorisi yanlış'] } })
    const batch = await completedBatch(await create([cupItem('SCRIPTED-1')]))
    expect(itemFor(batch, 'SCRIPTED-1').failureReasons).toEqual(['Ürün kategorisi yanlış'])
  })
})

describe('Trendyol fake: control endpoint', () => {
  it('scripts and moves the clock over HTTP when started with control', async () => {
    const controlled = await startTrendyolFake({ control: true })
    try {
      expect(await (await fetch(`${controlled.url}/__control/health`)).json()).toEqual({ ok: true })
      const scripted = await fetch(`${controlled.url}/__control/script`, {
        method: 'POST',
        body: JSON.stringify({ script: { approvalMs: 123 } }),
      })
      expect(scripted.status).toBe(200)
      const before = controlled.clock.now()
      await fetch(`${controlled.url}/__control/advance`, {
        method: 'POST',
        body: JSON.stringify({ ms: 3_600_000 }),
      })
      expect(controlled.clock.now() - before).toBeGreaterThanOrEqual(3_600_000)
      const stats = await (await fetch(`${controlled.url}/__control/stats`)).json()
      expect(stats.writes).toMatchObject({ accepted: 0, limit: 200 })
    } finally {
      await controlled.close()
    }
  })

  it("adds one barcode's next rejection over HTTP, keeping the script in force", async () => {
    fake.script({ approvalMs: 1000, reject: { 'ALWAYS-2': ['Hatalı Marka Bilgisi'] } })
    const control = (body: unknown) =>
      fetch(`${fake.url}/__control/reject-once`, { method: 'POST', body: JSON.stringify(body) })
    expect((await control({ barcode: 'ONCE-1' })).status).toBe(400)
    expect(
      (await control({ barcode: 'ONCE-1', reasons: [trendyolReviewReasons.forbiddenWords] })).status,
    ).toBe(200)
    await completedBatch(await create([cupItem('ONCE-1'), cupItem('ALWAYS-2')]))
    // The script's approval time still holds.
    const statusOf = (barcode: string) => {
      const listing = fake.listings.get(`${seller.sellerId}:${barcode}`)
      return listing ? fake.statusOf(listing) : 'missing'
    }
    expect(statusOf('ONCE-1')).toBe('pendingApproval')
    fake.advance(1000)
    expect(statusOf('ONCE-1')).toBe('rejected')
    expect(fake.listings.get(`${seller.sellerId}:ONCE-1`)?.rejectReasons).toEqual([
      trendyolReviewReasons.forbiddenWords,
    ])
    expect(statusOf('ALWAYS-2')).toBe('rejected')
    // Rejected once only: the update is approved.
    const update = await api(`/product/sellers/${seller.sellerId}/products/unapproved-bulk-update`, {
      method: 'POST',
      body: { items: [{ barcode: 'ONCE-1', title: 'Porselen Kahve Fincan Takımı' }] },
    })
    await completedBatch(update.body.batchRequestId)
    fake.advance(1000)
    expect(statusOf('ONCE-1')).toBe('approved')
  })
})
