// A fake Stripe API: the subset Vitrin calls (customers, products, prices, billing portal,
// webhook endpoints, Checkout, subscriptions and their schedules, off-session PaymentIntents),
// with a hosted checkout page and portal page a browser can click through, and signed webhook
// deliveries. Stateful, in memory. For tests (the real `stripe` SDK pointed at it with host, port
// and protocol) and by hand: `npx tsx tests/fakes/stripe-server.ts --port 4700` (see README.md).

import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import Stripe from 'stripe'
import { argValue, closeServer, exitOnStop } from './control.ts'

type Rec = Record<string, unknown>

/** What an off-session charge (or a renewal) on a customer's saved card does. */
export type CardOutcome = 'succeeded' | 'card_declined' | 'authentication_required'

export type StripeFakeRequest = {
  method: string
  path: string
  body: Rec
  idempotencyKey: string | undefined
  stripeVersion: string | undefined
}

export type StripeFakeDelivery = {
  eventId: string
  type: string
  url: string
  /** HTTP status the app answered, or 0 when it could not be reached. */
  status: number
  /** The app's answer body (or the connection error). */
  answer: string
}

/** A scripted failure for the next API requests matching method and path prefix. */
export type StripeFakeFailure = {
  method?: string
  path: string
  status: number
  type?: string
  code?: string
  message?: string
  /** How many matching requests fail (default 1). */
  times?: number
}

export type StripeFakeEvent = Stripe.Event

export type StripeFake = {
  /** Origin of the fake, e.g. http://127.0.0.1:4700 (STRIPE_API_BASE). */
  url: string
  host: string
  port: number
  requests: StripeFakeRequest[]
  events: StripeFakeEvent[]
  deliveries: StripeFakeDelivery[]
  /** Every stored object by id (customers, prices, subscriptions, invoices …), for assertions. */
  objects: Map<string, Rec>
  /** Registers a webhook endpoint with a chosen signing secret (as `webhookEndpoints.create` would). */
  addWebhookEndpoint(url: string, secret: string): string
  /** Pays an open Checkout Session as the hosted page's Pay button does; resolves once its webhooks were answered. */
  completeCheckout(sessionId: string): Promise<Rec>
  /** The next period of a subscription, paid (or failing: past_due); a pending cancel ends it instead. */
  renewSubscription(subscriptionId: string, options?: { fail?: boolean }): Promise<Rec>
  /** Ends a subscription now, as Stripe does after failed retries or a cancel in the dashboard. */
  endSubscription(subscriptionId: string): Promise<Rec>
  /** How off-session charges and renewals on this customer's saved card go from now on. */
  setCard(customerId: string, outcome: CardOutcome): void
  /** Scripts failures of the next matching API requests. */
  fail(failure: StripeFakeFailure): void
  /** Drops every scripted failure (the outage is over). */
  clearFailures(): void
  /** Holds webhook events instead of delivering them, until `flush`. */
  holdEvents(): void
  /** Delivers held events (in the order sent, or reversed), each once or twice; resolves once answered. */
  flush(options?: { order?: 'sent' | 'reverse'; duplicate?: boolean }): Promise<StripeFakeDelivery[]>
  /** Delivers a sent event again (a duplicate); resolves once answered. */
  redeliver(eventId: string): Promise<StripeFakeDelivery[]>
  /** Resolves once every delivery under way has been answered. */
  idle(): Promise<void>
  /** The latest object of this type, e.g. lastOf('sub_'), for tests that did not see its id. */
  lastOf(prefix: string): Rec | undefined
  reset(): void
  close(): Promise<void>
}

export type StripeFakeOptions = {
  port?: number
  host?: string
  /** Serve /__control/ routes (by hand and in end-to-end runs). */
  control?: boolean
}

const apiVersion = Stripe.API_VERSION

function id(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('base64url').replace(/[-_]/g, 'x')}`
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000)
}

/** The same day next month, in unix seconds (UTC, clamped to the month's end). */
function addMonth(seconds: number): number {
  const date = new Date(seconds * 1000)
  const day = date.getUTCDate()
  date.setUTCDate(1)
  date.setUTCMonth(date.getUTCMonth() + 1)
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate()
  date.setUTCDate(Math.min(day, lastDay))
  return Math.floor(date.getTime() / 1000)
}

const clone = <T>(value: T): T => structuredClone(value)

function isRec(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)
const rec = (value: unknown): Rec => (isRec(value) ? value : {})
const arr = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : isRec(value) ? Object.values(value) : []
const bool = (value: unknown): boolean | undefined =>
  value === 'true' || value === true ? true : value === 'false' || value === false ? false : undefined
const num = (value: unknown): number | undefined =>
  typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : undefined

/**
 * Stripe's form encoding (`a[b][0][c]=v`, `expand[]=x`) as nested objects and arrays; the same
 * for query strings.
 */
export function parseStripeForm(text: string): Rec {
  const root: Rec = {}
  for (const [key, value] of new URLSearchParams(text)) {
    const segments = key.replace(/\]/g, '').split('[')
    let node: Rec | unknown[] = root
    segments.forEach((segment, index) => {
      const isLast = index === segments.length - 1
      const next = segments[index + 1]
      const container = () => (next === '' || /^\d+$/.test(next ?? '') ? [] : {})
      if (Array.isArray(node)) {
        const at = segment === '' ? node.length : Number(segment)
        if (isLast) node[at] = value
        else {
          node[at] ??= container()
          node = node[at] as Rec | unknown[]
        }
      } else {
        if (isLast) node[segment] = value
        else {
          node[segment] ??= container()
          node = node[segment] as Rec | unknown[]
        }
      }
    })
  }
  return root
}

class StripeFakeError extends Error {
  constructor(
    readonly status: number,
    readonly body: Rec,
  ) {
    super(str(body.message) ?? 'error')
  }
}

function invalid(message: string, param?: string, code?: string): StripeFakeError {
  return new StripeFakeError(400, { type: 'invalid_request_error', message, param, code })
}

function missing(kind: string, objectId: string): StripeFakeError {
  return new StripeFakeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    message: `No such ${kind}: '${objectId}'`,
    param: 'id',
  })
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1a1a2e}
.box{border:1px solid #ddd;border-radius:8px;padding:1rem;margin:1rem 0}button{font-size:1rem;padding:.6rem 1.2rem;border-radius:6px;border:0;background:#635bff;color:#fff;cursor:pointer}
.muted{color:#666;font-size:.9rem}form{display:inline}</style></head><body><p class="muted">Fake Stripe (test mode)</p>${body}</body></html>`
}

export async function startStripeFake(options: StripeFakeOptions = {}): Promise<StripeFake> {
  const host = options.host ?? '127.0.0.1'
  const objects = new Map<string, Rec>()
  const requests: StripeFakeRequest[] = []
  const events: StripeFakeEvent[] = []
  const deliveries: StripeFakeDelivery[] = []
  const idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>()
  const cards = new Map<string, CardOutcome>()
  let failures: (StripeFakeFailure & { left: number })[] = []
  let held: StripeFakeEvent[] | null = null
  const inFlight = new Set<Promise<unknown>>()
  let origin = ''

  const get = (objectId: string, kind: string): Rec => {
    const found = objects.get(objectId)
    if (!found) throw missing(kind, objectId)
    return found
  }
  const put = (object: Rec): Rec => {
    objects.set(String(object.id), object)
    return object
  }
  const list = (data: Rec[], url: string): Rec => ({ object: 'list', data, has_more: false, url })
  const ofPrefix = (prefix: string): Rec[] =>
    [...objects.values()].filter((object) => String(object.id).startsWith(prefix))

  // ---- webhooks ---------------------------------------------------------------------------

  async function deliverTo(event: StripeFakeEvent, endpoint: Rec): Promise<StripeFakeDelivery> {
    const payload = JSON.stringify(event)
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: String(endpoint.secret) })
    const url = String(endpoint.url)
    try {
      const response = await fetch(url, {
        method: 'POST',
        body: payload,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': signature,
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
      })
      const delivery = {
        eventId: event.id,
        type: event.type,
        url,
        status: response.status,
        answer: await response.text(),
      }
      deliveries.push(delivery)
      return delivery
    } catch (error) {
      const delivery = { eventId: event.id, type: event.type, url, status: 0, answer: String(error) }
      deliveries.push(delivery)
      return delivery
    }
  }

  function endpointsFor(type: string): Rec[] {
    return ofPrefix('we_').filter((endpoint) => {
      const enabled = arr(endpoint.enabled_events).map(String)
      return endpoint.status === 'enabled' && (enabled.includes('*') || enabled.includes(type))
    })
  }

  function deliver(event: StripeFakeEvent): Promise<StripeFakeDelivery[]> {
    const work = Promise.all(endpointsFor(event.type).map((endpoint) => deliverTo(event, endpoint)))
    inFlight.add(work)
    work.finally(() => inFlight.delete(work))
    return work
  }

  /** Records events (a snapshot of each object now) and delivers them one after another, in order. */
  function emit(items: { type: string; object: Rec; previous?: Rec }[]): Promise<StripeFakeDelivery[]> {
    const made = items.map(
      ({ type, object, previous }) =>
        ({
          id: id('evt'),
          object: 'event',
          api_version: apiVersion,
          created: nowSeconds(),
          data: { object: clone(object), ...(previous ? { previous_attributes: previous } : {}) },
          livemode: false,
          pending_webhooks: endpointsFor(type).length,
          request: { id: null, idempotency_key: null },
          type,
        }) as unknown as StripeFakeEvent,
    )
    events.push(...made)
    if (held) {
      held.push(...made)
      return Promise.resolve([])
    }
    const work = (async () => {
      const all: StripeFakeDelivery[] = []
      for (const event of made) all.push(...(await deliver(event)))
      return all
    })()
    inFlight.add(work)
    work.finally(() => inFlight.delete(work))
    return work
  }

  // ---- objects ------------------------------------------------------------------------------

  function customerCard(customerId: string): CardOutcome {
    return cards.get(customerId) ?? 'succeeded'
  }

  function newInvoice(sub: Rec, reason: string, amount: number, paid: boolean, lines: Rec[]): Rec {
    const invoiceId = id('in')
    return put({
      id: invoiceId,
      object: 'invoice',
      customer: sub.customer,
      status: paid ? 'paid' : 'open',
      billing_reason: reason,
      currency: 'usd',
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      amount_remaining: paid ? 0 : amount,
      created: nowSeconds(),
      lines: list(lines, '/v1/invoices/lines'),
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: clone(rec(sub.metadata)) },
        quote_details: null,
      },
      hosted_invoice_url: `${origin}/invoice/${invoiceId}`,
      livemode: false,
    })
  }

  function firstItem(sub: Rec): Rec {
    return rec(arr(rec(sub.items).data)[0])
  }

  function createSubscription(customerId: string, price: Rec, metadata: Rec, paymentMethod: string): Rec {
    const start = nowSeconds()
    const subId = id('sub')
    return put({
      id: subId,
      object: 'subscription',
      customer: customerId,
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      created: start,
      start_date: start,
      billing_cycle_anchor: start,
      currency: 'usd',
      collection_method: 'charge_automatically',
      default_payment_method: paymentMethod,
      latest_invoice: null,
      metadata: clone(metadata),
      schedule: null,
      livemode: false,
      items: list(
        [
          {
            id: id('si'),
            object: 'subscription_item',
            price: clone(price),
            quantity: 1,
            subscription: subId,
            current_period_start: start,
            current_period_end: addMonth(start),
            metadata: {},
          },
        ],
        `/v1/subscription_items?subscription=${subId}`,
      ),
    })
  }

  async function completeCheckout(sessionId: string): Promise<Rec> {
    const session = get(sessionId, 'checkout.session')
    if (session.status !== 'open') throw invalid(`This Checkout Session is ${String(session.status)}.`)
    const customerId = String(session.customer)
    const customer = get(customerId, 'customer')
    const paymentMethod = put({ id: id('pm'), object: 'payment_method', type: 'card', customer: customerId })
    const lineItems = arr(session.__line_items).map(rec)
    const prices = lineItems.map((item) => ({
      price: get(String(item.price), 'price'),
      quantity: num(item.quantity) ?? 1,
    }))
    const amount = prices.reduce(
      (sum, { price, quantity }) => sum + (num(price.unit_amount) ?? 0) * quantity,
      0,
    )
    const items: { type: string; object: Rec }[] = []
    if (session.mode === 'subscription') {
      const first = prices[0]
      if (!first) throw invalid('Checkout Session has no line items')
      customer.invoice_settings = {
        ...rec(customer.invoice_settings),
        default_payment_method: paymentMethod.id,
      }
      const sub = createSubscription(
        customerId,
        first.price,
        rec(session.__subscription_metadata),
        String(paymentMethod.id),
      )
      const invoice = newInvoice(sub, 'subscription_create', amount, true, [
        { amount, description: `1 × ${String(first.price.nickname ?? first.price.id)}` },
      ])
      sub.latest_invoice = invoice.id
      Object.assign(session, { subscription: sub.id, invoice: invoice.id })
      items.push(
        { type: 'customer.subscription.created', object: sub },
        { type: 'invoice.paid', object: invoice },
      )
    } else {
      if (session.__save_card) {
        customer.invoice_settings = {
          ...rec(customer.invoice_settings),
          default_payment_method: paymentMethod.id,
        }
      }
      const intent = put({
        id: id('pi'),
        object: 'payment_intent',
        amount,
        amount_received: amount,
        currency: 'usd',
        customer: customerId,
        payment_method: paymentMethod.id,
        status: 'succeeded',
        metadata: clone(rec(session.__payment_intent_metadata)),
        created: nowSeconds(),
        livemode: false,
      })
      session.payment_intent = intent.id
      items.push({ type: 'payment_intent.succeeded', object: intent })
    }
    Object.assign(session, { status: 'complete', payment_status: 'paid', amount_total: amount })
    items.push({ type: 'checkout.session.completed', object: publicSession(session) })
    await emit(items)
    return publicSession(session)
  }

  function publicSession(session: Rec): Rec {
    return Object.fromEntries(Object.entries(session).filter(([key]) => !key.startsWith('__')))
  }

  function applyPhaseAt(sub: Rec, periodStart: number): Rec[] {
    const released: Rec[] = []
    if (!sub.schedule) return released
    const schedule = get(String(sub.schedule), 'subscription_schedule')
    const phases = arr(schedule.phases).map(rec)
    const index = phases.findIndex((phase) => num(phase.start_date) === periodStart)
    const phase = phases[index]
    if (!phase) return released
    const item = firstItem(sub)
    const priceId = str(rec(arr(phase.items)[0]).price)
    if (priceId) item.price = clone(get(priceId, 'price'))
    schedule.current_phase = { start_date: phase.start_date, end_date: phase.end_date }
    if (index === phases.length - 1 && schedule.end_behavior === 'release') {
      Object.assign(schedule, { status: 'released', released_subscription: sub.id, subscription: null })
      sub.schedule = null
      released.push(schedule)
    }
    return released
  }

  async function renewSubscription(subId: string, renewOptions: { fail?: boolean } = {}): Promise<Rec> {
    const sub = get(subId, 'subscription')
    if (sub.status === 'canceled') throw invalid('This subscription is canceled.')
    if (sub.cancel_at_period_end) return endSubscription(subId)
    const item = firstItem(sub)
    const start = Number(item.current_period_end)
    Object.assign(item, { current_period_start: start, current_period_end: addMonth(start) })
    const released = applyPhaseAt(sub, start)
    const card = customerCard(String(sub.customer))
    const isPaid = !renewOptions.fail && card === 'succeeded'
    const amount = num(rec(item.price).unit_amount) ?? 0
    const invoice = newInvoice(sub, 'subscription_cycle', amount, isPaid, [
      { amount, description: 'Renewal' },
    ])
    sub.latest_invoice = invoice.id
    const previous = { status: sub.status }
    sub.status = isPaid ? 'active' : 'past_due'
    await emit([
      ...released.map((schedule) => ({ type: 'subscription_schedule.released', object: schedule })),
      { type: isPaid ? 'invoice.paid' : 'invoice.payment_failed', object: invoice },
      // A card whose bank wants 3-D Secure: Stripe also asks for the customer's action.
      ...(!isPaid && !renewOptions.fail && card === 'authentication_required'
        ? [{ type: 'invoice.payment_action_required', object: invoice }]
        : []),
      { type: 'customer.subscription.updated', object: sub, previous },
    ])
    return sub
  }

  async function endSubscription(subId: string): Promise<Rec> {
    const sub = get(subId, 'subscription')
    const at = nowSeconds()
    Object.assign(sub, { status: 'canceled', canceled_at: sub.canceled_at ?? at, ended_at: at })
    await emit([{ type: 'customer.subscription.deleted', object: sub }])
    return sub
  }

  /** Settles the open invoice of a past-due subscription with the (new) card, as the portal does. */
  async function payOpenInvoice(sub: Rec): Promise<void> {
    const invoice = sub.latest_invoice ? objects.get(String(sub.latest_invoice)) : undefined
    if (invoice?.status !== 'open') return
    Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due, amount_remaining: 0 })
    const previous = { status: sub.status }
    sub.status = 'active'
    await emit([
      { type: 'invoice.paid', object: invoice },
      { type: 'customer.subscription.updated', object: sub, previous },
    ])
  }

  function updateSubscription(sub: Rec, body: Rec): { type: string; object: Rec; previous?: Rec }[] {
    if (sub.status === 'canceled') {
      throw invalid('A canceled subscription can only update its cancellation_details and metadata.')
    }
    const wantsItems = body.items !== undefined
    const cancelFlag = bool(body.cancel_at_period_end)
    if (sub.schedule && (wantsItems || cancelFlag !== undefined)) {
      throw invalid(
        `The subscription is managed by the subscription schedule \`${String(sub.schedule)}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
      )
    }
    const previous: Rec = {}
    const emitted: { type: string; object: Rec; previous?: Rec }[] = []
    if (isRec(body.metadata)) {
      previous.metadata = clone(sub.metadata)
      sub.metadata = { ...rec(sub.metadata), ...body.metadata }
    }
    if (cancelFlag !== undefined) {
      previous.cancel_at_period_end = sub.cancel_at_period_end
      const item = firstItem(sub)
      Object.assign(sub, {
        cancel_at_period_end: cancelFlag,
        cancel_at: cancelFlag ? item.current_period_end : null,
        canceled_at: cancelFlag ? nowSeconds() : null,
      })
    }
    if (wantsItems) {
      const change = rec(arr(body.items)[0])
      const item = firstItem(sub)
      if (change.id !== item.id)
        throw invalid(`Invalid subscription item: ${String(change.id)}`, 'items[0][id]')
      const next = get(String(change.price), 'price')
      const old = rec(item.price)
      if (next.id !== old.id) {
        if (!next.recurring)
          throw invalid('The price must be recurring for a subscription.', 'items[0][price]')
        previous.items = clone(sub.items)
        item.price = clone(next)
        const behavior = str(body.proration_behavior) ?? 'create_prorations'
        if (behavior !== 'none') {
          const start = Number(item.current_period_start)
          const end = Number(item.current_period_end)
          const left = Math.max(0, Math.min(1, (end - nowSeconds()) / Math.max(1, end - start)))
          const amount = Math.round(((num(next.unit_amount) ?? 0) - (num(old.unit_amount) ?? 0)) * left)
          const lines = [
            {
              amount: -Math.round((num(old.unit_amount) ?? 0) * left),
              description: 'Unused time',
              proration: true,
            },
            {
              amount: Math.round((num(next.unit_amount) ?? 0) * left),
              description: 'Remaining time',
              proration: true,
            },
          ]
          if (behavior === 'always_invoice') {
            const isPaid = amount <= 0 || customerCard(String(sub.customer)) === 'succeeded'
            if (!isPaid && body.payment_behavior === 'pending_if_incomplete') {
              item.price = clone(old)
              throw new StripeFakeError(402, {
                type: 'card_error',
                code: 'card_declined',
                message: 'Your card was declined.',
              })
            }
            const invoice = newInvoice(sub, 'subscription_update', Math.max(0, amount), isPaid, lines)
            sub.latest_invoice = invoice.id
            emitted.push({ type: isPaid ? 'invoice.paid' : 'invoice.payment_failed', object: invoice })
          } else {
            put({ id: id('ii'), object: 'invoiceitem', customer: sub.customer, amount, proration: true })
          }
        }
      }
    }
    if (Object.keys(previous).length > 0) {
      emitted.unshift({ type: 'customer.subscription.updated', object: sub, previous })
    }
    return emitted
  }

  function schedulePhases(schedule: Rec, body: Rec, sub: Rec): void {
    const item = firstItem(sub)
    let cursor = num(item.current_period_start) ?? nowSeconds()
    schedule.phases = arr(body.phases).map((raw, index) => {
      const phase = rec(raw)
      const given = phase.start_date === 'now' ? nowSeconds() : num(phase.start_date)
      const start = index === 0 ? (given ?? cursor) : cursor
      const duration = rec(phase.duration)
      const months = duration.interval === 'month' ? (num(duration.interval_count) ?? 1) : 1
      let end = num(phase.end_date)
      if (end === undefined) {
        end = start
        for (let m = 0; m < months; m++) end = addMonth(end)
      }
      cursor = end
      return {
        start_date: start,
        end_date: end,
        items: arr(phase.items).map((entry) => {
          const price = String(rec(entry).price)
          get(price, 'price')
          return { price, quantity: num(rec(entry).quantity) ?? 1 }
        }),
        proration_behavior: str(phase.proration_behavior) ?? 'create_prorations',
        metadata: rec(phase.metadata),
      }
    })
    if (body.end_behavior) schedule.end_behavior = body.end_behavior
  }

  // ---- expand -------------------------------------------------------------------------------

  function expandPath(value: unknown, segments: string[]): unknown {
    if (Array.isArray(value)) return value.map((entry) => expandPath(entry, segments))
    if (segments.length === 0) {
      const found = typeof value === 'string' ? objects.get(value) : undefined
      return found ? publicSession(clone(found)) : value
    }
    if (!isRec(value)) return value
    const [head = '', ...rest] = segments
    return { ...value, [head]: expandPath(value[head], rest) }
  }

  function expand(object: Rec, params: Rec): Rec {
    let result: unknown = object
    for (const path of arr(params.expand).map(String)) result = expandPath(result, path.split('.'))
    return result as Rec
  }

  // ---- the API ------------------------------------------------------------------------------

  async function api(method: string, path: string, body: Rec): Promise<{ status: number; body: unknown }> {
    let m: RegExpExecArray | null
    const route = (pattern: RegExp, wanted: string) => {
      m = method === wanted ? pattern.exec(path) : null
      return m !== null
    }
    const param = (index: number) => decodeURIComponent((m as RegExpExecArray)[index] ?? '')
    const ok = (object: Rec) => ({ status: 200, body: expand(publicSession(clone(object)), body) })
    const later = (items: { type: string; object: Rec; previous?: Rec }[]) => {
      if (items.length > 0) void emit(items)
    }

    // customers
    if (route(/^\/v1\/customers$/, 'POST')) {
      const customer = put({
        id: id('cus'),
        object: 'customer',
        email: str(body.email) ?? null,
        name: str(body.name) ?? null,
        metadata: rec(body.metadata),
        preferred_locales: arr(body.preferred_locales).map(String),
        invoice_settings: { default_payment_method: null },
        created: nowSeconds(),
        livemode: false,
      })
      return ok(customer)
    }
    if (route(/^\/v1\/customers\/([^/]+)$/, 'GET')) return ok(get(param(1), 'customer'))
    if (route(/^\/v1\/customers\/([^/]+)$/, 'POST')) {
      const customer = get(param(1), 'customer')
      if (body.email !== undefined) customer.email = body.email
      if (body.name !== undefined) customer.name = body.name
      if (isRec(body.metadata)) customer.metadata = { ...rec(customer.metadata), ...body.metadata }
      if (body.preferred_locales !== undefined)
        customer.preferred_locales = arr(body.preferred_locales).map(String)
      if (isRec(body.invoice_settings)) {
        customer.invoice_settings = { ...rec(customer.invoice_settings), ...body.invoice_settings }
      }
      return ok(customer)
    }

    // products
    if (route(/^\/v1\/products$/, 'POST')) {
      const productId = str(body.id) ?? id('prod')
      if (objects.has(productId)) throw invalid(`Product already exists.`, 'id', 'resource_already_exists')
      if (!str(body.name)) throw invalid('Missing required param: name.', 'name', 'parameter_missing')
      return ok(
        put({
          id: productId,
          object: 'product',
          name: body.name,
          description: str(body.description) ?? null,
          active: bool(body.active) ?? true,
          metadata: rec(body.metadata),
          created: nowSeconds(),
          livemode: false,
        }),
      )
    }
    if (route(/^\/v1\/products\/([^/]+)$/, 'GET')) return ok(get(param(1), 'product'))
    if (route(/^\/v1\/products\/([^/]+)$/, 'POST')) {
      const product = get(param(1), 'product')
      for (const key of ['name', 'description'] as const)
        if (body[key] !== undefined) product[key] = body[key]
      if (body.active !== undefined) product.active = bool(body.active)
      if (isRec(body.metadata)) product.metadata = { ...rec(product.metadata), ...body.metadata }
      return ok(product)
    }

    // prices
    if (route(/^\/v1\/prices$/, 'POST')) {
      const product = get(String(body.product), 'product')
      const lookupKey = str(body.lookup_key) ?? null
      if (lookupKey) {
        const holder = ofPrefix('price_').find((price) => price.lookup_key === lookupKey)
        if (holder && bool(body.transfer_lookup_key) !== true) {
          throw invalid(
            `A price (\`${String(holder.id)}\`) already uses that lookup key.`,
            'lookup_key',
            'lookup_key_already_exists',
          )
        }
        if (holder) holder.lookup_key = null
      }
      const recurring = isRec(body.recurring)
        ? { interval: body.recurring.interval, interval_count: num(body.recurring.interval_count) ?? 1 }
        : null
      return ok(
        put({
          id: id('price'),
          object: 'price',
          product: product.id,
          unit_amount: num(body.unit_amount) ?? 0,
          currency: str(body.currency) ?? 'usd',
          recurring,
          type: recurring ? 'recurring' : 'one_time',
          lookup_key: lookupKey,
          nickname: str(body.nickname) ?? null,
          active: bool(body.active) ?? true,
          metadata: rec(body.metadata),
          created: nowSeconds(),
          livemode: false,
        }),
      )
    }
    if (route(/^\/v1\/prices$/, 'GET')) {
      const keys = arr(body.lookup_keys).map(String)
      const active = bool(body.active)
      const data = ofPrefix('price_').filter(
        (price) =>
          (keys.length === 0 || keys.includes(String(price.lookup_key))) &&
          (active === undefined || price.active === active) &&
          (!body.product || price.product === body.product),
      )
      return { status: 200, body: expand(list(clone(data), '/v1/prices'), body) }
    }
    if (route(/^\/v1\/prices\/([^/]+)$/, 'GET')) return ok(get(param(1), 'price'))
    if (route(/^\/v1\/prices\/([^/]+)$/, 'POST')) {
      const price = get(param(1), 'price')
      if (body.active !== undefined) price.active = bool(body.active)
      if (body.nickname !== undefined) price.nickname = body.nickname
      if (isRec(body.metadata)) price.metadata = { ...rec(price.metadata), ...body.metadata }
      if (body.lookup_key !== undefined) {
        const key = str(body.lookup_key) || null
        const holder = key
          ? ofPrefix('price_').find((p) => p.lookup_key === key && p.id !== price.id)
          : undefined
        if (holder && bool(body.transfer_lookup_key) !== true) {
          throw invalid('A price already uses that lookup key.', 'lookup_key', 'lookup_key_already_exists')
        }
        if (holder) holder.lookup_key = null
        price.lookup_key = key
      }
      return ok(price)
    }

    // billing portal
    if (route(/^\/v1\/billing_portal\/configurations$/, 'POST')) {
      const isFirst = ofPrefix('bpc_').length === 0
      return ok(
        put({
          id: id('bpc'),
          object: 'billing_portal.configuration',
          active: true,
          is_default: isFirst,
          business_profile: rec(body.business_profile),
          features: rec(body.features),
          default_return_url: str(body.default_return_url) ?? null,
          metadata: rec(body.metadata),
          created: nowSeconds(),
          updated: nowSeconds(),
          livemode: false,
        }),
      )
    }
    if (route(/^\/v1\/billing_portal\/configurations$/, 'GET')) {
      const data = ofPrefix('bpc_').filter(
        (config) =>
          (body.is_default === undefined || config.is_default === bool(body.is_default)) &&
          (body.active === undefined || config.active === bool(body.active)),
      )
      return { status: 200, body: list(clone(data), '/v1/billing_portal/configurations') }
    }
    if (route(/^\/v1\/billing_portal\/configurations\/([^/]+)$/, 'POST')) {
      const config = get(param(1), 'billing_portal.configuration')
      for (const key of ['business_profile', 'features', 'default_return_url'] as const) {
        if (body[key] !== undefined) config[key] = body[key]
      }
      if (body.active !== undefined) config.active = bool(body.active)
      if (isRec(body.metadata)) config.metadata = { ...rec(config.metadata), ...body.metadata }
      config.updated = nowSeconds()
      return ok(config)
    }
    if (route(/^\/v1\/billing_portal\/sessions$/, 'POST')) {
      const customer = get(String(body.customer), 'customer')
      const sessionId = id('bps')
      return ok(
        put({
          id: sessionId,
          object: 'billing_portal.session',
          customer: customer.id,
          return_url: str(body.return_url) ?? null,
          configuration: str(body.configuration) ?? ofPrefix('bpc_').find((c) => c.is_default)?.id ?? null,
          flow: isRec(body.flow_data) ? body.flow_data : null,
          locale: str(body.locale) ?? null,
          url: `${origin}/portal/${sessionId}`,
          created: nowSeconds(),
          livemode: false,
        }),
      )
    }

    // webhook endpoints
    if (route(/^\/v1\/webhook_endpoints$/, 'POST')) {
      if (!str(body.url)) throw invalid('Missing required param: url.', 'url', 'parameter_missing')
      const endpoint = put({
        id: id('we'),
        object: 'webhook_endpoint',
        url: body.url,
        enabled_events: arr(body.enabled_events).map(String),
        api_version: str(body.api_version) ?? null,
        description: str(body.description) ?? null,
        metadata: rec(body.metadata),
        status: 'enabled',
        secret: `whsec_${randomBytes(24).toString('hex')}`,
        created: nowSeconds(),
        livemode: false,
      })
      return ok(endpoint)
    }
    if (route(/^\/v1\/webhook_endpoints$/, 'GET')) {
      const data = ofPrefix('we_').map((endpoint) => {
        const { secret: _secret, ...rest } = endpoint
        return rest
      })
      return { status: 200, body: list(clone(data), '/v1/webhook_endpoints') }
    }
    if (route(/^\/v1\/webhook_endpoints\/([^/]+)$/, 'POST')) {
      const endpoint = get(param(1), 'webhook_endpoint')
      if (body.url !== undefined) endpoint.url = body.url
      if (body.enabled_events !== undefined) endpoint.enabled_events = arr(body.enabled_events).map(String)
      if (body.description !== undefined) endpoint.description = body.description
      if (body.disabled !== undefined) endpoint.status = bool(body.disabled) ? 'disabled' : 'enabled'
      if (isRec(body.metadata)) endpoint.metadata = { ...rec(endpoint.metadata), ...body.metadata }
      const { secret: _secret, ...rest } = endpoint
      return ok(rest)
    }

    // checkout
    if (route(/^\/v1\/checkout\/sessions$/, 'POST')) {
      const mode = str(body.mode)
      if (mode !== 'subscription' && mode !== 'payment') throw invalid('Invalid mode.', 'mode')
      if (!str(body.success_url)) throw invalid('Missing required param: success_url.', 'success_url')
      const customer = body.customer ? get(String(body.customer), 'customer') : null
      if (!customer)
        throw invalid('This fake needs a customer for Checkout.', 'customer', 'parameter_missing')
      const lineItems = arr(body.line_items).map(rec)
      if (lineItems.length === 0) throw invalid('Missing required param: line_items.', 'line_items')
      for (const item of lineItems) {
        const price = get(String(item.price), 'price')
        if (price.active === false) throw invalid('The price is not active.', 'line_items[0][price]')
        if ((mode === 'subscription') !== Boolean(price.recurring)) {
          throw invalid(
            mode === 'subscription'
              ? 'You must provide at least one recurring price in `subscription` mode.'
              : 'You specified `payment` mode but passed a recurring price.',
            'line_items[0][price]',
          )
        }
      }
      const sessionId = `cs_test_${randomBytes(16).toString('hex')}`
      const paymentIntentData = rec(body.payment_intent_data)
      const session = put({
        id: sessionId,
        object: 'checkout.session',
        mode,
        status: 'open',
        payment_status: 'unpaid',
        customer: customer.id,
        customer_email: customer.email,
        client_reference_id: str(body.client_reference_id) ?? null,
        metadata: rec(body.metadata),
        locale: str(body.locale) ?? null,
        success_url: body.success_url,
        cancel_url: str(body.cancel_url) ?? null,
        subscription: null,
        payment_intent: null,
        invoice: null,
        amount_total: null,
        currency: 'usd',
        url: `${origin}/checkout/${sessionId}`,
        created: nowSeconds(),
        expires_at: nowSeconds() + 24 * 3600,
        livemode: false,
        __line_items: lineItems.map((item) => ({ price: item.price, quantity: num(item.quantity) ?? 1 })),
        __subscription_metadata: rec(rec(body.subscription_data).metadata),
        __payment_intent_metadata: rec(paymentIntentData.metadata),
        __save_card: paymentIntentData.setup_future_usage === 'off_session',
      })
      return ok(session)
    }
    if (route(/^\/v1\/checkout\/sessions\/([^/]+)$/, 'GET')) return ok(get(param(1), 'checkout.session'))
    if (route(/^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, 'POST')) {
      const session = get(param(1), 'checkout.session')
      if (session.status !== 'open') throw invalid('Only open Checkout Sessions can be expired.')
      session.status = 'expired'
      return ok(session)
    }

    // subscriptions
    if (route(/^\/v1\/subscriptions\/([^/]+)$/, 'GET')) return ok(get(param(1), 'subscription'))
    if (route(/^\/v1\/subscriptions\/([^/]+)$/, 'POST')) {
      const sub = get(param(1), 'subscription')
      later(updateSubscription(sub, body))
      return ok(sub)
    }
    if (route(/^\/v1\/subscriptions\/([^/]+)$/, 'DELETE')) {
      const sub = get(param(1), 'subscription')
      if (sub.status === 'canceled') throw invalid('This subscription is already canceled.')
      const at = nowSeconds()
      Object.assign(sub, { status: 'canceled', canceled_at: at, ended_at: at })
      later([{ type: 'customer.subscription.deleted', object: sub }])
      return ok(sub)
    }

    // subscription schedules
    if (route(/^\/v1\/subscription_schedules$/, 'POST')) {
      const sub = get(String(body.from_subscription), 'subscription')
      if (sub.schedule) throw invalid('The subscription already has a schedule.', 'from_subscription')
      const item = firstItem(sub)
      const schedule = put({
        id: id('sub_sched'),
        object: 'subscription_schedule',
        subscription: sub.id,
        customer: sub.customer,
        status: 'active',
        end_behavior: 'release',
        released_subscription: null,
        metadata: rec(body.metadata),
        current_phase: { start_date: item.current_period_start, end_date: item.current_period_end },
        phases: [
          {
            start_date: item.current_period_start,
            end_date: item.current_period_end,
            items: [{ price: rec(item.price).id, quantity: 1 }],
            proration_behavior: 'create_prorations',
            metadata: {},
          },
        ],
        created: nowSeconds(),
        livemode: false,
      })
      sub.schedule = schedule.id
      later([
        { type: 'subscription_schedule.created', object: schedule },
        { type: 'customer.subscription.updated', object: sub, previous: { schedule: null } },
      ])
      return ok(schedule)
    }
    if (route(/^\/v1\/subscription_schedules\/([^/]+)$/, 'GET'))
      return ok(get(param(1), 'subscription_schedule'))
    if (route(/^\/v1\/subscription_schedules\/([^/]+)$/, 'POST')) {
      const schedule = get(param(1), 'subscription_schedule')
      if (schedule.status !== 'active')
        throw invalid(`You cannot update a ${String(schedule.status)} schedule.`)
      const sub = get(String(schedule.subscription), 'subscription')
      if (body.phases !== undefined) schedulePhases(schedule, body, sub)
      else if (body.end_behavior) schedule.end_behavior = body.end_behavior
      if (isRec(body.metadata)) schedule.metadata = { ...rec(schedule.metadata), ...body.metadata }
      later([{ type: 'subscription_schedule.updated', object: schedule }])
      return ok(schedule)
    }
    if (route(/^\/v1\/subscription_schedules\/([^/]+)\/release$/, 'POST')) {
      const schedule = get(param(1), 'subscription_schedule')
      if (schedule.status !== 'active')
        throw invalid(`You cannot release a ${String(schedule.status)} schedule.`)
      const sub = get(String(schedule.subscription), 'subscription')
      Object.assign(schedule, { status: 'released', released_subscription: sub.id, subscription: null })
      sub.schedule = null
      later([
        { type: 'subscription_schedule.released', object: schedule },
        { type: 'customer.subscription.updated', object: sub, previous: { schedule: schedule.id } },
      ])
      return ok(schedule)
    }

    // payment intents (off-session charges)
    if (route(/^\/v1\/payment_intents$/, 'POST')) {
      const customer = get(String(body.customer), 'customer')
      const paymentMethod =
        str(body.payment_method) ?? str(rec(customer.invoice_settings).default_payment_method) ?? null
      if (!paymentMethod) {
        throw invalid('The customer has no attached payment method.', 'payment_method', 'parameter_missing')
      }
      const amount = num(body.amount)
      if (!amount || amount < 50)
        throw invalid('Amount must be at least $0.50 usd.', 'amount', 'amount_too_small')
      const outcome = customerCard(String(customer.id))
      const intent = put({
        id: id('pi'),
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency: str(body.currency) ?? 'usd',
        customer: customer.id,
        payment_method: paymentMethod,
        status: 'requires_confirmation',
        metadata: rec(body.metadata),
        off_session: bool(body.off_session) ?? false,
        last_payment_error: null,
        created: nowSeconds(),
        livemode: false,
      })
      if (bool(body.confirm) !== true) return ok(intent)
      if (outcome === 'succeeded') {
        Object.assign(intent, { status: 'succeeded', amount_received: amount })
        later([{ type: 'payment_intent.succeeded', object: intent }])
        return ok(intent)
      }
      const error =
        outcome === 'card_declined'
          ? { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' }
          : {
              code: 'authentication_required',
              decline_code: 'authentication_required',
              message: 'Your card was declined. This transaction requires authentication.',
            }
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', ...error },
      })
      later([{ type: 'payment_intent.payment_failed', object: intent }])
      throw new StripeFakeError(402, { type: 'card_error', ...error, payment_intent: clone(intent) })
    }
    if (route(/^\/v1\/payment_intents\/([^/]+)$/, 'GET')) return ok(get(param(1), 'payment_intent'))

    throw new StripeFakeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    })
  }

  // ---- hosted pages -------------------------------------------------------------------------

  function checkoutPage(session: Rec): string {
    const lines = arr(session.__line_items)
      .map(rec)
      .map((item) => {
        const price = objects.get(String(item.price)) ?? {}
        const product = objects.get(String(price.product)) ?? {}
        const amount = ((num(price.unit_amount) ?? 0) / 100).toFixed(2)
        const per = isRec(price.recurring) ? ` / ${String(price.recurring.interval)}` : ''
        return `<p><strong>${escapeHtml(String(product.name ?? price.id))}</strong> — $${amount}${per}</p>`
      })
      .join('')
    const id = escapeHtml(String(session.id))
    const isOpen = session.status === 'open'
    return page(
      'Checkout',
      `<h1>Pay Vitrin</h1><div class="box">${lines}<p class="muted">${escapeHtml(String(session.customer_email ?? ''))}</p>
<p class="muted">Card 4242 4242 4242 4242 (test)</p></div>
${isOpen ? `<form method="post" action="/checkout/${id}/pay"><button type="submit">Pay</button></form>` : `<p>This checkout is ${escapeHtml(String(session.status))}.</p>`}
${session.cancel_url ? ` <a href="${escapeHtml(String(session.cancel_url))}">Back</a>` : ''}`,
    )
  }

  /** The hosted invoice page: an open invoice is confirmed and paid here (3-D Secure passes). */
  function invoicePage(invoice: Rec): string {
    const id = escapeHtml(String(invoice.id))
    const amount = ((num(invoice.amount_due) ?? 0) / 100).toFixed(2)
    const action =
      invoice.status === 'open'
        ? `<form method="post" action="/invoice/${id}/pay"><button type="submit">Confirm and pay</button></form>`
        : `<p>This invoice is ${escapeHtml(String(invoice.status))}.</p>`
    return page(
      'Invoice',
      `<h1>Invoice</h1><div class="box"><p><strong>$${amount}</strong></p></div>${action}`,
    )
  }

  function portalPage(session: Rec): string {
    const subs = ofPrefix('sub_').filter(
      (sub) => sub.customer === session.customer && sub.status !== 'canceled',
    )
    const id = escapeHtml(String(session.id))
    const rows = subs
      .map((sub) => {
        const item = firstItem(sub)
        const price = rec(item.price)
        const product = objects.get(String(price.product)) ?? {}
        const end = new Date(Number(item.current_period_end) * 1000).toISOString().slice(0, 10)
        const subId = escapeHtml(String(sub.id))
        const action = sub.cancel_at_period_end
          ? `<p>Cancels on ${end}.</p><form method="post" action="/portal/${id}/resume?sub=${subId}"><button type="submit">Don't cancel</button></form>`
          : `<p>Renews on ${end}.</p><form method="post" action="/portal/${id}/cancel?sub=${subId}"><button type="submit">Cancel plan</button></form>`
        const fix =
          sub.status === 'past_due'
            ? `<p>Your last payment failed.</p><form method="post" action="/portal/${id}/pay?sub=${subId}"><button type="submit">Update card and pay</button></form>`
            : ''
        return `<div class="box"><h2>${escapeHtml(String(product.name ?? price.id))}</h2><p class="muted">Status: ${escapeHtml(String(sub.status))}</p>${fix}${action}</div>`
      })
      .join('')
    const back = session.return_url
      ? `<p><a href="${escapeHtml(String(session.return_url))}">Return to Vitrin</a></p>`
      : ''
    return page('Billing portal', `<h1>Manage billing</h1>${rows || '<p>No subscriptions.</p>'}${back}`)
  }

  async function handlePages(method: string, url: URL, res: ServerResponse): Promise<boolean> {
    const html = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
      res.end(text)
    }
    const redirect = (to: string) => {
      res.writeHead(303, { location: to })
      res.end()
    }
    let m = /^\/checkout\/([^/]+)$/.exec(url.pathname)
    if (m && method === 'GET') {
      const session = objects.get(m[1] ?? '')
      html(
        session ? 200 : 404,
        session ? checkoutPage(session) : page('Checkout', '<p>No such checkout.</p>'),
      )
      return true
    }
    m = /^\/checkout\/([^/]+)\/pay$/.exec(url.pathname)
    if (m && method === 'POST') {
      const session = await completeCheckout(m[1] ?? '')
      redirect(String(session.success_url).replace('{CHECKOUT_SESSION_ID}', String(session.id)))
      return true
    }
    m = /^\/invoice\/([^/]+)(\/pay)?$/.exec(url.pathname)
    if (m) {
      const invoice = objects.get(m[1] ?? '')
      if (invoice?.object !== 'invoice') {
        html(404, page('Invoice', '<p>No such invoice.</p>'))
        return true
      }
      if (method === 'POST' && m[2]) {
        const sub = get(String(rec(rec(invoice.parent).subscription_details).subscription), 'subscription')
        // The customer confirmed with their bank: this payment goes through.
        if (sub.latest_invoice === invoice.id) await payOpenInvoice(sub)
        redirect(`/invoice/${String(invoice.id)}`)
        return true
      }
      html(200, invoicePage(invoice))
      return true
    }
    m = /^\/portal\/([^/]+)(?:\/(cancel|resume|pay))?$/.exec(url.pathname)
    if (m) {
      const session = objects.get(m[1] ?? '')
      if (!session) {
        html(404, page('Billing portal', '<p>No such session.</p>'))
        return true
      }
      if (method === 'GET' && !m[2]) {
        html(200, portalPage(session))
        return true
      }
      if (method === 'POST' && m[2]) {
        const sub = get(url.searchParams.get('sub') ?? '', 'subscription')
        if (sub.customer !== session.customer) throw invalid('Not this customer’s subscription.')
        if (m[2] === 'pay') {
          cards.set(String(sub.customer), 'succeeded')
          await payOpenInvoice(sub)
        } else {
          const changes = updateSubscription(sub, {
            cancel_at_period_end: m[2] === 'cancel' ? 'true' : 'false',
          })
          await emit(changes)
        }
        redirect(`/portal/${String(session.id)}`)
        return true
      }
    }
    return false
  }

  // ---- control ------------------------------------------------------------------------------

  async function handleControl(
    method: string,
    url: URL,
    raw: string,
  ): Promise<{ status: number; body: unknown }> {
    let body: Rec = {}
    try {
      body = raw ? (JSON.parse(raw) as Rec) : {}
    } catch {
      return { status: 400, body: { error: 'body must be JSON' } }
    }
    const path = url.pathname
    let m: RegExpExecArray | null
    if (method === 'GET' && path === '/__control/health') return { status: 200, body: { ok: true } }
    if (method === 'POST' && path === '/__control/reset') {
      fake.reset()
      return { status: 200, body: { ok: true } }
    }
    if (method === 'POST' && path === '/__control/webhook-endpoint') {
      const url = str(body.url)
      const secret = str(body.secret)
      if (!url || !secret) return { status: 400, body: { error: 'url and secret are required' } }
      return { status: 200, body: { id: fake.addWebhookEndpoint(url, secret) } }
    }
    if (method === 'POST' && path === '/__control/fail') {
      if (!str(body.path) || !num(body.status))
        return { status: 400, body: { error: 'path and status are required' } }
      fake.fail(body as unknown as StripeFakeFailure)
      return { status: 200, body: { ok: true } }
    }
    if (method === 'POST' && path === '/__control/fail/clear') {
      fake.clearFailures()
      return { status: 200, body: { ok: true } }
    }
    if (method === 'POST' && path === '/__control/events/hold') {
      fake.holdEvents()
      return { status: 200, body: { ok: true } }
    }
    if (method === 'POST' && path === '/__control/events/flush') {
      const order = body.order === 'reverse' ? 'reverse' : 'sent'
      return {
        status: 200,
        body: { deliveries: await fake.flush({ order, duplicate: body.duplicate === true }) },
      }
    }
    if (method === 'GET' && path === '/__control/events') {
      return { status: 200, body: { events, deliveries } }
    }
    m = /^\/__control\/events\/([^/]+)\/redeliver$/.exec(path)
    if (m && method === 'POST') return { status: 200, body: { deliveries: await fake.redeliver(m[1] ?? '') } }
    m = /^\/__control\/checkout\/([^/]+)\/complete$/.exec(path)
    if (m && method === 'POST') return { status: 200, body: await completeCheckout(m[1] ?? '') }
    m = /^\/__control\/subscriptions\/([^/]+)\/(renew|fail-renewal|end)$/.exec(path)
    if (m && method === 'POST') {
      const subId = m[1] ?? ''
      const result =
        m[2] === 'end'
          ? await endSubscription(subId)
          : await renewSubscription(subId, { fail: m[2] === 'fail-renewal' })
      return { status: 200, body: result }
    }
    m = /^\/__control\/customers\/([^/]+)\/card$/.exec(path)
    if (m && method === 'POST') {
      const outcome = str(body.outcome)
      if (outcome !== 'succeeded' && outcome !== 'card_declined' && outcome !== 'authentication_required') {
        return {
          status: 400,
          body: { error: 'outcome is succeeded, card_declined or authentication_required' },
        }
      }
      fake.setCard(m[1] ?? '', outcome)
      return { status: 200, body: { ok: true } }
    }
    if (method === 'GET' && path === '/__control/requests') return { status: 200, body: { requests } }
    return { status: 404, body: { error: `No control route for ${method} ${path}` } }
  }

  // ---- the server ---------------------------------------------------------------------------

  function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    const text = JSON.stringify(body)
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'request-id': `req_${randomBytes(7).toString('hex')}`,
      'stripe-version': apiVersion,
      ...headers,
    })
    res.end(text)
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET'
    const url = new URL(req.url ?? '/', origin)
    const raw = await readBody(req)
    if (url.pathname.startsWith('/__control/') && options.control) {
      const answer = await handleControl(method, url, raw)
      return send(res, answer.status, answer.body)
    }
    if (!url.pathname.startsWith('/v1/')) {
      try {
        if (await handlePages(method, url, res)) return
      } catch (error) {
        if (error instanceof StripeFakeError) return send(res, error.status, { error: error.body })
        throw error
      }
      return send(res, 404, { error: { type: 'invalid_request_error', message: 'Not found' } })
    }

    const auth = req.headers.authorization ?? ''
    if (!/^Bearer (sk|rk)_\w+/.test(auth)) {
      return send(res, 401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' },
      })
    }
    const body = parseStripeForm(method === 'GET' || method === 'DELETE' ? url.search.slice(1) : raw)
    const key = req.headers['idempotency-key']
    const idempotencyKey = typeof key === 'string' ? key : undefined
    const stripeVersion = req.headers['stripe-version']
    requests.push({
      method,
      path: url.pathname,
      body,
      idempotencyKey,
      stripeVersion: typeof stripeVersion === 'string' ? stripeVersion : undefined,
    })
    const fingerprint = `${method} ${url.pathname} ${raw}`
    if (idempotencyKey && method === 'POST') {
      const saved = idempotency.get(idempotencyKey)
      if (saved && saved.fingerprint !== fingerprint) {
        return send(res, 400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          },
        })
      }
      if (saved) return send(res, saved.status, saved.body, { 'idempotent-replayed': 'true' })
    }
    const remember = (status: number, answer: unknown) => {
      if (idempotencyKey && method === 'POST')
        idempotency.set(idempotencyKey, { fingerprint, status, body: answer })
    }
    const failure = failures.find(
      (f) =>
        f.left > 0 && url.pathname.startsWith(f.path) && (!f.method || f.method.toUpperCase() === method),
    )
    if (failure) {
      failure.left -= 1
      const answer = {
        error: {
          type: failure.type ?? (failure.status >= 500 ? 'api_error' : 'invalid_request_error'),
          code: failure.code,
          message: failure.message ?? `Scripted failure (${failure.status})`,
        },
      }
      remember(failure.status, answer)
      return send(res, failure.status, answer)
    }
    try {
      const answer = await api(method, url.pathname, body)
      remember(answer.status, answer.body)
      return send(res, answer.status, answer.body)
    } catch (error) {
      if (!(error instanceof StripeFakeError)) throw error
      const answer = { error: error.body }
      remember(error.status, answer)
      return send(res, error.status, answer)
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        send(res, 500, { error: { type: 'api_error', message: `Fake Stripe crashed: ${String(error)}` } })
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  origin = `http://${host}:${port}`

  const fake: StripeFake = {
    url: origin,
    host,
    port,
    requests,
    events,
    deliveries,
    objects,
    addWebhookEndpoint(url, secret) {
      const endpoint = put({
        id: id('we'),
        object: 'webhook_endpoint',
        url,
        enabled_events: ['*'],
        api_version: apiVersion,
        status: 'enabled',
        secret,
        metadata: {},
        created: nowSeconds(),
        livemode: false,
      })
      return String(endpoint.id)
    },
    completeCheckout,
    renewSubscription,
    endSubscription,
    setCard(customerId, outcome) {
      cards.set(customerId, outcome)
    },
    fail(failure) {
      failures.push({ ...failure, left: failure.times ?? 1 })
    },
    clearFailures() {
      failures = []
    },
    holdEvents() {
      held ??= []
    },
    async flush(flushOptions = {}) {
      const queue = held ?? []
      held = null
      const ordered = flushOptions.order === 'reverse' ? [...queue].reverse() : queue
      const all: StripeFakeDelivery[] = []
      for (const event of ordered) {
        all.push(...(await deliver(event)))
        if (flushOptions.duplicate) all.push(...(await deliver(event)))
      }
      return all
    },
    async redeliver(eventId) {
      const event = events.find((e) => e.id === eventId)
      if (!event) throw new Error(`no event ${eventId}`)
      return deliver(event)
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight])
    },
    lastOf(prefix) {
      return ofPrefix(prefix).at(-1)
    },
    reset() {
      objects.clear()
      requests.length = 0
      events.length = 0
      deliveries.length = 0
      idempotency.clear()
      cards.clear()
      failures = []
      held = null
    },
    close: () => closeServer(server),
  }
  return fake
}

// By hand: `npx tsx tests/fakes/stripe-server.ts [--port 4700] [--host 127.0.0.1]
//   [--webhook-url http://127.0.0.1:3000/api/billing/webhooks/stripe --webhook-secret whsec_…]`
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2)
  const fake = await startStripeFake({
    port: Number(argValue(args, '--port') ?? 4700),
    host: argValue(args, '--host') ?? '127.0.0.1',
    control: true,
  })
  const webhookUrl = argValue(args, '--webhook-url')
  const webhookSecret = argValue(args, '--webhook-secret')
  if (webhookUrl && webhookSecret) fake.addWebhookEndpoint(webhookUrl, webhookSecret)
  console.log(`Stripe fake listening on ${fake.url}`)
  console.log(
    `run the app with: BILLING_PROVIDER=stripe STRIPE_SECRET_KEY=sk_test_fake STRIPE_WEBHOOK_SECRET=whsec_… STRIPE_API_BASE=${fake.url}`,
  )
  exitOnStop(fake.close)
}
