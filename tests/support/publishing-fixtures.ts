import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import type { Listing } from '#server/features/publishing/listing.ts'
import type { FillSource } from '#shared/contracts/publishing.ts'
import { trendyolCategoryAttributes } from '#tests/fakes/trendyol-catalog.ts'

// What the publishing tests and the bench publish: Trendyol's cup-set category (1111) in the fake's
// catalogue, a listing of it that the fake accepts, and the local server its images come from.

/** The fake catalogue's cup-set category, whose required attributes the listings answer. */
export const cupCategoryId = 1111

/** One of the cup-set category's attributes with an allowed value, as the filler would give it. */
export function cupAttribute(name: string, value: string, source: FillSource = 'details') {
  const attribute = (trendyolCategoryAttributes.get(cupCategoryId) ?? []).find(
    (a) => a.attribute.name === name,
  )
  const allowed = attribute?.attributeValues.find((v) => v.name === value)
  if (!attribute || !allowed) throw new Error(`the fake's category ${cupCategoryId} has no ${name}=${value}`)
  return { attributeId: String(attribute.attribute.id), valueId: String(allowed.id), value, source }
}

/** Every required attribute of the cup-set category, answered. */
export function cupAttributes(source: FillSource = 'details') {
  return [
    cupAttribute('Renk', 'Beyaz', source),
    cupAttribute('Materyal', 'Porselen', source),
    cupAttribute('Boyut/Ebat', 'Tek Ebat', source),
    cupAttribute('Parça Sayısı', '12', source),
  ]
}

/** A cup-set listing Trendyol's fake accepts, its one image at `${imageOrigin}/m/<barcode>.jpg`. */
export function cupListing(barcode: string, imageOrigin: string, overrides: Partial<Listing> = {}): Listing {
  return {
    barcode,
    stockCode: `STK-${barcode}`,
    variantGroup: null,
    title: 'Atölye Kahve Fincan Takımı 6 Kişilik Porselen Beyaz',
    description: 'Altı kişilik porselen kahve fincan takımı.',
    features: ['6 fincan, 6 tabak'],
    brand: 'paşabahçe',
    categoryId: String(cupCategoryId),
    salePrice: 749.9,
    listPrice: 899.9,
    stock: 20,
    vatRate: 20,
    desi: 2,
    imageUrls: [`${imageOrigin}/m/${barcode}.jpg`],
    attributes: cupAttributes(),
    origin: 'TR',
    warrantyMonths: null,
    ...overrides,
  }
}

export type ImageServer = { origin: string; close: () => Promise<void> }

/**
 * Serves one white JPEG of the given size at every `/m/…` path (Trendyol's fake checks
 * 1200×1800), as published images would be served; anything else is 404.
 */
export async function startImageServer(width = 1200, height = 1800): Promise<ImageServer> {
  const photo = await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .jpeg({ quality: 80 })
    .toBuffer()
  const server = createServer((req, res) => {
    if (!req.url?.startsWith('/m/')) return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(photo.length) }).end(photo)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
