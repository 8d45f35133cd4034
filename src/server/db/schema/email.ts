import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/**
 * Every email Vitrin sends, written in the same transaction as the change that causes it,
 * then delivered (SMTP) or logged (no SMTP configured).
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    /** What the email is about, e.g. contact_notification; lets tests and support find it. */
    kind: text('kind').notNull(),
    /**
     * pending → sending → sent | logged | failed (→ sending again when a retry is due). `sending`
     * is a delivery under way, held until next_attempt_at (its lease).
     */
    status: text('status', { enum: ['pending', 'sending', 'sent', 'logged', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /**
     * Sending: when its lease ends (the sender is taken to have stopped). Failed: when the retry
     * sweep tries it again; null once the attempts are used up (left for a look by hand).
     */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('email_outbox_status_idx').on(t.status, t.createdAt),
    index('email_outbox_retry_idx').on(t.status, t.nextAttemptAt),
  ],
)

export type EmailOutboxRow = typeof emailOutbox.$inferSelect
