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
} from '#tests/fakes/hepsiburada-server.ts'
import { createHepsiburadaApi, type HepsiburadaProductItem } from './hepsiburada-api.ts'
import { MarketplaceApiError } from './marketplace-api-error.ts'

// The Hepsiburada client against the fake catalogue API (tests/fakes/hepsiburada-server.ts),
// over real HTTP: lookups, an import sent as a multipart JSON file and each item's outcome, the
// catalogue team's block read back, and each kind of failure as publishing sees it.

let fake: HepsiburadaFake
let imageServer: Server
let images = ''
const merchant = defaultHepsiburadaMerchant

beforeAll(async () => {
  const photo = await sharp({ create: { width: 1500, height: 1500, channels: 3, background: '#ffffff' } })
    .jpeg()
    .toBuffer()
  imageServer = createServer((req, res) => {
    if (req.url !== '/cup.jpg') return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo)
  })
  await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve))
  images = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`
  // The fake's clock stands still unless a test moves it: its one-second rate window then holds
  // however slowly a loaded machine runs the requests.
  const start = Date.now()
  fake = await startHepsiburadaFake({ allowHttpImages: true, now: () => start })
})

afterAll(async () => {
  await fake.close()
  await new Promise((resolve) => imageServer.close(resolve))
})

beforeEach(() => fake.reset())

const api = () => createHepsiburadaApi({ baseUrl: fake.url, credentials: merchant })

function cupItem(merchantSku: string, attributes: Record<string, string | number | undefined> = {}) {
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
  } satisfies HepsiburadaProductItem
}

async function failureOf(promise: Promise<unknown>): Promise<MarketplaceApiError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  if (!(error instanceof MarketplaceApiError)) throw new Error(`expected a MarketplaceApiError, got ${error}`)
  return error
}

describe('the Hepsiburada client', () => {
  it('lists the categories that take products, their attributes and an attribute’s values', async () => {
    const client = api()
    const leaves = await client.leafCategories()
    expect(leaves.map((c) => c.name)).toEqual(expect.arrayContaining(['Fincan Takımları', 'Kadın T-Shirt']))
    // A leaf that takes no new products is not offered.
    expect(leaves.map((c) => c.name)).not.toContain('Kadın Eski Sezon')
    const attributes = await client.categoryAttributes(60001001)
    expect(attributes.attributes.filter((a) => a.mandatory).map((a) => a.id)).toEqual(
      expect.arrayContaining(['materyal', 'kisi_sayisi']),
    )
    expect(await client.attributeValues(60001001, 'materyal')).toEqual(['Porselen', 'Seramik', 'Cam'])
    expect(fake.requests.every((r) => r.headers['user-agent'] === 'vitrin')).toBe(true)
  })

  it('imports products as a JSON file and reads each one back, with what was missing', async () => {
    const client = api()
    const trackingId = await client.importProducts([
      cupItem('HB-CUP-1'),
      cupItem('HB-CUP-2', { materyal: undefined }),
    ])
    await fake.idle()
    const rows = await client.importStatus(trackingId)
    expect(rows).toEqual([
      expect.objectContaining({
        merchantSku: 'HB-CUP-1',
        importStatus: 'SUCCESS',
        productStatus: 'WAITING',
        problems: [],
      }),
      expect.objectContaining({
        merchantSku: 'HB-CUP-2',
        productStatus: 'MISSING_INFO',
        problems: [{ attribute: 'Materyal', message: hepsiburadaFailureMessages.missingInfo('Materyal') }],
      }),
    ])
  })

  it("reads the catalogue team's block back, with its reasons", async () => {
    fake.script({ block: { 'HB-CUP-3': ['Görseller ürünü göstermiyor.'] } })
    const client = api()
    const trackingId = await client.importProducts([cupItem('HB-CUP-3'), cupItem('HB-CUP-4')])
    await fake.idle()
    fake.advance(hepsiburadaFakeDefaults.approvalMs)
    const rows = await client.importStatus(trackingId)
    expect(rows.map((row) => [row.merchantSku, row.productStatus, row.rejectReasons])).toEqual([
      ['HB-CUP-3', 'BLOCKED', ['Görseller ürünü göstermiyor.']],
      ['HB-CUP-4', 'MATCHED', []],
    ])
    expect(rows[1]?.hbSku).toMatch(/^HB/)
  })

  it('says how it failed: refused keys, the rate limit, a category that takes nothing, an outage', async () => {
    const wrongKey = createHepsiburadaApi({
      baseUrl: fake.url,
      credentials: { ...merchant, serviceKey: 'WrongKey1234' },
    })
    expect(await failureOf(wrongKey.leafCategories())).toMatchObject({ failure: 'auth', status: 401 })

    fake.script({ requestsPerSecond: 1 })
    const client = api()
    await client.categoryAttributes(60001001)
    const limited = await failureOf(client.categoryAttributes(60001001))
    expect(limited).toMatchObject({ failure: 'rate-limited', status: 403, isTransient: true })

    fake.reset()
    const closed = await failureOf(api().categoryAttributes(60002012))
    expect(closed).toMatchObject({ failure: 'rejected', isTransient: false })
    expect(closed.messages).toEqual(['Kategori leaf ve available değil.'])

    fake.script({ requests: [503] })
    expect(await failureOf(api().leafCategories())).toMatchObject({ failure: 'unavailable', status: 503 })

    const nobody = createHepsiburadaApi({ baseUrl: 'http://127.0.0.1:9', credentials: merchant })
    expect(await failureOf(nobody.leafCategories())).toMatchObject({ failure: 'unavailable', status: null })
  })
})
