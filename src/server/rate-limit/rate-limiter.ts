import { eq, type SQL, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { rateLimitBuckets } from '#server/db/schema/index.ts'
import { AppError } from '#shared/errors.ts'

export type RateLimitRule = {
  /** What is limited, e.g. "contact"; part of the bucket key. */
  name: string
  limit: number
  windowSeconds: number
}

export type RateLimitResult = { isAllowed: boolean; count: number; retryAfterSeconds: number }

/**
 * Growing delays instead of a hard lock: the first `freeAttempts` attempts in a window go
 * through at once; after that, attempt n + 1 is let through only 2^(n - freeAttempts) seconds
 * after attempt n (1 s, 2 s, 4 s, …), at most `maxDelaySeconds`. Refused attempts are not counted.
 */
export type BackoffRule = {
  name: string
  freeAttempts: number
  maxDelaySeconds: number
  /** The count is forgotten this long after the window's first attempt. */
  windowSeconds: number
}

/** A bucket's live state, read without counting; null when it holds no attempt in a live window. */
export type RateLimitState = { count: number; windowStart: Date; lastHitAt: Date }

/** Seconds that must pass after the last attempt once `count` attempts were counted. */
export function backoffDelaySeconds(rule: BackoffRule, count: number): number {
  if (count < rule.freeAttempts) return 0
  return Math.min(rule.maxDelaySeconds, 2 ** Math.min(count - rule.freeAttempts, 30))
}

export interface RateLimiter {
  /** The clock its windows are counted by (a statement that counts along with other work needs it). */
  now(): Date
  /** Counts one attempt by `subject` (an IP, an email) and says whether it is within the rule. */
  hit(rule: RateLimitRule, subject: string): Promise<RateLimitResult>
  /** Like hit, but throws RATE_LIMITED when over the limit. */
  consume(rule: RateLimitRule, subject: string): Promise<void>
  /**
   * Counts one attempt under each (rule, subject) in one statement (the rules must share one
   * window length) and throws RATE_LIMITED when any is over its limit.
   */
  consumeAll(entries: readonly (readonly [RateLimitRule, string])[]): Promise<void>
  /** Reads a bucket without counting. */
  peek(rule: { name: string; windowSeconds: number }, subject: string): Promise<RateLimitState | null>
  /** Forgets every attempt of `subject` under the rule (e.g. after a successful sign-in). */
  clear(rule: { name: string }, subject: string): Promise<void>
  /** Takes back one counted attempt (one that turned out not to be a failure). */
  refund(rule: { name: string }, subject: string): Promise<void>
  /**
   * Counts one attempt under a backoff rule, atomically, unless it comes too soon after the last
   * one; a refused attempt is not counted and says how long to wait.
   */
  attempt(rule: BackoffRule, subject: string): Promise<RateLimitResult>
}

/** Throws RATE_LIMITED for a refused result, with the wait in details. */
export function refuseIfLimited(result: RateLimitResult, name: string): void {
  if (!result.isAllowed) {
    throw new AppError('RATE_LIMITED', `Too many ${name} attempts`, {
      retryAfterSeconds: result.retryAfterSeconds,
    })
  }
}

/**
 * How a fixed-window bucket takes `attempts` more attempts (one unless given), as the upsert's
 * update: a window that opened at or before `windowFloor` starts again at `at` with these
 * attempts, else the count grows by them. `at` and `windowFloor` are timestamptz SQL (values or
 * placeholders). Shared by hit/consumeAll and by statements that count along with other work
 * (features/api-keys counts /v1 requests in their key's lookup), so there is one definition of a
 * window.
 */
export function fixedWindowUpdate(at: SQL, windowFloor: SQL, attempts: SQL = sql`1`) {
  const isExpired = sql`${rateLimitBuckets.windowStart} <= ${windowFloor}`
  return {
    count: sql`case when ${isExpired} then ${attempts} else ${rateLimitBuckets.count} + ${attempts} end`,
    windowStart: sql`case when ${isExpired} then ${at} else ${rateLimitBuckets.windowStart} end`,
    lastHitAt: at,
  }
}

/** What a bucket counted at `at` (fixedWindowUpdate) means under `rule`. */
export function fixedWindowResult(
  row: { count: number; windowStart: Date },
  rule: RateLimitRule,
  at: Date,
): RateLimitResult {
  const windowEndsAt = row.windowStart.getTime() + rule.windowSeconds * 1000
  return {
    isAllowed: row.count <= rule.limit,
    count: row.count,
    retryAfterSeconds: Math.max(1, Math.ceil((windowEndsAt - at.getTime()) / 1000)),
  }
}

/**
 * Fixed-window counters in the database, so every server process shares them.
 * One upsert per attempt: it starts a new window when the old one has passed.
 */
export function createRateLimiter(db: Db, now: () => Date = () => new Date()): RateLimiter {
  /**
   * Counts one attempt under each (rule, subject) in one upsert (the rules share one window
   * length) and answers in the order given. Keys are written in one order, so concurrent
   * statements lock the same rows in the same order.
   */
  async function count(entries: readonly (readonly [RateLimitRule, string])[]): Promise<RateLimitResult[]> {
    const windowSeconds = entries[0]?.[0].windowSeconds
    if (windowSeconds === undefined) return []
    if (entries.some(([rule]) => rule.windowSeconds !== windowSeconds)) {
      throw new Error('rules counted together need one window length')
    }
    const at = now()
    const windowFloor = new Date(at.getTime() - windowSeconds * 1000)
    const keys = entries.map(([rule, subject]) => `${rule.name}:${subject}`)
    const rows = await db
      .insert(rateLimitBuckets)
      .values([...new Set(keys)].sort().map((key) => ({ key, windowStart: at, count: 1, lastHitAt: at })))
      .onConflictDoUpdate({
        target: rateLimitBuckets.key,
        set: fixedWindowUpdate(
          sql`${at.toISOString()}::timestamptz`,
          sql`${windowFloor.toISOString()}::timestamptz`,
        ),
      })
      .returning({
        key: rateLimitBuckets.key,
        count: rateLimitBuckets.count,
        windowStart: rateLimitBuckets.windowStart,
      })
    return entries.map(([rule], i) => {
      const row = rows.find((r) => r.key === keys[i])
      if (!row) throw new Error('rate limit upsert returned no row')
      return fixedWindowResult(row, rule, at)
    })
  }

  async function hit(rule: RateLimitRule, subject: string): Promise<RateLimitResult> {
    const [result] = await count([[rule, subject]])
    if (!result) throw new Error('rate limit upsert returned no row')
    return result
  }

  async function consumeAll(entries: readonly (readonly [RateLimitRule, string])[]): Promise<void> {
    const results = await count(entries)
    results.forEach((result, i) => {
      refuseIfLimited(result, entries[i]?.[0].name ?? 'rate-limited')
    })
  }

  async function peek(
    rule: { name: string; windowSeconds: number },
    subject: string,
  ): Promise<RateLimitState | null> {
    const [row] = await db
      .select({
        count: rateLimitBuckets.count,
        windowStart: rateLimitBuckets.windowStart,
        lastHitAt: rateLimitBuckets.lastHitAt,
      })
      .from(rateLimitBuckets)
      .where(eq(rateLimitBuckets.key, `${rule.name}:${subject}`))
    if (!row || row.count <= 0) return null
    const isExpired = row.windowStart.getTime() + rule.windowSeconds * 1000 <= now().getTime()
    return isExpired ? null : row
  }

  async function attempt(rule: BackoffRule, subject: string): Promise<RateLimitResult> {
    const at = now()
    const atSql = sql`${at.toISOString()}::timestamptz`
    const windowFloor = new Date(at.getTime() - rule.windowSeconds * 1000)
    const isExpired = sql`${rateLimitBuckets.windowStart} <= ${windowFloor.toISOString()}::timestamptz`
    // The wait the bucket's current count asks for, in seconds (see backoffDelaySeconds).
    const delay = sql`case when ${rateLimitBuckets.count} < ${rule.freeAttempts} then 0 else least(${rule.maxDelaySeconds}::float8, power(2::float8, least(${rateLimitBuckets.count} - ${rule.freeAttempts}, 30))) end`
    const [row] = await db
      .insert(rateLimitBuckets)
      .values({ key: `${rule.name}:${subject}`, windowStart: at, count: 1, lastHitAt: at })
      .onConflictDoUpdate({
        target: rateLimitBuckets.key,
        set: {
          count: sql`case when ${isExpired} then 1 else ${rateLimitBuckets.count} + 1 end`,
          windowStart: sql`case when ${isExpired} then ${atSql} else ${rateLimitBuckets.windowStart} end`,
          lastHitAt: at,
        },
        // One statement decides and counts, so attempts arriving together cannot all slip through.
        setWhere: sql`${isExpired} or ${rateLimitBuckets.lastHitAt} + ${delay} * interval '1 second' <= ${atSql}`,
      })
      .returning({ count: rateLimitBuckets.count })
    if (row) return { isAllowed: true, count: row.count, retryAfterSeconds: 0 }
    const state = await peek(rule, subject)
    const count = state?.count ?? 0
    const readyAt = (state?.lastHitAt.getTime() ?? at.getTime()) + backoffDelaySeconds(rule, count) * 1000
    return {
      isAllowed: false,
      count,
      retryAfterSeconds: Math.max(1, Math.ceil((readyAt - at.getTime()) / 1000)),
    }
  }

  return {
    now,
    hit,
    async consume(rule, subject) {
      refuseIfLimited(await hit(rule, subject), rule.name)
    },
    consumeAll,
    peek,
    async clear(rule, subject) {
      await db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, `${rule.name}:${subject}`))
    },
    async refund(rule, subject) {
      await db
        .update(rateLimitBuckets)
        .set({ count: sql`greatest(${rateLimitBuckets.count} - 1, 0)` })
        .where(eq(rateLimitBuckets.key, `${rule.name}:${subject}`))
    },
    attempt,
  }
}
