// A fake Hepsiburada catalogue API (as https://mpop-sit.hepsiburada.com, paths under /product/api),
// speaking the documented protocol of "Ürün Bilgisi Gönderme": Basic auth (merchant ID : the
// 12-character service key) with a User-Agent, the product import that takes a JSON *file* as
// multipart and answers a trackingId, the per-item status by trackingId, category and attribute
// reads, and the 100-requests-a-second limit answered with 403 (and the IP blocked when it goes on).
// It downloads each Image1…Image10 URL and the Video1 URL when it processes an import. It also
// answers the listing service's "Listing Bilgilerini Sorgulama" (live on its own host,
// listing-external-sit…), where Hepsiburada reports lockReasons. For tests
// (`startHepsiburadaFake()`) and by hand:
// `npx tsx tests/fakes/hepsiburada-server.ts --port 4710` (see README.md).
//
// Sources: ../shared/spec/publishing.md and marketplaces.md; the catalogue OpenAPI as captured in
// taha-kanar/hepsiburada-sdk openapi/catalog.json [official-copy]; the pages cited at each route.
// Hepsiburada documents no image pixel, size or format rule, no title or description limit, no
// items-per-import limit, no error bodies for 401/403 and no timing: the fake checks none of those
// rules, and the values it needs are its own (options and script fields, labelled below).

import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import busboy from 'busboy'
import { answerControl, argValue, closeServer, exitOnStop } from './control.ts'
import {
  type HepsiburadaLockReason,
  hepsiburadaBaseAttributes,
  hepsiburadaCategories,
  hepsiburadaCategoryAttributes,
  hepsiburadaLockReasons,
} from './hepsiburada-catalog.ts'
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

export type HepsiburadaMerchant = { merchantId: string; serviceKey: string }

/** A review rejection in a script: free text, or one of the documented lock reasons. */
export type HepsiburadaBlockReason = string | { lockReason: HepsiburadaLockReason }

/**
 * The message a BLOCKED product carries for a documented lock reason. Hepsiburada documents the
 * reasons and their Turkish labels (changelog Ocak 2025), not the wording of rejectReasonsMessages:
 * the fake gives the label, so every documented reason can be scripted and read back.
 */
export function hepsiburadaBlockMessage(reason: HepsiburadaBlockReason): string {
  return typeof reason === 'string' ? reason : hepsiburadaLockReasons[reason.lockReason]
}

export type HepsiburadaFakeScript = {
  /** The next authenticated requests answer these statuses ('ok' works normally). */
  requests?: FakeStep[] | FakeStep
  /** Least time from import until its items leave PROCESSING (fake clock). Not documented; default 0. */
  processingMs?: number
  /** Time a product waits for Hepsiburada's review (WAITING) before it is MATCHED. Not documented; default 5000. */
  approvalMs?: number
  /**
   * merchantSku → why Hepsiburada rejects the product at review (productStatus BLOCKED,
   * rejectReasonsMessages): a message of its own, or `{ lockReason }` for one of the documented
   * reasons, given as its Turkish label (`hepsiburadaBlockMessage`).
   */
  block?: Record<string, HepsiburadaBlockReason[]>
  /** The same, for the merchantSku's next review only: a fixed and re-imported product is then MATCHED. */
  blockOnce?: Record<string, HepsiburadaBlockReason[]>
  /** merchantSku → lockReasons its listing carries once the product is on sale. */
  lock?: Record<string, HepsiburadaLockReason[]>
  /** Catalogue requests a second per merchant (documented: 100). */
  requestsPerSecond?: number
}

export const hepsiburadaFakeDefaults = {
  /** Documented (changelog Ocak 2026): 100 requests in 1 second; beyond it 403. */
  requestsPerSecond: 100,
  /** Documented (same): going on over the limit for 5 seconds blocks the IP. */
  blockAfterMs: 5000,
  /** Not documented how long a block lasts (support lifts it): the fake keeps it until reset(). */
  processingMs: 0,
  /** Not documented: how long Hepsiburada's review takes. */
  approvalMs: 5000,
  /** Documented: 10 images (Image1…Image10), raised from 5 in June 2025. */
  maxImages: 10,
  /** Not documented: Hepsiburada gives no image rule; the fake only requires a readable image of these formats. */
  imageFormats: ['jpeg', 'png', 'webp'] as ImageFormat[],
}

/**
 * The import's validation messages. Hepsiburada publishes no catalogue of them: the wording is the
 * fake's own, exported for tests and for checking a client's reason mapping.
 */
export const hepsiburadaFailureMessages = {
  fieldRequired: (name: string) => `${name} alanı zorunludur.`,
  merchantMismatch: () => 'merchant alanı, kimlik doğrulamadaki mağaza ile aynı olmalıdır.',
  categoryNotFound: (categoryId: unknown) => `Kategori bulunamadı: ${String(categoryId)}`,
  categoryNotLeaf: (categoryId: unknown) =>
    `Ürünler yalnızca leaf, ACTIVE ve available kategorilere açılabilir: ${String(categoryId)}`,
  valueInvalid: (name: string, value: unknown) => `${name} için geçersiz değer: ${String(value)}`,
  priceInvalid: (value: unknown) => `Fiyat geçersiz: ${String(value)} (ör. "130,50")`,
  stockInvalid: (value: unknown) => `Stok geçersiz: ${String(value)}`,
  imageNotHttps: (field: string, url: string) => `${field} görsel adresi https olmalıdır: ${url}`,
  imageUnreachable: (field: string, url: string, status?: number) =>
    status
      ? `${field} görseli indirilemedi (HTTP ${status}): ${url}`
      : `${field} görseli indirilemedi: ${url}`,
  imageFormat: (field: string, url: string) =>
    `${field} bir görsel değil ya da biçimi desteklenmiyor: ${url}`,
  // The fake's wording for Video1, in the images' manner (Hepsiburada documents no video rule).
  videoNotHttps: (url: string) => `Video1 video adresi https olmalıdır: ${url}`,
  videoUnreachable: (url: string, status?: number) =>
    status ? `Video1 videosu indirilemedi (HTTP ${status}): ${url}` : `Video1 videosu indirilemedi: ${url}`,
  videoFormat: (url: string) => `Video1 bir video değil ya da biçimi desteklenmiyor (mp4, mov): ${url}`,
  missingInfo: (name: string) => `Zorunlu kategori özelliği eksik: ${name}`,
} as const

export type HepsiburadaProductStatus = 'WAITING' | 'MATCHED' | 'MISSING_INFO' | 'BLOCKED'

export type HepsiburadaProduct = {
  merchant: string
  merchantSku: string
  hbSku: string
  categoryId: number
  attributes: Record<string, unknown>
  /** MISSING_INFO when a mandatory category attribute is absent (documented "eksik bilgi"). */
  isMissingInfo: boolean
  createdAt: number
  lastModifiedAt: number
  decidedAt: number
  blockMessages: string[]
  lockReasons: HepsiburadaLockReason[]
  trackingIds: string[]
}

type ImportItem = {
  itemOrderID: number
  raw: Record<string, unknown>
  importStatus: 'PROCESSING' | 'SUCCESS' | 'FAILED'
  validationResults: { attributeName: string; message: string }[]
  missingInfo: string[]
}

export type HepsiburadaImport = {
  trackingId: string
  merchant: string
  createdAt: number
  readyAt: number
  isProcessed: boolean
  items: ImportItem[]
}

export type HepsiburadaFakeRequest = {
  method: string
  path: string
  headers: Record<string, string>
  /** JSON body, or for the import the parsed JSON file. */
  body: unknown
  status: number
  match?: string
}

export type HepsiburadaFake = {
  /** Origin, the HEPSIBURADA_API_BASE (paths hang from /product/api, as on mpop-sit.hepsiburada.com). */
  url: string
  merchants: HepsiburadaMerchant[]
  requests: HepsiburadaFakeRequest[]
  imports: Map<string, HepsiburadaImport>
  /** Every product, keyed `${merchant}:${merchantSku}`: never two for one merchantSku. */
  products: Map<string, HepsiburadaProduct>
  clock: FakeClock
  advance(ms: number): void
  statusOf(product: HepsiburadaProduct): HepsiburadaProductStatus
  /** Rate counters for a merchant: accepted, refused (403), most in any one second; and blocked IPs. */
  rateStats(merchantId?: string): ReturnType<RequestWindow['stats']> & { blockedIps: string[] }
  script(script: HepsiburadaFakeScript): void
  reset(): void
  idle(): Promise<void>
  close(): Promise<void>
}

export type HepsiburadaFakeOptions = {
  port?: number
  host?: string
  merchants?: HepsiburadaMerchant[]
  /** Let image URLs be plain http (tests serve images locally). */
  allowHttpImages?: boolean
  now?: () => number
  defaults?: HepsiburadaFakeScript
  imageTimeoutMs?: number
  control?: boolean
}

export const defaultHepsiburadaMerchant: HepsiburadaMerchant = {
  merchantId: '6fc6d90d-ee1d-4372-b3a6-264b1275e9ff',
  serviceKey: 'Vtr4Fake9Key',
}

type Rec = Record<string, unknown>

function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The catalogue service's envelope: { success, code, version, message, data } (code 0 = success). */
function envelope(data: unknown, extra: Rec = {}) {
  return { success: true, code: 0, version: 1, message: null, ...extra, data }
}

/** Failure bodies are not documented for mpop: the fake uses the same envelope with success false. */
function failure(code: number, message: string) {
  return { success: false, code, version: 1, message, data: null }
}

function pageOf<T>(rows: T[], url: URL) {
  const size = Math.min(Math.max(Number(url.searchParams.get('size') ?? 1000) || 1000, 1), 5000)
  const number = Math.max(Number(url.searchParams.get('page') ?? 0) || 0, 0)
  const data = rows.slice(number * size, number * size + size)
  const totalPages = Math.ceil(rows.length / size)
  return {
    totalElements: rows.length,
    totalPages,
    number,
    numberOfElements: data.length,
    first: number === 0,
    last: number >= totalPages - 1,
    data,
  }
}

/** The multipart `file` part's text, or null. */
function fileFromMultipart(headers: Record<string, string>, raw: Buffer): Promise<string | null> {
  return new Promise((resolve) => {
    let text: string | null = null
    let parser: busboy.Busboy
    try {
      parser = busboy({ headers: { 'content-type': headers['content-type'] ?? '' } })
    } catch {
      return resolve(null)
    }
    parser.on('file', (name, stream) => {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (name === 'file') text = Buffer.concat(chunks).toString('utf8')
      })
    })
    parser.on('close', () => resolve(text))
    parser.on('error', () => resolve(null))
    parser.end(raw)
  })
}

export async function startHepsiburadaFake(options: HepsiburadaFakeOptions = {}): Promise<HepsiburadaFake> {
  const host = options.host ?? '127.0.0.1'
  const merchants = options.merchants ?? [defaultHepsiburadaMerchant]
  const clock = new FakeClock(options.now)
  const requests: HepsiburadaFakeRequest[] = []
  const imports = new Map<string, HepsiburadaImport>()
  const products = new Map<string, HepsiburadaProduct>()
  const processing = new Set<Promise<void>>()
  const window = new RequestWindow(hepsiburadaFakeDefaults.requestsPerSecond, 1000)
  const overSince = new Map<string, number>()
  const blockedIps = new Set<string>()
  let script: HepsiburadaFakeScript = {}
  /** merchantSkus whose `blockOnce` was given (so the next review passes). */
  const usedOnce = new Set<string>()
  let steps: FakeStep[] | FakeStep | undefined
  let hbSkuSequence = 1000
  const imageRules = {
    allowHttp: options.allowHttpImages ?? false,
    formats: hepsiburadaFakeDefaults.imageFormats,
    size: null,
    timeoutMs: options.imageTimeoutMs ?? 10_000,
    // The fake's choice: enough downloads at once to be quick, few enough not to drop connections.
    limiter: new Limiter(16),
  }

  function setScript(next: HepsiburadaFakeScript) {
    script = { ...options.defaults, ...next }
    usedOnce.clear()
    steps = Array.isArray(script.requests) ? [...script.requests] : script.requests
    window.limit = script.requestsPerSecond ?? hepsiburadaFakeDefaults.requestsPerSecond
  }
  setScript({})

  function blockFor(merchantSku: string): string[] {
    const reasons = script.block?.[merchantSku] ?? []
    if (reasons.length > 0 || !script.blockOnce?.[merchantSku] || usedOnce.has(merchantSku))
      return reasons.map(hepsiburadaBlockMessage)
    usedOnce.add(merchantSku)
    return (script.blockOnce[merchantSku] ?? []).map(hepsiburadaBlockMessage)
  }

  function statusOf(product: HepsiburadaProduct): HepsiburadaProductStatus {
    if (product.isMissingInfo) return 'MISSING_INFO'
    if (clock.now() < product.decidedAt) return 'WAITING'
    return product.blockMessages.length > 0 ? 'BLOCKED' : 'MATCHED'
  }

  /** The problems that fail an item's import, and the mandatory category attributes it lacks. */
  async function checkItem(item: Rec, merchant: string, cache: Map<string, Promise<ImageCheck>>) {
    const messages = hepsiburadaFailureMessages
    const problems: { attributeName: string; message: string }[] = []
    const attributes = isRecord(item.attributes) ? item.attributes : {}
    if (item.merchant !== merchant)
      problems.push({ attributeName: 'merchant', message: messages.merchantMismatch() })
    const category = hepsiburadaCategories.find((c) => c.categoryId === item.categoryId)
    const categoryAttributes = hepsiburadaCategoryAttributes.get(Number(item.categoryId))
    if (!category)
      problems.push({ attributeName: 'categoryId', message: messages.categoryNotFound(item.categoryId) })
    else if (!category.leaf || category.status !== 'ACTIVE' || !category.available || !categoryAttributes) {
      problems.push({ attributeName: 'categoryId', message: messages.categoryNotLeaf(item.categoryId) })
    }
    const isBlank = (value: unknown) => value === undefined || value === null || String(value).trim() === ''
    for (const base of hepsiburadaBaseAttributes) {
      const value = attributes[base.id]
      if (base.mandatory && isBlank(value)) {
        problems.push({ attributeName: base.id, message: messages.fieldRequired(base.id) })
      } else if (!isBlank(value) && base.values && !base.values.includes(String(value))) {
        problems.push({ attributeName: base.id, message: messages.valueInvalid(base.id, value) })
      }
    }
    // The import example sends price as a string with a decimal comma ("130,50").
    if (!isBlank(attributes.price) && !/^\d+(,\d{1,2})?$/.test(String(attributes.price))) {
      problems.push({ attributeName: 'price', message: messages.priceInvalid(attributes.price) })
    }
    if (!isBlank(attributes.stock) && !/^\d+$/.test(String(attributes.stock))) {
      problems.push({ attributeName: 'stock', message: messages.stockInvalid(attributes.stock) })
    }
    const imageFields = Array.from(
      { length: hepsiburadaFakeDefaults.maxImages },
      (_, i) => `Image${i + 1}`,
    ).filter((field) => typeof attributes[field] === 'string' && attributes[field] !== '')
    const checks = await Promise.all(
      imageFields.map((field) => checkImage(String(attributes[field]), imageRules, cache)),
    )
    checks.forEach((check, index) => {
      const field = imageFields[index] ?? 'Image'
      if (check.ok) return
      const message =
        check.problem === 'notHttps'
          ? messages.imageNotHttps(field, check.url)
          : check.problem === 'format'
            ? messages.imageFormat(field, check.url)
            : messages.imageUnreachable(field, check.url, check.status)
      problems.push({ attributeName: field, message })
    })
    if (typeof attributes.Video1 === 'string' && attributes.Video1 !== '') {
      const video = await checkVideo(attributes.Video1, imageRules)
      if (!video.ok) {
        const message =
          video.problem === 'notHttps'
            ? messages.videoNotHttps(video.url)
            : video.problem === 'format'
              ? messages.videoFormat(video.url)
              : messages.videoUnreachable(video.url, video.status)
        problems.push({ attributeName: 'Video1', message })
      }
    }
    const missingInfo: string[] = []
    for (const attribute of [
      ...(categoryAttributes?.attributes ?? []),
      ...(categoryAttributes?.variantAttributes ?? []),
    ]) {
      const value = attributes[attribute.id]
      if (isBlank(value)) {
        if (attribute.mandatory) missingInfo.push(attribute.name)
      } else if (attribute.values && !attribute.values.includes(String(value))) {
        problems.push({ attributeName: attribute.id, message: messages.valueInvalid(attribute.name, value) })
      }
    }
    return { problems, missingInfo }
  }

  function processImport(job: HepsiburadaImport) {
    const work = (async () => {
      const cache = new Map<string, Promise<ImageCheck>>()
      const checked = await Promise.all(job.items.map((item) => checkItem(item.raw, job.merchant, cache)))
      // Products are written here in one synchronous step: an import of a merchantSku that exists
      // updates that product (sending it back to review), so one merchantSku is never two products.
      const now = clock.now()
      const approvalMs = script.approvalMs ?? hepsiburadaFakeDefaults.approvalMs
      job.items.forEach((item, index) => {
        const result = checked[index]
        item.validationResults = result?.problems ?? []
        item.missingInfo = result?.missingInfo ?? []
        item.importStatus = item.validationResults.length === 0 ? 'SUCCESS' : 'FAILED'
        if (item.importStatus === 'FAILED') return
        const attributes = isRecord(item.raw.attributes) ? item.raw.attributes : {}
        const merchantSku = String(attributes.merchantSku)
        const key = `${job.merchant}:${merchantSku}`
        const existing = products.get(key)
        const product: HepsiburadaProduct = {
          merchant: job.merchant,
          merchantSku,
          hbSku: existing?.hbSku ?? `HBCV0000${String(++hbSkuSequence).padStart(6, '0')}`,
          categoryId: Number(item.raw.categoryId),
          attributes,
          isMissingInfo: item.missingInfo.length > 0,
          createdAt: existing?.createdAt ?? now,
          lastModifiedAt: now,
          decidedAt: Math.max(now, job.readyAt) + approvalMs,
          blockMessages: blockFor(merchantSku),
          lockReasons: script.lock?.[merchantSku] ?? [],
          trackingIds: [...(existing?.trackingIds ?? []), job.trackingId],
        }
        products.set(key, product)
      })
      job.isProcessed = true
    })()
    processing.add(work)
    work.finally(() => processing.delete(work))
  }

  function importStatusRow(job: HepsiburadaImport, item: ImportItem) {
    const attributes = isRecord(item.raw.attributes) ? item.raw.attributes : {}
    const isDone = job.isProcessed && clock.now() >= job.readyAt
    const product =
      isDone && item.importStatus === 'SUCCESS'
        ? products.get(`${job.merchant}:${String(attributes.merchantSku)}`)
        : undefined
    const productStatus = product ? statusOf(product) : null
    return {
      itemOrderID: item.itemOrderID,
      merchant: job.merchant,
      merchantSku: attributes.merchantSku ?? null,
      hbSku: productStatus === 'MATCHED' ? (product?.hbSku ?? null) : null,
      barcode: attributes.Barcode ?? null,
      productStatus,
      productName: attributes.UrunAdi ?? null,
      variantGroupId: attributes.VaryantGroupID ?? null,
      categoryId: item.raw.categoryId ?? null,
      taskDetails:
        productStatus === 'BLOCKED'
          ? (product?.blockMessages ?? []).map((reason) => ({ reason, url: null, commentList: [] }))
          : [],
      validationResults: isDone
        ? [
            ...item.validationResults,
            ...item.missingInfo.map((name) => ({
              attributeName: name,
              message: hepsiburadaFailureMessages.missingInfo(name),
            })),
          ]
        : [],
      rejectReasonsMessages: productStatus === 'BLOCKED' ? (product?.blockMessages ?? []) : [],
      importStatus: isDone ? item.importStatus : 'PROCESSING',
      importMessages: isDone
        ? item.validationResults.map((r) => ({ severity: 'ERROR', message: r.message }))
        : [],
      matchedHbProductInfo: [],
    }
  }

  function productInformation(product: HepsiburadaProduct) {
    const category = hepsiburadaCategories.find((c) => c.categoryId === product.categoryId)
    const status = statusOf(product)
    return {
      merchantSku: product.merchantSku,
      barcode: product.attributes.Barcode ?? null,
      hbSku: status === 'MATCHED' ? product.hbSku : null,
      variantGroupId: product.attributes.VaryantGroupID ?? null,
      productName: product.attributes.UrunAdi ?? null,
      brand: product.attributes.Marka ?? null,
      images: Array.from({ length: 10 }, (_, i) => product.attributes[`Image${i + 1}`]).filter(Boolean),
      categoryId: product.categoryId,
      categoryName: category?.name ?? null,
      tax: product.attributes.tax_vat_rate ?? null,
      price: product.attributes.price ?? null,
      description: product.attributes.UrunAciklamasi ?? null,
      status,
      rejectReasons: status === 'BLOCKED' ? product.blockMessages : [],
    }
  }

  function handleControl(method: string, url: URL, raw: Buffer, res: ServerResponse) {
    if (method === 'POST' && url.pathname === '/__control/advance') {
      const body = raw.length ? (JSON.parse(raw.toString('utf8')) as { ms?: unknown }) : {}
      if (typeof body.ms !== 'number') return send(res, 400, { error: 'ms must be a number' })
      clock.advance(body.ms)
      return send(res, 200, { now: clock.now() })
    }
    if (method === 'GET' && url.pathname === '/__control/stats') {
      const merchantId = url.searchParams.get('merchantId') ?? merchants[0]?.merchantId ?? ''
      return send(res, 200, { requests: rateStats(merchantId), products: products.size })
    }
    const answer = answerControl(method, url, raw.toString('utf8'), {
      script(body) {
        if (!isRecord(body.script)) return 'script must be an object'
        setScript(body.script as HepsiburadaFakeScript)
        return null
      },
      reset: () => resetAll(),
      requests,
    })
    send(res, answer.status, answer.body)
  }

  function rateStats(merchantId: string) {
    return { ...window.stats(merchantId, clock.now()), blockedIps: [...blockedIps] }
  }

  function resetAll() {
    setScript({})
    imports.clear()
    products.clear()
    window.reset()
    overSince.clear()
    blockedIps.clear()
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const url = new URL(req.url ?? '/', 'http://fake')
    const method = req.method ?? 'GET'
    if (options.control && url.pathname.startsWith('/__control/')) return handleControl(method, url, raw, res)
    const headers = headerRecord(req)
    const isMultipart = (headers['content-type'] ?? '').startsWith('multipart/form-data')
    let body: unknown = null
    let fileText: string | null = null
    if (isMultipart) {
      fileText = await fileFromMultipart(headers, raw)
      try {
        body = fileText === null ? null : JSON.parse(fileText)
      } catch {
        body = null
      }
    } else if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'))
      } catch {
        body = null
      }
    }
    const logged: HepsiburadaFakeRequest = {
      method,
      path: url.pathname + url.search,
      headers,
      body,
      status: 0,
    }
    requests.push(logged)
    const reply = (status: number, payload: unknown) => {
      logged.status = status
      send(res, status, payload)
    }
    const ip = req.socket.remoteAddress ?? 'unknown'

    // Changelog Ocak 2026 (developers.hepsiburada.com/hepsiburada/changelog/hepsiburada-entegrasyon-ocak-2026):
    // a blocked IP is refused until Hepsiburada's support lifts it (here: until reset()).
    if (blockedIps.has(ip))
      return reply(403, failure(403, 'IP adresiniz istek limiti aşımı nedeniyle engellendi.'))

    // Changelog Ocak 2024: Basic auth, username = merchant ID, password = the 12-character alphanumeric
    // "Servis Anahtarı"; a User-Agent (the integrator's user name) on every request. What Hepsiburada
    // answers without a User-Agent is not documented: the fake answers 403 with its own message, and
    // counts Node's default agent ("node", sent when a client sets none) as missing.
    const userAgent = headers['user-agent'] ?? ''
    if (!userAgent.trim() || /^(node|undici)$/i.test(userAgent.trim())) {
      return reply(403, failure(403, 'User-Agent başlığı zorunludur (entegratör kullanıcı adı).'))
    }
    const credentials = basicCredentials(headers.authorization)
    const merchant = merchants.find(
      (m) =>
        m.merchantId === credentials?.user &&
        m.serviceKey === credentials?.password &&
        /^[A-Za-z0-9]{12}$/.test(m.serviceKey),
    )
    if (!merchant) return reply(401, failure(401, 'Unauthorized'))

    const step = nextStep(steps)
    if (step !== 'ok') return reply(step, failure(step, `Scripted ${step}`))

    // 100 requests in one second per account; beyond it 403. Going on over the limit for 5 seconds
    // blocks the IP (changelog Ocak 2026). The 403 body is not documented (the fake's own).
    const now = clock.now()
    if (!window.take(merchant.merchantId, now)) {
      const since = overSince.get(merchant.merchantId) ?? now
      overSince.set(merchant.merchantId, since)
      if (now - since >= hepsiburadaFakeDefaults.blockAfterMs) blockedIps.add(ip)
      return reply(403, failure(403, 'İstek limiti aşıldı: 1 saniyede en fazla 100 istek gönderilebilir.'))
    }
    overSince.delete(merchant.merchantId)

    const path = url.pathname

    // https://developers.hepsiburada.com/hepsiburada/reference/katalog-onemli-bilgiler — "Ürün Bilgisi
    // Gönderme": POST /product/api/products/import with the JSON file as multipart `file`
    // ([{ categoryId, merchant, attributes: { merchantSku, VaryantGroupID, Barcode, UrunAdi, … } }])
    // → { success, code: 0, version, message, data: { trackingId } }. Items are checked when processed.
    if (method === 'POST' && path === '/product/api/products/import') {
      if (!isMultipart || fileText === null) {
        return reply(
          400,
          failure(
            400,
            'Ürün bilgileri multipart/form-data içinde "file" alanında JSON dosyası olarak gönderilmelidir.',
          ),
        )
      }
      if (!Array.isArray(body) || body.length === 0 || !body.every(isRecord)) {
        return reply(400, failure(400, 'Dosya, en az bir ürün içeren bir JSON dizisi olmalıdır.'))
      }
      const job: HepsiburadaImport = {
        trackingId: randomUUID(),
        merchant: merchant.merchantId,
        createdAt: now,
        readyAt: now + (script.processingMs ?? hepsiburadaFakeDefaults.processingMs),
        isProcessed: false,
        items: body.map((raw, index) => ({
          itemOrderID: index + 1,
          raw,
          importStatus: 'PROCESSING',
          validationResults: [],
          missingInfo: [],
        })),
      }
      imports.set(job.trackingId, job)
      processImport(job)
      return reply(200, envelope({ trackingId: job.trackingId }))
    }

    // https://developers.hepsiburada.com/hepsiburada/reference/getproductstatusbytraceid — "Ürün Durumu
    // Sorgulama": GET /product/api/products/status/{trackingId} (page, size) → PageResponseImportStatusDTO.
    const statusPath = /^\/product\/api\/products\/status\/([^/]+)$/.exec(path)
    if (method === 'GET' && statusPath) {
      const job = imports.get(decodeURIComponent(statusPath[1] ?? ''))
      if (!job || job.merchant !== merchant.merchantId)
        return reply(404, failure(404, 'trackingId bulunamadı.'))
      const rows = job.items.map((item) => importStatusRow(job, item))
      return reply(200, { success: true, code: 0, version: 1, message: null, ...pageOf(rows, url) })
    }

    // "Kategori Bilgilerini Alma": GET /product/api/categories/get-all-categories (leaf, status,
    // available, page, size) → a page of BaseCategoryDTO.
    if (method === 'GET' && path === '/product/api/categories/get-all-categories') {
      const leaf = url.searchParams.get('leaf')
      const status = url.searchParams.get('status')
      const available = url.searchParams.get('available')
      const rows = hepsiburadaCategories.filter(
        (c) =>
          (!leaf || String(c.leaf) === leaf) &&
          (!status || c.status === status) &&
          (!available || String(c.available) === available),
      )
      return reply(200, { success: true, code: 0, version: 1, message: null, ...pageOf(rows, url) })
    }
    // "Kategori Özelliklerini Alma": GET /product/api/categories/{categoryId}/attributes →
    // { data: { baseAttributes, attributes, variantAttributes } } of AttributeDTO { name, id, mandatory,
    // type, multiValue }. Leaf, available categories only; other ids answer code 1003 (as observed by
    // a public client; the code is not documented).
    const attributesPath = /^\/product\/api\/categories\/(\d+)\/attributes$/.exec(path)
    if (method === 'GET' && attributesPath) {
      const found = hepsiburadaCategoryAttributes.get(Number(attributesPath[1]))
      const category = hepsiburadaCategories.find((c) => c.categoryId === Number(attributesPath[1]))
      if (!found || !category?.available)
        return reply(200, failure(1003, 'Kategori leaf ve available değil.'))
      const strip = ({ values: _values, ...rest }: { values?: string[] } & Rec) => rest
      return reply(
        200,
        envelope({
          baseAttributes: hepsiburadaBaseAttributes.map(strip),
          attributes: found.attributes.map(strip),
          variantAttributes: found.variantAttributes.map(strip),
        }),
      )
    }
    // "Özellik Değerini Alma": GET /product/api/categories/{categoryId}/attribute/{attributeId}/values
    // (page, size) for enum attributes. The response is typed only as an object in the published
    // document: the fake pages `data: [{ id, value }]`.
    const valuesPath = /^\/product\/api\/categories\/(\d+)\/attribute\/([^/]+)\/values$/.exec(path)
    if (method === 'GET' && valuesPath) {
      const found = hepsiburadaCategoryAttributes.get(Number(valuesPath[1]))
      const attribute = [
        ...(found?.attributes ?? []),
        ...(found?.variantAttributes ?? []),
        ...hepsiburadaBaseAttributes,
      ].find((a) => a.id === decodeURIComponent(valuesPath[2] ?? ''))
      if (!found || !attribute?.values)
        return reply(404, failure(404, 'Özellik bulunamadı ya da enum değil.'))
      const rows = attribute.values.map((value, index) => ({ id: `${attribute.id}-${index + 1}`, value }))
      return reply(200, { success: true, code: 0, version: 1, message: null, ...pageOf(rows, url) })
    }

    // "Mağaza Bazlı Ürün Bilgisi Listeleme": GET /product/api/products/all-products-of-merchant/{merchantId}
    // (barcode, merchantSku, hbSku, page, size) → a page of IntegratorProductInformation.
    const allProducts = /^\/product\/api\/products\/all-products-of-merchant\/([^/]+)$/.exec(path)
    if (method === 'GET' && allProducts) {
      if (allProducts[1] !== merchant.merchantId)
        return reply(403, failure(403, 'Bu mağazanın ürünlerine erişim yetkiniz yok.'))
      const merchantSku = url.searchParams.get('merchantSku')
      const barcode = url.searchParams.get('barcode')
      const rows = [...products.values()]
        .filter((p) => p.merchant === merchant.merchantId)
        .filter((p) => !merchantSku || p.merchantSku === merchantSku)
        .filter((p) => !barcode || p.attributes.Barcode === barcode)
        .map(productInformation)
      return reply(200, { success: true, code: 0, version: 1, message: null, ...pageOf(rows, url) })
    }
    // "Statü Bazlı Ürün Bilgisi Çekme": GET /product/api/products/products-by-merchant-and-status
    // (merchantId, productStatus) — BLOCKED rows carry rejectReasonsMessages (changelog Kasım 2022).
    if (method === 'GET' && path === '/product/api/products/products-by-merchant-and-status') {
      if (url.searchParams.get('merchantId') !== merchant.merchantId) {
        return reply(403, failure(403, 'Bu mağazanın ürünlerine erişim yetkiniz yok.'))
      }
      const wanted = url.searchParams.get('productStatus')
      const rows = [...products.values()]
        .filter((p) => p.merchant === merchant.merchantId && (!wanted || statusOf(p) === wanted))
        .map((p) => {
          const info = productInformation(p)
          return { ...info, productStatus: info.status, rejectReasonsMessages: info.rejectReasons }
        })
      return reply(200, { success: true, code: 0, version: 1, message: null, ...pageOf(rows, url) })
    }

    // The listing service ("Listing Bilgilerini Sorgulama", live on listing-external-sit.hepsiburada.com):
    // GET /listings/merchantid/{merchantId} (offset, limit) → { listings: [{ …, lockReasons }] }, lock
    // reasons from changelog Ocak 2025. Only MATCHED products have listings. Fields beyond those in the
    // changelog's example are the fake's.
    const listingsPath = /^\/listings\/merchantid\/([^/]+)$/.exec(path)
    if (method === 'GET' && listingsPath) {
      if (listingsPath[1] !== merchant.merchantId)
        return reply(403, failure(403, 'Bu mağazanın listinglerine erişim yetkiniz yok.'))
      const offset = Number(url.searchParams.get('offset') ?? 0) || 0
      const limit = Number(url.searchParams.get('limit') ?? 100) || 100
      const merchantSku = url.searchParams.get('merchantSku')
      const rows = [...products.values()]
        .filter((p) => p.merchant === merchant.merchantId && statusOf(p) === 'MATCHED')
        .filter((p) => !merchantSku || p.merchantSku === merchantSku)
        .map((p) => ({
          listingId: p.hbSku.toLowerCase(),
          uniqueIdentifier: '',
          hepsiburadaSku: p.hbSku,
          merchantSku: p.merchantSku,
          price: Number(String(p.attributes.price ?? '0').replace(',', '.')),
          availableStock: Number(p.attributes.stock ?? 0),
          isSalable: p.lockReasons.length === 0,
          isLocked: p.lockReasons.length > 0,
          lockReasons: p.lockReasons,
          skuAfterSuspension: null,
        }))
      return reply(200, {
        totalCount: rows.length,
        limit,
        offset,
        listings: rows.slice(offset, offset + limit),
      })
    }

    reply(404, failure(404, `No route for ${method} ${path}`))
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, failure(500, `Fake Hepsiburada crashed: ${String(error)}`))
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
    merchants,
    requests,
    imports,
    products,
    clock,
    advance: (ms) => clock.advance(ms),
    statusOf,
    rateStats: (merchantId = merchants[0]?.merchantId ?? '') => rateStats(merchantId),
    script: setScript,
    reset: resetAll,
    async idle() {
      while (processing.size > 0) await Promise.all([...processing])
    },
    close: () => closeServer(server),
  }
}

// By hand: `npx tsx tests/fakes/hepsiburada-server.ts [--port 4710] [--host 127.0.0.1]
// [--approval-ms 5000] [--allow-http-images]` (README.md).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2)
  const fake = await startHepsiburadaFake({
    port: Number(argValue(args, '--port') ?? 4710),
    host: argValue(args, '--host') ?? '127.0.0.1',
    allowHttpImages: args.includes('--allow-http-images'),
    control: true,
    defaults: { approvalMs: Number(argValue(args, '--approval-ms') ?? hepsiburadaFakeDefaults.approvalMs) },
  })
  const merchant = fake.merchants[0] ?? defaultHepsiburadaMerchant
  console.log(`Hepsiburada fake listening on ${fake.url}`)
  console.log(`merchant ID ${merchant.merchantId}, service key ${merchant.serviceKey}`)
  console.log(`run the app with: HEPSIBURADA_API_BASE=${fake.url}`)
  exitOnStop(fake.close)
}
