import { createHash, randomBytes } from 'node:crypto'
import { and, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { type ApiKeyRow, apiKeys, subscriptions, users } from '#server/db/schema/index.ts'
import { getActiveSubscription, liveStatuses } from '#server/features/billing/subscription.service.ts'
import type { RequestUser } from '#server/http/context.ts'
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
import { getPlan } from '#shared/plans.ts'

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

/** Whether the user's current plan includes the public API (the plan catalogue's `apiAccess`). */
export async function hasApiAccess(db: Db, userId: string, now: Date): Promise<boolean> {
  const subscription = await getActiveSubscription(db, userId, now)
  return subscription !== null && getPlan(subscription.planId).features.includes('apiAccess')
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

/** Who a /v1 request acts for. */
export type ApiCaller = { user: RequestUser; keyId: string }

/**
 * The user behind a `Authorization` header's key, for /v1. Refuses, in this order: no header
 * (API_KEY_REQUIRED); anything but `Bearer vtr_…` of the right shape, an unknown key or a revoked
 * one (API_KEY_INVALID); a plan without API access, so a downgraded account's keys stop at once
 * (API_PLAN_REQUIRED). Nothing is cached: revocation and plan changes apply to the next request.
 */
/**
 * Every /v1 request's first read: the key, its owner and the owner's live subscription, in one
 * statement prepared once per database (the query is not rebuilt per request, and PostgreSQL
 * keeps its plan per connection).
 */
function prepareCallerLookup(db: Db) {
  return db
    .select({
      id: apiKeys.id,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
      user: { id: users.id, email: users.email, isBeta: users.isBeta, createdAt: users.createdAt },
      subscription: { planId: subscriptions.planId, currentPeriodEnd: subscriptions.currentPeriodEnd },
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(
      subscriptions,
      and(eq(subscriptions.userId, apiKeys.userId), inArray(subscriptions.status, liveStatuses)),
    )
    .where(eq(apiKeys.keyHash, sql.placeholder('keyHash')))
    .prepare('api_key_caller')
}

const callerLookups = new WeakMap<Db, ReturnType<typeof prepareCallerLookup>>()

function callerLookup(db: Db): ReturnType<typeof prepareCallerLookup> {
  let lookup = callerLookups.get(db)
  if (!lookup) {
    lookup = prepareCallerLookup(db)
    callerLookups.set(db, lookup)
  }
  return lookup
}

export async function authenticateApiKey(
  deps: ApiKeysDeps,
  authorization: string | undefined,
): Promise<ApiCaller> {
  if (authorization === undefined || authorization.trim() === '') {
    throw new AppError('API_KEY_REQUIRED', 'Send an API key: Authorization: Bearer vtr_…')
  }
  const match = /^Bearer +(\S+) *$/i.exec(authorization)
  const key = match?.[1]
  if (!key || !apiKeyPattern.test(key)) {
    throw new AppError('API_KEY_INVALID', 'Malformed API key; expected Authorization: Bearer vtr_…')
  }
  const [found] = await callerLookup(deps.db).execute({ keyHash: hashApiKey(key) })
  if (!found || found.revokedAt !== null) {
    throw new AppError('API_KEY_INVALID', 'Unknown or revoked API key')
  }
  const now = deps.now()
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
  if (found.lastUsedAt === null || now.getTime() - found.lastUsedAt.getTime() >= lastUsedPrecisionMs) {
    // Guarded, so that of several requests in the same minute only one writes.
    const stale = new Date(now.getTime() - lastUsedPrecisionMs)
    await deps.db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, found.id), or(isNull(apiKeys.lastUsedAt), lte(apiKeys.lastUsedAt, stale))))
  }
  return { user: found.user, keyId: found.id }
}
