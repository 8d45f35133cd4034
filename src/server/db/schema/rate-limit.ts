import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/** Fixed-window counters shared by every server process, keyed by purpose and client. */
export const rateLimitBuckets = pgTable('rate_limit_buckets', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
  /** When the last attempt was counted; growing delays (sign-in failures) are measured from it. */
  lastHitAt: timestamp('last_hit_at', { withTimezone: true }).notNull().defaultNow(),
})

export type RateLimitBucketRow = typeof rateLimitBuckets.$inferSelect
