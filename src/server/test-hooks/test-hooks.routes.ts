import { desc, eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod'
import type { Db } from '#server/db/client.ts'
import { contactMessages, emailOutbox } from '#server/db/schema/index.ts'
import { setPeriodUsage } from '#server/features/quota/usage.service.ts'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import type { OkResponse } from '#shared/contracts/common.ts'

const usageSchema = z.object({ imagesUsed: z.number().int().min(0), videosUsed: z.number().int().min(0) })

/**
 * Views and set-up for end-to-end tests, which cannot open the embedded database while the
 * server holds it. Mounted only with ENABLE_TEST_HOOKS, which the config refuses in production.
 */
export function testHookRoutes(deps: { db: Db; now: () => Date }) {
  return (
    new Hono<AppEnv>()
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
      // Puts the signed-in user's usage in the current period at given numbers (quota alert tests).
      .put('/usage', requireUser, validate('json', usageSchema), async (c) => {
        await setPeriodUsage(deps.db, currentUser(c).id, deps.now(), c.req.valid('json'))
        return c.json<OkResponse>({ ok: true })
      })
  )
}
