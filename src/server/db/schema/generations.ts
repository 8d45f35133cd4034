import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { aspectRatios, viewChoices } from '#shared/scenes.ts'
import type { ProductDetails } from '#shared/seo.ts'
import { assets } from './assets.ts'
import { users } from './auth.ts'
import { quotaReservations } from './billing.ts'
import { catalogueRows } from './catalogue.ts'

export type GenerationResultRecord =
  | {
      type: 'image'
      assetId: string
      description: string | null
      promptUsed: string
      provider: string
      /** Asked to keep the product: whether it was laid back over the scene (see keepProduct). */
      productKept?: boolean
    }
  | { type: 'video'; assetId: string; posterAssetId: string; promptUsed: string; provider: string }
  | {
      type: 'seo'
      title: string
      description: string
      features: string[]
      keywords: string[]
      model: string
      provider: string
      /** The colour the copy took from the photo because the seller gave none (a guess to check). */
      colourFromPhoto?: string
    }

/**
 * One request to generate something, and its job: the worker claims queued rows (and running
 * rows whose lease ran out) with SKIP LOCKED, so any number of workers share the queue.
 */
export const generations = pgTable(
  'generations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tool: text('tool', { enum: ['product', 'fashion'] }).notNull(),
    mode: text('mode', { enum: ['image', 'video', 'seo'] }).notNull(),
    aspectRatio: text('aspect_ratio', { enum: aspectRatios }).notNull(),
    prompt: text('prompt').notNull().default(''),
    /** Product details the seller gave (SEO context): facts the copy keeps unchanged. */
    context: jsonb('context').$type<ProductDetails>().notNull().default({}),
    inputAssetId: uuid('input_asset_id').references(() => assets.id, { onDelete: 'set null' }),
    referenceAssetId: uuid('reference_asset_id').references(() => assets.id, { onDelete: 'set null' }),
    /**
     * "Keep my product exactly": the original product pixels (from the separation mask) are laid
     * back over the generated scene, so the edit never alters the item being sold.
     */
    keepProduct: boolean('keep_product').notNull().default(false),
    /**
     * Product scenes: the view the seller asked for, or `auto` for the one that matches the
     * photo's own camera (decision 42). Other tools and modes keep `auto` and ignore it.
     */
    view: text('view', { enum: viewChoices }).notNull().default('auto'),
    /**
     * For a video made from an image result: that image's generation. A catalogue batch queues
     * the video before its image is made: the job waits until the image has succeeded, takes its
     * result as input, and is canceled (its quota given back) when the image fails.
     */
    sourceGenerationId: uuid('source_generation_id'),
    /** The catalogue row this job makes an output for; batch jobs run at the user's fair share. */
    batchRowId: uuid('batch_row_id').references(() => catalogueRows.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed', 'canceled'] })
      .notNull()
      .default('queued'),
    result: jsonb('result').$type<GenerationResultRecord>(),
    errorCode: text('error_code'),
    provider: text('provider').notNull(),
    providerRequestId: text('provider_request_id'),
    /** The provider's queue position while waiting there, when it tells us. */
    queuePosition: integer('queue_position'),
    quotaReservationId: uuid('quota_reservation_id').references(() => quotaReservations.id),
    /** Uses the user's own provider key (then no quota is held). */
    usesOwnKey: boolean('uses_own_key').notNull().default(false),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    savedAt: timestamp('saved_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [
    index('generations_user_created_idx').on(t.userId, t.createdAt),
    index('generations_queue_idx')
      .on(t.runAfter, t.createdAt)
      .where(sql`${t.status} in ('queued', 'running')`),
    // The fair claim counts each user's running and queued jobs.
    index('generations_batch_row_idx').on(t.batchRowId).where(sql`${t.batchRowId} is not null`),
    index('generations_user_active_idx')
      .on(t.userId, t.status)
      .where(sql`${t.status} in ('queued', 'running')`),
  ],
)

export type AssetRow = typeof assets.$inferSelect
export type GenerationRow = typeof generations.$inferSelect
/** A generations row as inserted or updated (defaults and nullable columns optional). */
export type NewGenerationRow = typeof generations.$inferInsert
