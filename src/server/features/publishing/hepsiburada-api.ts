import {
  failureOfStatus,
  MarketplaceApiError,
  type MarketplaceApiFailure,
  parseJsonBody,
  retryAfterOf,
} from './marketplace-api-error.ts'

// Hepsiburada's catalogue API (publishing.md; developers.hepsiburada.com), the calls publishing
// makes: leaf categories, a category's attributes and an attribute's allowed values, the product
// import (the JSON document sent as a multipart file) and its status by trackingId, and the
// reviewers' verdicts on the merchant's products. Every call is HTTP Basic with the merchant ID
// and the 12-character service key, and a User-Agent naming the integrator. Tested against
// tests/fakes/hepsiburada-server.ts, which speaks the same protocol.

/** The live host (the test environment is mpop-sit.hepsiburada.com). HEPSIBURADA_API_BASE points elsewhere. */
export const hepsiburadaDefaultBase = 'https://mpop.hepsiburada.com'

export type HepsiburadaCredentials = { merchantId: string; serviceKey: string }

export type HepsiburadaCategory = {
  categoryId: number
  name: string
  parentCategoryId?: number | null
  /** The names from the root down to this category, when Hepsiburada sends them. */
  paths?: string[]
  leaf: boolean
  status: string
  available: boolean
}

export type HepsiburadaAttribute = {
  id: string
  name: string
  mandatory: boolean
  type: string
  multiValue: boolean
}

export type HepsiburadaCategoryAttributes = {
  baseAttributes: HepsiburadaAttribute[]
  attributes: HepsiburadaAttribute[]
  variantAttributes: HepsiburadaAttribute[]
}

/** One product of the import: its category, the merchant, and every attribute by Hepsiburada's name. */
export type HepsiburadaProductItem = {
  categoryId: number
  merchant: string
  attributes: Record<string, string | number | undefined>
}

export type HepsiburadaProductStatus = 'WAITING' | 'MATCHED' | 'MISSING_INFO' | 'BLOCKED'

export type HepsiburadaImportItemResult = {
  merchantSku: string | null
  importStatus: 'PROCESSING' | 'SUCCESS' | 'FAILED'
  /** Once imported: where the product stands with Hepsiburada's catalogue team. */
  productStatus: HepsiburadaProductStatus | null
  hbSku: string | null
  /** What was wrong with the item, each with the attribute it concerns when there is one. */
  problems: { attribute: string | null; message: string }[]
  /** Why the catalogue team blocked it. */
  rejectReasons: string[]
}

export type HepsiburadaApiOptions = {
  baseUrl?: string
  credentials: HepsiburadaCredentials
  /** The integrator's user name, sent as the User-Agent Hepsiburada requires. */
  integrator?: string
  fetch?: typeof fetch
  timeoutMs?: number
}

export type HepsiburadaApi = ReturnType<typeof createHepsiburadaApi>

/** The catalogue service's envelope: { success, code (0 = success), message, data }. */
type Envelope<T> = {
  success?: boolean
  code?: number
  message?: string | null
  data?: T
  totalPages?: number
}

export function createHepsiburadaApi(options: HepsiburadaApiOptions) {
  const base = (options.baseUrl ?? hepsiburadaDefaultBase).replace(/\/+$/, '')
  const { merchantId, serviceKey } = options.credentials
  const doFetch = options.fetch ?? fetch
  const timeoutMs = options.timeoutMs ?? 30_000
  const headers = {
    authorization: `Basic ${Buffer.from(`${merchantId}:${serviceKey}`).toString('base64')}`,
    'user-agent': options.integrator ?? 'vitrin',
    accept: 'application/json',
  }

  async function call<T>(method: 'GET' | 'POST', path: string, body?: FormData): Promise<Envelope<T>> {
    let response: Response
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      throw new MarketplaceApiError('hepsiburada', 'unavailable', { status: null, cause: error })
    }
    const parsed = parseJsonBody(await response.text()) as Envelope<T> | undefined
    const message = typeof parsed?.message === 'string' ? parsed.message : null
    if (!response.ok) {
      throw new MarketplaceApiError('hepsiburada', failureOf(response.status, message), {
        status: response.status,
        messages: message ? [message] : [],
        retryAfterMs: retryAfterOf(response.headers.get('retry-after')),
      })
    }
    if (parsed === undefined) {
      throw new MarketplaceApiError('hepsiburada', 'unavailable', {
        status: response.status,
        messages: ['The answer was not JSON.'],
      })
    }
    // The envelope can refuse with a 200 (a category that takes no products: code 1003).
    if (parsed.success === false) {
      throw new MarketplaceApiError('hepsiburada', 'rejected', {
        status: response.status,
        messages: message ? [message] : [],
      })
    }
    return parsed
  }

  /** Every page of a paged list (`page`, `size`; the rows in `data`). */
  async function allPages<T>(path: string): Promise<T[]> {
    const rows: T[] = []
    const joiner = path.includes('?') ? '&' : '?'
    for (let page = 0; ; page++) {
      const answer = await call<T[]>('GET', `${path}${joiner}page=${page}&size=1000`)
      rows.push(...(answer.data ?? []))
      if (page + 1 >= (answer.totalPages ?? 1)) return rows
    }
  }

  return {
    merchantId,

    /**
     * Whether these credentials may act for this merchant: one small read of the merchant's own
     * products, which Hepsiburada refuses for a wrong key (401) and for another merchant (403).
     */
    async verify(): Promise<void> {
      await call(
        'GET',
        `/product/api/products/all-products-of-merchant/${encodeURIComponent(merchantId)}?page=0&size=1`,
      )
    },

    /** The categories that take products: leaf, active and available. */
    leafCategories(): Promise<HepsiburadaCategory[]> {
      return allPages<HepsiburadaCategory>(
        '/product/api/categories/get-all-categories?leaf=true&status=ACTIVE&available=true',
      )
    },

    /**
     * Every active category, leaf or not: the parents give the leaves their paths (a leaf that
     * takes products is `leaf` and `available`).
     */
    activeCategories(): Promise<HepsiburadaCategory[]> {
      return allPages<HepsiburadaCategory>('/product/api/categories/get-all-categories?status=ACTIVE')
    },

    async categoryAttributes(categoryId: number): Promise<HepsiburadaCategoryAttributes> {
      const data = (
        await call<HepsiburadaCategoryAttributes>('GET', `/product/api/categories/${categoryId}/attributes`)
      ).data
      return {
        baseAttributes: data?.baseAttributes ?? [],
        attributes: data?.attributes ?? [],
        variantAttributes: data?.variantAttributes ?? [],
      }
    },

    /** The allowed values of an enum attribute of a category. */
    async attributeValues(categoryId: number, attributeId: string): Promise<string[]> {
      const rows = await allPages<{ value?: unknown }>(
        `/product/api/categories/${categoryId}/attribute/${encodeURIComponent(attributeId)}/values`,
      )
      return rows.flatMap((row) => (typeof row.value === 'string' ? [row.value] : []))
    },

    /** Sends products to be created, as the JSON file Hepsiburada asks for; the trackingId of the import. */
    async importProducts(items: HepsiburadaProductItem[]): Promise<string> {
      const form = new FormData()
      form.append('file', new Blob([JSON.stringify(items)], { type: 'application/json' }), 'products.json')
      const answer = await call<{ trackingId?: string }>('POST', '/product/api/products/import', form)
      const trackingId = answer.data?.trackingId
      if (!trackingId) {
        throw new MarketplaceApiError('hepsiburada', 'unavailable', {
          status: 200,
          messages: ['No trackingId in the answer.'],
        })
      }
      return trackingId
    },

    /** Each imported product's outcome: PROCESSING until Hepsiburada has processed the file. */
    async importStatus(trackingId: string): Promise<HepsiburadaImportItemResult[]> {
      const rows = await allPages<{
        merchantSku?: unknown
        importStatus?: string
        productStatus?: string | null
        hbSku?: unknown
        validationResults?: { attributeName?: unknown; message?: unknown }[]
        rejectReasonsMessages?: unknown[]
      }>(`/product/api/products/status/${encodeURIComponent(trackingId)}`)
      return rows.map((row) => ({
        merchantSku: typeof row.merchantSku === 'string' ? row.merchantSku : null,
        importStatus:
          row.importStatus === 'SUCCESS' || row.importStatus === 'FAILED' ? row.importStatus : 'PROCESSING',
        productStatus: productStatusOf(row.productStatus),
        hbSku: typeof row.hbSku === 'string' ? row.hbSku : null,
        problems: (row.validationResults ?? []).map((result) => ({
          attribute: typeof result.attributeName === 'string' ? result.attributeName : null,
          message: String(result.message ?? ''),
        })),
        rejectReasons: (row.rejectReasonsMessages ?? []).map(String),
      }))
    },
  }
}

function productStatusOf(value: unknown): HepsiburadaProductStatus | null {
  return value === 'WAITING' || value === 'MATCHED' || value === 'MISSING_INFO' || value === 'BLOCKED'
    ? value
    : null
}

/**
 * Hepsiburada refuses requests past its rate (100 a second per account) with a 403, not a 429,
 * and blocks the address that keeps going over it (changelog Ocak 2026); it documents no body
 * for either, so its message is the only way to tell them from a forbidden request.
 */
function failureOf(status: number, message: string | null): MarketplaceApiFailure {
  if (status === 403 && message && /limit|engellendi|blocked/i.test(message)) return 'rate-limited'
  return failureOfStatus(status)
}
