import { sql } from 'drizzle-orm'
import { AppError } from '../../shared/errors.ts'
import type { Db } from '../db/client.ts'
import { rateLimitBuckets } from '../db/schema/index.ts'

export type RateLimitRule = {
  /** What is limited, e.g. "contact"; part of the bucket key. */
  name: string
  limit: number
  windowSeconds: number
}

export type RateLimitResult = { isAllowed: boolean; count: number; retryAfterSeconds: number }

export interface RateLimiter {
  /** Counts one attempt by `subject` (an IP, an email) and says whether it is within the rule. */
  hit(rule: RateLimitRule, subject: string): Promise<RateLimitResult>
  /** Like hit, but throws RATE_LIMITED when over the limit. */
  consume(rule: RateLimitRule, subject: string): Promise<void>
}

/**
 * Fixed-window counters in the database, so every server process shares them.
 * One upsert per attempt: it starts a new window when the old one has passed.
 */
export function createRateLimiter(db: Db, now: () => Date = () => new Date()): RateLimiter {
  async function hit(rule: RateLimitRule, subject: string): Promise<RateLimitResult> {
    const at = now()
    const windowFloor = new Date(at.getTime() - rule.windowSeconds * 1000)
    const isExpired = sql`${rateLimitBuckets.windowStart} <= ${windowFloor.toISOString()}::timestamptz`
    const [row] = await db
      .insert(rateLimitBuckets)
      .values({ key: `${rule.name}:${subject}`, windowStart: at, count: 1, lastHitAt: at })
      .onConflictDoUpdate({
        target: rateLimitBuckets.key,
        set: {
          count: sql`case when ${isExpired} then 1 else ${rateLimitBuckets.count} + 1 end`,
          windowStart: sql`case when ${isExpired} then ${at.toISOString()}::timestamptz else ${rateLimitBuckets.windowStart} end`,
          lastHitAt: at,
        },
      })
      .returning({ count: rateLimitBuckets.count, windowStart: rateLimitBuckets.windowStart })
    if (!row) throw new Error('rate limit upsert returned no row')
    const windowEndsAt = row.windowStart.getTime() + rule.windowSeconds * 1000
    return {
      isAllowed: row.count <= rule.limit,
      count: row.count,
      retryAfterSeconds: Math.max(1, Math.ceil((windowEndsAt - at.getTime()) / 1000)),
    }
  }

  return {
    hit,
    async consume(rule, subject) {
      const result = await hit(rule, subject)
      if (!result.isAllowed) {
        throw new AppError('RATE_LIMITED', `Too many ${rule.name} attempts`, {
          retryAfterSeconds: result.retryAfterSeconds,
        })
      }
    },
  }
}
