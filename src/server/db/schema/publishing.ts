import { jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import type { MarketplaceAttribute, MarketplaceCategory } from '#shared/contracts/publishing.ts'
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

/** A category as kept in the taxonomy cache: MarketplaceCategory without the marketplace (the row's). */
export type CachedMarketplaceCategory = Omit<MarketplaceCategory, 'marketplace'>

/**
 * A marketplace's category list as Vitrin last read it, normalised (each category with its path
 * of names): the same for every seller, so one row per marketplace, read with whichever
 * connected seller asked. Read again once older than the taxonomy's age limit, or on a refresh.
 */
export const marketplaceCategoryLists = pgTable('marketplace_category_lists', {
  marketplace: text('marketplace', { enum: ['trendyol', 'hepsiburada'] }).primaryKey(),
  categories: jsonb('categories').$type<CachedMarketplaceCategory[]>().notNull(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
})

/**
 * One category's attributes with their allowed values, read on demand (never the whole tree's:
 * Trendyol has thousands of categories and one request per attribute for the values).
 */
export const marketplaceCategoryAttributes = pgTable(
  'marketplace_category_attributes',
  {
    marketplace: text('marketplace', { enum: ['trendyol', 'hepsiburada'] }).notNull(),
    /** The marketplace's category id, as text. */
    categoryId: text('category_id').notNull(),
    attributes: jsonb('attributes').$type<MarketplaceAttribute[]>().notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.marketplace, t.categoryId] })],
)
