import { sql } from 'drizzle-orm'
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/** A user's plan. At most one is active per user (partial unique index). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: text('plan_id', { enum: ['starter', 'growth', 'pro'] }).notNull(),
    status: text('status', { enum: ['active', 'canceled', 'expired'] }).notNull(),
    /** manual (test billing, no payment) or a payment provider. */
    provider: text('provider', { enum: ['manual', 'stripe'] }).notNull(),
    /** A beta trial from an access code: it ends with its period instead of renewing. */
    isTrial: boolean('is_trial').notNull().default(false),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubId: text('stripe_sub_id'),
    byoApiEnabled: boolean('byo_api_enabled').notNull().default(false),
    autoTopupEnabled: boolean('auto_topup_enabled').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
    canceledAt: timestamp('canceled_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('subscriptions_one_active_per_user').on(t.userId).where(sql`${t.status} = 'active'`),
    index('subscriptions_user_id_idx').on(t.userId),
  ],
)

/** Images and videos counted per user per calendar month (UTC), reservations included. */
export const usageMonthly = pgTable(
  'usage_monthly',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** YYYY-MM */
    period: text('period').notNull(),
    imagesUsed: integer('images_used').notNull().default(0),
    videosUsed: integer('videos_used').notNull().default(0),
  },
  (t) => [uniqueIndex('usage_monthly_user_period').on(t.userId, t.period)],
)

/**
 * One unit of quota held for one generation: reserved when accepted, then committed or
 * released exactly once (the status change is the guard).
 */
export const quotaReservations = pgTable(
  'quota_reservations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    period: text('period').notNull(),
    resource: text('resource', { enum: ['images', 'videos'] }).notNull(),
    status: text('status', { enum: ['reserved', 'committed', 'released'] })
      .notNull()
      .default('reserved'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [index('quota_reservations_user_idx').on(t.userId, t.status)],
)

/** Users' own provider keys, encrypted with AES-256-GCM under a key derived from APP_SECRET. */
export const providerKeys = pgTable(
  'provider_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: ['fal'] }).notNull(),
    /** base64url of iv | ciphertext | auth tag */
    encryptedKey: text('encrypted_key').notNull(),
    /** The last four characters, for the mask shown in settings. */
    last4: text('last4').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('provider_keys_user_provider').on(t.userId, t.provider)],
)

export type SubscriptionRow = typeof subscriptions.$inferSelect
export type UsageMonthlyRow = typeof usageMonthly.$inferSelect
export type QuotaReservationRow = typeof quotaReservations.$inferSelect
export type ProviderKeyRow = typeof providerKeys.$inferSelect
