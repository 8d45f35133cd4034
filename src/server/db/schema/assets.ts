import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { users } from './auth.ts'

/** Files we keep: uploads and results, each owned by one user. Bytes live in object storage. */
export const assets = pgTable(
  'assets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['upload', 'result'] }).notNull(),
    mime: text('mime').notNull(),
    /** Size in bytes. */
    bytes: integer('bytes').notNull(),
    width: integer('width'),
    height: integer('height'),
    storageKey: text('storage_key').notNull().unique(),
    /** SHA-256 of the stored bytes, hex. */
    checksum: text('checksum').notNull(),
    /** The name a download gets. */
    fileName: text('file_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('assets_user_idx').on(t.userId, t.createdAt)],
)
