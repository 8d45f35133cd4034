import type { Context, MiddlewareHandler } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { IdempotencyKeyRow } from '#server/db/schema/index.ts'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser } from '#server/http/session.ts'
import { idempotencyHeaders, idempotencyKeyMaxLength, idempotencyKeyPattern } from '#shared/api-limits.ts'
import { AppError } from '#shared/errors.ts'
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findLiveIdempotencyKey,
  type IdempotencyClaim,
  type IdempotencyDeps,
  parseFingerprint,
  releaseIdempotencyKey,
} from './idempotency.service.ts'
import { RequestDigest } from './request-digest.ts'

export type IdempotentPostsDeps = IdempotencyDeps & {
  /** How long a duplicate waits for the first request with its key to answer, then 409. */
  waitMs?: number
  /** Waits between looks at a running key; tests pass their own to know a duplicate is waiting. */
  pause?: (ms: number) => Promise<void>
}

/** What a route may leave unread of a body and still have its answer kept (a body-less POST sent `{}`). */
const unreadAllowanceBytes = 64 * 1024

/**
 * `Idempotency-Key` on /v1 POSTs (after requireApiKey; docs/public-api.md). A
 * POST without the header runs as usual. With one, per account and for 24 hours:
 * - the first request takes the key (a row `running`, unique per user and key) and runs; its
 *   answer is kept with the request's fingerprint (method, path, body length and SHA-256, the
 *   body hashed as the route reads it), unless it is one a retry should run again (isKept);
 * - the same request again gets the kept answer (status and JSON body) with
 *   `Idempotent-Replayed: true`, and nothing runs;
 * - another request (method, path or body) with the key is refused: 422 IDEMPOTENCY_KEY_REUSED;
 * - a duplicate arriving while the first still runs waits for its answer (up to `waitMs`), then
 *   replays it, or is refused with 409 IDEMPOTENCY_KEY_IN_USE.
 */
export function idempotentPosts(deps: IdempotentPostsDeps): MiddlewareHandler<AppEnv> {
  const waitMs = deps.waitMs ?? 5_000
  const pause = deps.pause ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))

  return async (c, next) => {
    if (c.req.method !== 'POST') return next()
    const key = c.req.header(idempotencyHeaders.key)
    if (key === undefined) return next()
    if (!idempotencyKeyPattern.test(key)) {
      throw new AppError('VALIDATION_FAILED', `Invalid ${idempotencyHeaders.key} header`, {
        fields: { [idempotencyHeaders.key]: key.length > idempotencyKeyMaxLength ? 'tooLong' : 'invalid' },
      })
    }
    const userId = currentUser(c).id
    const url = new URL(c.req.url)
    const target = `${c.req.method} ${url.pathname}${url.search}`
    const digest = new RequestDigest(c.req.raw.body, c.req.header('content-type'))

    // A key released by its first request (an answer not kept) is free again: take it then.
    for (let round = 0; round < 3; round++) {
      const claim = await claimIdempotencyKey(deps, userId, key, target)
      if (claim) return runKeepingAnswer(c, next, claim, target, digest)
      const row = await waitForAnswer(userId, key, target)
      if (row) return replay(c, row, target, digest)
    }
    throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running')
  }

  /** The key's answer once its request is done; null when the key was released meanwhile. */
  async function waitForAnswer(
    userId: string,
    key: string,
    target: string,
  ): Promise<IdempotencyKeyRow | null> {
    const started = Date.now()
    for (let interval = 20; ; interval = Math.min(interval * 2, 250)) {
      const row = await findLiveIdempotencyKey(deps, userId, key)
      if (!row) return null
      // Another method or path is known from the start: no need to wait for its body.
      if (parseFingerprint(row.requestHash).target !== target) throw reused()
      if (row.status === 'done') return row
      if (Date.now() - started >= waitMs) {
        throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still running')
      }
      await pause(interval)
    }
  }

  async function runKeepingAnswer(
    c: Context<AppEnv>,
    next: () => Promise<void>,
    claim: IdempotencyClaim,
    target: string,
    digest: RequestDigest,
  ): Promise<void> {
    let isKept = false
    try {
      if (c.req.raw.body) {
        c.req.raw = new Request(c.req.raw, { body: digest.stream(), duplex: 'half' } as RequestInit)
      }
      await next()
      const isRead = await digest.readOn(digest.bytes + unreadAllowanceBytes)
      const answer = isRead ? await keptAnswer(c.res) : null
      if (answer) {
        await completeIdempotencyKey(deps, claim, { target, body: digest.result() }, answer)
        isKept = true
      }
    } finally {
      if (!isKept) {
        await releaseIdempotencyKey(deps, claim).catch((error: unknown) => {
          c.get('log').warn({ err: error }, 'releasing an idempotency key failed')
        })
      }
    }
  }

  async function replay(c: Context<AppEnv>, row: IdempotencyKeyRow, target: string, digest: RequestDigest) {
    const kept = parseFingerprint(row.requestHash).body
    if (!kept || row.responseStatus === null) throw reused()
    // The duplicate's body is read (and dropped) only as far as the first one's length.
    const isSameBody = (await digest.readOn(kept.bytes)) && digest.result().sha256 === kept.sha256
    if (!isSameBody) throw reused()
    c.get('log').info({ idempotencyKey: row.id, target }, 'idempotent request replayed')
    c.header(idempotencyHeaders.replayed, 'true')
    if (row.responseBody === null) return c.body(null, row.responseStatus as ContentfulStatusCode)
    return c.json(row.responseBody, row.responseStatus as ContentfulStatusCode)
  }
}

function reused(): AppError {
  return new AppError(
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was used for another request in the last 24 hours',
  )
}

/**
 * The answer to keep for replays, or null to release the key. Kept: every answer below 500 but
 * 400, 413, 415 and 429, which refuse a request before anything is done (malformed, too large,
 * of a type not taken, too many), so the key may be sent again with the request corrected or later (Stripe keeps no
 * result for a request that failed validation either). Server errors (5xx) are not kept: the
 * request may be retried with the same key and runs again. Only JSON (or empty) answers are kept.
 */
async function keptAnswer(response: Response): Promise<{ status: number; body: unknown } | null> {
  const { status } = response
  if (status >= 500 || status === 400 || status === 413 || status === 415 || status === 429) return null
  const text = await response.clone().text()
  if (text === '') return { status, body: null }
  if (!/^application\/json\b/i.test(response.headers.get('content-type') ?? '')) return null
  return { status, body: JSON.parse(text) as unknown }
}
