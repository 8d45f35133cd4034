import { desc, eq } from 'drizzle-orm'
import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import { contactMessages, emailOutbox } from '../../db/schema/index.ts'
import type { AppEnv } from '../../http/context.ts'

/**
 * Read-only views for end-to-end tests, which cannot open the embedded database while the
 * server holds it. Mounted only with ENABLE_TEST_HOOKS, which the config refuses in production.
 */
export function testHookRoutes(deps: { db: Db }) {
  return new Hono<AppEnv>()
    .get('/contact-messages', async (c) => {
      const email = c.req.query('email')
      const rows = await deps.db
        .select()
        .from(contactMessages)
        .where(email ? eq(contactMessages.email, email) : undefined)
        .orderBy(desc(contactMessages.createdAt))
        .limit(50)
      return c.json({ messages: rows })
    })
    .get('/outbox', async (c) => {
      const to = c.req.query('to')
      const rows = await deps.db
        .select()
        .from(emailOutbox)
        .where(to ? eq(emailOutbox.toAddress, to) : undefined)
        .orderBy(desc(emailOutbox.createdAt))
        .limit(50)
      return c.json({ emails: rows })
    })
}
