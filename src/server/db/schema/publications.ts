import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'
import { catalogueBatches } from './catalogue.ts'

/**
 * One request of listings to one marketplace (issue 30): Trendyol's createProducts batch or
 * Hepsiburada's import, followed until every product in it is live, rejected or failed. Worked on
 * by the publisher in worker processes, one holder at a time (a lease), when `due_at` has come.
 *
 * - `queued`: built, waiting to be sent.
 * - `sending`: a holder is sending it. Found so with its lease run out, the request may have
 *   reached the marketplace: the next send updates the products it already has (by barcode)
 *   instead of creating them twice.
 * - `processing`: the marketplace took the request (each item's `remote_id`); the per-product
 *   outcome is read.
 * - `reviewing`: every product was accepted; the marketplace's review is read until each is live
 *   or rejected.
 * - `done`: every product is final. `failed`: the request itself was refused for good (the
 *   connection's keys, say); `error_code` says why.
 */
export const publications = pgTable(
  'publications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    marketplace: text('marketplace', { enum: ['trendyol', 'hepsiburada'] }).notNull(),
    status: text('status', {
      enum: ['queued', 'sending', 'processing', 'reviewing', 'done', 'failed'],
    }).notNull(),
    /** Sends started (a send that was cut off counts). */
    attempts: integer('attempts').notNull().default(0),
    /** When the publisher should next look at it (a send, a retry, the next status read). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    errorCode: text('error_code'),
    /** The catalogue batch it was published from, when it was. */
    catalogueBatchId: uuid('catalogue_batch_id').references(() => catalogueBatches.id, {
      onDelete: 'set null',
    }),
    /** The publication whose refused products this one sends again (Fix and resubmit). */
    resubmitOf: uuid('resubmit_of'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('publications_due').on(t.status, t.dueAt),
    index('publications_user').on(t.userId, t.createdAt),
  ],
)

export type PublicationRow = typeof publications.$inferSelect

/**
 * One product of a publication: the listing as Vitrin built it, the item sent (exactly what the
 * marketplace got), and where it stands there with the marketplace's own reasons.
 *
 * - `blocked`: the listing had problems before anything was sent (`problems`); not sent.
 * - `queued` → `sent` (in the marketplace's request) → `pending` (accepted, under review) →
 *   `live`; or `rejected` (refused by the import or the review, `reasons`), or `failed` (the
 *   request failed for good).
 */
export const publicationItems = pgTable(
  'publication_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    publicationId: uuid('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    barcode: text('barcode').notNull(),
    /** The key the marketplace answers this product by: Trendyol's barcode, Hepsiburada's merchantSku. */
    productKey: text('product_key').notNull(),
    /** The request that carried it (Trendyol's batchRequestId, Hepsiburada's trackingId). */
    remoteId: text('remote_id'),
    /** Its storefront address, once live, where the marketplace gives one. */
    productUrl: text('product_url'),
    status: text('status', {
      enum: ['blocked', 'queued', 'sent', 'pending', 'live', 'rejected', 'failed'],
    }).notNull(),
    /** The marketplace-neutral listing (features/publishing/listing.ts Listing). */
    listing: jsonb('listing').notNull(),
    /** The request item built from it; null while blocked. */
    item: jsonb('item'),
    /** The listing's own problems (ListingProblem[]), when blocked. */
    problems: jsonb('problems').notNull().default([]),
    /** The marketplace's reasons, as it wrote them, for a rejection or failure. */
    reasons: jsonb('reasons').notNull().default([]),
    /** Where the listing came from: a studio result, or a catalogue batch's row. */
    generationId: uuid('generation_id'),
    catalogueRowId: uuid('catalogue_row_id'),
    /**
     * The product's video where the marketplace takes it by a service of its own once the product
     * is approved (Trendyol's video service): `queued` when the product went live with a video to
     * send, `processing` once created (its id in videoRemoteId), then `live` or `failed` with the
     * marketplace's words in videoReasons. Null without one, or where the video went in the item.
     */
    videoStatus: text('video_status', { enum: ['queued', 'processing', 'live', 'failed'] }),
    videoRemoteId: text('video_remote_id'),
    videoReasons: jsonb('video_reasons').notNull().default([]),
    /** The marketplace's id of the approved product (Trendyol's contentId), which its video names. */
    contentId: text('content_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('publication_items_publication').on(t.publicationId),
    index('publication_items_barcode').on(t.userId, t.barcode),
  ],
)

export type PublicationItemRow = typeof publicationItems.$inferSelect
