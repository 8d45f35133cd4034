import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core'
import type { CatalogueField, SavedMapping } from '#shared/catalogue/columns.ts'
import type { ListingValues } from '#shared/catalogue/listing-values.ts'
import type { RowProblem } from '#shared/catalogue/row-problems.ts'
import type { AspectRatio } from '#shared/scenes.ts'
import type { SeoContent } from '#shared/seo.ts'
import { assets } from './assets.ts'
import { users } from './auth.ts'

/** What a batch makes for every product row, chosen before it starts (shared/contracts/catalogue.ts). */
export type BatchOutputsRecord = {
  /** A studio image: a scene prompt (typed or a suggestion's) and the ratio. */
  studio?: { prompt: string; aspectRatio: AspectRatio } | undefined
  /** The garment on a model. */
  fashion?: { aspectRatio: AspectRatio } | undefined
  /** An 8-second video from the row's first image result (or its photo when no image is made). */
  video?: { prompt: string } | undefined
  /** Turkish SEO copy from the row's fields. */
  seo?: boolean | undefined
}

/**
 * A product list imported into the catalogue, and the batch it becomes. `draft`: imported and
 * checked, waiting for the user to choose outputs and start; `running`: its rows' generations
 * are on the queue (quota for all of them reserved when it started); `finished`: every
 * generation settled; `canceled`: the user stopped it (what had not started was given back).
 */
export const catalogueBatches = pgTable(
  'catalogue_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['draft', 'running', 'finished', 'canceled'] })
      .notNull()
      .default('draft'),
    /** The list's file name as uploaded (shown in the batch list; never a path). */
    fileName: text('file_name').notNull(),
    /** The list's header cells, in order (the mapping step shows them). */
    headers: jsonb('headers').$type<string[]>().notNull(),
    /** Field → column index, as confirmed in the mapping step. */
    mapping: jsonb('mapping').$type<Partial<Record<CatalogueField, number>>>().notNull(),
    /** When the photos were checked and stored under the current mapping (null: not yet). */
    photosCheckedAt: timestamp('photos_checked_at', { withTimezone: true }),
    /** How many photos the checked ZIP held (null: no ZIP). */
    zipPhotoCount: integer('zip_photo_count'),
    outputs: jsonb('outputs').$type<BatchOutputsRecord>(),
    /** A marketplace preset id (its export size and columns apply once presets exist). */
    presetId: text('preset_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [index('catalogue_batches_user_idx').on(t.userId, t.createdAt)],
)

/**
 * One line of a product list. Every line is kept with its problems, so the preview can list the
 * bad ones with their line numbers; only rows without problems become products when the batch
 * starts. `input_asset_id` is the row's first photo, stored when the list was imported.
 */
export const catalogueRows = pgTable(
  'catalogue_rows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    batchId: uuid('batch_id')
      .notNull()
      .references(() => catalogueBatches.id, { onDelete: 'cascade' }),
    /** The line in the file where the row starts. */
    line: integer('line').notNull(),
    sku: text('sku').notNull().default(''),
    name: text('name').notNull().default(''),
    /**
     * The listing columns as read under the mapping (barcode, sale and list price in lira, stock,
     * VAT rate, desi); a value that was empty or did not read is absent (the latter is a problem).
     */
    listing: jsonb('listing').$type<ListingValues>().notNull().default({}),
    /** Every cell of the row as text, in the list's column order (the export repeats them). */
    cells: jsonb('cells').$type<string[]>().notNull(),
    /** XLSX hyperlink cells: column index → the address the link points to. */
    links: jsonb('links').$type<Record<string, string>>().notNull().default({}),
    /** Columns whose cell was longer than the field limit (the cell is kept cut). */
    tooLong: jsonb('too_long').$type<number[]>().notNull().default([]),
    /** The photo names or addresses the row gives, in order. */
    imageRefs: jsonb('image_refs').$type<string[]>().notNull().default([]),
    problems: jsonb('problems').$type<RowProblem[]>().notNull().default([]),
    inputAssetId: uuid('input_asset_id').references(() => assets.id, { onDelete: 'set null' }),
    /**
     * The seller's own copy for the product, edited in the batch page's review (null: the
     * generated copy stands). The export and publishing use it instead of the generated copy.
     */
    copyEdit: jsonb('copy_edit').$type<SeoContent>(),
    /** Results (generation ids) the seller left out of the export in the review. */
    excludedResults: jsonb('excluded_results').$type<string[]>().notNull().default([]),
  },
  // The unique index also serves reading a batch's rows in line order.
  (t) => [unique('catalogue_rows_batch_line_unique').on(t.batchId, t.line)],
)

/** The mapping a user confirmed last, by header name, to start the next import from. */
export const catalogueMappings = pgTable('catalogue_mappings', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  mapping: jsonb('mapping').$type<SavedMapping>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
})

export type CatalogueBatchRow = typeof catalogueBatches.$inferSelect
export type CatalogueRowRow = typeof catalogueRows.$inferSelect
export type CatalogueMappingRow = typeof catalogueMappings.$inferSelect

/** Rows that can become products: no problem found in them. */
export const isProductRow = sql`jsonb_array_length(${catalogueRows.problems}) = 0`
