import { eq } from 'drizzle-orm'
import Stripe from 'stripe'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  billingCustomers,
  billingEvents,
  creditBalances,
  creditGrants,
  emailOutbox,
  subscriptions,
} from '#server/db/schema/index.ts'
import { syncConfiguredCodes } from '#server/features/access/access-codes.service.ts'
import type {
  BillingRedirectResponse,
  BillingResponse,
  CheckoutStatusResponse,
} from '#shared/contracts/billing.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { type StripeFake, startStripeFake } from '#tests/fakes/stripe-server.ts'
import { signedInClient, userIdOf } from '#tests/support/generation-client.ts'
import {
  resetStripeAccount,
  stripeBillingEnv,
  stripeSdkFor,
  stripeWebhookSecret,
} from '#tests/support/stripe-app.ts'
import {
  createTestClient,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'
import { stripeApiVersion } from './stripe-billing-provider.ts'
import { stripeWebhookPath } from './stripe-catalogue.ts'

// The Stripe adapter through the app's real routes, the real SDK pointed at the fake Stripe
// server (tests/fakes/stripe-server.ts), and webhooks the fake signs and delivers over HTTP.

let fake: StripeFake
let server: TestServer

async function billing(client: TestClient): Promise<BillingResponse> {
  return (await (await client.request('/api/billing')).json()) as BillingResponse
}

async function subscriptionRow(userId: string) {
  const rows = await server.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId))
  return rows.find((row) => row.status === 'active' || row.status === 'past_due') ?? rows.at(-1)
}

/** Starts Checkout for a plan through the app and pays it on the fake, as the hosted page's Pay button does. */
async function subscribe(client: TestClient, planId: 'starter' | 'growth' | 'pro') {
  const started = await client.request('/api/billing/checkout', { json: { planId } })
  expect(started.status).toBe(200)
  const { url } = (await started.json()) as BillingRedirectResponse
  expect(url.startsWith(`${fake.url}/checkout/cs_test_`)).toBe(true)
  const session = await fake.completeCheckout(url.split('/').pop() as string)
  return { sessionId: String(session.id), subscriptionId: String(session.subscription) }
}

function signedDelivery(payload: string, header: string) {
  return server.api(stripeWebhookPath, {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  })
}

describe('Stripe billing', () => {
  beforeAll(async () => {
    fake = await startStripeFake()
    server = await startTestServer({
      ...stripeBillingEnv(fake),
    })
  })
  beforeEach(async () => {
    await resetStripeAccount(fake, server)
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it('pins the API version the SDK was built for', () => {
    expect(Stripe.API_VERSION).toBe(stripeApiVersion)
  })

  it('applies a plan bought on the hosted checkout once its webhook arrives', async () => {
    const client = await signedInClient(server, null)
    const userId = await userIdOf(client)
    expect(await billing(client)).toMatchObject({ provider: 'stripe', hasCheckout: true, subscription: null })

    const { subscriptionId } = await subscribe(client, 'growth')

    const view = await billing(client)
    expect(view.subscription).toMatchObject({
      planId: 'growth',
      status: 'active',
      isTrial: false,
      cancelAtPeriodEnd: false,
      scheduledPlanId: null,
    })
    const row = await subscriptionRow(userId)
    expect(row).toMatchObject({ provider: 'stripe', stripeSubId: subscriptionId })
    const sub = fake.objects.get(subscriptionId) as { items: { data: { current_period_end: number }[] } }
    expect(row?.currentPeriodEnd.getTime()).toBe((sub.items.data[0]?.current_period_end ?? 0) * 1000)
    // Every delivery was answered 200, and recorded.
    expect(fake.deliveries.length).toBeGreaterThanOrEqual(3)
    expect(fake.deliveries.every((d) => d.status === 200)).toBe(true)
    const recorded = await server.database.db.select().from(billingEvents)
    expect(recorded.map((e) => e.id).sort()).toEqual(
      [...new Set(fake.deliveries.map((d) => d.eventId))].sort(),
    )

    // The customer carries the user, every request the pinned version and a key.
    const customer = fake.lastOf('cus_') as { metadata: { userId: string } }
    expect(customer.metadata.userId).toBe(userId)
    const posts = fake.requests.filter((r) => r.method === 'POST')
    expect(posts.every((r) => r.stripeVersion === stripeApiVersion && r.idempotencyKey)).toBe(true)
    expect(fake.requests.find((r) => r.path === '/v1/customers')?.idempotencyKey).toBe(`cust:${userId}`)

    // A second checkout for a plan while one runs is refused: the plan is changed instead.
    const again = await client.request('/api/billing/checkout', { json: { planId: 'pro' } })
    expect(again.status).toBe(409)
    expect(((await again.json()) as ErrorBody).error.code).toBe('BILLING_ALREADY_SUBSCRIBED')
  })

  it('upgrades at once, charging the prorated difference', async () => {
    const client = await signedInClient(server, null)
    const { subscriptionId } = await subscribe(client, 'growth')
    const changed = await client.request('/api/billing/subscription', { json: { planId: 'pro' } })
    expect(changed.status).toBe(200)
    expect(((await changed.json()) as BillingResponse).subscription).toMatchObject({
      planId: 'pro',
      scheduledPlanId: null,
    })
    await fake.idle()
    const update = fake.requests.find(
      (r) => r.path === `/v1/subscriptions/${subscriptionId}` && r.method === 'POST',
    )
    expect(update?.body).toMatchObject({
      proration_behavior: 'always_invoice',
      payment_behavior: 'pending_if_incomplete',
    })
    const proration = [...fake.objects.values()].find((o) => o.billing_reason === 'subscription_update')
    // Growth $299 → Pro $499 for (almost) the whole period: about $200, charged now.
    expect(proration).toMatchObject({ status: 'paid' })
    expect(Number(proration?.amount_paid)).toBeGreaterThan(19_000)
    expect(Number(proration?.amount_paid)).toBeLessThanOrEqual(20_000)
    expect((await billing(client)).subscription?.planId).toBe('pro')
  })

  it('schedules a downgrade for the period end, undoes it, and applies it at renewal', async () => {
    const client = await signedInClient(server, null)
    const { subscriptionId } = await subscribe(client, 'pro')
    const before = (await billing(client)).subscription

    const down = await client.request('/api/billing/subscription', { json: { planId: 'starter' } })
    expect(((await down.json()) as BillingResponse).subscription).toMatchObject({
      planId: 'pro',
      scheduledPlanId: 'starter',
      currentPeriodEnd: before?.currentPeriodEnd,
    })
    // No invoice for a downgrade: the current period was paid for.
    expect([...fake.objects.values()].some((o) => o.billing_reason === 'subscription_update')).toBe(false)

    // Choosing the plan one has undoes it.
    const undo = await client.request('/api/billing/subscription', { json: { planId: 'pro' } })
    expect(((await undo.json()) as BillingResponse).subscription).toMatchObject({
      planId: 'pro',
      scheduledPlanId: null,
    })

    await client.request('/api/billing/subscription', { json: { planId: 'growth' } })
    await fake.idle()
    expect((await billing(client)).subscription?.scheduledPlanId).toBe('growth')
    await fake.renewSubscription(subscriptionId)
    const after = (await billing(client)).subscription
    expect(after).toMatchObject({ planId: 'growth', scheduledPlanId: null, status: 'active' })
    expect(after?.currentPeriodStart).toBe(before?.currentPeriodEnd)
  })

  it('cancels at the period end, undoes it, and ends the plan when a canceled period runs out', async () => {
    const client = await signedInClient(server, null)
    const { subscriptionId } = await subscribe(client, 'starter')

    const canceled = await client.request('/api/billing/subscription', { method: 'DELETE' })
    expect(((await canceled.json()) as BillingResponse).subscription).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
    })
    const resumed = await client.request('/api/billing/subscription/resume', { method: 'POST' })
    expect(((await resumed.json()) as BillingResponse).subscription).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
    })

    await client.request('/api/billing/subscription', { method: 'DELETE' })
    await fake.idle()
    await fake.renewSubscription(subscriptionId)
    expect((await billing(client)).subscription).toMatchObject({ status: 'canceled', planId: 'starter' })
  })

  it('moves the period on renewal, marks a failed renewal past due, and clears it once paid', async () => {
    const client = await signedInClient(server, null)
    const userId = await userIdOf(client)
    const { subscriptionId } = await subscribe(client, 'growth')
    const first = await subscriptionRow(userId)

    await fake.renewSubscription(subscriptionId)
    const renewed = await subscriptionRow(userId)
    expect(renewed?.currentPeriodStart.getTime()).toBe(first?.currentPeriodEnd.getTime())
    expect(renewed?.currentPeriodEnd.getTime()).toBeGreaterThan(renewed?.currentPeriodStart.getTime() ?? 0)

    await fake.renewSubscription(subscriptionId, { fail: true })
    expect((await billing(client)).subscription?.status).toBe('past_due')

    // Fixed in the portal: the open invoice is paid with the new card.
    const portal = await client.request('/api/billing/portal', { method: 'POST' })
    const { url } = (await portal.json()) as BillingRedirectResponse
    const page = await fetch(url)
    expect(await page.text()).toContain('Update card and pay')
    const paid = await fetch(`${url}/pay?sub=${subscriptionId}`, { method: 'POST', redirect: 'manual' })
    expect(paid.status).toBe(303)
    expect((await billing(client)).subscription?.status).toBe('active')
  })

  it('ends here a subscription Stripe ends', async () => {
    const client = await signedInClient(server, null)
    const { subscriptionId } = await subscribe(client, 'growth')
    await fake.endSubscription(subscriptionId)
    expect((await billing(client)).subscription).toMatchObject({ status: 'canceled' })
    const usage = await client.request('/api/usage')
    expect(usage.status).toBe(200)
  })

  it('applies the newest state whatever order events arrive in, and each event once', async () => {
    const client = await signedInClient(server, null)
    const userId = await userIdOf(client)
    fake.holdEvents()
    const { subscriptionId } = await subscribe(client, 'growth')
    const sub = fake.objects.get(subscriptionId) as { cancel_at_period_end: boolean }
    await stripeSdkFor(fake).subscriptions.update(subscriptionId, { cancel_at_period_end: true })
    expect(sub.cancel_at_period_end).toBe(true)
    const deliveries = await fake.flush({ order: 'reverse', duplicate: true })
    expect(deliveries.every((d) => d.status === 200)).toBe(true)
    expect(deliveries.filter((d) => d.answer.includes('"duplicate"')).length).toBe(deliveries.length / 2)

    expect(await subscriptionRow(userId)).toMatchObject({
      planId: 'growth',
      status: 'active',
      cancelAtPeriodEnd: true,
      stripeSubId: subscriptionId,
    })
    const rows = await server.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId))
    expect(rows).toHaveLength(1)
    const recorded = await server.database.db.select().from(billingEvents)
    expect(recorded).toHaveLength(deliveries.length / 2)
  })

  it('credits a top-up pack once, however often its event is delivered', async () => {
    const client = await signedInClient(server, null)
    const userId = await userIdOf(client)
    const started = await client.request('/api/billing/top-up', { json: { packId: 'images_100' } })
    expect(started.status).toBe(200)
    const { url } = (await started.json()) as BillingRedirectResponse
    // The hosted page's Pay button: pays, delivers the webhooks, then returns to Vitrin.
    const paid = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' })
    expect(paid.status).toBe(303)
    expect(paid.headers.get('location')).toMatch(/\/billing\/success\?session_id=cs_test_/)

    const completed = fake.events.find((e) => e.type === 'checkout.session.completed')
    await fake.redeliver(completed?.id as string)
    await fake.redeliver(completed?.id as string)
    const [balance] = await server.database.db
      .select()
      .from(creditBalances)
      .where(eq(creditBalances.userId, userId))
    expect(balance).toMatchObject({ images: 100, videos: 0 })
    const grants = await server.database.db.select().from(creditGrants).where(eq(creditGrants.userId, userId))
    expect(grants).toHaveLength(1)
    expect(grants[0]).toMatchObject({ origin: 'checkout', paymentRef: expect.stringMatching(/^pi_/) })
    // The card was saved for auto top-up.
    expect(fake.lastOf('cus_')).toMatchObject({
      invoice_settings: { default_payment_method: expect.stringMatching(/^pm_/) },
    })
  })

  it('applies an event once when its first deliveries arrive at the same moment', async () => {
    const client = await signedInClient(server, null)
    const userId = await userIdOf(client)
    const started = await client.request('/api/billing/top-up', { json: { packId: 'images_100' } })
    const { url } = (await started.json()) as BillingRedirectResponse
    fake.holdEvents()
    await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' })
    const held = fake.events.filter((e) => e.type === 'checkout.session.completed')
    expect(held).toHaveLength(1)
    const deliveries = (await Promise.all([1, 2, 3].map(() => fake.redeliver(held[0]?.id as string)))).flat()
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200])
    const outcomes = deliveries.map((d) => (JSON.parse(d.answer) as { outcome: string }).outcome).sort()
    expect(outcomes).toEqual(['applied', 'duplicate', 'duplicate'])
    const grants = await server.database.db.select().from(creditGrants).where(eq(creditGrants.userId, userId))
    expect(grants).toHaveLength(1)
    const recorded = await server.database.db
      .select()
      .from(billingEvents)
      .where(eq(billingEvents.id, held[0]?.id as string))
    expect(recorded).toHaveLength(1)
    await fake.flush()
  })

  it('tells the return page a checkout is pending, then applies it before its webhook, once', async () => {
    const client = await signedInClient(server, null)
    const userId = await userIdOf(client)
    const started = (await (
      await client.request('/api/billing/checkout', { json: { planId: 'growth' } })
    ).json()) as BillingRedirectResponse
    const sessionId = started.url.split('/').pop() as string
    const status = async (id = sessionId, who = client) =>
      (await (await who.request(`/api/billing/checkout/${id}`)).json()) as CheckoutStatusResponse

    // Not paid yet: pending, nothing applied.
    expect(await status()).toMatchObject({ state: 'pending', kind: 'plan', subscription: null })
    // Another user's session is not theirs to see.
    const stranger = await signedInClient(server, null)
    expect((await stranger.request(`/api/billing/checkout/${sessionId}`)).status).toBe(404)
    expect((await client.request('/api/billing/checkout/cs_test_nothing')).status).toBe(404)

    // Paid, with every webhook held back: the return page's check applies the plan itself.
    fake.holdEvents()
    await fake.completeCheckout(sessionId)
    const applied = await status()
    expect(applied).toMatchObject({
      state: 'applied',
      kind: 'plan',
      subscription: { planId: 'growth', status: 'active', cancelAtPeriodEnd: false },
    })
    expect(await status()).toMatchObject({ state: 'applied', subscription: applied.subscription })

    // The webhooks arriving afterwards (twice each) change nothing: one paid plan, as applied.
    await fake.flush({ duplicate: true })
    await fake.idle()
    expect(fake.deliveries.every((d) => d.status === 200)).toBe(true)
    const rows = await server.database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId))
    expect(rows.filter((row) => row.status === 'active')).toHaveLength(1)
    expect((await billing(client)).subscription).toEqual(applied.subscription)
  })

  it('credits a pack from the return page once, whichever of it and the webhook comes first', async () => {
    const client = await signedInClient(server, null)
    const userId = await userIdOf(client)
    const { url } = (await (
      await client.request('/api/billing/top-up', { json: { packId: 'videos_10' } })
    ).json()) as BillingRedirectResponse
    const sessionId = url.split('/').pop() as string
    fake.holdEvents()
    await fake.completeCheckout(sessionId)
    const check = async () =>
      (await (await client.request(`/api/billing/checkout/${sessionId}`)).json()) as CheckoutStatusResponse
    const [first, second] = await Promise.all([check(), check()])
    expect(first).toMatchObject({ state: 'applied', kind: 'pack', packId: 'videos_10' })
    expect(first.credits).toEqual({ images: 0, videos: 10 })
    expect(second.credits).toEqual({ images: 0, videos: 10 })
    await fake.flush({ duplicate: true })
    await fake.idle()
    const grants = await server.database.db.select().from(creditGrants).where(eq(creditGrants.userId, userId))
    expect(grants).toHaveLength(1)
    expect((await check()).credits).toEqual({ images: 0, videos: 10 })
  })

  it('tells the return page an abandoned checkout expired', async () => {
    const client = await signedInClient(server, null)
    const { url } = (await (
      await client.request('/api/billing/checkout', { json: { planId: 'starter' } })
    ).json()) as BillingRedirectResponse
    const sessionId = url.split('/').pop() as string
    await stripeSdkFor(fake).checkout.sessions.expire(sessionId)
    expect(await (await client.request(`/api/billing/checkout/${sessionId}`)).json()).toMatchObject({
      state: 'expired',
      subscription: null,
    })
  })

  it('charges a pack off-session, and reports a declined or authentication-needing card', async () => {
    const client = await signedInClient(server, null)
    const userId = await userIdOf(client)
    const { url } = (await (
      await client.request('/api/billing/top-up', { json: { packId: 'videos_10' } })
    ).json()) as BillingRedirectResponse
    await fake.completeCheckout(url.split('/').pop() as string)
    const customerId = String(fake.lastOf('cus_')?.id)

    const charge = (key: string) =>
      server.deps.billing.chargeOffSession({ userId, packId: 'videos_10', idempotencyKey: key })
    const ok = await charge(`topup:${userId}:1`)
    expect(ok).toMatchObject({ status: 'succeeded', paymentRef: expect.stringMatching(/^pi_/) })
    // The same shortage asked again is the same charge.
    expect(await charge(`topup:${userId}:1`)).toEqual(ok)
    expect(fake.requests.filter((r) => r.path === '/v1/payment_intents')).toHaveLength(2)
    expect(
      [...fake.objects.values()].filter(
        (o) =>
          o.object === 'payment_intent' &&
          o.metadata &&
          (o.metadata as { kind?: string }).kind === 'auto_topup',
      ),
    ).toHaveLength(1)
    await fake.idle()
    const grants = await server.database.db.select().from(creditGrants).where(eq(creditGrants.userId, userId))
    expect(grants.map((g) => g.origin).sort()).toEqual(['auto_topup', 'checkout'])

    fake.setCard(customerId, 'card_declined')
    expect(await charge(`topup:${userId}:2`)).toMatchObject({ status: 'failed', reason: 'declined' })
    fake.setCard(customerId, 'authentication_required')
    expect(await charge(`topup:${userId}:3`)).toMatchObject({
      status: 'failed',
      reason: 'authentication_required',
    })
  })

  it('asks a beta account for an email before any payment', async () => {
    await syncConfiguredCodes(server.database.db, ['VITRIN'])
    const beta = createTestClient(server)
    expect((await beta.request('/api/access', { json: { code: 'VITRIN' } })).status).toBe(201)
    for (const [path, json] of [
      ['/api/billing/checkout', { planId: 'growth' }],
      ['/api/billing/top-up', { packId: 'images_100' }],
    ] as const) {
      const refused = await beta.request(path, { json })
      expect(refused.status).toBe(403)
      expect((await refused.json()).error.code).toBe('EMAIL_REQUIRED')
    }
    expect(await server.database.db.select().from(billingCustomers)).toHaveLength(0)
  })

  it("asks for the bank's confirmation by email on a renewal, not for a first invoice being paid on Checkout", async () => {
    const client = await signedInClient(server, null)
    const { subscriptionId } = await subscribe(client, 'growth')
    const customer = String(fake.lastOf('cus_')?.id)
    const deliver = async (id: string, billingReason: string) => {
      const payload = JSON.stringify({
        id,
        object: 'event',
        api_version: stripeApiVersion,
        created: Math.floor(Date.now() / 1000),
        type: 'invoice.payment_action_required',
        data: {
          object: {
            id: `in_${id}`,
            object: 'invoice',
            customer,
            billing_reason: billingReason,
            hosted_invoice_url: `https://invoice.example/${id}`,
            parent: { type: 'subscription_details', subscription_details: { subscription: subscriptionId } },
          },
        },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
      })
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: stripeWebhookSecret })
      return (await (await signedDelivery(payload, header)).json()) as { outcome: string }
    }
    expect(await deliver('evt_first', 'subscription_create')).toMatchObject({ outcome: 'ignored' })
    expect(await deliver('evt_renewal', 'subscription_cycle')).toMatchObject({ outcome: 'applied' })
    const sent = await server.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, 'billing_action_required'))
    expect(sent).toHaveLength(1)
    expect(sent[0]?.textBody).toContain('https://invoice.example/evt_renewal')
  })

  it('refuses forged, tampered, old and malformed deliveries, changing nothing', async () => {
    const event = {
      id: 'evt_forged',
      object: 'event',
      api_version: stripeApiVersion,
      created: Math.floor(Date.now() / 1000),
      type: 'customer.subscription.deleted',
      data: { object: { id: 'sub_x', object: 'subscription' } },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    }
    const payload = JSON.stringify(event)
    const sign = (body: string, options: { secret?: string; timestamp?: number } = {}) =>
      Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: options.secret ?? stripeWebhookSecret,
        ...(options.timestamp ? { timestamp: options.timestamp } : {}),
      })
    const attempts = [
      await signedDelivery(payload, sign(payload, { secret: 'whsec_someone_else' })),
      await signedDelivery(payload.replace('sub_x', 'sub_y'), sign(payload)),
      await signedDelivery(payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 })),
      await signedDelivery('{not json', sign('{not json')),
      await signedDelivery(payload, 'garbage'),
      await server.api(stripeWebhookPath, { method: 'POST', body: payload }),
    ]
    for (const answer of attempts) {
      expect(answer.status).toBe(400)
      expect(((await answer.json()) as ErrorBody).error.code).toBe('WEBHOOK_SIGNATURE_INVALID')
    }
    expect(await server.database.db.select().from(billingEvents)).toHaveLength(0)
  })

  it('answers 200 to an event it does not use, from any origin, without a session', async () => {
    const payload = JSON.stringify({
      id: 'evt_unknown_1',
      object: 'event',
      api_version: stripeApiVersion,
      created: Math.floor(Date.now() / 1000),
      type: 'charge.dispute.funds_withdrawn',
      data: { object: { id: 'du_1', object: 'dispute' } },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    })
    const answer = await server.api(stripeWebhookPath, {
      method: 'POST',
      body: payload,
      headers: {
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: stripeWebhookSecret,
        }),
        origin: 'https://elsewhere.example',
        'sec-fetch-site': 'cross-site',
      },
    })
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ received: true, outcome: 'ignored' })
    const [recorded] = await server.database.db.select().from(billingEvents)
    expect(recorded).toMatchObject({ id: 'evt_unknown_1', type: 'charge.dispute.funds_withdrawn' })
    // Other API routes keep their origin check.
    const other = await server.api('/api/billing/portal', {
      method: 'POST',
      headers: { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
    })
    expect(other.status).toBe(403)
  })

  it('answers a Stripe outage with 502 and changes nothing, and applies the event when Stripe retries it', async () => {
    const client = await signedInClient(server, null)
    const userId = await userIdOf(client)
    fake.holdEvents()
    const { subscriptionId } = await subscribe(client, 'growth')
    fake.fail({ method: 'GET', path: `/v1/subscriptions/${subscriptionId}`, status: 500, times: 1000 })
    const created = fake.events.find((e) => e.type === 'customer.subscription.created')
    const failed = await fake.flush()
    expect(failed.length).toBeGreaterThan(0)
    expect(failed.every((d) => d.status === 502)).toBe(true)
    expect(await server.database.db.select().from(billingEvents)).toHaveLength(0)
    expect(await subscriptionRow(userId)).toBeUndefined()

    fake.clearFailures()
    const [retried] = await fake.redeliver(created?.id as string)
    expect(retried?.status).toBe(200)
    expect(await subscriptionRow(userId)).toMatchObject({ planId: 'growth', status: 'active' })
  })
})

describe('manual billing', () => {
  let manual: TestServer
  beforeAll(async () => {
    manual = await startTestServer()
  })
  afterAll(async () => {
    await manual?.close()
  })

  it('has no checkout, top-up, portal or webhook, and says so', async () => {
    const client = await signedInClient(manual, 'starter')
    expect(await (await client.request('/api/billing')).json()).toMatchObject({
      provider: 'manual',
      hasCheckout: false,
      hasCustomerPortal: false,
      subscription: { planId: 'starter', cancelAtPeriodEnd: false, scheduledPlanId: null },
    })
    const refusals = [
      [
        await client.request('/api/billing/checkout', { json: { planId: 'pro' } }),
        'BILLING_PAYMENTS_UNAVAILABLE',
      ],
      [
        await client.request('/api/billing/top-up', { json: { packId: 'images_100' } }),
        'BILLING_PAYMENTS_UNAVAILABLE',
      ],
      [await client.request('/api/billing/portal', { method: 'POST' }), 'BILLING_PORTAL_UNAVAILABLE'],
      [await client.request('/api/billing/checkout/cs_test_any'), 'BILLING_PAYMENTS_UNAVAILABLE'],
    ] as const
    for (const [answer, code] of refusals) {
      expect(answer.status).toBe(409)
      expect(((await answer.json()) as ErrorBody).error.code).toBe(code)
    }
    const webhook = await manual.api(stripeWebhookPath, { method: 'POST', body: '{}' })
    expect(webhook.status).toBe(404)
    // Plan changes stay immediate, as before.
    const changed = await client.request('/api/billing/subscription', { json: { planId: 'pro' } })
    expect(((await changed.json()) as BillingResponse).subscription?.planId).toBe('pro')
  })
})
