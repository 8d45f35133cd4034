import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  defaultHepsiburadaMerchant,
  type HepsiburadaFake,
  hepsiburadaFailureMessages,
  hepsiburadaFakeDefaults,
  startHepsiburadaFake,
} from './hepsiburada-server.ts'

let imageServer: Server
let images = ''
let fake: HepsiburadaFake
const hits = new Map<string, number>()
const merchant = defaultHepsiburadaMerchant
const auth = `Basic ${Buffer.from(`${merchant.merchantId}:${merchant.serviceKey}`).toString('base64')}`
const userAgent = 'vitrin_dev'

beforeAll(async () => {
  const files = new Map<string, Buffer>([
    [
      '/cup.jpg',
      await sharp({ create: { width: 1500, height: 1500, channels: 3, background: '#ffffff' } })
        .jpeg()
        .toBuffer(),
    ],
    ['/page.html', Buffer.from('<html></html>')],
  ])
  imageServer = createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1)
    const file = files.get(req.url ?? '')
    if (!file) return res.writeHead(404).end()
    res.writeHead(200).end(file)
  })
  await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve))
  images = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`
  fake = await startHepsiburadaFake({ allowHttpImages: true })
})

afterAll(async () => {
  await fake.close()
  await new Promise((resolve) => imageServer.close(resolve))
})

beforeEach(() => {
  fake.reset()
  hits.clear()
})

async function api(
  path: string,
  init: { method?: string; body?: BodyInit; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${fake.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: auth, 'user-agent': userAgent, ...init.headers },
    body: init.body,
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

/** The import as Hepsiburada wants it: the JSON document as a file in a multipart form. */
function importForm(items: unknown[]) {
  const form = new FormData()
  form.append('file', new Blob([JSON.stringify(items)], { type: 'application/json' }), 'integrator.json')
  return form
}

async function importItems(items: unknown[]) {
  const answer = await api('/product/api/products/import', { method: 'POST', body: importForm(items) })
  expect(answer.status).toBe(200)
  expect(answer.body).toMatchObject({ success: true, code: 0 })
  return answer.body.data.trackingId as string
}

async function statusRows(trackingId: string) {
  await fake.idle()
  const answer = await api(`/product/api/products/status/${trackingId}`)
  expect(answer.status).toBe(200)
  return answer.body.data as {
    merchantSku: string
    importStatus: string
    productStatus: string | null
    hbSku: string | null
    validationResults: { attributeName: string; message: string }[]
    rejectReasonsMessages: string[]
  }[]
}

function cupItem(merchantSku: string, attributes: Record<string, unknown> = {}) {
  return {
    categoryId: 60001001,
    merchant: merchant.merchantId,
    attributes: {
      merchantSku,
      VaryantGroupID: 'fincan-6',
      Barcode: `869${merchantSku.replace(/\D/g, '').padStart(10, '0')}`,
      UrunAdi: 'Kahve Fincan Takımı 6 Kişilik Porselen',
      UrunAciklamasi: '6 kişilik porselen kahve fincan takımı.',
      Marka: 'Vitrin Atölye',
      GarantiSuresi: 24,
      kg: '2',
      tax_vat_rate: '20',
      price: '749,90',
      stock: '20',
      Image1: `${images}/cup.jpg`,
      materyal: 'Porselen',
      kisi_sayisi: '6',
      renk_variant_property: 'Beyaz',
      ...attributes,
    },
  }
}

describe('Hepsiburada fake: authentication', () => {
  it('refuses a request without a User-Agent', async () => {
    const answer = await api('/product/api/categories/get-all-categories', { headers: { 'user-agent': '' } })
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject({ success: false })
  })

  it('refuses a wrong service key with 401', async () => {
    const wrong = `Basic ${Buffer.from(`${merchant.merchantId}:WrongKey0000`).toString('base64')}`
    const answer = await api('/product/api/categories/get-all-categories', {
      headers: { authorization: wrong },
    })
    expect(answer.status).toBe(401)
  })

  it('refuses reading another merchant’s products', async () => {
    const answer = await api('/product/api/products/all-products-of-merchant/another-merchant')
    expect(answer.status).toBe(403)
  })
})

describe('Hepsiburada fake: categories and attributes', () => {
  it('lists leaf categories with their paths and serves a leaf’s attributes and values', async () => {
    const categories = await api(
      '/product/api/categories/get-all-categories?leaf=true&status=ACTIVE&available=true',
    )
    const cups = categories.body.data.find((c: { name: string }) => c.name === 'Fincan Takımları')
    expect(cups.paths).toEqual([
      'Ev, Yaşam, Kırtasiye, Ofis',
      'Mutfak Gereçleri',
      'Çay ve Kahve Fincanları',
      'Fincan Takımları',
    ])
    expect(
      categories.body.data.every((c: { leaf: boolean; available: boolean }) => c.leaf && c.available),
    ).toBe(true)
    const attributes = await api(`/product/api/categories/${cups.categoryId}/attributes`)
    expect(attributes.body.data.baseAttributes.map((a: { id: string }) => a.id)).toContain('UrunAdi')
    expect(attributes.body.data.variantAttributes[0]).toEqual({
      id: 'renk_variant_property',
      name: 'Renk',
      mandatory: true,
      type: 'enum',
      multiValue: false,
    })
    const colours = await api(
      `/product/api/categories/${cups.categoryId}/attribute/renk_variant_property/values`,
    )
    expect(colours.body.data.map((v: { value: string }) => v.value)).toContain('Kahverengi')
    const branch = await api('/product/api/categories/60000100/attributes')
    expect(branch.body).toMatchObject({ success: false, code: 1003 })
  })
})

describe('Hepsiburada fake: product import and status', () => {
  it('takes the JSON file as multipart and reports one good and two bad items', async () => {
    const trackingId = await importItems([
      cupItem('HB-GOOD-1'),
      cupItem('HB-BAD-1', { UrunAdi: '', tax_vat_rate: '18' }),
      cupItem('HB-BAD-2', { price: '749.90', renk_variant_property: 'Turkuaz' }),
    ])
    const rows = await statusRows(trackingId)
    const row = (sku: string) => rows.find((r) => r.merchantSku === sku)
    expect(row('HB-GOOD-1')).toMatchObject({
      importStatus: 'SUCCESS',
      productStatus: 'WAITING',
      validationResults: [],
    })
    expect(row('HB-BAD-1')).toMatchObject({
      importStatus: 'FAILED',
      productStatus: null,
      validationResults: [
        { attributeName: 'UrunAdi', message: hepsiburadaFailureMessages.fieldRequired('UrunAdi') },
        {
          attributeName: 'tax_vat_rate',
          message: hepsiburadaFailureMessages.valueInvalid('tax_vat_rate', '18'),
        },
      ],
    })
    expect(row('HB-BAD-2')?.validationResults).toEqual([
      { attributeName: 'price', message: hepsiburadaFailureMessages.priceInvalid('749.90') },
      {
        attributeName: 'renk_variant_property',
        message: hepsiburadaFailureMessages.valueInvalid('Renk', 'Turkuaz'),
      },
    ])
    expect([...fake.products.keys()]).toEqual([`${merchant.merchantId}:HB-GOOD-1`])
  })

  it('refuses an import that is not a multipart file', async () => {
    const answer = await api('/product/api/products/import', {
      method: 'POST',
      body: JSON.stringify([cupItem('HB-JSON-1')]),
      headers: { 'content-type': 'application/json' },
    })
    expect(answer.status).toBe(400)
    expect(fake.imports.size).toBe(0)
  })

  it('stays PROCESSING until processed, then leaves WAITING for MATCHED after the review time', async () => {
    fake.script({ processingMs: 1000, approvalMs: 30_000 })
    const trackingId = await importItems([cupItem('HB-TIME-1')])
    expect((await statusRows(trackingId))[0]?.importStatus).toBe('PROCESSING')
    fake.advance(1000)
    expect((await statusRows(trackingId))[0]).toMatchObject({
      importStatus: 'SUCCESS',
      productStatus: 'WAITING',
      hbSku: null,
    })
    fake.advance(30_000)
    expect((await statusRows(trackingId))[0]).toMatchObject({
      productStatus: 'MATCHED',
      hbSku: expect.stringMatching(/^HBCV/),
    })
    const listings = await api(`/listings/merchantid/${merchant.merchantId}?offset=0&limit=10`)
    expect(listings.body.listings[0]).toMatchObject({
      merchantSku: 'HB-TIME-1',
      isSalable: true,
      lockReasons: [],
    })
  })

  it('puts a product missing a mandatory category attribute in MISSING_INFO', async () => {
    const rows = await statusRows(await importItems([cupItem('HB-MISS-1', { materyal: undefined })]))
    expect(rows[0]).toMatchObject({
      importStatus: 'SUCCESS',
      productStatus: 'MISSING_INFO',
      validationResults: [
        { attributeName: 'Materyal', message: hepsiburadaFailureMessages.missingInfo('Materyal') },
      ],
    })
  })

  it('fetches each image and fails an item whose image cannot be fetched or is not an image', async () => {
    const rows = await statusRows(
      await importItems([
        cupItem('HB-IMG-1', { Image1: `${images}/missing.jpg` }),
        cupItem('HB-IMG-2', { Image2: `${images}/page.html` }),
        cupItem('HB-IMG-3'),
      ]),
    )
    expect(rows.map((r) => r.validationResults)).toEqual([
      [
        {
          attributeName: 'Image1',
          message: hepsiburadaFailureMessages.imageUnreachable('Image1', `${images}/missing.jpg`, 404),
        },
      ],
      [
        {
          attributeName: 'Image2',
          message: hepsiburadaFailureMessages.imageFormat('Image2', `${images}/page.html`),
        },
      ],
      [],
    ])
    expect(Object.fromEntries(hits)).toEqual({ '/missing.jpg': 1, '/page.html': 1, '/cup.jpg': 1 })
  })

  it('requires https image URLs unless allowHttpImages is set', async () => {
    const strict = await startHepsiburadaFake()
    try {
      const response = await fetch(`${strict.url}/product/api/products/import`, {
        method: 'POST',
        headers: { authorization: auth, 'user-agent': userAgent },
        body: importForm([cupItem('HB-HTTP-1')]),
      })
      const { data } = (await response.json()) as { data: { trackingId: string } }
      await strict.idle()
      expect(strict.imports.get(data.trackingId)?.items[0]?.validationResults).toEqual([
        {
          attributeName: 'Image1',
          message: hepsiburadaFailureMessages.imageNotHttps('Image1', `${images}/cup.jpg`),
        },
      ])
    } finally {
      await strict.close()
    }
  })

  it('blocks a product at review with scripted reasons, and locks a listing with scripted lock reasons', async () => {
    fake.script({
      approvalMs: 100,
      block: { 'HB-BLOCK-1': ['Görseller Hepsiburada standartlarına uygun değil.'] },
      lock: { 'HB-LOCK-1': ['ImageError', 'ProductNameError'] },
    })
    const rows = await statusRows(await importItems([cupItem('HB-BLOCK-1'), cupItem('HB-LOCK-1')]))
    expect(rows.map((r) => r.productStatus)).toEqual(['WAITING', 'WAITING'])
    fake.advance(100)
    const blocked = await api(
      `/product/api/products/products-by-merchant-and-status?merchantId=${merchant.merchantId}&productStatus=BLOCKED`,
    )
    expect(blocked.body.data).toEqual([
      expect.objectContaining({
        merchantSku: 'HB-BLOCK-1',
        rejectReasonsMessages: ['Görseller Hepsiburada standartlarına uygun değil.'],
      }),
    ])
    const listings = await api(`/listings/merchantid/${merchant.merchantId}?offset=0&limit=10`)
    expect(listings.body.listings).toEqual([
      expect.objectContaining({
        merchantSku: 'HB-LOCK-1',
        isLocked: true,
        lockReasons: ['ImageError', 'ProductNameError'],
      }),
    ])
  })

  it('updates the product when a merchantSku is imported again, never holding two', async () => {
    fake.script({ approvalMs: 100, blockOnce: { 'HB-AGAIN-1': ['Ürün adı hatalı.'] } })
    await statusRows(await importItems([cupItem('HB-AGAIN-1')]))
    fake.advance(100)
    const first = fake.products.get(`${merchant.merchantId}:HB-AGAIN-1`)
    expect(first && fake.statusOf(first)).toBe('BLOCKED')
    await statusRows(
      await importItems([cupItem('HB-AGAIN-1', { UrunAdi: 'Porselen Kahve Fincan Takımı 6 Kişilik' })]),
    )
    const again = fake.products.get(`${merchant.merchantId}:HB-AGAIN-1`)
    expect(again && fake.statusOf(again)).toBe('WAITING')
    fake.advance(100)
    expect(again && fake.statusOf(again)).toBe('MATCHED')
    expect(fake.products.size).toBe(1)
    expect(again?.hbSku).toBe(first?.hbSku)
    const listed = await api(
      `/product/api/products/all-products-of-merchant/${merchant.merchantId}?merchantSku=HB-AGAIN-1`,
    )
    expect(listed.body.data).toHaveLength(1)
    expect(listed.body.data[0]).toMatchObject({
      productName: 'Porselen Kahve Fincan Takımı 6 Kişilik',
      status: 'MATCHED',
    })
  })
})

describe('Hepsiburada fake: limits and scripted failures', () => {
  it('answers 403 beyond the per-second limit and counts it', async () => {
    expect(hepsiburadaFakeDefaults.requestsPerSecond).toBe(100)
    fake.script({ requestsPerSecond: 2 })
    const path = '/product/api/categories/get-all-categories'
    const statuses = [(await api(path)).status, (await api(path)).status, (await api(path)).status]
    expect(statuses).toEqual([200, 200, 403])
    expect(fake.rateStats()).toMatchObject({
      accepted: 2,
      refused: 1,
      maxInAnyWindow: 2,
      limit: 2,
      blockedIps: [],
    })
    fake.advance(1000)
    expect((await api(path)).status).toBe(200)
  })

  it('blocks the IP when requests go on over the limit for 5 seconds', async () => {
    fake.script({ requestsPerSecond: 0 })
    const path = '/product/api/categories/get-all-categories'
    expect((await api(path)).status).toBe(403)
    fake.advance(5000)
    expect((await api(path)).status).toBe(403)
    expect(fake.rateStats().blockedIps).toHaveLength(1)
    fake.script({})
    const blocked = await api(path)
    expect(blocked.status).toBe(403)
    expect(blocked.body.message).toContain('engellendi')
  })

  it('answers scripted failures on the next requests, then works', async () => {
    fake.script({ requests: [500, 503] })
    const path = '/product/api/categories/get-all-categories'
    const statuses = [(await api(path)).status, (await api(path)).status, (await api(path)).status]
    expect(statuses).toEqual([500, 503, 200])
  })
})
