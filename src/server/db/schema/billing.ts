import { sql } from 'drizzle-orm'
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { subscriptionStatuses } from '#shared/contracts/billing.ts'
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
    /** past_due: the provider could not take the renewal payment; the plan still works while it retries. */
    status: text('status', { enum: subscriptionStatuses }).notNull(),
    /** manual (test billing, no payment) or a payment provider. */
    provider: text('provider', { enum: ['manual', 'stripe'] }).notNull(),
    /** A beta trial from an access code: it ends with its period instead of renewing. */
    isTrial: boolean('is_trial').notNull().default(false),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubId: text('stripe_sub_id'),
    /** The plan ends at current_period_end instead of renewing (can be undone before then). */
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** A downgrade waiting for the end of the period. */
    scheduledPlanId: text('scheduled_plan_id', { enum: ['starter', 'growth', 'pro'] }),
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
    uniqueIndex('subscriptions_one_active_per_user')
      .on(t.userId)
      .where(sql`${t.status} in ('active', 'past_due')`),
    index('subscriptions_user_id_idx').on(t.userId),
    uniqueIndex('subscriptions_stripe_sub_id').on(t.stripeSubId),
  ],
)

/**
 * Images and videos counted per user per quota period, reservations included. `period` names the
 * period (see features/quota/quota.service.ts); the table keeps its first name.
 */
export const usageMonthly = pgTable(
  'usage_monthly',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
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
    /** Where the unit came from: the period's plan quota, or bought credits. A release gives it back there. */
    source: text('source', { enum: ['plan', 'credit'] })
      .notNull()
      .default('plan'),
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

/** A user's billing identity at the payment provider, and their auto top-up limit. */
export const billingCustomers = pgTable('billing_customers', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['stripe'] }).notNull(),
  customerId: text('customer_id').notNull().unique(),
  /** At most this many auto top-up packs per calendar month (1–10). */
  autoTopupMonthlyCap: integer('auto_topup_monthly_cap').notNull().default(3),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Bought images and videos not used yet: spent after the period's plan quota, never expiring. */
export const creditBalances = pgTable('credit_balances', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  images: integer('images').notNull().default(0),
  videos: integer('videos').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * Every grant of credits, once per payment: the unique payment reference is the guard that a
 * payment delivered twice (webhook duplicates, a retried auto top-up) credits once.
 */
export const creditGrants = pgTable(
  'credit_grants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    packId: text('pack_id').notNull(),
    resource: text('resource', { enum: ['images', 'videos'] }).notNull(),
    amount: integer('amount').notNull(),
    origin: text('origin', { enum: ['checkout', 'auto_topup', 'operator'] }).notNull(),
    /** The provider's payment (PaymentIntent id), unique; null for an operator's grant. */
    paymentRef: text('payment_ref').unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('credit_grants_user_idx').on(t.userId)],
)

/**
 * Off-session charges for auto top-up. `shortage_key` (user, resource, period and the count of
 * packs already charged) is unique, so simultaneous generations hitting one shortage make one
 * charge; it is also the provider's idempotency key.
 */
export const autoTopupCharges = pgTable(
  'auto_topup_charges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    packId: text('pack_id').notNull(),
    shortageKey: text('shortage_key').notNull().unique(),
    /** YYYY-MM (UTC): the monthly cap counts charges per calendar month. */
    month: text('month').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] }).notNull(),
    paymentRef: text('payment_ref'),
    /** Why it failed, as an error code (e.g. PAYMENT_DECLINED), never the provider's text. */
    errorCode: text('error_code'),
    /** When the charge was last claimed: a request taking over a stale claim renews it. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [index('auto_topup_charges_user_month_idx').on(t.userId, t.month)],
)

/**
 * Payment-provider webhook events already applied, recorded in the same transaction as their
 * effects: a duplicate delivery finds its id and changes nothing.
 */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  provider: text('provider', { enum: ['stripe'] }).notNull(),
  type: text('type').notNull(),
  /** What the event touched, for support (user id, object id); never card data. */
  summary: jsonb('summary'),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
})

export type SubscriptionRow = typeof subscriptions.$inferSelect
export type UsageMonthlyRow = typeof usageMonthly.$inferSelect
export type QuotaReservationRow = typeof quotaReservations.$inferSelect
export type ProviderKeyRow = typeof providerKeys.$inferSelect
export type BillingCustomerRow = typeof billingCustomers.$inferSelect
export type CreditBalanceRow = typeof creditBalances.$inferSelect
export type CreditGrantRow = typeof creditGrants.$inferSelect
export type AutoTopupChargeRow = typeof autoTopupCharges.$inferSelect
export type BillingEventRow = typeof billingEvents.$inferSelect
