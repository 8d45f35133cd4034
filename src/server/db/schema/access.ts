import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/** Beta access codes: 6 upper-case letters or digits. */
export const accessCodes = pgTable('access_codes', {
  code: text('code').primaryKey(),
  /** Where it came from: env (ACCESS_CODES), cli, or bootstrap (made on first start). */
  source: text('source', { enum: ['env', 'cli', 'bootstrap'] }).notNull(),
  note: text('note'),
  redemptionCount: integer('redemption_count').notNull().default(0),
  /** How many beta accounts the code may make; null means no cap. */
  maxRedemptions: integer('max_redemptions'),
  /** After this moment the code is refused; null means it does not expire. */
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
})

/** Each time a code let a browser in, and the beta account it made. */
export const accessCodeRedemptions = pgTable(
  'access_code_redemptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code')
      .notNull()
      .references(() => accessCodes.code),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientIp: text('client_ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('access_code_redemptions_code_idx').on(t.code),
    index('access_code_redemptions_client_idx').on(t.clientIp, t.createdAt),
  ],
)

export type AccessCodeRow = typeof accessCodes.$inferSelect
export type AccessCodeRedemptionRow = typeof accessCodeRedemptions.$inferSelect
