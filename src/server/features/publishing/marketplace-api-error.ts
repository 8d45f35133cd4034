import { AppError } from '#shared/errors.ts'
// How a marketplace's seller API failed, in the few kinds publishing acts on differently. The
// marketplace's own words (its error messages, in Turkish on the Turkish storefronts) are kept for
// the log and for the seller's rejection list; an HTTP body is never shown raw.

export type MarketplaceId = 'trendyol' | 'hepsiburada'

export type MarketplaceApiFailure =
  /** The key and secret (or merchant ID and service key) were refused: the seller must reconnect. */
  | 'auth'
  /** Known credentials that may not do this (another seller's path, a missing User-Agent). */
  | 'forbidden'
  /** The account's request budget is spent: try again after `retryAfterMs`, or later. */
  | 'rate-limited'
  /** The request itself was refused (a missing field, a category that takes no products). */
  | 'rejected'
  /** What was asked for does not exist (a batch, a product, an attribute). */
  | 'not-found'
  /** The marketplace did not answer, or answered with a server error: worth another try. */
  | 'unavailable'

export class MarketplaceApiError extends Error {
  readonly marketplace: MarketplaceId
  readonly failure: MarketplaceApiFailure
  /** The HTTP status, or null when no answer came. */
  readonly status: number | null
  /** The marketplace's own messages, as it worded them. */
  readonly messages: string[]
  /** From a Retry-After header, when the marketplace sent one. */
  readonly retryAfterMs: number | null

  constructor(
    marketplace: MarketplaceId,
    failure: MarketplaceApiFailure,
    details: { status: number | null; messages?: string[]; retryAfterMs?: number | null; cause?: unknown },
  ) {
    super(
      `${marketplace} API: ${failure}${details.status === null ? '' : ` (HTTP ${details.status})`}`,
      details.cause === undefined ? undefined : { cause: details.cause },
    )
    this.name = 'MarketplaceApiError'
    this.marketplace = marketplace
    this.failure = failure
    this.status = details.status
    this.messages = details.messages ?? []
    this.retryAfterMs = details.retryAfterMs ?? null
  }

  /** Worth trying again unchanged: the budget or the service, not the request. */
  get isTransient(): boolean {
    return this.failure === 'rate-limited' || this.failure === 'unavailable'
  }
}

/** The failure an HTTP status stands for. */
export function failureOfStatus(status: number): MarketplaceApiFailure {
  if (status === 401) return 'auth'
  if (status === 403) return 'forbidden'
  if (status === 404) return 'not-found'
  if (status === 429) return 'rate-limited'
  if (status >= 500) return 'unavailable'
  return 'rejected'
}

/** A Retry-After header (seconds, or an HTTP date) in milliseconds from `now`; null when absent or unreadable. */
export function retryAfterOf(header: string | null, now = Date.now()): number | null {
  if (!header) return null
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000)
  const date = Date.parse(header)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

/** A marketplace's answer body as JSON; undefined when empty or not JSON (a gateway's HTML page). */
export function parseJsonBody(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A marketplace's refusal as the error the seller reads (the same words everywhere: connecting, Test, lookups,
 * publishing). The marketplace's own words are for the log. */
export function appErrorOf(error: MarketplaceApiError): AppError {
  if (error.failure === 'auth') {
    return new AppError('MARKETPLACE_KEYS_REFUSED', 'The marketplace did not accept the saved credentials')
  }
  if (error.failure === 'forbidden') {
    return new AppError('MARKETPLACE_ACCOUNT_MISMATCH', 'The credentials belong to another account')
  }
  if (error.failure === 'rate-limited') {
    return new AppError('MARKETPLACE_BUSY', 'The marketplace is refusing requests for a while')
  }
  return new AppError('MARKETPLACE_UNAVAILABLE', 'The marketplace did not answer')
}

/**
 * How a brand name may be spelled at Trendyol, whose brand search is case-sensitive: as typed,
 * in Turkish title case ("paşabahçe ilk" → "Paşabahçe İlk") and in Turkish capitals.
 */
export function brandSpellings(name: string): string[] {
  const titled = name
    .split(' ')
    .map((word) => word.charAt(0).toLocaleUpperCase('tr-TR') + word.slice(1))
    .join(' ')
  return [...new Set([name, titled, name.toLocaleUpperCase('tr-TR')])]
}
