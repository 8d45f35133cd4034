import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import type { ImageFacts } from '#shared/marketplaces/facts.ts'
import { assets } from './assets.ts'
import { users } from './auth.ts'

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
