// A fake Trendyol seller API (base path /integration, as https://apigw.trendyol.com/integration),
// speaking the documented protocol of the product services Vitrin calls: Basic auth with the
// seller's API key and secret plus the required User-Agent, brand / category / attribute lookups,
// createProducts v2 (async, read back through getBatchRequestResult with per-item failureReasons),
// the unapproved-product update, product filters, approval that takes time, and the per-seller
// write budget with 429. It downloads every image URL of a listing when it processes a batch and
// checks the format and the 1200×1800 size. For tests (`startTrendyolFake()`) and by hand:
// `npx tsx tests/fakes/trendyol-server.ts --port 4700` (see README.md).
//
// Sources: ../shared/spec/publishing.md and marketplaces.md, and the pages cited above each route.
// Where Trendyol documents no value the fake needs (how long processing or approval take, the text
// of a failure reason, a Retry-After header) the value is the fake's own: each is an option or a
// script field below, and its default says "not documented".

import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { answerControl, argValue, closeServer, exitOnStop } from './control.ts'
import {
  basicCredentials,
  checkImage,
  checkVideo,
  FakeClock,
  type FakeStep,
  headerRecord,
  type ImageCheck,
  type ImageFormat,
  Limiter,
  nextStep,
  RequestWindow,
  readBody,
  send,
} from './marketplace-common.ts'
import {
  type TrendyolCategoryAttribute,
  trendyolBrands,
  trendyolCategories,
  trendyolCategoryAttributes,
  trendyolCategoryTree,
} from './trendyol-catalog.ts'

export type TrendyolSeller = { sellerId: string; apiKey: string; apiSecret: string }

/** A rejection Trendyol's reviewers give an unapproved product (filterUnapprovedProducts' shape). */
export type TrendyolRejectReason = { rejectReason: string; rejectReasonDetail: string }

export type TrendyolFakeScript = {
  /** The next authenticated API requests (any route) answer these statuses ('ok' works normally). */
  requests?: FakeStep[] | FakeStep
  /** The same for write requests only (create and update). */
  writes?: FakeStep[] | FakeStep
  /** Least time from submit until a batch reads COMPLETED (fake clock). Not documented; default 0. */
  processingMs?: number
  /** Time a product stays pending approval after its batch completes. Not documented; default 5000. */
  approvalMs?: number
  /** Barcode → the reviewers' rejection, given when its approval time is up. */
  reject?: Record<string, (TrendyolRejectReason | string)[]>
  /** The same, for the barcode's next review only: a fixed and resubmitted product is then approved. */
  rejectOnce?: Record<string, (TrendyolRejectReason | string)[]>
  /** Barcode → failureReasons the batch reports for that item, on top of the fake's own checks. */
  failItems?: Record<string, string[]>
  /** Writes (create + update share one budget) per seller per minute. Default: 200, see defaults. */
  writeLimitPerMinute?: number
  /** Seconds in a Retry-After header on 429. Trendyol documents none: by default no header is sent. */
  retryAfterSeconds?: number | null
}

/**
 * Defaults, each with where it comes from. "not documented" means the fake had to choose.
 */
export const trendyolFakeDefaults = {
  /** Documented: Product Integration Write group, lowest listing tier (50K), from 14 Sep 2026 (publishing.md). */
  writeLimitPerMinute: 200,
  /** Documented: Product Integration Read group, lowest listing tier (publishing.md). */
  readLimitPerMinute: 1000,
  /** Documented ("aynı endpointe 10 saniye içerisinde maksimum 50 request", 2. Authorization page). */
  endpointBurst: { limit: 50, windowMs: 10_000 },
  /** Documented: ≤ 1,000 items in one createProducts / update request. */
  maxItemsPerRequest: 1000,
  /** Not documented: how long Trendyol takes to process a batch. */
  processingMs: 0,
  /** Not documented: how long approval takes (Trendyol's review is done by people). */
  approvalMs: 5000,
  /** Not documented: Trendyol publishes no Retry-After header, so none is sent unless scripted. */
  retryAfterSeconds: null as number | null,
  /** Documented: 1200×1800 ("Ürünlere ait görsellerin boyutlarının 1200x1800 ve 96dpi olması gerekmektedir"). */
  imageSize: { width: 1200, height: 1800 } as { width: number; height: number } | null,
  /** Not documented as a rule (marketplaces.md: formats NOT FOUND; examples are .jpg): the fake accepts these. */
  imageFormats: ['jpeg', 'png', 'webp'] as ImageFormat[],
  /** Documented: origin required from 23 October 2026 (changelog 17.08.2026). */
  originRequiredFrom: Date.parse('2026-10-23T00:00:00+03:00'),
  /** Documented (video service): create 200 requests a minute, list 1,000 (marketplaces.md). */
  videoCreatePerMinute: 200,
  videoListPerMinute: 1000,
}

/**
 * The video service's 400 keys, as its guide lists them (marketplaces.md "Video (new in 2026)");
 * the Turkish wording beside each is the fake's.
 */
export const trendyolVideoErrors = {
  bodyRequired: ['seller.integration.body.required', 'Video isteğinin gövdesi zorunludur.'],
  titleRequired: ['seller.integration.title.required', 'Video başlığı zorunludur.'],
  titleLength: ['seller.integration.title.length', 'Video başlığı 3-50 karakter olmalıdır.'],
  descriptionLength: [
    'seller.integration.description.length',
    'Video açıklaması en fazla 500 karakter olabilir.',
  ],
  urlRequired: ['seller.integration.video.url.required', 'Video adresi zorunludur.'],
  urlInvalid: [
    'seller.integration.video.url.invalid',
    'Video adresi http:// veya https:// ile başlamalıdır.',
  ],
  contentIdsRequired: [
    'seller.integration.product.content.ids.required',
    'Video için en az bir ürün içerik ID gereklidir.',
  ],
  contentIdsMax: [
    'seller.integration.product.content.ids.max',
    'Bir video en fazla 100 ürün içerik ID ile gönderilebilir.',
  ],
} as const

/**
 * Why a video the service took FAILED (its `errorCode`). The format code is the guide's own example;
 * Trendyol documents no code for a download that fails, so that one is the fake's.
 */
export const trendyolVideoFailures = {
  format: 'video.content.api.seller.integration.video.format.invalid',
  download: 'video.content.api.seller.integration.video.download.failed',
} as const

/** A video as the fake's video service holds it. */
export type TrendyolVideo = {
  id: string
  sellerId: string
  title: string
  description: string
  videoUrl: string
  productContentIds: string[]
  /** Set once the download is checked: null while it is under way, else why it failed or 'ok'. */
  checked: keyof typeof trendyolVideoFailures | 'ok' | null
  /** Processed (SUCCESS) from this time, and approved from decidedAt, on the fake clock. */
  readyAt: number
  decidedAt: number
}

export type TrendyolFakeRequest = {
  method: string
  /** Path and query under the fake's origin, e.g. /integration/product/sellers/1/v2/products */
  path: string
  headers: Record<string, string>
  body: unknown
  /** The status the fake answered. */
  status: number
  match?: string
}

export type TrendyolBatchItem = {
  requestItem: Record<string, unknown>
  status: 'SUCCESS' | 'FAILED' | 'IN_PROGRESS'
  failureReasons: string[]
}

export type TrendyolBatch = {
  batchRequestId: string
  sellerId: string
  batchRequestType: 'ProductV2OnBoarding' | 'ProductV2Update'
  creationDate: number
  lastModification: number
  readyAt: number
  isProcessed: boolean
  items: TrendyolBatchItem[]
}

export type TrendyolListing = {
  sellerId: string
  barcode: string
  /** The item as last accepted (create or update), normalised (inner spaces of the barcode removed). */
  item: Record<string, unknown>
  contentId: number
  listingId: string
  createdAt: number
  lastModifiedAt: number
  /** Approval (or rejection) happens at this time on the fake clock. */
  decidedAt: number
  rejectReasons: TrendyolRejectReason[]
  batchRequestIds: string[]
}

export type TrendyolListingStatus = 'pendingApproval' | 'approved' | 'rejected'

export type TrendyolFake = {
  /** Origin, e.g. http://127.0.0.1:4700; TRENDYOL_API_BASE is `${url}/integration`. */
  url: string
  /** `${url}/integration`, the base every documented path hangs from. */
  apiBase: string
  sellers: TrendyolSeller[]
  requests: TrendyolFakeRequest[]
  batches: Map<string, TrendyolBatch>
  /** Every listing, keyed `${sellerId}:${barcode}`: never two for one barcode. */
  listings: Map<string, TrendyolListing>
  /** The video service's videos by id. */
  videos: Map<string, TrendyolVideo>
  clock: FakeClock
  /** Moves the fake's clock on (processing and approval times pass without waiting). */
  advance(ms: number): void
  statusOf(listing: TrendyolListing): TrendyolListingStatus
  /** Write-budget counters for a seller: accepted writes, 429s, most writes in any one minute. */
  writeStats(sellerId?: string): ReturnType<RequestWindow['stats']>
  /** Requests refused with 429 for a read budget or the 50-in-10-seconds endpoint rule. */
  readRefusals(): number
  /** Replaces the script (and restarts its step lists). */
  script(script: TrendyolFakeScript): void
  reset(): void
  /** Resolves once every batch received so far has been processed (images fetched). */
  idle(): Promise<void>
  close(): Promise<void>
}

export type TrendyolFakeOptions = {
  port?: number
  host?: string
  /** Accounts the fake knows (default: one seller, see `defaultTrendyolSeller`). */
  sellers?: TrendyolSeller[]
  /** Let image URLs be plain http (tests serve images locally). Trendyol itself requires https. */
  allowHttpImages?: boolean
  /** The fake's clock source (default Date.now); `advance()` moves on from it. */
  now?: () => number
  defaults?: TrendyolFakeScript
  imageSize?: { width: number; height: number } | null
  imageFormats?: ImageFormat[]
  imageTimeoutMs?: number
  /** Adds the JSON endpoints under /__control/ (README.md). */
  control?: boolean
}

export const defaultTrendyolSeller: TrendyolSeller = {
  sellerId: '123456',
  apiKey: 'fake-trendyol-api-key',
  apiSecret: 'fake-trendyol-api-secret',
}

/**
 * The failure reasons the fake writes into `failureReasons`. Trendyol publishes no catalogue of
 * these strings (they are free text, Turkish on the TR storefront), so the wording is the fake's;
 * each says plainly what is wrong. Exported so tests can match them and a client's reason mapping
 * can be checked against every reason the fake can give.
 */
export const trendyolFailureReasons = {
  barcodeMissing: () => 'Barkod alanı zorunludur.',
  barcodeTooLong: (barcode: string) => `Barkod en fazla 40 karakter olabilir: ${barcode}`,
  barcodeCharacters: (barcode: string) =>
    `Barkod yalnızca harf, rakam ve . - _ karakterlerini içerebilir: ${barcode}`,
  duplicateBarcode: (barcode: string) => `Bu barkod ile kayıtlı bir ürününüz bulunmaktadır: ${barcode}`,
  duplicateInRequest: (barcode: string) => `Aynı istekte bu barkod birden fazla kez gönderildi: ${barcode}`,
  titleMissing: () => 'Ürün başlığı (title) zorunludur.',
  titleTooLong: (length: number) => `Ürün başlığı en fazla 100 karakter olabilir (gönderilen: ${length}).`,
  productMainIdMissing: () => 'Model kodu (productMainId) zorunludur.',
  productMainIdTooLong: () => 'Model kodu (productMainId) en fazla 40 karakter olabilir.',
  stockCodeMissing: () => 'Stok kodu (stockCode) zorunludur.',
  stockCodeTooLong: () => 'Stok kodu (stockCode) en fazla 100 karakter olabilir.',
  descriptionMissing: () => 'Ürün açıklaması (description) zorunludur.',
  descriptionTooLong: (length: number) =>
    `Ürün açıklaması en fazla 30000 karakter olabilir (gönderilen: ${length}).`,
  brandNotFound: (brandId: unknown) => `Marka bulunamadı: ${String(brandId)}`,
  categoryNotFound: (categoryId: unknown) => `Kategori bulunamadı: ${String(categoryId)}`,
  categoryNotLeaf: (categoryId: unknown) =>
    `Ürün yalnızca en alt seviyedeki kategoriye eklenebilir; ${String(categoryId)} alt kategorileri olan bir kategoridir.`,
  quantityInvalid: () => 'Stok adedi (quantity) 0 veya daha büyük bir tam sayı olmalıdır.',
  dimensionalWeightMissing: () => 'Desi (dimensionalWeight) zorunludur.',
  priceMissing: () => 'listPrice ve salePrice zorunludur ve 0’dan büyük olmalıdır.',
  priceRelation: () => 'Satış fiyatı (salePrice) liste fiyatından (listPrice) büyük olamaz.',
  vatRate: (vatRate: unknown) =>
    `KDV oranı (vatRate) 0, 1, 10 veya 20 olmalıdır (gönderilen: ${String(vatRate)}).`,
  originMissing: () => 'Menşei (origin) alanı zorunludur: 2 harfli ülke kodu gönderilmelidir.',
  originInvalid: (origin: unknown) =>
    `Menşei (origin) 2 harfli bir ülke kodu olmalıdır (gönderilen: ${String(origin)}).`,
  lotNumberInvalid: () =>
    'lotNumber en fazla 100 karakter olabilir ve yalnızca A-Z a-z 0-9 , - . : / içerebilir.',
  imagesMissing: () => 'En az bir ürün görseli (images) gönderilmelidir.',
  imagesTooMany: (count: number) => `Bir barkod için en fazla 8 görsel eklenebilir (gönderilen: ${count}).`,
  imageNotHttps: (url: string) => `Görsel adresi SSL (https) olmalıdır: ${url}`,
  imageUnreachable: (url: string, status?: number) =>
    status ? `Görsel indirilemedi (HTTP ${status}): ${url}` : `Görsel indirilemedi: ${url}`,
  imageFormat: (url: string) => `Görsel biçimi desteklenmiyor (JPEG, PNG veya WebP olmalı): ${url}`,
  imageSize: (url: string, width: number, height: number, want: { width: number; height: number }) =>
    `Görsel boyutu ${want.width}x${want.height} olmalıdır (gönderilen: ${width}x${height}): ${url}`,
  attributesMissing: () => 'Kategori özellikleri (attributes) zorunludur.',
  attributeRequired: (name: string) => `Zorunlu kategori özelliği eksik: ${name}`,
  attributeUnknown: (attributeId: unknown) =>
    `Bu kategoride olmayan bir özellik gönderildi: ${String(attributeId)}`,
  attributeValueInvalid: (name: string, value: unknown) =>
    `${name} özelliği için geçersiz değer: ${String(value)}. Kategori özellik değerlerinden biri seçilmelidir.`,
  attributeMultipleValues: (name: string) => `${name} özelliği birden fazla değer alamaz.`,
  colourTooLong: () => 'Renk değeri en fazla 50 karakter olabilir.',
  productNotFound: (barcode: string) => `Güncellenecek onaysız ürün bulunamadı: ${barcode}`,
  productApproved: (barcode: string) =>
    `Onaylı ürün bu servisle güncellenemez; içerik için content-bulk-update kullanılmalıdır: ${barcode}`,
} as const

/**
 * Rejections a reviewer gives (filterUnapprovedProducts' rejectReasonDetails), one per kind of
 * problem Trendyol's seller guidance names: images, brand and authority, category, attributes,
 * title and description, duplicates. Trendyol publishes no list of these texts, so the wording is
 * the fake's own; scripts take them (`reject: { barcode: [trendyolReviewReasons.imageBackground] }`)
 * and a client's reason mapping can be checked against every one.
 */
export const trendyolReviewReasons = {
  imageBackground: { rejectReason: 'Görsel', rejectReasonDetail: 'Ürün görseli beyaz fonda değil.' },
  imageOtherBrand: {
    rejectReason: 'Sakıncalı Görsel',
    rejectReasonDetail: 'Görselde başka marka logosu var',
  },
  imageSize: {
    rejectReason: 'Görsel Boyutu',
    rejectReasonDetail: 'Görseller 1200x1800 boyutunda değil.',
  },
  wrongBrand: {
    rejectReason: 'Hatalı Marka Bilgisi',
    rejectReasonDetail: 'Ürünün markası gönderilen marka ile uyuşmuyor.',
  },
  brandAuthority: {
    rejectReason: 'Marka Yetki Belgesi',
    rejectReasonDetail: 'Bu markada satış için marka yetki belgesi gerekir.',
  },
  wrongCategory: { rejectReason: 'Hatalı Kategori', rejectReasonDetail: 'Ürün yanlış kategoride açılmış.' },
  wrongAttribute: {
    rejectReason: 'Hatalı Özellik',
    rejectReasonDetail: 'Renk özelliği görseldeki ürünle uyuşmuyor.',
  },
  forbiddenWords: {
    rejectReason: 'Ürün Başlığı',
    rejectReasonDetail: 'Başlıkta yasaklı ya da tanıtım amaçlı ifadeler var (ör. "ücretsiz kargo").',
  },
  titleWrong: { rejectReason: 'Ürün Adı', rejectReasonDetail: 'Başlık ürünü doğru tanımlamıyor.' },
  descriptionWrong: { rejectReason: 'Ürün Açıklaması', rejectReasonDetail: 'Açıklama ürünle ilgili değil.' },
  counterfeit: { rejectReason: 'Sahte Ürün', rejectReasonDetail: 'Ürünün orijinal olduğu doğrulanamadı.' },
  duplicate: {
    rejectReason: 'Mükerrer Ürün',
    rejectReasonDetail: 'Aynı ürün mağazanızda başka bir barkodla zaten satışta.',
  },
} as const satisfies Record<string, TrendyolRejectReason>

const allowedVatRates = new Set([0, 1, 10, 20])

/** The documented endpoint a path belongs to (ids, barcodes and batch ids replaced by placeholders). */
export function endpointOf(route: string): string {
  return route
    .replace(/^\/product\/sellers\/[^/]+/, '/product/sellers/{sellerId}')
    .replace(/\/batch-requests\/[^/]+$/, '/batch-requests/{batchRequestId}')
    .replace(/^(\/product\/sellers\/\{sellerId\})\/product\/[^/]+$/, '$1/product/{barcode}')
    .replace(/\/\d+(?=\/|$)/g, '/{id}')
}

function errorBody(status: number, key: string, message: string) {
  // Trendyol's ErrorResponse: { errors: [{ key, message, errorCode }] }, errorCode the status as a string.
  return { errors: [{ key, message, errorCode: String(status) }] }
}

type Rec = Record<string, unknown>

function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The attribute values an item gives, whichever documented spelling it uses. */
function attributeValuesOf(entry: Rec): { ids: unknown[]; custom: string | null } {
  const ids: unknown[] = []
  if (entry.attributeValueId !== undefined && entry.attributeValueId !== null)
    ids.push(entry.attributeValueId)
  if (Array.isArray(entry.attributeValueIds)) ids.push(...entry.attributeValueIds)
  const custom =
    typeof entry.customAttributeValue === 'string'
      ? entry.customAttributeValue
      : typeof entry.attributeValue === 'string'
        ? entry.attributeValue
        : null
  return { ids, custom }
}

export async function startTrendyolFake(options: TrendyolFakeOptions = {}): Promise<TrendyolFake> {
  const host = options.host ?? '127.0.0.1'
  const sellers = options.sellers ?? [defaultTrendyolSeller]
  const clock = new FakeClock(options.now)
  const requests: TrendyolFakeRequest[] = []
  const batches = new Map<string, TrendyolBatch>()
  const listings = new Map<string, TrendyolListing>()
  const videos = new Map<string, TrendyolVideo>()
  const processing = new Set<Promise<void>>()
  let script: TrendyolFakeScript = {}
  /** Barcodes whose `rejectOnce` was given (so the next review passes). */
  const usedOnce = new Set<string>()
  let steps: { requests: FakeStep[] | FakeStep | undefined; writes: FakeStep[] | FakeStep | undefined } = {
    requests: undefined,
    writes: undefined,
  }
  let contentSequence = 9_500_000
  const writeWindow = new RequestWindow(trendyolFakeDefaults.writeLimitPerMinute, 60_000)
  const readWindow = new RequestWindow(trendyolFakeDefaults.readLimitPerMinute, 60_000)
  const burstWindow = new RequestWindow(
    trendyolFakeDefaults.endpointBurst.limit,
    trendyolFakeDefaults.endpointBurst.windowMs,
  )
  const videoCreateWindow = new RequestWindow(trendyolFakeDefaults.videoCreatePerMinute, 60_000)
  const videoListWindow = new RequestWindow(trendyolFakeDefaults.videoListPerMinute, 60_000)
  const imageRules = {
    allowHttp: options.allowHttpImages ?? false,
    formats: options.imageFormats ?? trendyolFakeDefaults.imageFormats,
    size: options.imageSize === undefined ? trendyolFakeDefaults.imageSize : options.imageSize,
    timeoutMs: options.imageTimeoutMs ?? 10_000,
    // The fake's choice: enough downloads at once to be quick, few enough not to drop connections.
    limiter: new Limiter(16),
  }

  function setScript(next: TrendyolFakeScript) {
    script = { ...options.defaults, ...next }
    usedOnce.clear()
    const copy = (plan: FakeStep[] | FakeStep | undefined) => (Array.isArray(plan) ? [...plan] : plan)
    steps = { requests: copy(script.requests), writes: copy(script.writes) }
    writeWindow.limit = script.writeLimitPerMinute ?? trendyolFakeDefaults.writeLimitPerMinute
  }
  setScript({})

  const approvalMs = () => script.approvalMs ?? trendyolFakeDefaults.approvalMs

  function statusOf(listing: TrendyolListing): TrendyolListingStatus {
    if (clock.now() < listing.decidedAt) return 'pendingApproval'
    return listing.rejectReasons.length > 0 ? 'rejected' : 'approved'
  }

  function rejectionFor(barcode: string): TrendyolRejectReason[] {
    let reasons = script.reject?.[barcode] ?? []
    if (reasons.length === 0 && script.rejectOnce?.[barcode] && !usedOnce.has(barcode)) {
      usedOnce.add(barcode)
      reasons = script.rejectOnce[barcode] ?? []
    }
    return reasons.map((reason) =>
      typeof reason === 'string' ? { rejectReason: reason, rejectReasonDetail: reason } : reason,
    )
  }

  /** The fake's checks of one item's content, in the order a reader fixes them. */
  function contentProblems(item: Rec, now: number): string[] {
    const reasons = trendyolFailureReasons
    const problems: string[] = []
    const barcode = typeof item.barcode === 'string' ? item.barcode : ''
    if (!barcode) problems.push(reasons.barcodeMissing())
    else if (barcode.length > 40) problems.push(reasons.barcodeTooLong(barcode))
    else if (!/^[\p{L}\p{N}._-]+$/u.test(barcode)) problems.push(reasons.barcodeCharacters(barcode))
    const title = typeof item.title === 'string' ? item.title : ''
    if (!title.trim()) problems.push(reasons.titleMissing())
    else if (title.length > 100) problems.push(reasons.titleTooLong(title.length))
    if (typeof item.productMainId !== 'string' || !item.productMainId)
      problems.push(reasons.productMainIdMissing())
    else if (item.productMainId.length > 40) problems.push(reasons.productMainIdTooLong())
    if (typeof item.stockCode !== 'string' || !item.stockCode) problems.push(reasons.stockCodeMissing())
    else if (item.stockCode.length > 100) problems.push(reasons.stockCodeTooLong())
    const description = typeof item.description === 'string' ? item.description : ''
    if (!description.trim()) problems.push(reasons.descriptionMissing())
    else if (description.length > 30_000) problems.push(reasons.descriptionTooLong(description.length))
    if (!trendyolBrands.some((brand) => brand.id === item.brandId))
      problems.push(reasons.brandNotFound(item.brandId))
    const category = typeof item.categoryId === 'number' ? trendyolCategories.get(item.categoryId) : undefined
    if (!category) problems.push(reasons.categoryNotFound(item.categoryId))
    else if (category.node.subCategories.length > 0) problems.push(reasons.categoryNotLeaf(item.categoryId))
    if (!Number.isInteger(item.quantity) || (item.quantity as number) < 0)
      problems.push(reasons.quantityInvalid())
    if (typeof item.dimensionalWeight !== 'number') problems.push(reasons.dimensionalWeightMissing())
    const listPrice = item.listPrice
    const salePrice = item.salePrice
    if (typeof listPrice !== 'number' || typeof salePrice !== 'number' || listPrice <= 0 || salePrice <= 0) {
      problems.push(reasons.priceMissing())
    } else if (listPrice < salePrice) problems.push(reasons.priceRelation())
    if (typeof item.vatRate !== 'number' || !allowedVatRates.has(item.vatRate))
      problems.push(reasons.vatRate(item.vatRate))
    if (item.origin === undefined || item.origin === null || item.origin === '') {
      if (now >= trendyolFakeDefaults.originRequiredFrom) problems.push(reasons.originMissing())
    } else if (typeof item.origin !== 'string' || !/^[A-Z]{2}$/.test(item.origin)) {
      problems.push(reasons.originInvalid(item.origin))
    }
    if (
      item.lotNumber !== undefined &&
      item.lotNumber !== null &&
      (typeof item.lotNumber !== 'string' ||
        item.lotNumber.length > 100 ||
        !/^[A-Za-z0-9,\-.:/]*$/.test(item.lotNumber))
    ) {
      problems.push(reasons.lotNumberInvalid())
    }
    const images = Array.isArray(item.images) ? item.images : []
    if (images.length === 0) problems.push(reasons.imagesMissing())
    else if (images.length > 8) problems.push(reasons.imagesTooMany(images.length))
    const categoryAttributes =
      typeof item.categoryId === 'number' ? trendyolCategoryAttributes.get(item.categoryId) : undefined
    if (categoryAttributes) problems.push(...attributeProblems(item.attributes, categoryAttributes))
    return problems
  }

  function attributeProblems(given: unknown, categoryAttributes: TrendyolCategoryAttribute[]): string[] {
    const reasons = trendyolFailureReasons
    if (!Array.isArray(given) || given.length === 0) {
      return categoryAttributes.some((a) => a.required) ? [reasons.attributesMissing()] : []
    }
    const problems: string[] = []
    const byId = new Map<number, Rec>()
    for (const entry of given) {
      if (!isRecord(entry)) continue
      const definition = categoryAttributes.find((a) => a.attribute.id === entry.attributeId)
      if (!definition) {
        problems.push(reasons.attributeUnknown(entry.attributeId))
        continue
      }
      byId.set(definition.attribute.id, entry)
      const { ids, custom } = attributeValuesOf(entry)
      const name = definition.attribute.name
      if (ids.length > 1 && !definition.allowMultipleAttributeValues)
        problems.push(reasons.attributeMultipleValues(name))
      for (const id of ids) {
        if (!definition.attributeValues.some((value) => value.id === id))
          problems.push(reasons.attributeValueInvalid(name, id))
      }
      if (ids.length === 0 && custom !== null && !definition.allowCustom)
        problems.push(reasons.attributeValueInvalid(name, custom))
      if (name === 'Renk' && custom !== null && custom.length > 50) problems.push(reasons.colourTooLong())
    }
    for (const definition of categoryAttributes) {
      if (!definition.required) continue
      const entry = byId.get(definition.attribute.id)
      const value = entry ? attributeValuesOf(entry) : null
      if (!value || (value.ids.length === 0 && !value.custom?.trim())) {
        problems.push(reasons.attributeRequired(definition.attribute.name))
      }
    }
    return problems
  }

  async function imageProblems(item: Rec, cache: Map<string, Promise<ImageCheck>>): Promise<string[]> {
    const reasons = trendyolFailureReasons
    const images = Array.isArray(item.images) ? item.images.slice(0, 8) : []
    const checks = await Promise.all(
      images.map((image) =>
        isRecord(image) && typeof image.url === 'string'
          ? checkImage(image.url, imageRules, cache)
          : Promise.resolve<ImageCheck>({
              ok: false,
              url: String(isRecord(image) ? image.url : image),
              problem: 'unreachable',
            }),
      ),
    )
    const problems: string[] = []
    for (const check of checks) {
      if (check.ok) continue
      if (check.problem === 'notHttps') problems.push(reasons.imageNotHttps(check.url))
      else if (check.problem === 'unreachable' || check.problem === 'httpStatus')
        problems.push(reasons.imageUnreachable(check.url, check.status))
      else if (check.problem === 'format') problems.push(reasons.imageFormat(check.url))
      else if (check.problem === 'size' && imageRules.size)
        problems.push(reasons.imageSize(check.url, check.width ?? 0, check.height ?? 0, imageRules.size))
    }
    return problems
  }

  /** The item as Trendyol echoes it: inner spaces of the barcode removed (documented normalisation). */
  function normalise(item: Rec): Rec {
    return typeof item.barcode === 'string'
      ? { ...item, barcode: item.barcode.replace(/\s+/g, '') }
      : { ...item }
  }

  function track(work: Promise<void>) {
    processing.add(work)
    work.finally(() => processing.delete(work))
  }

  function newBatch(sellerId: string, type: TrendyolBatch['batchRequestType'], items: Rec[]): TrendyolBatch {
    const now = clock.now()
    const batch: TrendyolBatch = {
      // Observed form {uuid}-{epoch seconds}.
      batchRequestId: `${randomUUID()}-${Math.floor(now / 1000)}`,
      sellerId,
      batchRequestType: type,
      creationDate: now,
      lastModification: now,
      readyAt: now + (script.processingMs ?? trendyolFakeDefaults.processingMs),
      isProcessed: false,
      items: items.map((item) => ({
        requestItem: normalise(item),
        status: 'IN_PROGRESS',
        failureReasons: [],
      })),
    }
    batches.set(batch.batchRequestId, batch)
    return batch
  }

  /** createProducts: check every item, fetch its images, then create the listings that passed. */
  function processCreate(batch: TrendyolBatch) {
    const failItems = script.failItems ?? {}
    const work = (async () => {
      const cache = new Map<string, Promise<ImageCheck>>()
      const seen = new Set<string>()
      const checked = await Promise.all(
        batch.items.map(async (entry) => {
          const item = entry.requestItem
          const barcode = String(item.barcode ?? '')
          const problems = contentProblems(item, clock.now())
          if (barcode && seen.has(barcode)) problems.push(trendyolFailureReasons.duplicateInRequest(barcode))
          seen.add(barcode)
          problems.push(...(await imageProblems(item, cache)))
          problems.push(...(failItems[barcode] ?? []))
          return problems
        }),
      )
      // Listings are made here, in one synchronous step, so two batches racing for one barcode
      // can never both create it: the second finds the first's listing and fails as a duplicate.
      const now = clock.now()
      batch.items.forEach((entry, index) => {
        const problems = checked[index] ?? []
        const barcode = String(entry.requestItem.barcode ?? '')
        const key = `${batch.sellerId}:${barcode}`
        if (problems.length === 0 && listings.has(key))
          problems.push(trendyolFailureReasons.duplicateBarcode(barcode))
        entry.status = problems.length === 0 ? 'SUCCESS' : 'FAILED'
        entry.failureReasons = problems
        if (problems.length > 0) return
        listings.set(key, {
          sellerId: batch.sellerId,
          barcode,
          item: entry.requestItem,
          contentId: ++contentSequence,
          listingId: randomUUID().replace(/-/g, ''),
          createdAt: now,
          lastModifiedAt: now,
          decidedAt: Math.max(now, batch.readyAt) + approvalMs(),
          rejectReasons: rejectionFor(barcode),
          batchRequestIds: [batch.batchRequestId],
        })
      })
      batch.isProcessed = true
      batch.lastModification = Math.max(now, batch.readyAt)
    })()
    track(work)
  }

  /** updateUnapprovedProducts: merge into the listing, check it again, and send it back to review. */
  function processUpdate(batch: TrendyolBatch) {
    const failItems = script.failItems ?? {}
    const work = (async () => {
      const cache = new Map<string, Promise<ImageCheck>>()
      const checked = await Promise.all(
        batch.items.map(async (entry) => {
          const barcode = String(entry.requestItem.barcode ?? '')
          const listing = listings.get(`${batch.sellerId}:${barcode}`)
          if (!barcode) return { problems: [trendyolFailureReasons.barcodeMissing()], merged: null }
          if (!listing) return { problems: [trendyolFailureReasons.productNotFound(barcode)], merged: null }
          if (statusOf(listing) === 'approved')
            return { problems: [trendyolFailureReasons.productApproved(barcode)], merged: null }
          const merged = { ...listing.item, ...entry.requestItem, barcode: listing.barcode }
          const problems = [...contentProblems(merged, clock.now()), ...(await imageProblems(merged, cache))]
          problems.push(...(failItems[barcode] ?? []))
          return { problems, merged }
        }),
      )
      const now = clock.now()
      batch.items.forEach((entry, index) => {
        const result = checked[index]
        const problems = result?.problems ?? []
        const listing = listings.get(`${batch.sellerId}:${String(entry.requestItem.barcode ?? '')}`)
        if (problems.length === 0 && listing && statusOf(listing) === 'approved') {
          problems.push(trendyolFailureReasons.productApproved(listing.barcode))
        }
        entry.status = problems.length === 0 ? 'SUCCESS' : 'FAILED'
        entry.failureReasons = problems
        if (problems.length > 0 || !listing || !result?.merged) return
        listing.item = result.merged
        listing.lastModifiedAt = now
        listing.decidedAt = Math.max(now, batch.readyAt) + approvalMs()
        listing.rejectReasons = rejectionFor(listing.barcode)
        listing.batchRequestIds.push(batch.batchRequestId)
      })
      batch.isProcessed = true
      batch.lastModification = Math.max(now, batch.readyAt)
    })()
    track(work)
  }

  function batchView(batch: TrendyolBatch) {
    const isDone = batch.isProcessed && clock.now() >= batch.readyAt
    const items = batch.items.map((entry) =>
      isDone ? entry : { requestItem: entry.requestItem, status: 'IN_PROGRESS' as const, failureReasons: [] },
    )
    return {
      batchRequestId: batch.batchRequestId,
      items,
      status: isDone ? 'COMPLETED' : 'IN_PROGRESS',
      creationDate: batch.creationDate,
      lastModification: isDone ? batch.lastModification : batch.creationDate,
      sourceType: 'API',
      itemCount: batch.items.length,
      failedItemCount: isDone ? batch.items.filter((entry) => entry.status === 'FAILED').length : 0,
      batchRequestType: batch.batchRequestType,
    }
  }

  function listingAttributes(item: Rec) {
    const definitions =
      typeof item.categoryId === 'number' ? (trendyolCategoryAttributes.get(item.categoryId) ?? []) : []
    return (Array.isArray(item.attributes) ? item.attributes : []).filter(isRecord).map((entry) => {
      const definition = definitions.find((a) => a.attribute.id === entry.attributeId)
      const { ids, custom } = attributeValuesOf(entry)
      const value = definition?.attributeValues.find((v) => v.id === ids[0])
      return {
        attributeId: entry.attributeId,
        attributeName: definition?.attribute.name ?? null,
        attributeValueId: ids[0] ?? null,
        attributeValue: value?.name ?? custom,
      }
    })
  }

  function listingSummary(listing: TrendyolListing) {
    const item = listing.item
    const brand = trendyolBrands.find((b) => b.id === item.brandId)
    const category = typeof item.categoryId === 'number' ? trendyolCategories.get(item.categoryId) : undefined
    return {
      brand: brand ? { id: brand.id, name: brand.name } : null,
      category: category ? { id: category.node.id, name: category.node.name } : null,
      title: item.title,
      description: item.description,
      productMainId: item.productMainId,
      attributes: listingAttributes(item),
    }
  }

  /** filterUnapprovedProducts' content row. */
  function unapprovedRow(listing: TrendyolListing) {
    const item = listing.item
    const status = statusOf(listing)
    return {
      supplierId: Number(listing.sellerId),
      status,
      createDateTime: listing.createdAt,
      lastUpdateDate: listing.lastModifiedAt,
      barcode: listing.barcode,
      quantity: item.quantity,
      listPrice: item.listPrice,
      salePrice: item.salePrice,
      vatRate: item.vatRate,
      dimensionalWeight: item.dimensionalWeight,
      stockCode: item.stockCode,
      origin: item.origin ?? null,
      media: Array.isArray(item.images) ? item.images : [],
      rejectReasonDetails: status === 'rejected' ? listing.rejectReasons : [],
      ...listingSummary(listing),
    }
  }

  /** A video as getVideos lists it. */
  function videoView(video: TrendyolVideo) {
    const now = clock.now()
    const status =
      video.checked === null || (video.checked === 'ok' && now < video.readyAt)
        ? 'IN_PROGRESS'
        : video.checked === 'ok'
          ? 'SUCCESS'
          : 'FAILED'
    return {
      id: video.id,
      title: video.title,
      description: video.description,
      status,
      videoUrl: video.videoUrl,
      productContentIds: video.productContentIds,
      ...(status === 'FAILED' && video.checked !== 'ok' && video.checked !== null
        ? { errorCode: trendyolVideoFailures[video.checked] }
        : {}),
      optimizedVideoUrl:
        status === 'SUCCESS' ? `https://video-content.dsmcdn.com/fake/${video.id}/video_hd.mp4` : null,
      isApproved: status === 'SUCCESS' && now >= video.decidedAt,
    }
  }

  /** filterApprovedProducts' content row (content with its variants). */
  function approvedRow(listing: TrendyolListing) {
    const item = listing.item
    return {
      contentId: listing.contentId,
      creationDate: listing.createdAt,
      lastModifiedDate: listing.lastModifiedAt,
      images: Array.isArray(item.images) ? item.images : [],
      ...listingSummary(listing),
      variants: [
        {
          variantId: listing.contentId * 10 + 1,
          supplierId: Number(listing.sellerId),
          barcode: listing.barcode,
          onSale: true,
          stock: { quantity: item.quantity },
          price: { salePrice: item.salePrice, listPrice: item.listPrice },
          stockCode: item.stockCode,
          origin: item.origin ?? null,
          vatRate: item.vatRate,
          sellerCreatedDate: listing.createdAt,
          sellerModifiedDate: listing.lastModifiedAt,
          locked: false,
          archived: false,
          blacklisted: false,
          productUrl: `https://www.trendyol.com/fake/p-${listing.contentId}`,
        },
      ],
    }
  }

  function page<T>(rows: T[], url: URL, maxSize: number) {
    const size = Math.min(Math.max(Number(url.searchParams.get('size') ?? maxSize) || maxSize, 1), maxSize)
    const pageNumber = Math.max(Number(url.searchParams.get('page') ?? 0) || 0, 0)
    return {
      totalElements: rows.length,
      totalPages: Math.ceil(rows.length / size),
      page: pageNumber,
      size,
      content: rows.slice(pageNumber * size, pageNumber * size + size),
    }
  }

  function sellerListings(sellerId: string, url: URL): TrendyolListing[] {
    const barcodes = new Set(
      [url.searchParams.get('barcode'), ...(url.searchParams.get('barcodes') ?? '').split(',')].filter(
        (b): b is string => Boolean(b),
      ),
    )
    return [...listings.values()].filter(
      (listing) => listing.sellerId === sellerId && (barcodes.size === 0 || barcodes.has(listing.barcode)),
    )
  }

  function handleControl(method: string, url: URL, raw: Buffer, res: ServerResponse) {
    if (method === 'POST' && url.pathname === '/__control/advance') {
      const body = raw.length ? (JSON.parse(raw.toString('utf8')) as { ms?: unknown }) : {}
      if (typeof body.ms !== 'number') return send(res, 400, { error: 'ms must be a number' })
      clock.advance(body.ms)
      return send(res, 200, { now: clock.now() })
    }
    if (method === 'POST' && url.pathname === '/__control/reject-once') {
      // One barcode's next review rejected, the rest of the script left as it is: tests that share
      // one fake (the browser suite's) each script their own barcodes.
      const body = raw.length
        ? (JSON.parse(raw.toString('utf8')) as { barcode?: unknown; reasons?: unknown })
        : {}
      if (typeof body.barcode !== 'string' || !Array.isArray(body.reasons) || body.reasons.length === 0)
        return send(res, 400, { error: 'barcode must be a string and reasons a non-empty list' })
      script = {
        ...script,
        rejectOnce: { ...script.rejectOnce, [body.barcode]: body.reasons as TrendyolRejectReason[] },
      }
      usedOnce.delete(body.barcode)
      return send(res, 200, { barcode: body.barcode })
    }
    if (method === 'GET' && url.pathname === '/__control/stats') {
      const sellerId = url.searchParams.get('sellerId') ?? sellers[0]?.sellerId ?? ''
      return send(res, 200, { writes: writeWindow.stats(sellerId, clock.now()), listings: listings.size })
    }
    const answer = answerControl(method, url, raw.toString('utf8'), {
      script(body) {
        if (!isRecord(body.script)) return 'script must be an object'
        setScript(body.script as TrendyolFakeScript)
        return null
      },
      reset: () => resetAll(),
      requests,
    })
    send(res, answer.status, answer.body)
  }

  function resetAll() {
    setScript({})
    batches.clear()
    listings.clear()
    videos.clear()
    writeWindow.reset()
    readWindow.reset()
    burstWindow.reset()
    videoCreateWindow.reset()
    videoListWindow.reset()
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const url = new URL(req.url ?? '/', 'http://fake')
    const method = req.method ?? 'GET'
    if (options.control && url.pathname.startsWith('/__control/')) return handleControl(method, url, raw, res)
    const headers = headerRecord(req)
    let body: unknown = null
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'))
      } catch {
        body = null
      }
    }
    const logged: TrendyolFakeRequest = { method, path: url.pathname + url.search, headers, body, status: 0 }
    requests.push(logged)
    const reply = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
      logged.status = status
      send(res, status, payload, extra)
    }
    const path = url.pathname
    if (!path.startsWith('/integration/')) {
      return reply(404, errorBody(404, 'not.found', `No route for ${method} ${path}`))
    }
    const route = path.slice('/integration'.length)

    // https://developers.trendyol.com/docs/2-authorization — Basic auth (API key : API secret) and a
    // User-Agent "{sellerId} - SelfIntegration" / "{sellerId} - {Integrator}" (alphanumeric, ≤ 30).
    // No User-Agent: 403. Wrong credentials: 401 {status, exception: ClientApiAuthenticationException}.
    // The 403 bodies are not documented: the fake uses Trendyol's ErrorResponse envelope, keys its own.
    const userAgent = /^(\d+) - ([A-Za-z0-9]{1,30})$/.exec(headers['user-agent'] ?? '')
    if (!userAgent) {
      return reply(
        403,
        errorBody(
          403,
          'user.agent.required',
          'User-Agent "{sellerId} - SelfIntegration" veya "{sellerId} - {Entegratör}" olmalıdır.',
        ),
      )
    }
    const credentials = basicCredentials(headers.authorization)
    const seller = sellers.find(
      (s) => s.apiKey === credentials?.user && s.apiSecret === credentials?.password,
    )
    if (!seller) return reply(401, { status: 401, exception: 'ClientApiAuthenticationException' })
    if (userAgent[1] !== seller.sellerId) {
      return reply(
        403,
        errorBody(
          403,
          'user.agent.seller.mismatch',
          'User-Agent içindeki satıcı ID, API bilgileriyle eşleşmiyor.',
        ),
      )
    }
    const sellerPath = /^\/(?:product|video)\/sellers\/([^/]+)(\/.*)?$/.exec(route)
    if (sellerPath && sellerPath[1] !== seller.sellerId) {
      return reply(403, errorBody(403, 'seller.forbidden', 'Bu API bilgileri bu satıcıya ait değil.'))
    }

    const isWrite =
      (method === 'POST' &&
        /^\/product\/sellers\/[^/]+\/(v2\/products|products\/unapproved-bulk-update)$/.test(route)) ||
      (method === 'PUT' && /^\/product\/sellers\/[^/]+\/products$/.test(route))

    // Scripted outages first (they do not spend the budget, as a gateway error would not).
    const scripted = isWrite ? nextStep(steps.writes) : 'ok'
    const step = scripted === 'ok' ? nextStep(steps.requests) : scripted
    if (step !== 'ok') {
      const key =
        step === 429 ? 'too.many.requests' : step >= 500 ? 'internal.server.error' : 'scripted.error'
      return reply(step, errorBody(step, key, `Scripted ${step}`))
    }

    // Limits (publishing.md): per seller, per service group; writes share one budget; and the
    // general rule of at most 50 requests to one endpoint in 10 seconds.
    const now = clock.now()
    const endpointKey = `${seller.sellerId} ${method} ${endpointOf(route)}`
    const isVideo = /^\/video\/sellers\/[^/]+\/videos$/.test(route)
    const group = isVideo
      ? method === 'POST'
        ? videoCreateWindow
        : videoListWindow
      : isWrite
        ? writeWindow
        : readWindow
    const groupOk = group.take(seller.sellerId, now)
    if (!groupOk || !burstWindow.take(endpointKey, now)) {
      const retryAfter = script.retryAfterSeconds ?? trendyolFakeDefaults.retryAfterSeconds
      return reply(
        429,
        errorBody(429, 'too.many.requests', 'too.many.requests'),
        retryAfter === null ? {} : { 'retry-after': String(retryAfter) },
      )
    }

    // developers.trendyol.com/docs/seller-integration-video-api (marketplaces.md "Video (new in
    // 2026)") — createVideo: POST /video/sellers/{sellerId}/videos { title 3–50, description ≤ 500,
    // videoUrl http(s), productContentIds ≤ 100, videoContentType } → { videoId }; the video is
    // downloaded in the background. getVideos: GET …/videos (id, sellerIntegrationStatus, page,
    // size) → { meta, data }. One active video per content id is documented without its error, so
    // the fake does not refuse a second.
    if (isVideo && method === 'POST') {
      const refuse = ([key, message]: readonly [string, string]) => reply(400, errorBody(400, key, message))
      const errors = trendyolVideoErrors
      if (!isRecord(body)) return refuse(errors.bodyRequired)
      if (typeof body.title !== 'string' || body.title.trim() === '') return refuse(errors.titleRequired)
      if (body.title.length < 3 || body.title.length > 50) return refuse(errors.titleLength)
      if (
        body.description !== undefined &&
        (typeof body.description !== 'string' || body.description.length > 500)
      )
        return refuse(errors.descriptionLength)
      if (typeof body.videoUrl !== 'string' || body.videoUrl === '') return refuse(errors.urlRequired)
      if (!/^https?:\/\//.test(body.videoUrl)) return refuse(errors.urlInvalid)
      const ids = body.productContentIds
      if (!Array.isArray(ids) || ids.length === 0) return refuse(errors.contentIdsRequired)
      if (ids.length > 100) return refuse(errors.contentIdsMax)
      const video: TrendyolVideo = {
        id: randomUUID(),
        sellerId: seller.sellerId,
        title: body.title,
        description: typeof body.description === 'string' ? body.description : '',
        videoUrl: body.videoUrl,
        productContentIds: ids.map(String),
        checked: null,
        readyAt: now + (script.processingMs ?? trendyolFakeDefaults.processingMs),
        decidedAt: now + (script.processingMs ?? trendyolFakeDefaults.processingMs) + approvalMs(),
      }
      videos.set(video.id, video)
      // The guide allows http:// addresses for videos (videoUrl "http:// veya https://").
      track(
        checkVideo(video.videoUrl, {
          allowHttp: true,
          timeoutMs: imageRules.timeoutMs,
          limiter: imageRules.limiter,
        }).then((check) => {
          video.checked = check.ok ? 'ok' : check.problem === 'format' ? 'format' : 'download'
        }),
      )
      return reply(200, { videoId: video.id })
    }
    if (isVideo && method === 'GET') {
      const id = url.searchParams.get('id')
      const wanted = url.searchParams.get('sellerIntegrationStatus')
      const rows = [...videos.values()]
        .filter((video) => video.sellerId === seller.sellerId && (id === null || video.id === id))
        .map(videoView)
        .filter((view) => wanted === null || view.status === wanted)
      const size = Math.max(Number(url.searchParams.get('size') ?? 10) || 10, 1)
      const pageNumber = Math.max(Number(url.searchParams.get('page') ?? 0) || 0, 0)
      return reply(200, {
        meta: { page: pageNumber, total: rows.length, totalPage: Math.ceil(rows.length / size), size },
        data: rows.slice(pageNumber * size, pageNumber * size + size),
      })
    }

    // https://developers.trendyol.com/v2.0/docs/product-v2-api-endpoint — getBrands:
    // GET /product/brands (page, size) → { brands: [{ id, name }] }. A `name` filter is accepted too.
    if (method === 'GET' && route === '/product/brands') {
      const name = url.searchParams.get('name')
      const found = name ? trendyolBrands.filter((b) => b.name.includes(name)) : trendyolBrands
      const size = Number(url.searchParams.get('size') ?? 1000) || 1000
      const pageNumber = Number(url.searchParams.get('page') ?? 0) || 0
      return reply(200, { brands: found.slice(pageNumber * size, pageNumber * size + size) })
    }
    // https://developers.trendyol.com/reference/getbrandsbyname — GET /product/brands/by-name?name=…
    // → a bare array; case-sensitive. Whether it matches whole names or parts is not documented:
    // the fake matches parts.
    if (method === 'GET' && route === '/product/brands/by-name') {
      const name = url.searchParams.get('name') ?? ''
      if (!name) return reply(400, errorBody(400, 'name.required', 'name parametresi zorunludur.'))
      return reply(
        200,
        trendyolBrands.filter((b) => b.name.includes(name)),
      )
    }
    // https://developers.trendyol.com/v2.0/docs/trendyol-category-list-getcategorytree
    // GET /product/product-categories → { categories: [{ id, name, parentId, subCategories }] }
    if (method === 'GET' && route === '/product/product-categories') {
      return reply(200, { categories: trendyolCategoryTree })
    }
    // https://developers.trendyol.com/v2.0/docs/category-attribute-list-v2 — v2:
    // GET /product/categories/{categoryId}/attributes (?required=true|false) → attributes without values.
    const attributesV2 = /^\/product\/categories\/(\d+)\/attributes$/.exec(route)
    if (method === 'GET' && attributesV2) {
      const category = trendyolCategories.get(Number(attributesV2[1]))
      const attributes = trendyolCategoryAttributes.get(Number(attributesV2[1]))
      if (!category || !attributes) {
        return reply(
          400,
          errorBody(400, 'category.not.leaf', 'Kategori bulunamadı ya da en alt seviyede değil.'),
        )
      }
      const wanted = url.searchParams.get('required')
      return reply(200, {
        id: category.node.id,
        name: category.node.name,
        displayName: category.node.name,
        categoryAttributes: attributes
          .filter((a) => wanted === null || String(a.required) === wanted)
          .map(({ attributeValues: _values, ...rest }) => ({ ...rest, categoryId: category.node.id })),
      })
    }
    // https://developers.trendyol.com/v2.0/docs/product-v2-api-endpoint — Category Attribute Values v2:
    // GET /product/categories/{categoryId}/attributes/{attributeId}/values (page, size ≤ 1000) →
    // { totalElements, totalPages, page, size, content: [{ attributeValueId, attributeValue }] }.
    // (The guide's example says `attributeValue`; the structure table says `attributeValueName`: the
    // fake follows the example.)
    const values = /^\/product\/categories\/(\d+)\/attributes\/(\d+)\/values$/.exec(route)
    if (method === 'GET' && values) {
      const definition = trendyolCategoryAttributes
        .get(Number(values[1]))
        ?.find((a) => a.attribute.id === Number(values[2]))
      if (!definition)
        return reply(404, errorBody(404, 'attribute.not.found', 'Kategori özelliği bulunamadı.'))
      const rows = definition.attributeValues.map((v) => ({ attributeValueId: v.id, attributeValue: v.name }))
      return reply(200, page(rows, url, 1000))
    }
    // https://developers.trendyol.com/v2.0/docs/trendyol-category-attribute-list-getcategoryattributes
    // V1 (retired 15 October 2026, kept for older clients): values inline in `attributeValues`.
    const attributesV1 = /^\/product\/product-categories\/(\d+)\/attributes$/.exec(route)
    if (method === 'GET' && attributesV1) {
      const category = trendyolCategories.get(Number(attributesV1[1]))
      const attributes = trendyolCategoryAttributes.get(Number(attributesV1[1]))
      if (!category || !attributes) {
        return reply(
          400,
          errorBody(400, 'category.not.leaf', 'Kategori bulunamadı ya da en alt seviyede değil.'),
        )
      }
      return reply(200, {
        id: category.node.id,
        name: category.node.name,
        displayName: category.node.name,
        categoryAttributes: attributes.map((a) => ({ ...a, categoryId: category.node.id })),
      })
    }

    if (!sellerPath) return reply(404, errorBody(404, 'not.found', `No route for ${method} ${path}`))
    const sub = sellerPath[2] ?? ''

    // https://developers.trendyol.com/reference/createproducts — createProducts v2:
    // POST /product/sellers/{sellerId}/v2/products { items: [...] } (≤ 1,000) → { batchRequestId }.
    // Items are checked when the batch is processed and reported through getBatchRequestResult.
    // https://developers.trendyol.com/v2.0/docs/product-v2-api-endpoint — updateUnapprovedProducts:
    // POST /product/sellers/{sellerId}/products/unapproved-bulk-update (barcode keyed). The V1
    // updateProducts (PUT /products, retired 15 October 2026) is answered the same way.
    const isCreate = method === 'POST' && sub === '/v2/products'
    const isUpdate =
      (method === 'POST' && sub === '/products/unapproved-bulk-update') ||
      (method === 'PUT' && sub === '/products')
    if (isCreate || isUpdate) {
      const items = isRecord(body) && Array.isArray(body.items) ? body.items : null
      if (!items || items.length === 0 || !items.every(isRecord)) {
        return reply(400, errorBody(400, 'items.required', 'items alanı en az bir ürün içermelidir.'))
      }
      if (items.length > trendyolFakeDefaults.maxItemsPerRequest) {
        // The limit is documented; the wording of the error is not (the fake's own).
        return reply(
          400,
          errorBody(
            400,
            'items.size.exceeded',
            `Bir istekte en fazla 1000 ürün gönderilebilir (gönderilen: ${items.length}).`,
          ),
        )
      }
      const batch = newBatch(seller.sellerId, isCreate ? 'ProductV2OnBoarding' : 'ProductV2Update', items)
      if (isCreate) processCreate(batch)
      else processUpdate(batch)
      return reply(200, { batchRequestId: batch.batchRequestId })
    }

    // https://developers.trendyol.com/docs/toplu-i̇şlem-kontrolü-getbatchrequestresult-1 —
    // GET /product/sellers/{sellerId}/products/batch-requests/{batchRequestId} → { batchRequestId,
    // items: [{ requestItem, status: SUCCESS|FAILED, failureReasons }], status: IN_PROGRESS|COMPLETED,
    // creationDate, lastModification, sourceType, itemCount, failedItemCount, batchRequestType }.
    const batchPath = /^\/products\/batch-requests\/([^/]+)$/.exec(sub)
    if (method === 'GET' && batchPath) {
      const batch = batches.get(decodeURIComponent(batchPath[1] ?? ''))
      if (!batch || batch.sellerId !== seller.sellerId) {
        return reply(404, errorBody(404, 'batch.request.not.found', 'Batch request bulunamadı.'))
      }
      return reply(200, batchView(batch))
    }

    // https://developers.trendyol.com/v2.0/docs/product-v2-api-endpoint — getProductBase:
    // GET /product/sellers/{sellerId}/product/{barcode} → { barcode, approved, approvedDate, archived,
    // listingId, contentId }. An unknown barcode's answer is not documented: the fake answers 404.
    const base = /^\/product\/([^/]+)$/.exec(sub)
    if (method === 'GET' && base) {
      const listing = listings.get(`${seller.sellerId}:${decodeURIComponent(base[1] ?? '')}`)
      if (!listing) return reply(404, errorBody(404, 'product.not.found', 'Ürün sistemde bulunamadı'))
      const isApproved = statusOf(listing) === 'approved'
      return reply(200, {
        barcode: listing.barcode,
        approved: isApproved,
        approvedDate: isApproved ? listing.decidedAt : null,
        archived: false,
        listingId: listing.listingId,
        contentId: listing.contentId,
      })
    }
    // filterUnapprovedProducts: GET …/products/unapproved (barcode, barcodes, status=rejected|pendingApproval,
    // page, size ≤ 1000) with rejectReasonDetails [{ rejectReason, rejectReasonDetail }].
    if (method === 'GET' && sub === '/products/unapproved') {
      const wanted = url.searchParams.get('status')
      const rows = sellerListings(seller.sellerId, url)
        .filter((listing) => statusOf(listing) !== 'approved')
        .filter((listing) => !wanted || statusOf(listing) === wanted)
        .map(unapprovedRow)
      return reply(200, { ...page(rows, url, 1000), nextPageToken: null })
    }
    // filterApprovedProducts: GET …/products/approved (barcode, barcodes, page, size ≤ 100), content rows
    // with their variants.
    if (method === 'GET' && sub === '/products/approved') {
      const rows = sellerListings(seller.sellerId, url)
        .filter((listing) => statusOf(listing) === 'approved')
        .map(approvedRow)
      return reply(200, { ...page(rows, url, 100), nextPageToken: null })
    }
    // V1 filterProducts (retired 15 October 2026, kept because it answers approval in one row):
    // GET …/products?barcode=… → { content: [{ barcode, approved, onSale, rejected, rejectReasonDetails … }] }.
    if (method === 'GET' && sub === '/products') {
      const rows = sellerListings(seller.sellerId, url).map((listing) => {
        const status = statusOf(listing)
        return {
          id: listing.listingId,
          approved: status === 'approved',
          rejected: status === 'rejected',
          onSale: status === 'approved',
          archived: false,
          locked: false,
          productContentId: listing.contentId,
          barcode: listing.barcode,
          title: listing.item.title,
          rejectReasonDetails: status === 'rejected' ? listing.rejectReasons : [],
          batchRequestId: listing.batchRequestIds.at(-1),
        }
      })
      return reply(200, page(rows, url, 1000))
    }

    reply(404, errorBody(404, 'not.found', `No route for ${method} ${path}`))
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(res, 500, errorBody(500, 'internal.server.error', `Fake Trendyol crashed: ${String(error)}`))
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const origin = `http://${host}:${port}`

  return {
    url: origin,
    apiBase: `${origin}/integration`,
    sellers,
    requests,
    batches,
    listings,
    videos,
    clock,
    advance: (ms) => clock.advance(ms),
    statusOf,
    writeStats: (sellerId = sellers[0]?.sellerId ?? '') => writeWindow.stats(sellerId, clock.now()),
    readRefusals: () => readWindow.refusedTotal() + burstWindow.refusedTotal(),
    script: setScript,
    reset: resetAll,
    async idle() {
      while (processing.size > 0) await Promise.all([...processing])
    },
    close: () => closeServer(server),
  }
}

// By hand: `npx tsx tests/fakes/trendyol-server.ts [--port 4700] [--host 127.0.0.1] [--approval-ms 5000]
// [--allow-http-images]` (README.md).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2)
  const fake = await startTrendyolFake({
    port: Number(argValue(args, '--port') ?? 4700),
    host: argValue(args, '--host') ?? '127.0.0.1',
    allowHttpImages: args.includes('--allow-http-images'),
    control: true,
    defaults: { approvalMs: Number(argValue(args, '--approval-ms') ?? trendyolFakeDefaults.approvalMs) },
  })
  const seller = fake.sellers[0] ?? defaultTrendyolSeller
  console.log(`Trendyol fake listening on ${fake.apiBase}`)
  console.log(`seller ID ${seller.sellerId}, API key ${seller.apiKey}, API secret ${seller.apiSecret}`)
  console.log(`run the app with: TRENDYOL_API_BASE=${fake.apiBase}`)
  exitOnStop(fake.close)
}
