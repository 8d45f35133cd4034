import { Hono } from 'hono'
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '#server/http/context.ts'
import { requestContext } from '#server/http/request-context.ts'
import { currentUser, requireEmailAccount, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import {
  type BillingRedirectResponse,
  type BillingResponse,
  type CheckoutStatusResponse,
  choosePlanRequestSchema,
  topUpRequestSchema,
} from '#shared/contracts/billing.ts'
import { AppError } from '#shared/errors.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import {
  type BillingDeps,
  cancelPlan,
  choosePlan,
  ensureUsersMayChangePlan,
  getBillingView,
  getCheckoutStatus,
  openCustomerPortal,
  resumePlan,
  startPlanCheckout,
  startTopUpCheckout,
} from './billing.service.ts'
import { handleBillingWebhook } from './billing-webhook.service.ts'

/** The language the user reads Vitrin in (X-Vitrin-Locale), for the provider's hosted pages. */
/** A payment needs an account that can sign in again: a beta account adds an email first. */
const requireEmailForPayment = createMiddleware<AppEnv>(async (c, next) => {
  requireEmailAccount(currentUser(c))
  await next()
})

function locale(): Locale {
  return requestContext.getStore()?.locale ?? 'en'
}

export function billingRoutes(deps: BillingDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .use('/subscription/*', async (_c, next) => {
      ensureUsersMayChangePlan(deps)
      await next()
    })
    .get('/', async (c) => c.json<BillingResponse>(await getBillingView(deps, currentUser(c).id)))
    .post('/subscription', validate('json', choosePlanRequestSchema), async (c) =>
      c.json<BillingResponse>(await choosePlan(deps, currentUser(c).id, c.req.valid('json').planId)),
    )
    .delete('/subscription', async (c) => c.json<BillingResponse>(await cancelPlan(deps, currentUser(c).id)))
    .post('/subscription/resume', async (c) =>
      c.json<BillingResponse>(await resumePlan(deps, currentUser(c).id)),
    )
    .post('/checkout', requireEmailForPayment, validate('json', choosePlanRequestSchema), async (c) =>
      c.json<BillingRedirectResponse>(
        await startPlanCheckout(deps, {
          userId: currentUser(c).id,
          locale: locale(),
          planId: c.req.valid('json').planId,
        }),
      ),
    )
    .get('/checkout/:sessionId', async (c) =>
      c.json<CheckoutStatusResponse>(
        await getCheckoutStatus(deps, currentUser(c).id, c.req.param('sessionId')),
      ),
    )
    .post('/top-up', requireEmailForPayment, validate('json', topUpRequestSchema), async (c) =>
      c.json<BillingRedirectResponse>(
        await startTopUpCheckout(deps, {
          userId: currentUser(c).id,
          locale: locale(),
          packId: c.req.valid('json').packId,
        }),
      ),
    )
    .post('/portal', async (c) =>
      c.json<BillingRedirectResponse>(
        await openCustomerPortal(deps, { userId: currentUser(c).id, locale: locale() }),
      ),
    )
}

/**
 * Payment-provider webhooks: no session, no origin check (the provider calls server to server);
 * the signature on the raw body is the authentication. 200 only once the effects are committed.
 */
export function billingWebhookRoutes(deps: BillingDeps) {
  return new Hono<AppEnv>().post('/:provider', async (c) => {
    const provider = c.req.param('provider')
    if (provider !== 'stripe') throw new AppError('NOT_FOUND', 'No such webhook')
    const raw = new Uint8Array(await c.req.arrayBuffer())
    const outcome = await handleBillingWebhook(deps, provider, raw, c.req.header('stripe-signature'))
    return c.json({ received: true, outcome })
  })
}
