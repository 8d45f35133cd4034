import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { classifyReason } from '#shared/publishing/rejections.ts'
import { defaultHepsiburadaMerchant, startHepsiburadaFake } from '#tests/fakes/hepsiburada-server.ts'
import { defaultTrendyolSeller, startTrendyolFake } from '#tests/fakes/trendyol-server.ts'
import { cupAttribute } from '#tests/support/publishing-fixtures.ts'
import { createHepsiburadaApi } from './hepsiburada-api.ts'
import {
  descriptionHtml,
  hepsiburadaNumber,
  type Listing,
  sellerAttributes,
  toHepsiburadaItem,
  toTrendyolItem,
} from './listing.ts'
import { createTrendyolApi } from './trendyol-api.ts'

// A listing becomes each marketplace's request item: the fields its documentation asks for, the
// text fitted to its limits, and a named problem for anything it would refuse. The items are
// sent to the fake seller APIs, which check them as the marketplaces document.

const trendyolValue = (name: string, value: string) => cupAttribute(name, value)

function listing(overrides: Partial<Listing> = {}): Listing {
  return {
    barcode: '8690000000017',
    stockCode: 'FNC-6-BYZ',
    variantGroup: null,
    title: 'Atölye Kahve Fincan Takımı 6 Kişilik Porselen Beyaz',
    description:
      'Altı kişilik porselen kahve fincan takımı.\n\nBulaşık makinesinde yıkanabilir & günlük kullanıma uygun.',
    features: ['6 fincan, 6 tabak', '90 ml <fincan>'],
    brand: 'Atölye',
    categoryId: '1111',
    salePrice: 749.9,
    listPrice: 899.9,
    stock: 20,
    vatRate: 20,
    desi: 2,
    imageUrls: ['https://media.vitrin.example/m/abc.jpg'],
    attributes: [
      trendyolValue('Renk', 'Beyaz'),
      trendyolValue('Materyal', 'Porselen'),
      trendyolValue('Boyut/Ebat', 'Tek Ebat'),
      trendyolValue('Parça Sayısı', '12'),
    ],
    origin: 'TR',
    warrantyMonths: 24,
    ...overrides,
  }
}

function problemCodes(built: { ok: boolean; problems?: { code: string }[] }) {
  return built.ok ? [] : (built.problems ?? []).map((problem) => problem.code)
}

describe('a listing as request items', () => {
  it('writes the description as HTML: paragraphs, line breaks and the features as a list, escaped', () => {
    expect(descriptionHtml('Bir.\nİki.\n\n  Üç & dört  ', ['a <b>', ' ', 'c'])).toBe(
      '<p>Bir.<br>İki.</p><p>Üç &#38; dört</p><ul><li>a &#60;b&#62;</li><li>c</li></ul>',
    )
    expect(descriptionHtml('Tek.', [])).toBe('<p>Tek.</p>')
  })

  it('writes Hepsiburada numbers with a decimal comma', () => {
    expect(hepsiburadaNumber(749.9)).toBe('749,90')
    expect(hepsiburadaNumber(2)).toBe('2')
    expect(hepsiburadaNumber(0.5)).toBe('0,50')
  })

  it('builds the Trendyol item: ids as numbers, the title fitted to 100 characters, at most 8 images', () => {
    const long = `${'Porselen Kahve Fincan Takımı '.repeat(5)}Beyaz`
    const images = Array.from({ length: 10 }, (_, i) => `https://media.vitrin.example/m/${i}.jpg`)
    const built = toTrendyolItem(listing({ title: long, imageUrls: images, listPrice: null }), 101)
    if (!built.ok) throw new Error(JSON.stringify(built.problems))
    const { item } = built
    expect([...item.title].length).toBeLessThanOrEqual(100)
    expect(long.startsWith(item.title)).toBe(true)
    expect(item.images.map((image) => image.url)).toEqual(images.slice(0, 8))
    expect(item).toMatchObject({
      barcode: '8690000000017',
      productMainId: 'FNC-6-BYZ',
      brandId: 101,
      categoryId: 1111,
      quantity: 20,
      stockCode: 'FNC-6-BYZ',
      dimensionalWeight: 2,
      currencyType: 'TRY',
      listPrice: 749.9,
      salePrice: 749.9,
      vatRate: 20,
      origin: 'TR',
    })
    expect(item.description).toContain('<li>90 ml &#60;fincan&#62;</li>')
    expect(item.attributes).toContainEqual({
      attributeId: Number(trendyolValue('Renk', 'Beyaz').attributeId),
      attributeValueId: Number(trendyolValue('Renk', 'Beyaz').valueId),
    })
    // A custom value goes as text.
    const custom = toTrendyolItem(
      listing({ attributes: [{ attributeId: '999', valueId: null, value: 'El yapımı', source: 'seller' }] }),
      101,
    )
    expect(custom.ok && custom.item.attributes).toEqual([
      { attributeId: 999, customAttributeValue: 'El yapımı' },
    ])
  })

  it('names every field Trendyol would refuse instead of sending it', () => {
    expect(
      problemCodes(
        toTrendyolItem(
          listing({
            barcode: 'BAR CODE/1',
            stockCode: ' ',
            title: ' ',
            salePrice: 0,
            stock: 1.5,
            desi: -1,
            imageUrls: ['http://media.vitrin.example/m/1.jpg'],
            origin: null,
            categoryId: 'fincan',
          }),
          null,
        ),
      ).sort(),
    ).toEqual(
      [
        'barcode-invalid',
        'stock-code-invalid',
        'title-missing',
        'price-invalid',
        'stock-invalid',
        'desi-invalid',
        'image-not-https',
        'origin-missing',
        'category-invalid',
        'brand-unknown',
      ].sort(),
    )
    expect(problemCodes(toTrendyolItem(listing({ listPrice: 500 }), 101))).toEqual(['list-price-below-sale'])
    expect(problemCodes(toTrendyolItem(listing({ salePrice: 10.005 }), 101))).toEqual(['price-invalid'])
    expect(problemCodes(toTrendyolItem(listing({ imageUrls: [] }), 101))).toEqual(['images-missing'])
    expect(problemCodes(toTrendyolItem(listing({ barcode: 'A'.repeat(41) }), 101))).toEqual([
      'barcode-invalid',
    ])
    expect(problemCodes(toTrendyolItem(listing(), 101))).toEqual([])
  })

  it('builds the Hepsiburada item: every field by Hepsiburada’s name, as text', () => {
    const built = toHepsiburadaItem(
      listing({
        categoryId: '60001001',
        variantGroup: 'fincan-6',
        imageUrls: ['https://m.example/1.jpg', 'https://m.example/2.jpg'],
        attributes: [
          { attributeId: 'materyal', valueId: 'Porselen', value: 'Porselen', source: 'details' },
          { attributeId: 'kisi_sayisi', valueId: '6', value: '6', source: 'catalogue' },
          { attributeId: 'ozellik', valueId: 'a', value: 'a', source: 'copy' },
          { attributeId: 'ozellik', valueId: 'b', value: 'b', source: 'copy' },
        ],
      }),
      'merchant-1',
    )
    if (!built.ok) throw new Error(JSON.stringify(built.problems))
    expect(built.item).toEqual({
      categoryId: 60001001,
      merchant: 'merchant-1',
      attributes: {
        merchantSku: 'FNC-6-BYZ',
        VaryantGroupID: 'fincan-6',
        Barcode: '8690000000017',
        UrunAdi: 'Atölye Kahve Fincan Takımı 6 Kişilik Porselen Beyaz',
        UrunAciklamasi: expect.stringContaining('<p>Altı kişilik porselen kahve fincan takımı.</p>'),
        Marka: 'Atölye',
        GarantiSuresi: '24',
        kg: '2',
        tax_vat_rate: '20',
        price: '749,90',
        stock: '20',
        Image1: 'https://m.example/1.jpg',
        Image2: 'https://m.example/2.jpg',
        materyal: 'Porselen',
        kisi_sayisi: '6',
        ozellik: 'a,b',
      },
    })
    expect(problemCodes(toHepsiburadaItem(listing({ warrantyMonths: null, brand: ' ' }), 'm'))).toEqual([
      'brand-unknown',
      'warranty-missing',
    ])
  })

  it('gives Hepsiburada the video as Video1, and names a video it could not fetch', () => {
    const built = toHepsiburadaItem(listing({ videoUrl: 'https://m.example/clip.mp4' }), 'merchant-1')
    if (!built.ok) throw new Error(JSON.stringify(built.problems))
    expect(built.item.attributes.Video1).toBe('https://m.example/clip.mp4')
    const without = toHepsiburadaItem(listing({ videoUrl: null }), 'merchant-1')
    expect(without.ok && 'Video1' in without.item.attributes).toBe(false)
    expect(problemCodes(toHepsiburadaItem(listing({ videoUrl: 'http://m.example/clip.mp4' }), 'm'))).toEqual([
      'video-not-https',
    ])
  })

  it('keeps Hepsiburada’s own item fields the listing’s: an attribute of the same id neither fills nor replaces them', () => {
    const built = toHepsiburadaItem(
      listing({
        imageUrls: ['https://m.example/1.jpg'],
        attributes: [
          { attributeId: 'Image1', valueId: null, value: 'photo-1.jpg', source: 'catalogue' },
          { attributeId: 'price', valueId: null, value: '1', source: 'seller' },
          { attributeId: 'materyal', valueId: 'Porselen', value: 'Porselen', source: 'details' },
        ],
      }),
      'merchant-1',
    )
    if (!built.ok) throw new Error(JSON.stringify(built.problems))
    expect(built.item.attributes).toMatchObject({
      Image1: 'https://m.example/1.jpg',
      price: '749,90',
      materyal: 'Porselen',
    })
    const categoryAttributes = [{ id: 'merchantSku' }, { id: 'Image1' }, { id: 'price' }, { id: 'materyal' }]
    expect(sellerAttributes('hepsiburada', categoryAttributes).map((attribute) => attribute.id)).toEqual([
      'materyal',
    ])
    expect(sellerAttributes('trendyol', categoryAttributes)).toHaveLength(4)
  })
})

describe('built items at the marketplaces (fakes)', () => {
  let imageServer: Server
  let images = ''
  beforeAll(async () => {
    const files = new Map<string, Buffer>([
      [
        '/trendyol.jpg',
        await sharp({ create: { width: 1200, height: 1800, channels: 3, background: '#fff' } })
          .jpeg()
          .toBuffer(),
      ],
      // An MP4's opening box (the fake reads a video's type from its first bytes, as for images).
      ['/clip.mp4', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)])],
      [
        '/hepsiburada.jpg',
        await sharp({ create: { width: 1500, height: 1500, channels: 3, background: '#fff' } })
          .jpeg()
          .toBuffer(),
      ],
    ])
    imageServer = createServer((req, res) => {
      const file = files.get(req.url ?? '')
      if (!file) return res.writeHead(404).end()
      const type = req.url?.endsWith('.mp4') ? 'video/mp4' : 'image/jpeg'
      res.writeHead(200, { 'content-type': type }).end(file)
    })
    await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve))
    images = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await new Promise((resolve) => imageServer.close(resolve))
  })

  it('Trendyol takes the item as built', async () => {
    const fake = await startTrendyolFake({ allowHttpImages: true })
    try {
      const built = toTrendyolItem(listing({ imageUrls: [`${images}/trendyol.jpg`] }), 101, {
        allowHttpImages: true,
      })
      if (!built.ok) throw new Error(JSON.stringify(built.problems))
      const client = createTrendyolApi({ baseUrl: fake.apiBase, credentials: defaultTrendyolSeller })
      const batch = await client.createProducts([built.item])
      await fake.idle()
      expect((await client.batchResult(batch)).items).toEqual([
        { barcode: '8690000000017', status: 'SUCCESS', failureReasons: [] },
      ])
    } finally {
      await fake.close()
    }
  })

  /** The cup as a Hepsiburada item in a category the fake knows, with its image served here. */
  const hepsiburadaCup = (overrides: Partial<Listing>) =>
    toHepsiburadaItem(
      listing({
        categoryId: '60001001',
        imageUrls: [`${images}/hepsiburada.jpg`],
        attributes: [
          { attributeId: 'materyal', valueId: 'Porselen', value: 'Porselen', source: 'details' },
          { attributeId: 'kisi_sayisi', valueId: '6', value: '6', source: 'catalogue' },
          { attributeId: 'renk_variant_property', valueId: 'Beyaz', value: 'Beyaz', source: 'photo' },
        ],
        ...overrides,
      }),
      defaultHepsiburadaMerchant.merchantId,
      { allowHttpImages: true },
    )

  it('Hepsiburada takes the item as built', async () => {
    const start = Date.now()
    const fake = await startHepsiburadaFake({ allowHttpImages: true, now: () => start })
    try {
      const built = hepsiburadaCup({ videoUrl: `${images}/clip.mp4` })
      if (!built.ok) throw new Error(JSON.stringify(built.problems))
      const client = createHepsiburadaApi({ baseUrl: fake.url, credentials: defaultHepsiburadaMerchant })
      const trackingId = await client.importProducts([built.item])
      await fake.idle()
      expect(await client.importStatus(trackingId)).toEqual([
        expect.objectContaining({ merchantSku: 'FNC-6-BYZ', importStatus: 'SUCCESS', problems: [] }),
      ])

      // A Video1 that is not a movie, and one that is not there, are the item's failures.
      for (const [path, code] of [
        ['/hepsiburada.jpg', 'video-format'],
        ['/gone.mp4', 'video-unreachable'],
      ] as const) {
        const refused = hepsiburadaCup({
          barcode: `8690000000${path.length}`,
          stockCode: `VID-${path.length}`,
          videoUrl: `${images}${path}`,
        })
        if (!refused.ok) throw new Error(JSON.stringify(refused.problems))
        const tracking = await client.importProducts([refused.item])
        await fake.idle()
        const [status] = await client.importStatus(tracking)
        expect(status?.importStatus).toBe('FAILED')
        expect(
          status?.problems.map((problem) => classifyReason('hepsiburada', problem.message).code),
        ).toEqual([code])
      }
    } finally {
      await fake.close()
    }
  })
})
