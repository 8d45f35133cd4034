import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { preparedPerDatabase } from '#server/db/prepared.ts'
import { type ApiKeyRow, apiKeys, rateLimitBuckets, subscriptions, users } from '#server/db/schema/index.ts'
import type { RequestUser } from '#server/http/context.ts'
import { hasApiAccess, liveStatuses } from '#server/plans/live-plan.ts'
import {
  fixedWindowResult,
  fixedWindowUpdate,
  type RateLimiter,
  type RateLimitResult,
  type RateLimitRule,
} from '#server/rate-limit/rate-limiter.ts'
import {
  type ApiKeysResponse,
  type ApiKeyView,
  apiKeyPattern,
  apiKeyPrefix,
  apiKeyRandomLength,
  apiKeyShownLength,
  type CreateApiKeyResponse,
  maxLiveApiKeys,
  revokedApiKeysShown,
} from '#shared/contracts/api-keys.ts'
import { AppError } from '#shared/errors.ts'
import { getPlan, plans } from '#shared/plans.ts'
import { concurrentBatches } from './concurrent-batches.ts'

export type ApiKeysDeps = { db: Db; now: () => Date }

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** Bytes at or above this are skipped, so that every base62 character is equally likely. */
const unbiasedByteLimit = 256 - (256 % base62.length)

/**
 * A new key: `vtr_` and 43 base62 characters from the system's CSPRNG (≈ 256 bits). Base62
 * rather than base64url so that a double click selects the whole key.
 */
export function generateApiKey(): string {
  let random = ''
  while (random.length < apiKeyRandomLength) {
    for (const byte of randomBytes(64)) {
      if (byte < unbiasedByteLimit) random += base62[byte % base62.length]
      if (random.length === apiKeyRandomLength) break
    }
  }
  return apiKeyPrefix + random
}

/**
 * What is stored of a key. A plain SHA-256 is enough: the key has 256 random bits, so there is
 * nothing to guess back, and a fast hash keeps the per-request lookup to one indexed read.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex')
}

function present(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }
}

/**
 * The user's keys: every live one (at most maxLiveApiKeys), newest first, then the most recently
 * revoked ones (revokedApiKeysShown). Listing needs no plan, so that an account that left Pro still sees its keys
 * and can revoke them.
 */
export async function listApiKeys(deps: ApiKeysDeps, userId: string): Promise<ApiKeysResponse> {
  const [rows, isAllowed] = await Promise.all([
    deps.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.userId, userId))
      .orderBy(
        sql`${apiKeys.revokedAt} is not null`,
        desc(apiKeys.revokedAt),
        desc(apiKeys.createdAt),
        desc(apiKeys.id),
      )
      .limit(maxLiveApiKeys + revokedApiKeysShown),
    hasApiAccess(deps.db, userId, deps.now()),
  ])
  return { hasApiAccess: isAllowed, maxLiveKeys: maxLiveApiKeys, keys: rows.map(present) }
}

/**
 * Makes a key and returns it whole, the only time it leaves the server; the table keeps its hash
 * and first characters. Needs a plan with API access; refuses past maxLiveApiKeys live keys.
 */
export async function createApiKey(
  deps: ApiKeysDeps,
  userId: string,
  name: string,
): Promise<CreateApiKeyResponse> {
  const now = deps.now()
  if (!(await hasApiAccess(deps.db, userId, now))) {
    throw new AppError('API_PLAN_REQUIRED', 'API keys need a plan with API access')
  }
  const secret = generateApiKey()
  const row = await deps.db.transaction(async (tx) => {
    // The user's row is locked so that two requests at once cannot both pass the count below.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
    const [live] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    if ((live?.count ?? 0) >= maxLiveApiKeys) {
      throw new AppError('API_KEY_LIMIT_REACHED', `At most ${maxLiveApiKeys} live API keys`)
    }
    const [inserted] = await tx
      .insert(apiKeys)
      .values({
        userId,
        name,
        prefix: secret.slice(0, apiKeyShownLength),
        keyHash: hashApiKey(secret),
        createdAt: now,
      })
      .returning()
    return inserted
  })
  if (!row) throw new Error('api key insert returned nothing')
  return { key: present(row), secret }
}

/** A well-formed uuid; anything else cannot name a key (and must not reach a uuid column). */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Revokes one of the user's keys at once (every later request with it is refused). Revoking a
 * revoked key changes nothing; another user's key, or none, is NOT_FOUND. No plan is needed.
 */
export async function revokeApiKey(deps: ApiKeysDeps, userId: string, id: string): Promise<ApiKeyView> {
  if (!uuidPattern.test(id)) throw new AppError('NOT_FOUND', 'No such API key')
  const [revoked] = await deps.db
    .update(apiKeys)
    .set({ revokedAt: deps.now() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning()
  if (revoked) return present(revoked)
  const [existing] = await deps.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
  if (!existing) throw new AppError('NOT_FOUND', 'No such API key')
  return present(existing)
}

/** last_used_at moves at most this often per key, so a busy key does not write on every request. */
export const lastUsedPrecisionMs = 60_000

/** Who a /v1 request acts for, and where its key's rate-limit bucket stands after counting it. */
export type ApiCaller = { user: RequestUser; keyId: string; rate: RateLimitResult }

/** The plans whose keys work on /v1 (the catalogue's `apiAccess`), for the statement below. */
const apiPlanIds = plans.filter((plan) => plan.features.includes('apiAccess')).map((plan) => plan.id)

/**
 * Every /v1 request's one statement, prepared once per database: the key, its owner and the
 * owner's live subscription, and `attempts` requests (see apiKeyAuthenticator) counted in the
 * key's rate-limit bucket (`bucketPrefix` and the key's id; the window as
 * rate-limit/rate-limiter.ts counts it, with that limiter's clock). They are counted only for a
 * key that the answer will let in on what this statement reads: not revoked, with a live
 * subscription to a plan with API access whose period has not ended at `now`. So a request
 * refused for its key (401) or plan (403) is not counted, as with a separate count after the
 * check. A subscription whose period has ended needs getActiveSubscription's renewal write first;
 * those requests are counted after it, each on its own. Keys (hash unique) and live
 * subscriptions (one per user) make this at most one row and one bucket.
 */
function prepareCallerLookup(db: Db) {
  const keyHash = sql.placeholder('keyHash')
  const liveSubscriptionOfKey = and(
    eq(subscriptions.userId, apiKeys.userId),
    inArray(subscriptions.status, liveStatuses),
  )
  // SQL fragments where drizzle has no builder: typed placeholders (times go in as ISO strings,
  // since a bare placeholder skips the column's Date encoding), the bucket key's concatenation,
  // and the join on the counting CTE's one row.
  const rateAt = sql`${sql.placeholder('rateAt')}::timestamptz`
  const attempts = sql`${sql.placeholder('attempts')}::int`
  const hit = db.$with('hit').as(
    db
      .insert(rateLimitBuckets)
      .select(
        db
          // drizzle's insert … select names every column of the table in its order: these follow it.
          .select({
            key: sql<string>`${sql.placeholder('bucketPrefix')} || ${apiKeys.id}`.as('key'),
            windowStart: sql<Date>`${rateAt}`.as('window_start'),
            count: sql<number>`${attempts}`.as('count'),
            lastHitAt: sql<Date>`${rateAt}`.as('last_hit_at'),
          })
          .from(apiKeys)
          .innerJoin(subscriptions, liveSubscriptionOfKey)
          .where(
            and(
              eq(apiKeys.keyHash, keyHash),
              isNull(apiKeys.revokedAt),
              inArray(subscriptions.planId, apiPlanIds),
              gt(subscriptions.currentPeriodEnd, sql`${sql.placeholder('now')}::timestamptz`),
            ),
          ),
      )
      .onConflictDoUpdate({
        target: rateLimitBuckets.key,
        set: fixedWindowUpdate(rateAt, sql`${sql.placeholder('rateWindowFloor')}::timestamptz`, attempts),
      })
      .returning({ count: rateLimitBuckets.count, windowStart: rateLimitBuckets.windowStart }),
  )
  return db
    .with(hit)
    .select({
      id: apiKeys.id,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
      user: { id: users.id, email: users.email, isBeta: users.isBeta, createdAt: users.createdAt },
      subscription: { planId: subscriptions.planId, currentPeriodEnd: subscriptions.currentPeriodEnd },
      hitCount: hit.count,
      hitWindowStart: hit.windowStart,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(subscriptions, liveSubscriptionOfKey)
    .leftJoin(hit, sql`true`)
    .where(eq(apiKeys.keyHash, keyHash))
    .prepare('api_key_caller')
}

const callerLookup = preparedPerDatabase(prepareCallerLookup)

/** What one caller lookup found, and when it ran. */
type CallerLookup = {
  found: Awaited<ReturnType<ReturnType<typeof prepareCallerLookup>['execute']>>[number] | undefined
  now: Date
  rateAt: Date
}

/**
 * authenticateApiKey for one app (requireApiKey makes one). Requests with the same key and
 * bucket that arrive while that key's lookup is in flight share the next lookup, which counts
 * them all at once (concurrent-batches.ts): each still gets its own place in the count (the
 * first of n counted ones is count − n + 1), so the numbers are those of counting them one by
 * one, and each sees the key, plan and bucket as they are after it arrived. A key polled by many
 * connections at once then costs one statement per round, not one per request, and its bucket's
 * row is not fought over by every connection (each update waits for the previous one's commit).
 */
export function apiKeyAuthenticator(deps: ApiKeysDeps & { rateLimiter: RateLimiter }) {
  const lookups = concurrentBatches(
    async (input: { keyHash: string; rule: RateLimitRule }, attempts: number): Promise<CallerLookup> => {
      const now = deps.now()
      const rateAt = deps.rateLimiter.now()
      const [found] = await callerLookup(deps.db).execute({
        keyHash: input.keyHash,
        now: now.toISOString(),
        bucketPrefix: `${input.rule.name}:`,
        rateAt: rateAt.toISOString(),
        rateWindowFloor: new Date(rateAt.getTime() - input.rule.windowSeconds * 1000).toISOString(),
        attempts,
      })
      return { found, now, rateAt }
    },
  )

  /**
   * The user behind a `Authorization` header's key, for /v1, with the request counted under
   * `rule` in the key's bucket. Refuses, in this order: no header (API_KEY_REQUIRED); anything
   * but `Bearer vtr_…` of the right shape, an unknown key or a revoked one (API_KEY_INVALID); a
   * plan without API access, so a downgraded account's keys stop at once (API_PLAN_REQUIRED);
   * none of these is counted. Nothing is cached: revocation and plan changes apply to the next
   * request. Whether the count is over the rule's limit is the caller's to act on.
   */
  return async function authenticateApiKey(
    authorization: string | undefined,
    rule: RateLimitRule,
  ): Promise<ApiCaller> {
    if (authorization === undefined || authorization.trim() === '') {
      throw new AppError('API_KEY_REQUIRED', 'Send an API key: Authorization: Bearer vtr_…')
    }
    const match = /^Bearer +(\S+) *$/i.exec(authorization)
    const key = match?.[1]
    if (!key || !apiKeyPattern.test(key)) {
      throw new AppError('API_KEY_INVALID', 'Malformed API key; expected Authorization: Bearer vtr_…')
    }
    const keyHash = hashApiKey(key)
    const { result, index, size } = await lookups(`${rule.name}/${rule.windowSeconds}/${keyHash}`, {
      keyHash,
      rule,
    })
    const { found, now, rateAt } = result
    if (!found || found.revokedAt !== null) {
      throw new AppError('API_KEY_INVALID', 'Unknown or revoked API key')
    }
    const { subscription } = found
    // The live subscription came with the key. Only one whose period has ended (a manual plan's
    // renewal, a trial's end) needs getActiveSubscription's write; without one there is no plan.
    const hasAccess = !subscription
      ? false
      : subscription.currentPeriodEnd > now
        ? getPlan(subscription.planId).features.includes('apiAccess')
        : await hasApiAccess(deps.db, found.user.id, now)
    if (!hasAccess) {
      throw new AppError('API_PLAN_REQUIRED', 'The API needs a plan with API access')
    }
    // Counted in the lookup (this request's place among the `size` it counted) unless the period
    // had to be renewed first (see prepareCallerLookup).
    const rate =
      found.hitCount !== null && found.hitWindowStart !== null
        ? fixedWindowResult(
            { count: found.hitCount - size + 1 + index, windowStart: found.hitWindowStart },
            rule,
            rateAt,
          )
        : await deps.rateLimiter.hit(rule, found.id)
    const isStale =
      found.lastUsedAt === null || now.getTime() - found.lastUsedAt.getTime() >= lastUsedPrecisionMs
    // Once per lookup (its first request), and guarded, so that of several requests in the same
    // minute only one writes.
    if (index === 0 && isStale) {
      const stale = new Date(now.getTime() - lastUsedPrecisionMs)
      await deps.db
        .update(apiKeys)
        .set({ lastUsedAt: now })
        .where(and(eq(apiKeys.id, found.id), or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, stale))))
    }
    return { user: found.user, keyId: found.id, rate }
  }
}
