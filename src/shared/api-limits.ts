/**
 * The public API's documented limits (docs/public-api.md): the one place the
 * numbers are written. config.ts takes the rate limits' defaults from here (an operator may
 * change them with API_READS_PER_MINUTE and API_WRITES_PER_MINUTE), and the OpenAPI document and
 * the Quickstart state them.
 */
export const apiRateLimitDefaults = {
  /** GET and HEAD requests per API key per window: polling, listing, downloading results. */
  readsPerMinute: 300,
  /** Every other method (POST) per API key per window: uploads, generations, cancels. */
  writesPerMinute: 60,
} as const

/** Rate limits count in fixed windows of this length, per key and per kind (reads, writes). */
export const apiRateLimitWindowSeconds = 60

/** The headers every authenticated /v1 answer carries (IETF draft "RateLimit header fields"). */
export const apiRateLimitHeaders = {
  /** The limit of the bucket this request was counted in. */
  limit: 'RateLimit-Limit',
  /** Requests left in that bucket in the current window. */
  remaining: 'RateLimit-Remaining',
  /** Seconds until the current window ends and the bucket is full again. */
  reset: 'RateLimit-Reset',
} as const

/** An `Idempotency-Key` is remembered this long after its first request, then forgotten. */
export const idempotencyKeyHours = 24

/** An `Idempotency-Key` is 1 to this many printable ASCII characters (a UUID is 36). */
export const idempotencyKeyMaxLength = 255

/** Printable ASCII, space included (what an HTTP header value may carry without encoding). */
export const idempotencyKeyPattern = new RegExp(`^[\\x20-\\x7e]{1,${idempotencyKeyMaxLength}}$`)

/** Header names of idempotent requests: the key sent, and the mark on a replayed answer. */
export const idempotencyHeaders = { key: 'Idempotency-Key', replayed: 'Idempotent-Replayed' } as const
