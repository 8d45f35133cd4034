import type { RateLimitRule } from '#server/rate-limit/rate-limiter.ts'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import type { HepsiburadaApi, HepsiburadaProductItem } from './hepsiburada-api.ts'
import type { TrendyolApi, TrendyolProductItem } from './trendyol-api.ts'

// How publishing talks to each marketplace, in one shape: send a request of items so that a
// product the marketplace already has is updated by its barcode rather than created twice, read
// the request's per-product outcome, then read the review of the accepted ones. The publisher
// (step-publication.service.ts) keeps the state; a channel only asks.

/** Where one product stands at the marketplace, with the marketplace's own words when refused. */
export type ProductOutcome = {
  status: 'pending' | 'live' | 'rejected'
  reasons: string[]
  /** The product's storefront address, once live, where the marketplace gives one. */
  productUrl?: string | null
  /** The approved product's id at the marketplace, where a later request names it (a video). */
  contentId?: string | null
}

/** Where a product's video stands at a marketplace's video service. */
export type VideoOutcome = { status: 'processing' | 'live' | 'failed'; reasons: string[] }

/**
 * A marketplace's own video service, for a product it has approved (Trendyol): the video is
 * created from its public address for the product's content id, then followed until it shows or
 * fails. A marketplace that takes the video in the product's item (Hepsiburada's Video1) has none.
 */
export type VideoService = {
  /** Per seller account, as the channel's rules. */
  rule: RateLimitRule
  create: (video: { title: string; videoUrl: string; contentId: string }) => Promise<string>
  outcome: (remoteId: string) => Promise<VideoOutcome>
}

/** One request the marketplace took, and the products (by key) in it. */
export type SentRequest = { remoteId: string; keys: string[] }

export type Channel = {
  marketplace: IntegrationMarketplace
  /** Documented: items in one request. */
  maxItemsPerRequest: number
  /** Per seller account, shared by every worker process (rate_limit_buckets). */
  writeRule: RateLimitRule
  readRule: RateLimitRule
  /** The key the marketplace answers a product by: Trendyol's barcode, Hepsiburada's merchantSku. */
  keyOf: (listing: { barcode: string; stockCode: string }) => string
  /** Requests a send makes before its writes (the existence check), for the read budget. */
  readsBeforeSend: (count: number) => number
  /** Sends the items (key → item): new products created, ones it has already updated. */
  send: (items: Map<string, unknown>) => Promise<SentRequest[]>
  /** The request's outcome per key; null while the marketplace is still processing it. */
  requestOutcome: (remoteId: string) => Promise<Map<string, ProductOutcome> | null>
  /** The review of accepted products; a key left out is still under review. */
  review: (remoteId: string, keys: string[]) => Promise<Map<string, ProductOutcome>>
  /** Its video service, where videos go after approval. */
  video?: VideoService
}

/**
 * Trendyol: createProducts v2 for new barcodes, unapproved-bulk-update for ones it has and has
 * not approved; an approved one is left as it is (its barcode, brand and category are frozen,
 * publishing.md) and read as live. Limits: the lowest listing tier's write and read budgets
 * (publishing.md; a higher tier allows more, never less).
 */
/** Stands for "no request": products Trendyol had already approved, read by the review alone. */
const approvedRemoteId = 'already-approved'

export function trendyolChannel(api: TrendyolApi, sellerId: string): Channel {
  const barcodesPerRead = 200
  return {
    marketplace: 'trendyol',
    maxItemsPerRequest: 1000,
    writeRule: { name: `trendyol-write:${sellerId}`, limit: 200, windowSeconds: 60 },
    // Reads: Trendyol allows 1,000 a minute, but also at most 50 to one endpoint in any 10 s
    // ("aynı endpointe 10 saniye içerisinde maksimum 50 request"), and following a batch reads
    // one endpoint again and again. Counted in fixed 10 s windows, 25 a window keeps any 10 s
    // within 50 (and a minute within 150).
    readRule: { name: `trendyol-read:${sellerId}`, limit: 25, windowSeconds: 10 },
    keyOf: (listing) => listing.barcode,
    readsBeforeSend: (count) => Math.ceil(count / barcodesPerRead) + Math.ceil(count / 100),
    async send(items) {
      const barcodes = [...items.keys()]
      const unapproved = new Set<string>()
      for (let start = 0; start < barcodes.length; start += barcodesPerRead) {
        for (const row of await api.unapproved(barcodes.slice(start, start + barcodesPerRead))) {
          unapproved.add(row.barcode)
        }
      }
      const approved = new Set((await api.approved(barcodes)).map((row) => row.barcode))
      const create = barcodes.filter((barcode) => !unapproved.has(barcode) && !approved.has(barcode))
      const update = barcodes.filter((barcode) => unapproved.has(barcode))
      const sent: SentRequest[] = []
      const itemsOf = (list: string[]) => list.map((barcode) => items.get(barcode) as TrendyolProductItem)
      if (create.length > 0) sent.push({ remoteId: await api.createProducts(itemsOf(create)), keys: create })
      if (update.length > 0)
        sent.push({ remoteId: await api.updateUnapproved(itemsOf(update)), keys: update })
      // Already approved: nothing to send; the review reads it as live.
      if (approved.size > 0) sent.push({ remoteId: approvedRemoteId, keys: [...approved] })
      return sent
    },
    async requestOutcome(remoteId) {
      if (remoteId === approvedRemoteId) return new Map()
      const result = await api.batchResult(remoteId)
      if (result.status !== 'COMPLETED') return null
      const outcomes = new Map<string, ProductOutcome>()
      for (const item of result.items) {
        if (!item.barcode) continue
        outcomes.set(
          item.barcode,
          item.status === 'FAILED'
            ? { status: 'rejected', reasons: item.failureReasons }
            : { status: 'pending', reasons: [] },
        )
      }
      return outcomes
    },
    async review(_remoteId, barcodes) {
      const outcomes = new Map<string, ProductOutcome>()
      for (const row of await api.approved(barcodes)) {
        outcomes.set(row.barcode, {
          status: 'live',
          reasons: [],
          productUrl: row.productUrl,
          contentId: row.contentId,
        })
      }
      const waiting = barcodes.filter((barcode) => !outcomes.has(barcode))
      for (let start = 0; start < waiting.length; start += barcodesPerRead) {
        for (const row of await api.unapproved(waiting.slice(start, start + barcodesPerRead))) {
          outcomes.set(
            row.barcode,
            row.status === 'rejected'
              ? {
                  status: 'rejected',
                  reasons: row.rejectReasons.map((reason) =>
                    reason.detail ? `${reason.reason}: ${reason.detail}` : reason.reason,
                  ),
                }
              : { status: 'pending', reasons: [] },
          )
        }
      }
      return outcomes
    },
    video: {
      // Documented: create 200 requests a minute (marketplaces.md); the list is read at the
      // channel's read pace.
      rule: { name: `trendyol-video:${sellerId}`, limit: 200, windowSeconds: 60 },
      async create({ title, videoUrl, contentId }) {
        return api.createVideo({ title, videoUrl, productContentIds: [contentId] })
      },
      async outcome(remoteId) {
        const video = await api.video(remoteId)
        if (!video) return { status: 'failed', reasons: ['Trendyol lists no video by this id.'] }
        if (video.status === 'FAILED') return { status: 'failed', reasons: [video.errorCode ?? 'FAILED'] }
        return { status: video.status === 'SUCCESS' && video.isApproved ? 'live' : 'processing', reasons: [] }
      },
    },
  }
}

/**
 * Hepsiburada: one product import; an import of a merchantSku it has updates that product. Its
 * status by trackingId carries both the import's outcome and the review's (productStatus), so the
 * review reads the same status again. Limit: catalogue services, 100 requests a second
 * (publishing.md; beyond it 403, and the address is blocked after 5 s).
 */
export function hepsiburadaChannel(api: HepsiburadaApi, merchantId: string): Channel {
  function outcomeOf(row: Awaited<ReturnType<HepsiburadaApi['importStatus']>>[number]): ProductOutcome {
    if (row.importStatus === 'FAILED') {
      return { status: 'rejected', reasons: row.problems.map((problem) => problem.message) }
    }
    switch (row.productStatus) {
      case 'MATCHED':
        return { status: 'live', reasons: [] }
      case 'MISSING_INFO':
        return { status: 'rejected', reasons: row.problems.map((problem) => problem.message) }
      case 'BLOCKED':
        return { status: 'rejected', reasons: row.rejectReasons }
      default:
        return { status: 'pending', reasons: [] }
    }
  }
  return {
    marketplace: 'hepsiburada',
    // Not documented; the fake's and our own bound, as for Trendyol.
    maxItemsPerRequest: 1000,
    writeRule: { name: `hepsiburada:${merchantId}`, limit: 100, windowSeconds: 1 },
    readRule: { name: `hepsiburada:${merchantId}`, limit: 100, windowSeconds: 1 },
    keyOf: (listing) => listing.stockCode,
    readsBeforeSend: () => 0,
    async send(items) {
      const keys = [...items.keys()]
      const trackingId = await api.importProducts(keys.map((key) => items.get(key) as HepsiburadaProductItem))
      return [{ remoteId: trackingId, keys }]
    },
    async requestOutcome(trackingId) {
      const rows = await api.importStatus(trackingId)
      if (rows.some((row) => row.importStatus === 'PROCESSING')) return null
      return skuOutcomes(rows)
    },
    async review(trackingId) {
      return skuOutcomes(await api.importStatus(trackingId))
    },
  }

  function skuOutcomes(rows: Awaited<ReturnType<HepsiburadaApi['importStatus']>>) {
    const outcomes = new Map<string, ProductOutcome>()
    for (const row of rows) {
      if (row.merchantSku) outcomes.set(row.merchantSku, outcomeOf(row))
    }
    return outcomes
  }
}
