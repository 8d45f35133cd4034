import { sql } from 'drizzle-orm'
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/**
 * A key for the public API (/v1), Pro plan. The key itself is shown once, when it is made; only
 * its SHA-256 is kept (keys are long random strings, so a plain hash cannot be guessed back), with
 * the first characters shown in Settings to tell keys apart. Revoking sets revoked_at: the key
 * stops working at once and stays listed for the record.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The key's first characters (`vtr_` and a few more), shown in lists. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key, hex. */
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId).where(sql`${t.revokedAt} is null`)],
)

export type ApiKeyRow = typeof apiKeys.$inferSelect

/**
 * A POST to /v1 with an `Idempotency-Key`, per account: the first request's fingerprint (method,
 * path and a hash of its body) and, once it has answered, its status and JSON body. The same key
 * with the same request within 24 hours gets that answer again and creates nothing; with another
 * request it is refused. A row whose request is still running makes a duplicate wait or refuse.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** `METHOD path` and the SHA-256 of the body, hex: what "the same request" means. */
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: ['running', 'done'] })
      .notNull()
      .default('running'),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_user_key_idx').on(t.userId, t.key),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
)

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect

export const webhookEventTypes = [
  'generation.succeeded',
  'generation.failed',
  'batch.completed',
  'publication.succeeded',
  'publication.failed',
] as const
export type WebhookEventType = (typeof webhookEventTypes)[number]

/**
 * Where an account wants to be told of its events. The signing secret is kept encrypted under
 * APP_SECRET (like users' own provider keys), since every delivery needs it in the clear.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    /** The events sent to it (a subset of webhookEventTypes). */
    events: jsonb('events').$type<WebhookEventType[]>().notNull(),
    encryptedSecret: text('encrypted_secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId)],
)

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect

/**
 * One event for one endpoint, and its delivery: a queue of its own, claimed like generations
 * (lease, attempts, backoff), tried until it is answered 2xx or `give_up_at` (24 hours after it
 * was made) has passed, then `failed`. A resend is a new row with the same event id and payload.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The event's own id (the same in a resend), so a receiver can drop duplicates. */
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').$type<WebhookEventType>().notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    giveUpAt: timestamp('give_up_at', { withTimezone: true }).notNull(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** The receiver's HTTP status on the last attempt; null when it did not answer. */
    responseStatus: integer('response_status'),
    /** Why the last attempt failed, in a few words (timeout, refused address, status). */
    lastError: text('last_error'),
    lockedBy: text('locked_by'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
  ],
)

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect
