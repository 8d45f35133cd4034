import { sql } from 'drizzle-orm'
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import type { MarketplaceAttribute, MarketplaceCategory } from '#shared/contracts/publishing.ts'
import { assets } from './assets.ts'
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

/**
 * A seller's image rendered once in a marketplace's size and served at a public address the
 * marketplace fetches (issue 30): `PUBLIC_URL/media/<token>.jpg`, or the bucket's public URL of
 * `storage_key` with S3_PUBLIC_URL. The token is the only secret in the address. Revoking keeps
 * the row (so the address is never reused) and removes the stored file. At most one live row per
 * asset and marketplace, so publishing again gives the same address.
 */
export const publishedMedia = pgTable(
  'published_media',
  {
    /** 192 random bits, base64url (32 characters): the address's only secret. */
    token: text('token').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * The image it was rendered from; null once that is deleted, which stops serving it at once
     * and leaves the row for the sweep to revoke and its file to be removed (sweepOrphanedMedia).
     */
    assetId: uuid('asset_id').references(() => assets.id, { onDelete: 'set null' }),
    /** The marketplace profile it was rendered for (a MarketplaceId, e.g. trendyol). */
    profile: text('profile').notNull(),
    /** The rendered file in object storage: `published/<token>.jpg`, outside any user's folder. */
    storageKey: text('storage_key').notNull().unique(),
    mime: text('mime').notNull(),
    /** Size in bytes. */
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** SHA-256 of the rendered bytes, hex: the ETag. */
    checksum: text('checksum').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('published_media_live_asset_profile')
      .on(t.assetId, t.profile)
      .where(sql`${t.revokedAt} is null`),
    index('published_media_user_idx').on(t.userId),
  ],
)

export type PublishedMediaRow = typeof publishedMedia.$inferSelect
