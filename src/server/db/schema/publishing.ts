import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/**
 * A seller's connection to a marketplace's seller API (issue 30): the account there (Trendyol's
 * seller ID, Hepsiburada's merchant ID) and its secret (Trendyol's API key and secret,
 * Hepsiburada's service key), sealed like a provider key. Saved only once the marketplace has
 * accepted them; one per marketplace per user.
 */
export const marketplaceConnections = pgTable(
  'marketplace_connections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    marketplace: text('marketplace', { enum: ['trendyol', 'hepsiburada'] }).notNull(),
    /** The seller's account at the marketplace, shown in settings (not a secret). */
    accountId: text('account_id').notNull(),
    /** base64url of iv | ciphertext | auth tag, of the secret parts as JSON. */
    encryptedSecret: text('encrypted_secret').notNull(),
    /** The last four characters of the secret, for the mask shown in settings. */
    last4: text('last4').notNull(),
    /** When the marketplace last accepted the credentials. */
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('marketplace_connections_user_marketplace').on(t.userId, t.marketplace)],
)

export type MarketplaceConnectionRow = typeof marketplaceConnections.$inferSelect
