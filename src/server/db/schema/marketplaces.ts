import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import type { ImageFacts } from '#shared/marketplaces/facts.ts'
import { assets } from './assets.ts'
import { users } from './auth.ts'
import { generations } from './generations.ts'

/**
 * What the pre-publish checker measured of an image file, once: the separation model is the slow
 * part of a check, and a file never changes, so its facts are kept with it (and go with it).
 */
export const imageFacts = pgTable('image_facts', {
  assetId: uuid('asset_id')
    .primaryKey()
    .references(() => assets.id, { onDelete: 'cascade' }),
  facts: jsonb('facts').$type<ImageFacts>().notNull(),
  measuredAt: timestamp('measured_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * The facts measurer's claims (jobs/facts-measurer.ts): a worker process takes a new image result
 * here before measuring it, so two processes do not measure the same file. A claim past `until`
 * (its process stopped, or the measurement failed and waits to be tried again) can be taken
 * again; the row is deleted once the facts are stored.
 */
export const imageFactsClaims = pgTable('image_facts_claims', {
  assetId: uuid('asset_id')
    .primaryKey()
    .references(() => assets.id, { onDelete: 'cascade' }),
  generationId: uuid('generation_id')
    .notNull()
    .references(() => generations.id, { onDelete: 'cascade' }),
  claimedBy: text('claimed_by').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
  /** Measurements started on this file; past the measurer's limit it is left to its first check. */
  attempts: integer('attempts').notNull().default(1),
})

/** A user's preferences that belong to no plan: the marketplace profile the panels start with. */
export const userPreferences = pgTable('user_preferences', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  marketplaceProfile: text('marketplace_profile'),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
})

export type ImageFactsRow = typeof imageFacts.$inferSelect
export type UserPreferencesRow = typeof userPreferences.$inferSelect
