import { Hono, type MiddlewareHandler } from 'hono'
import type { Db } from '#server/db/client.ts'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import { type BillingResponse, choosePlanRequestSchema } from '#shared/contracts/billing.ts'
import { AppError } from '#shared/errors.ts'
import type { BillingProvider } from './billing-provider.ts'
import { getLatestSubscription, presentSubscription } from './subscription.service.ts'

export type BillingDeps = { db: Db; billing: BillingProvider; now: () => Date }

async function billingView(deps: BillingDeps, userId: string): Promise<BillingResponse> {
  const subscription = await getLatestSubscription(deps.db, userId, deps.now())
  return {
    provider: deps.billing.kind,
    hasCustomerPortal: deps.billing.hasCustomerPortal,
    canChangePlan: deps.billing.canUsersChangePlan,
    subscription: subscription ? presentSubscription(subscription) : null,
  }
}

/** Refuses plan changes by users when the operator sets plans (manual billing in production). */
function requireSelfService(deps: BillingDeps): MiddlewareHandler<AppEnv> {
  return async (_c, next) => {
    if (!deps.billing.canUsersChangePlan) {
      throw new AppError('BILLING_MANAGED_BY_OPERATOR', 'Plans are set by the operator')
    }
    await next()
  }
}

export function billingRoutes(deps: BillingDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .use('/subscription', requireSelfService(deps))
    .get('/', async (c) => c.json(await billingView(deps, currentUser(c).id)))
    .post('/subscription', validate('json', choosePlanRequestSchema), async (c) => {
      const userId = currentUser(c).id
      await deps.billing.changePlan(userId, c.req.valid('json').planId, deps.now())
      return c.json(await billingView(deps, userId))
    })
    .delete('/subscription', async (c) => {
      const userId = currentUser(c).id
      await deps.billing.cancel(userId, deps.now())
      return c.json(await billingView(deps, userId))
    })
}
