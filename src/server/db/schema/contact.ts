import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'

/** Messages sent through the public contact form. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    company: text('company').notNull().default(''),
    phone: text('phone').notNull().default(''),
    inquiryType: text('inquiry_type').notNull(),
    message: text('message').notNull(),
    locale: text('locale').notNull(),
    clientIp: text('client_ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_messages_created_at_idx').on(t.createdAt)],
)

export type ContactMessageRow = typeof contactMessages.$inferSelect
