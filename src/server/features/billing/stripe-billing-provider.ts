import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import Stripe from 'stripe'
import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import { billingCustomers, users } from '#server/db/schema/index.ts'
import type { Mailer } from '#server/email/outbox.ts'
import { AppError } from '#shared/errors.ts'
import { getPlan, getTopUpPack, isTopUpPackId, type PlanId, type TopUpPackId } from '#shared/plans.ts'
import { deliverBillingEmails } from './billing-emails.ts'
import type {
  BillingProvider,
  BillingWebhookEffect,
  OffSessionCharge,
  ProviderSubscription,
} from './billing-provider.ts'
import { applyProviderSubscription, getProviderSubscriptionRow } from './provider-subscription.ts'
import { catalogueItemForPrice, packLookupKey, planLookupKey } from './stripe-catalogue.ts'

/**
 * The API version every request and the webhook endpoint use: the one the pinned SDK's types
 * describe (stripe@23.1.0). Bumping the SDK is an API upgrade; the test beside this file fails
 * until this line is changed with it.
 */
export const stripeApiVersion = '2026-10-28.endive'

export type StripeSettings = NonNullable<Config['stripe']>

/** The SDK client: API version pinned, retries on, pointed at STRIPE_API_BASE when set. */
export function createStripeClient(settings: StripeSettings, options: { maxNetworkRetries?: number } = {}) {
  return new Stripe(settings.secretKey, {
    apiVersion: stripeApiVersion,
    // Connection errors, 409 and 5xx are retried with the same idempotency key (safe to repeat).
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'Vitrin' },
    ...(settings.api ? settings.api : {}),
  })
}

/** A provider failure as our error: card problems pass through to their callers, the rest are 502. */
function providerError(error: unknown): AppError {
  return new AppError('BILLING_PROVIDER_UNAVAILABLE', 'Payment provider request failed', undefined, {
    cause: error,
  })
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof AppError) throw error
    throw providerError(error)
  }
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null
  return typeof value === 'string' ? value : value.id
}

function planOf(price: Stripe.Price | string | null | undefined): PlanId | null {
  if (!price || typeof price === 'string') return null
  const item = catalogueItemForPrice(price)
  return item?.kind === 'plan' ? item.planId : null
}

/** Stripe's status in Vitrin's words; null for states nothing is applied from (first payment pending, paused). */
function statusOf(status: Stripe.Subscription.Status): ProviderSubscription['status'] {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active'
    case 'past_due':
    case 'unpaid':
      return 'past_due'
    case 'canceled':
      return 'canceled'
    case 'incomplete_expired':
      return 'expired'
    default:
      return null
  }
}

export function createStripeBillingProvider(input: {
  db: Db
  stripe: Stripe
  webhookSecret: string
  /** The public origin, read when needed (a PORT=0 server learns its port after start). */
  publicUrl: () => string
  now: () => Date
  /** Delivers the emails a user's own change writes (a cancel at the period's end), after its commit. */
  mailer?: Mailer | undefined
}): BillingProvider {
  const { db, stripe } = input

  /**
   * The active price with this lookup key (created by `npm run billing:setup`). Looked up each
   * time, not remembered: setup run again may move the key to a new price while we run.
   */
  async function priceFor(lookupKey: string): Promise<string> {
    const found = await call(() => stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 }))
    const price = found.data[0]
    if (!price) {
      throw providerError(
        new Error(`No Stripe price with lookup key ${lookupKey}: run npm run billing:setup`),
      )
    }
    return price.id
  }

  async function planForPriceId(priceId: string): Promise<PlanId | null> {
    return planOf(await call(() => stripe.prices.retrieve(priceId)))
  }

  /** The user's Stripe customer, made once (the key makes two concurrent first checkouts share one). */
  async function ensureCustomer(userId: string, locale: string): Promise<string> {
    const [stored] = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId))
    if (stored) return stored.customerId
    const [user] = await db
      .select({ email: users.email, name: users.name })
      .from(users)
      .where(eq(users.id, userId))
    if (!user) throw new AppError('UNAUTHORIZED', 'No such user')
    const customer = await call(() =>
      stripe.customers.create(
        {
          email: user.email,
          name: user.name || undefined,
          metadata: { userId },
          preferred_locales: [locale],
        },
        { idempotencyKey: `cust:${userId}` },
      ),
    )
    await db
      .insert(billingCustomers)
      .values({ userId, provider: 'stripe', customerId: customer.id })
      .onConflictDoNothing()
    const [row] = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId))
    return row?.customerId ?? customer.id
  }

  async function retrieveState(subscriptionId: string): Promise<ProviderSubscription> {
    const sub = await call(() => stripe.subscriptions.retrieve(subscriptionId, { expand: ['schedule'] }))
    const item = sub.items.data[0]
    if (!item) throw providerError(new Error(`subscription ${sub.id} has no items`))
    const planId = planOf(item.price)
    let scheduledPlanId: PlanId | null = null
    const schedule = typeof sub.schedule === 'object' ? sub.schedule : null
    if (schedule && schedule.status === 'active') {
      const next = schedule.phases.find((phase) => phase.start_date >= item.current_period_end)
      const nextPrice = next?.items[0]?.price
      const nextPlan =
        typeof nextPrice === 'string'
          ? await planForPriceId(nextPrice)
          : nextPrice
            ? planOf(nextPrice as Stripe.Price)
            : null
      if (nextPlan && nextPlan !== planId) scheduledPlanId = nextPlan
    }
    return {
      subscriptionId: sub.id,
      customerId: idOf(sub.customer) ?? '',
      userId: sub.metadata.userId ?? null,
      planId,
      status: statusOf(sub.status),
      periodStart: new Date(item.current_period_start * 1000),
      periodEnd: new Date(item.current_period_end * 1000),
      cancelAtPeriodEnd: sub.cancel_at_period_end,
      scheduledPlanId,
    }
  }

  /** Fetches the subscription and applies it at once, so the answer to the user's action shows it. */
  async function sync(subscriptionId: string): Promise<void> {
    const state = await retrieveState(subscriptionId)
    const applied = await db.transaction((tx) =>
      applyProviderSubscription(tx, state, input.now(), { publicUrl: input.publicUrl() }),
    )
    if (applied.applied) await deliverBillingEmails(input.mailer, applied.emailIds)
  }

  async function liveSubscription(userId: string) {
    const row = await getProviderSubscriptionRow(db, userId)
    if (!row?.stripeSubId) throw new AppError('BILLING_CHECKOUT_REQUIRED', 'No paid plan to change')
    const sub = await call(() => stripe.subscriptions.retrieve(row.stripeSubId as string))
    const item = sub.items.data[0]
    if (!item) throw providerError(new Error(`subscription ${sub.id} has no items`))
    return { row, sub, item }
  }

  async function releaseSchedule(sub: Stripe.Subscription): Promise<void> {
    const scheduleId = idOf(sub.schedule)
    if (scheduleId) await call(() => stripe.subscriptionSchedules.release(scheduleId))
  }

  /** An open session for the same purchase within a few minutes (a double click) is reused. */
  async function checkout(
    key: string,
    params: Stripe.Checkout.SessionCreateParams,
  ): Promise<{ url: string }> {
    const window = Math.floor(input.now().getTime() / (10 * 60 * 1000))
    let session = await call(() =>
      stripe.checkout.sessions.create(params, { idempotencyKey: `${key}:${window}` }),
    )
    if (session.status !== 'open') {
      session = await call(() =>
        stripe.checkout.sessions.create(params, { idempotencyKey: `${key}:${window}:${randomUUID()}` }),
      )
    }
    if (!session.url) throw providerError(new Error('Checkout Session without a URL'))
    return { url: session.url }
  }

  async function resolveSubscription(subscriptionId: string | null): Promise<BillingWebhookEffect> {
    if (!subscriptionId) return { kind: 'ignored' }
    return { kind: 'subscription', subscription: await retrieveState(subscriptionId) }
  }

  return {
    kind: 'stripe',
    hasCustomerPortal: true,
    isLive: true,
    canUsersChangePlan: true,
    hasCheckout: true,

    async startPlanCheckout({ userId, locale, planId }) {
      if (await getProviderSubscriptionRow(db, userId)) {
        throw new AppError('BILLING_ALREADY_SUBSCRIBED', 'A paid plan is running; change it instead')
      }
      const customer = await ensureCustomer(userId, locale)
      const price = await priceFor(planLookupKey(planId))
      const base = input.publicUrl()
      return checkout(`co:${userId}:${planId}`, {
        mode: 'subscription',
        customer,
        client_reference_id: userId,
        line_items: [{ price, quantity: 1 }],
        metadata: { userId, planId },
        subscription_data: { metadata: { userId, planId } },
        success_url: `${base}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}/billing`,
        locale,
      })
    },

    async startTopUpCheckout({ userId, locale, packId }) {
      const customer = await ensureCustomer(userId, locale)
      const price = await priceFor(packLookupKey(packId))
      const base = input.publicUrl()
      const metadata = { userId, packId, kind: 'topup' }
      return checkout(`topup-co:${userId}:${packId}`, {
        mode: 'payment',
        customer,
        client_reference_id: userId,
        line_items: [{ price, quantity: 1 }],
        metadata,
        // The card is kept for auto top-up; Checkout tells the buyer so (their consent).
        payment_intent_data: { metadata, setup_future_usage: 'off_session' },
        invoice_creation: { enabled: true },
        // The return page confirms the payment and shows the credits (as it does a plan).
        success_url: `${base}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}/billing`,
        locale,
      })
    },

    async getCheckout(sessionId) {
      let session: Stripe.Checkout.Session
      try {
        session = await stripe.checkout.sessions.retrieve(sessionId)
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') {
          throw new AppError('NOT_FOUND', 'No such checkout session')
        }
        throw providerError(error)
      }
      const state =
        session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open'
      // The effect is read exactly as the session's completion webhook reads it, so applying it
      // here and again from the webhook lands on the same state (a plan re-fetched, a pack once).
      const webhook = webhookOf(
        { id: '', type: 'checkout.session.completed', data: { object: session } } as Stripe.Event,
        resolveSubscription,
      )
      return {
        userId: session.client_reference_id ?? session.metadata?.userId ?? null,
        state,
        kind: session.mode === 'subscription' ? 'plan' : 'pack',
        packId: isTopUpPackId(session.metadata?.packId) ? session.metadata.packId : null,
        subject: webhook.subject,
        effect: state === 'complete' ? await webhook.resolve() : { kind: 'ignored' },
      }
    },

    async openPortal({ userId, locale }) {
      const customer = await ensureCustomer(userId, locale)
      const session = await call(() =>
        stripe.billingPortal.sessions.create({
          customer,
          return_url: `${input.publicUrl()}/billing`,
          locale,
        }),
      )
      return { url: session.url }
    },

    async changePlan(userId, planId, now) {
      const { row, sub, item } = await liveSubscription(userId)
      const current = planOf(item.price) ?? row.planId
      const target = await priceFor(planLookupKey(planId))
      const request = `${now.getTime()}`
      if (planId === current) {
        // Choosing the plan one has undoes a scheduled downgrade.
        await releaseSchedule(sub)
      } else if (getPlan(planId).priceMonthlyUsd > getPlan(current).priceMonthlyUsd) {
        // Upgrade now: the difference for the rest of the period is invoiced and charged at once,
        // and the change only holds if that payment succeeds.
        await releaseSchedule(sub)
        await call(() =>
          stripe.subscriptions.update(
            sub.id,
            {
              items: [{ id: item.id, price: target }],
              proration_behavior: 'always_invoice',
              payment_behavior: 'pending_if_incomplete',
            },
            { idempotencyKey: `chg:${sub.id}:${target}:${request}` },
          ),
        )
      } else {
        // Downgrade at the period's end: a schedule whose next phase is the cheaper plan (no
        // refund for the current period, whose quota the user may already have used).
        const scheduleId =
          idOf(sub.schedule) ??
          (
            await call(() =>
              stripe.subscriptionSchedules.create(
                { from_subscription: sub.id },
                { idempotencyKey: `sched:${sub.id}:${request}` },
              ),
            )
          ).id
        await call(() =>
          stripe.subscriptionSchedules.update(
            scheduleId,
            {
              end_behavior: 'release',
              proration_behavior: 'none',
              phases: [
                {
                  items: [{ price: item.price.id, quantity: 1 }],
                  start_date: item.current_period_start,
                  end_date: item.current_period_end,
                },
                {
                  items: [{ price: target, quantity: 1 }],
                  duration: { interval: 'month', interval_count: 1 },
                },
              ],
            },
            { idempotencyKey: `chg:${sub.id}:${target}:${request}` },
          ),
        )
      }
      await sync(sub.id)
    },

    async cancel(userId) {
      const { sub } = await liveSubscription(userId)
      // A scheduled downgrade has no period to start in once the plan ends.
      await releaseSchedule(sub)
      await call(() => stripe.subscriptions.update(sub.id, { cancel_at_period_end: true }))
      await sync(sub.id)
      return true
    },

    async resume(userId) {
      const { sub } = await liveSubscription(userId)
      if (!sub.cancel_at_period_end) return false
      await call(() => stripe.subscriptions.update(sub.id, { cancel_at_period_end: false }))
      await sync(sub.id)
      return true
    },

    async chargeOffSession({ userId, packId, idempotencyKey }): Promise<OffSessionCharge> {
      const [stored] = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId))
      if (!stored) return { status: 'failed', reason: 'no_payment_method', paymentRef: null }
      const customer = await call(() => stripe.customers.retrieve(stored.customerId))
      const paymentMethod =
        'deleted' in customer && customer.deleted
          ? null
          : idOf((customer as Stripe.Customer).invoice_settings?.default_payment_method)
      if (!paymentMethod) return { status: 'failed', reason: 'no_payment_method', paymentRef: null }
      try {
        const intent = await stripe.paymentIntents.create(
          {
            // The catalogue's price, which billing:setup keeps the Stripe price equal to.
            amount: getTopUpPack(packId).priceUsd * 100,
            currency: 'usd',
            customer: stored.customerId,
            payment_method: paymentMethod,
            off_session: true,
            confirm: true,
            metadata: { userId, packId, kind: 'auto_topup' },
          },
          { idempotencyKey },
        )
        return intent.status === 'succeeded'
          ? { status: 'succeeded', paymentRef: intent.id }
          : { status: 'failed', reason: 'authentication_required', paymentRef: intent.id }
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const intent = (error.raw as { payment_intent?: { id?: string } }).payment_intent
          return {
            status: 'failed',
            reason: error.code === 'authentication_required' ? 'authentication_required' : 'declined',
            paymentRef: intent?.id ?? null,
          }
        }
        throw providerError(error)
      }
    },

    async verifyWebhook(rawBody, signature) {
      let event: Stripe.Event
      try {
        event = stripe.webhooks.constructEvent(Buffer.from(rawBody), signature ?? '', input.webhookSecret)
      } catch (error) {
        throw new AppError('WEBHOOK_SIGNATURE_INVALID', 'Webhook signature check failed', undefined, {
          cause: error,
        })
      }
      if (typeof event?.id !== 'string' || typeof event.type !== 'string' || !event.data?.object) {
        throw new AppError('WEBHOOK_SIGNATURE_INVALID', 'Webhook body is not an event')
      }
      return webhookOf(event, resolveSubscription)
    },
  }
}

/** What one Stripe event is about, and how to read its effect (re-fetching subscriptions). */
function webhookOf(
  event: Stripe.Event,
  resolveSubscription: (subscriptionId: string | null) => Promise<BillingWebhookEffect>,
) {
  const base = { eventId: event.id, type: event.type }
  const ignored = {
    ...base,
    subject: null,
    resolve: async (): Promise<BillingWebhookEffect> => ({ kind: 'ignored' }),
  }
  const forSubscription = (subscriptionId: string | null) => ({
    ...base,
    subject: subscriptionId,
    resolve: () => resolveSubscription(subscriptionId),
  })
  switch (event.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return forSubscription(event.data.object.id)
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return forSubscription(idOf(event.data.object.parent?.subscription_details?.subscription))
    case 'invoice.payment_action_required': {
      // The subscription itself turns past due through its own events; this one only asks the
      // customer to confirm, on the invoice's hosted page. Not for a subscription's first
      // invoice: that one is paid on Checkout, where the customer confirms there and then.
      const invoice = event.data.object
      const customerId = idOf(invoice.customer)
      const invoiceUrl = invoice.hosted_invoice_url
      if (!customerId || !invoiceUrl || invoice.billing_reason === 'subscription_create') return ignored
      return {
        ...base,
        subject: idOf(invoice.parent?.subscription_details?.subscription) ?? invoice.id ?? null,
        resolve: async (): Promise<BillingWebhookEffect> => ({
          kind: 'payment_action_required',
          customerId,
          invoiceUrl,
        }),
      }
    }
    case 'subscription_schedule.created':
    case 'subscription_schedule.updated':
    case 'subscription_schedule.released':
    case 'subscription_schedule.canceled':
      return forSubscription(
        idOf(event.data.object.subscription) ?? event.data.object.released_subscription ?? null,
      )
    case 'checkout.session.completed': {
      const session = event.data.object
      if (session.mode === 'subscription') return forSubscription(idOf(session.subscription))
      const packId = session.metadata?.packId
      const paymentRef = idOf(session.payment_intent)
      const customerId = idOf(session.customer)
      if (session.mode !== 'payment' || session.payment_status !== 'paid') return ignored
      if (!isTopUpPackId(packId) || !paymentRef || !customerId) return ignored
      return credit(base, {
        customerId,
        userId: session.metadata?.userId ?? null,
        packId,
        paymentRef,
        origin: 'checkout',
      })
    }
    case 'payment_intent.succeeded': {
      const intent = event.data.object
      const packId = intent.metadata?.packId
      const customerId = idOf(intent.customer)
      // Checkout top-ups are credited from checkout.session.completed; this is auto top-up's.
      if (intent.metadata?.kind !== 'auto_topup' || !isTopUpPackId(packId) || !customerId) return ignored
      return credit(base, {
        customerId,
        userId: intent.metadata.userId ?? null,
        packId,
        paymentRef: intent.id,
        origin: 'auto_topup',
      })
    }
    default:
      return ignored
  }
}

function credit(
  base: { eventId: string; type: string },
  effect: {
    customerId: string
    userId: string | null
    packId: TopUpPackId
    paymentRef: string
    origin: 'checkout' | 'auto_topup'
  },
) {
  return {
    ...base,
    subject: effect.paymentRef,
    resolve: async (): Promise<BillingWebhookEffect> => ({ kind: 'credit', ...effect }),
  }
}
