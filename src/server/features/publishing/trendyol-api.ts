import {
  failureOfStatus,
  MarketplaceApiError,
  type MarketplaceApiFailure,
  parseJsonBody,
  retryAfterOf,
} from './marketplace-api-error.ts'

// Trendyol's seller API (docs/../publishing.md; developers.trendyol.com), the calls publishing
// makes: brand lookup, the category tree and a category's attributes (v2), createProducts v2 and
// its batch result, and the reviewers' verdicts on products not yet approved. Every call is HTTP
// Basic with the seller's API key and secret and the User-Agent Trendyol requires
// ("{sellerId} - SelfIntegration"; without it the API answers 403). Tested against
// tests/fakes/trendyol-server.ts, which speaks the same protocol.

/** The documented base; a stage host exists. TRENDYOL_API_BASE points elsewhere (the fake). */
export const trendyolDefaultBase = 'https://apigw.trendyol.com/integration'

export type TrendyolCredentials = { sellerId: string; apiKey: string; apiSecret: string }

export type TrendyolBrand = { id: number; name: string }

export type TrendyolCategory = {
  id: number
  name: string
  parentId?: number | null
  subCategories: TrendyolCategory[]
}

export type TrendyolCategoryAttribute = {
  attribute: { id: number; name: string }
  required: boolean
  allowCustom: boolean
  varianter: boolean
  slicer: boolean
  /** Whether a product may carry several of its values (absent on older answers: one). */
  allowMultipleAttributeValues?: boolean
}

export type TrendyolAttributeValue = { attributeValueId: number; attributeValue: string }

/** One product of createProducts v2 (publishing.md lists each field's limits). */
export type TrendyolProductItem = {
  barcode: string
  title: string
  productMainId: string
  brandId: number
  categoryId: number
  quantity: number
  stockCode: string
  dimensionalWeight: number
  description: string
  currencyType: 'TRY'
  listPrice: number
  salePrice: number
  vatRate: 0 | 1 | 10 | 20
  cargoCompanyId?: number
  origin?: string
  images: { url: string }[]
  attributes: (
    | { attributeId: number; attributeValueId: number }
    | { attributeId: number; customAttributeValue: string }
  )[]
}

export type TrendyolBatchItemResult = {
  barcode: string | null
  status: 'SUCCESS' | 'FAILED' | 'IN_PROGRESS'
  failureReasons: string[]
}

export type TrendyolBatchResult = {
  batchRequestId: string
  status: 'IN_PROGRESS' | 'COMPLETED'
  items: TrendyolBatchItemResult[]
}

/** A product the reviewers have not approved: waiting, or rejected with their reasons. */
export type TrendyolUnapproved = {
  barcode: string
  status: 'pendingApproval' | 'rejected'
  rejectReasons: { reason: string; detail: string }[]
}

/** createVideo's body (the video service; marketplaces.md "Video (new in 2026)"). */
export type TrendyolVideoRequest = {
  /** 3–50 characters. */
  title: string
  /** At most 500 characters. */
  description?: string
  /** Where Trendyol downloads the .mp4 or .mov (8–120 s, ≤ 500 MB). */
  videoUrl: string
  /** Approved products' content ids, at most 100; one active video each. */
  productContentIds: string[]
}

/** A video as the video service lists it: downloaded and processed, then approved or failed. */
export type TrendyolVideo = {
  id: string
  status: 'IN_PROGRESS' | 'SUCCESS' | 'FAILED'
  /** True once the video shows on the product. */
  isApproved: boolean
  /** Its error code when FAILED (e.g. video.content.api.seller.integration.video.format.invalid). */
  errorCode: string | null
}

export type TrendyolApiOptions = {
  baseUrl?: string
  credentials: TrendyolCredentials
  /** Who integrates, in the User-Agent: alphanumeric, at most 30 characters. */
  integrator?: string
  fetch?: typeof fetch
  /** Per request; Trendyol documents none. */
  timeoutMs?: number
}

export type TrendyolApi = ReturnType<typeof createTrendyolApi>

export function createTrendyolApi(options: TrendyolApiOptions) {
  const base = (options.baseUrl ?? trendyolDefaultBase).replace(/\/+$/, '')
  const { sellerId, apiKey, apiSecret } = options.credentials
  const doFetch = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? 30_000
  const headers = {
    authorization: `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}`,
    'user-agent': `${sellerId} - ${options.integrator ?? 'SelfIntegration'}`,
    accept: 'application/json',
  }
  const sellerPath = `/product/sellers/${encodeURIComponent(sellerId)}`
  // The video service hangs from the same gateway: https://apigw.trendyol.com/integration/video.
  const videoPath = `/video/sellers/${encodeURIComponent(sellerId)}/videos`

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      throw new MarketplaceApiError('trendyol', 'unavailable', { status: null, cause: error })
    }
    const text = await response.text()
    const parsed = parseJsonBody(text)
    if (!response.ok) {
      throw new MarketplaceApiError('trendyol', failureOfStatus(response.status), {
        status: response.status,
        messages: errorMessages(parsed),
        retryAfterMs: retryAfterOf(response.headers.get('retry-after')),
      })
    }
    if (parsed === undefined) {
      throw new MarketplaceApiError('trendyol', 'unavailable', {
        status: response.status,
        messages: ['The answer was not JSON.'],
      })
    }
    return parsed as T
  }

  return {
    sellerId,

    /**
     * Whether these credentials may act for this seller: one small read under the seller's own
     * path, which Trendyol refuses for wrong keys (401) and for another seller's ID (403).
     */
    async verify(): Promise<void> {
      await call('GET', `${sellerPath}/products/unapproved?page=0&size=1`)
    },

    /** Brands whose name contains `name` (Trendyol matches case-sensitively). */
    async brandsByName(name: string): Promise<TrendyolBrand[]> {
      const found = await call<TrendyolBrand[]>(
        'GET',
        `/product/brands/by-name?name=${encodeURIComponent(name)}`,
      )
      return Array.isArray(found) ? found : []
    },

    async categoryTree(): Promise<TrendyolCategory[]> {
      return (
        (await call<{ categories?: TrendyolCategory[] }>('GET', '/product/product-categories')).categories ??
        []
      )
    },

    /** A leaf category's attributes (v2: without their values; attributeValues reads those). */
    async categoryAttributes(categoryId: number): Promise<TrendyolCategoryAttribute[]> {
      const answer = await call<{ categoryAttributes?: TrendyolCategoryAttribute[] }>(
        'GET',
        `/product/categories/${categoryId}/attributes`,
      )
      return answer.categoryAttributes ?? []
    },

    /** Every allowed value of one attribute of a category, page by page (≤ 1,000 a page). */
    async attributeValues(categoryId: number, attributeId: number): Promise<TrendyolAttributeValue[]> {
      const values: TrendyolAttributeValue[] = []
      for (let page = 0; ; page++) {
        const answer = await call<{ content?: TrendyolAttributeValue[]; totalPages?: number }>(
          'GET',
          `/product/categories/${categoryId}/attributes/${attributeId}/values?page=${page}&size=1000`,
        )
        values.push(...(answer.content ?? []))
        if (page + 1 >= (answer.totalPages ?? 1)) return values
      }
    },

    /** Sends products to be created (≤ 1,000); the batch's id, to read the outcome with batchResult. */
    async createProducts(items: TrendyolProductItem[]): Promise<string> {
      const answer = await call<{ batchRequestId?: string }>('POST', `${sellerPath}/v2/products`, { items })
      if (!answer.batchRequestId) {
        throw new MarketplaceApiError('trendyol', 'unavailable', {
          status: 200,
          messages: ['No batchRequestId in the answer.'],
        })
      }
      return answer.batchRequestId
    },

    /** Each product's outcome in a batch: IN_PROGRESS until Trendyol has processed it. */
    async batchResult(batchRequestId: string): Promise<TrendyolBatchResult> {
      const answer = await call<{
        batchRequestId: string
        status?: string
        items?: { requestItem?: { barcode?: unknown }; status?: string; failureReasons?: unknown[] }[]
      }>('GET', `${sellerPath}/products/batch-requests/${encodeURIComponent(batchRequestId)}`)
      return {
        batchRequestId: answer.batchRequestId,
        status: answer.status === 'COMPLETED' ? 'COMPLETED' : 'IN_PROGRESS',
        items: (answer.items ?? []).map((item) => ({
          barcode: typeof item.requestItem?.barcode === 'string' ? item.requestItem.barcode : null,
          status: item.status === 'SUCCESS' || item.status === 'FAILED' ? item.status : 'IN_PROGRESS',
          failureReasons: (item.failureReasons ?? []).map(String),
        })),
      }
    },

    /**
     * Sends products Trendyol already has but has not approved, by barcode, with all their data
     * (unapproved-bulk-update); the batch's id, read back with batchResult.
     */
    async updateUnapproved(items: TrendyolProductItem[]): Promise<string> {
      const answer = await call<{ batchRequestId?: string }>(
        'POST',
        `${sellerPath}/products/unapproved-bulk-update`,
        { items },
      )
      if (!answer.batchRequestId) {
        throw new MarketplaceApiError('trendyol', 'unavailable', {
          status: 200,
          messages: ['No batchRequestId in the answer.'],
        })
      }
      return answer.batchRequestId
    },

    /**
     * Which of these barcodes are approved products, with each one's address on the storefront
     * and its content id (what the video service names a product by).
     */
    async approved(
      barcodes: string[],
    ): Promise<{ barcode: string; productUrl: string | null; contentId: string | null }[]> {
      const rows: { barcode: string; productUrl: string | null; contentId: string | null }[] = []
      // The filter takes at most 100 a page; asked 100 barcodes at a time, each fits one page.
      for (let start = 0; start < barcodes.length; start += 100) {
        const chunk = barcodes.slice(start, start + 100)
        const answer = await call<{
          content?: { contentId?: unknown; variants?: { barcode?: unknown; productUrl?: unknown }[] }[]
        }>(
          'GET',
          `${sellerPath}/products/approved?barcodes=${chunk.map(encodeURIComponent).join(',')}&page=0&size=100`,
        )
        for (const content of answer.content ?? []) {
          for (const variant of content.variants ?? []) {
            if (typeof variant.barcode !== 'string' || !chunk.includes(variant.barcode)) continue
            rows.push({
              barcode: variant.barcode,
              productUrl: typeof variant.productUrl === 'string' ? variant.productUrl : null,
              contentId:
                typeof content.contentId === 'number' || typeof content.contentId === 'string'
                  ? String(content.contentId)
                  : null,
            })
          }
        }
      }
      return rows
    },

    /** The reviewers' verdict on these barcodes, for those not yet approved (an approved one is absent). */
    async unapproved(barcodes: string[]): Promise<TrendyolUnapproved[]> {
      const rows: TrendyolUnapproved[] = []
      for (let page = 0; ; page++) {
        const query = `barcodes=${barcodes.map(encodeURIComponent).join(',')}&page=${page}&size=1000`
        const answer = await call<{
          content?: {
            barcode: string
            status?: string
            rejectReasonDetails?: { rejectReason?: string; rejectReasonDetail?: string }[]
          }[]
          totalPages?: number
        }>('GET', `${sellerPath}/products/unapproved?${query}`)
        for (const row of answer.content ?? []) {
          rows.push({
            barcode: row.barcode,
            status: row.status === 'rejected' ? 'rejected' : 'pendingApproval',
            rejectReasons: (row.rejectReasonDetails ?? []).map((reason) => ({
              reason: reason.rejectReason ?? '',
              detail: reason.rejectReasonDetail ?? '',
            })),
          })
        }
        if (page + 1 >= (answer.totalPages ?? 1)) return rows
      }
    },

    /** createVideo: Trendyol downloads the video from its URL in the background; answers its id. */
    async createVideo(video: TrendyolVideoRequest): Promise<string> {
      const answer = await call<{ videoId?: unknown }>('POST', videoPath, {
        ...video,
        videoContentType: 'PRODUCT_PROMOTION',
      })
      if (typeof answer.videoId !== 'string' || answer.videoId === '') {
        throw new MarketplaceApiError('trendyol', 'unavailable', {
          status: 200,
          messages: ['No videoId in the answer.'],
        })
      }
      return answer.videoId
    },

    /** One video by its id, as the video service lists it; null when it lists none by that id. */
    async video(id: string): Promise<TrendyolVideo | null> {
      const answer = await call<{
        data?: { id?: unknown; status?: unknown; isApproved?: unknown; errorCode?: unknown }[]
      }>('GET', `${videoPath}?id=${encodeURIComponent(id)}&page=0&size=1`)
      const row = (answer.data ?? []).find((video) => video.id === id)
      if (!row) return null
      const status =
        row.status === 'SUCCESS' || row.status === 'FAILED' ? row.status : ('IN_PROGRESS' as const)
      return {
        id,
        status,
        isApproved: row.isApproved === true,
        errorCode: typeof row.errorCode === 'string' ? row.errorCode : null,
      }
    },
  }
}

/** Trendyol's ErrorResponse ({ errors: [{ key, message }] }) or its 401 body ({ exception }), as messages. */
function errorMessages(body: unknown): string[] {
  if (typeof body !== 'object' || body === null) return []
  const record = body as { errors?: unknown; exception?: unknown; message?: unknown }
  if (Array.isArray(record.errors)) {
    return record.errors.flatMap((error) => {
      const message = (error as { message?: unknown })?.message
      return typeof message === 'string' ? [message] : []
    })
  }
  if (typeof record.exception === 'string') return [record.exception]
  return typeof record.message === 'string' ? [record.message] : []
}

export type { MarketplaceApiFailure }
