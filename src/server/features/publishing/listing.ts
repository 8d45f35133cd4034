import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import type { FilledAttribute } from '#shared/contracts/publishing.ts'
import { fitCopy } from '#shared/marketplaces/fit-copy.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import type { HepsiburadaProductItem } from './hepsiburada-api.ts'
import type { TrendyolProductItem } from './trendyol-api.ts'

// A product as Vitrin publishes it, the same for every marketplace, and the one request item each
// marketplace takes for it. Building an item checks what the marketplace's documentation asks of
// the fields (publishing.md); what is wrong is a named problem for the seller, never a silent fix.

/** Trendyol's VAT rates (createProducts v2 `vatRate`), which Hepsiburada's `tax_vat_rate` shares. */
export const vatRates = [0, 1, 10, 20] as const
export type VatRate = (typeof vatRates)[number]

export type Listing = {
  /** The product's barcode: the key both marketplaces match a product by. */
  barcode: string
  /** The seller's stock code (Trendyol stockCode, Hepsiburada merchantSku). */
  stockCode: string
  /** Products sharing it are variants of one (Trendyol productMainId, Hepsiburada VaryantGroupID). */
  variantGroup: string | null
  title: string
  /** Plain text (the SEO copy's description); made into HTML for the marketplace. */
  description: string
  /** The copy's features, listed under the description. */
  features: string[]
  brand: string
  categoryId: string
  /** Sale price in Turkish lira, VAT included. */
  salePrice: number
  /** The price shown struck through; the sale price when the seller gives none. */
  listPrice: number | null
  stock: number
  vatRate: VatRate
  /** Dimensional weight (desi). */
  desi: number
  /** HTTPS addresses of the images in the marketplace's size, the main image first. */
  imageUrls: string[]
  /**
   * The HTTPS address of the product's video made to the marketplace's rules, or null (absent in
   * listings stored before videos went with them). Hepsiburada takes it as Video1.
   */
  videoUrl?: string | null
  attributes: FilledAttribute[]
  /** Country of origin, two letters (Trendyol requires it from 23 October 2026). */
  origin: string | null
  /** Warranty in months (Hepsiburada's GarantiSuresi). */
  warrantyMonths: number | null
}

/** What keeps a listing from being sent, each with the field it is about. */
export const listingProblemCodes = [
  'barcode-invalid',
  /** The same barcode (or Hepsiburada stock code) twice in one publication. */
  'key-duplicate',
  'stock-code-invalid',
  'title-missing',
  'description-missing',
  'brand-unknown',
  'category-invalid',
  'price-invalid',
  'list-price-below-sale',
  'stock-invalid',
  'desi-invalid',
  'images-missing',
  'image-not-https',
  'video-not-https',
  'attribute-invalid',
  /** A required attribute of the category has no value (catalogue batches: neither filled nor answered). */
  'attribute-missing',
  'vat-invalid',
  'origin-missing',
  'warranty-missing',
  /** The pre-publish checker fails an image on a rule the marketplace's export does not fix. */
  'checker-failed',
] as const
export type ListingProblemCode = (typeof listingProblemCodes)[number]
export type ListingProblem = { code: ListingProblemCode; field: string }

export type Built<T> = { ok: true; item: T } | { ok: false; problems: ListingProblem[] }

export type BuildOptions = {
  /**
   * Image addresses may be http: only where the marketplace is a local fake (tests and trying it
   * by hand); the marketplaces fetch HTTPS only.
   */
  allowHttpImages?: boolean
}

/** Trendyol: at most 40 characters, letters and digits with only `.` `-` `_` (publishing.md). */
const barcodePattern = /^[A-Za-z0-9._-]{1,40}$/

/** The images each request item carries at most (Trendyol 8; Hepsiburada Image1…Image10). */
const maxImages: Record<IntegrationMarketplace, number> = { trendyol: 8, hepsiburada: 10 }

/** The description as the HTML both marketplaces show: its paragraphs, then the features as a list. */
export function descriptionHtml(description: string, features: string[]): string {
  const paragraphs = description
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
  const items = features.map((feature) => feature.trim()).filter((feature) => feature !== '')
  const list =
    items.length > 0 ? [`<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`] : []
  return [...paragraphs, ...list].join('')
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/** Problems shared by both marketplaces' items. */
function commonProblems(
  listing: Listing,
  marketplace: IntegrationMarketplace,
  options: BuildOptions,
): ListingProblem[] {
  const problems: ListingProblem[] = []
  const add = (code: ListingProblemCode, field: string) => problems.push({ code, field })
  if (!barcodePattern.test(listing.barcode)) add('barcode-invalid', 'barcode')
  if (listing.stockCode.trim() === '' || listing.stockCode.length > 100)
    add('stock-code-invalid', 'stockCode')
  if (listing.title.trim() === '') add('title-missing', 'title')
  if (listing.description.trim() === '') add('description-missing', 'description')
  if (!isPositiveMoney(listing.salePrice)) add('price-invalid', 'salePrice')
  else if (
    listing.listPrice !== null &&
    !(isPositiveMoney(listing.listPrice) && listing.listPrice >= listing.salePrice)
  ) {
    add('list-price-below-sale', 'listPrice')
  }
  if (!Number.isInteger(listing.stock) || listing.stock < 0) add('stock-invalid', 'stock')
  if (!(vatRates as readonly number[]).includes(listing.vatRate)) add('vat-invalid', 'vatRate')
  if (!(Number.isFinite(listing.desi) && listing.desi >= 0)) add('desi-invalid', 'desi')
  if (listing.imageUrls.length === 0) add('images-missing', 'images')
  listing.imageUrls.slice(0, maxImages[marketplace]).forEach((url, index) => {
    if (!isFetchable(url, options)) add('image-not-https', `images.${index}`)
  })
  if (listing.videoUrl && !isFetchable(listing.videoUrl, options)) add('video-not-https', 'video')
  return problems
}

/** Whether the marketplace will fetch the address: HTTPS, or plain http for a local fake. */
function isFetchable(url: string, options: BuildOptions): boolean {
  return url.startsWith('https://') || (options.allowHttpImages === true && url.startsWith('http://'))
}

function isPositiveMoney(value: number): boolean {
  return Number.isFinite(value) && value > 0 && Math.round(value * 100) === value * 100
}

/** Title and description fitted to the marketplace profile's published limits. */
function fittedText(listing: Listing, marketplace: IntegrationMarketplace) {
  const fitted = fitCopy(getProfile(marketplace), { title: listing.title, description: listing.description })
  return { title: fitted.title, html: descriptionHtml(fitted.description, listing.features) }
}

/**
 * The createProducts v2 item for a listing, with the brand's Trendyol id (brandsByName). Images
 * past Trendyol's eight are left out, in order.
 */
export function toTrendyolItem(
  listing: Listing,
  brandId: number | null,
  options: BuildOptions = {},
): Built<TrendyolProductItem> {
  const problems = commonProblems(listing, 'trendyol', options)
  const categoryId = Number(listing.categoryId)
  if (!Number.isSafeInteger(categoryId) || categoryId <= 0)
    problems.push({ code: 'category-invalid', field: 'categoryId' })
  if (brandId === null) problems.push({ code: 'brand-unknown', field: 'brand' })
  if (listing.origin === null || !/^[A-Z]{2}$/.test(listing.origin))
    problems.push({ code: 'origin-missing', field: 'origin' })
  const attributes: TrendyolProductItem['attributes'] = []
  for (const filled of listing.attributes) {
    const attributeId = Number(filled.attributeId)
    const valueId = filled.valueId === null ? null : Number(filled.valueId)
    if (!Number.isSafeInteger(attributeId) || (valueId !== null && !Number.isSafeInteger(valueId))) {
      problems.push({ code: 'attribute-invalid', field: `attributes.${filled.attributeId}` })
    } else if (valueId !== null) {
      attributes.push({ attributeId, attributeValueId: valueId })
    } else {
      attributes.push({ attributeId, customAttributeValue: filled.value })
    }
  }
  if (problems.length > 0 || brandId === null || listing.origin === null) return { ok: false, problems }
  const { title, html } = fittedText(listing, 'trendyol')
  return {
    ok: true,
    item: {
      barcode: listing.barcode,
      title,
      productMainId: (listing.variantGroup ?? listing.stockCode).slice(0, 40),
      brandId,
      categoryId,
      quantity: listing.stock,
      stockCode: listing.stockCode,
      dimensionalWeight: listing.desi,
      description: html,
      currencyType: 'TRY',
      listPrice: listing.listPrice ?? listing.salePrice,
      salePrice: listing.salePrice,
      vatRate: listing.vatRate,
      origin: listing.origin,
      images: listing.imageUrls.slice(0, maxImages.trendyol).map((url) => ({ url })),
      attributes,
    },
  }
}

/**
 * Hepsiburada's own fields of an import item, which toHepsiburadaItem fills from the listing.
 * Its category attributes list them too (its base attributes): they are never filled or asked
 * as attributes, or a catalogue column named "Görsel 1" would replace the image's address.
 */
export const hepsiburadaListingFields: ReadonlySet<string> = new Set([
  'merchantSku',
  'VaryantGroupID',
  'Barcode',
  'UrunAdi',
  'UrunAciklamasi',
  'Marka',
  'GarantiSuresi',
  'kg',
  'tax_vat_rate',
  'price',
  'stock',
  ...Array.from({ length: maxImages.hepsiburada }, (_, index) => `Image${index + 1}`),
  'Video1',
])

/** A category's attributes as the seller fills them: on Hepsiburada, without the item's own fields. */
export function sellerAttributes<T extends { id: string }>(
  marketplace: 'trendyol' | 'hepsiburada',
  attributes: T[],
): T[] {
  return marketplace === 'hepsiburada'
    ? attributes.filter((attribute) => !hepsiburadaListingFields.has(attribute.id))
    : attributes
}

/** A number as Hepsiburada's import example writes it: a decimal comma, no thousands separator. */
export function hepsiburadaNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2).replace('.', ',')
}

/**
 * The product import item for a listing: every field as a string attribute, by Hepsiburada's
 * names. Category attributes go by their ids; one with several values is comma-separated.
 */
export function toHepsiburadaItem(
  listing: Listing,
  merchantId: string,
  options: BuildOptions = {},
): Built<HepsiburadaProductItem> {
  const problems = commonProblems(listing, 'hepsiburada', options)
  const categoryId = Number(listing.categoryId)
  if (!Number.isSafeInteger(categoryId) || categoryId <= 0)
    problems.push({ code: 'category-invalid', field: 'categoryId' })
  if (listing.brand.trim() === '') problems.push({ code: 'brand-unknown', field: 'brand' })
  if (
    listing.warrantyMonths === null ||
    !Number.isInteger(listing.warrantyMonths) ||
    listing.warrantyMonths < 0
  ) {
    problems.push({ code: 'warranty-missing', field: 'warrantyMonths' })
  }
  if (problems.length > 0) return { ok: false, problems }
  const { title, html } = fittedText(listing, 'hepsiburada')
  const attributes: Record<string, string> = {
    merchantSku: listing.stockCode,
    ...(listing.variantGroup ? { VaryantGroupID: listing.variantGroup } : {}),
    Barcode: listing.barcode,
    UrunAdi: title,
    UrunAciklamasi: html,
    Marka: listing.brand.trim(),
    GarantiSuresi: String(listing.warrantyMonths),
    kg: hepsiburadaNumber(listing.desi),
    tax_vat_rate: String(listing.vatRate),
    price: hepsiburadaNumber(listing.salePrice),
    stock: String(listing.stock),
  }
  listing.imageUrls.slice(0, maxImages.hepsiburada).forEach((url, index) => {
    attributes[`Image${index + 1}`] = url
  })
  if (listing.videoUrl) attributes.Video1 = listing.videoUrl
  const byAttribute = new Map<string, string[]>()
  for (const filled of listing.attributes) {
    // The item's own fields come from the listing, whatever an attribute of the same id says.
    if (hepsiburadaListingFields.has(filled.attributeId)) continue
    byAttribute.set(filled.attributeId, [...(byAttribute.get(filled.attributeId) ?? []), filled.value])
  }
  for (const [attributeId, values] of byAttribute) attributes[attributeId] = values.join(',')
  return { ok: true, item: { categoryId, merchant: merchantId, attributes } }
}
