import { Hono } from 'hono'
import type { Db } from '#server/db/client.ts'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import type { UsageResponse } from '#shared/contracts/billing.ts'
import { getUsage } from './usage.service.ts'

/** GET /api/usage: the billing period's usage, quotas and credits, for meters and alerts. */
export function usageRoutes(deps: { db: Db; now: () => Date }) {
  return new Hono<AppEnv>().get('/', requireUser, async (c) => {
    c.header('Cache-Control', 'no-store')
    return c.json<UsageResponse>(await getUsage(deps.db, currentUser(c).id, deps.now()))
  })
}
