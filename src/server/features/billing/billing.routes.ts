import { Hono } from 'hono'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import { type BillingResponse, choosePlanRequestSchema } from '#shared/contracts/billing.ts'
import {
  type BillingDeps,
  cancelPlan,
  choosePlan,
  ensureUsersMayChangePlan,
  getBillingView,
} from './billing.service.ts'

export function billingRoutes(deps: BillingDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .use('/subscription', async (_c, next) => {
      ensureUsersMayChangePlan(deps)
      await next()
    })
    .get('/', async (c) => c.json<BillingResponse>(await getBillingView(deps, currentUser(c).id)))
    .post('/subscription', validate('json', choosePlanRequestSchema), async (c) =>
      c.json<BillingResponse>(await choosePlan(deps, currentUser(c).id, c.req.valid('json').planId)),
    )
    .delete('/subscription', async (c) => c.json<BillingResponse>(await cancelPlan(deps, currentUser(c).id)))
}
