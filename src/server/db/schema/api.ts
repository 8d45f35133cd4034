import { sql } from 'drizzle-orm'
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/**
 * A key for the public API (/v1), Pro plan. The key itself is shown once, when it is made; only
 * its SHA-256 is kept (keys are long random strings, so a plain hash cannot be guessed back), with
 * the first characters shown in Settings to tell keys apart. Revoking sets revoked_at: the key
 * stops working at once and stays listed for the record.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The key's first characters (`vtr_` and a few more), shown in lists. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key, hex. */
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId).where(sql`${t.revokedAt} is null`)],
)

export type ApiKeyRow = typeof apiKeys.$inferSelect
