import { randomInt } from 'node:crypto'
import Stripe from 'stripe'
import { stripeWebhookEvents, stripeWebhookPath } from '#server/features/billing/stripe-catalogue.ts'
import type { BillingRedirectResponse, UsageResponse } from '#shared/contracts/billing.ts'
import { getPlan, getTopUpPack, type PlanId } from '#shared/plans.ts'
import { stripeWebhookSecret } from '#tests/support/stripe-app.ts'
import { makeInputPhoto, signUp, uploadAsset } from './lib/app-client.ts'
import { askChild, type Child, cpuTimeMs, originOf, startChild, stopChild } from './lib/child.ts'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'
import { median, percentile } from './lib/stats.ts'

// `npx tsx bench/billing.ts` (part of `npm run bench`): the Stripe billing integration's budgets,
// on PostgreSQL when BENCH_DATABASE_URL is set, else on the embedded PGlite (the output says which).
// The app (BILLING_PROVIDER=stripe, bench/support/billing-server.ts) and the fake Stripe server
// (tests/fakes/stripe-server.ts, bench/support/stripe-fake-server.ts) each run in their own
// process, so that this load generator shares an event loop with neither.
//
// 1. Webhooks: 50 events of a realistic mix (checkouts of plans and of top-up packs, plan changes,
//    cancels, renewals paid and failed, subscriptions ended; 12 sellers) made by the fake while it
//    holds its deliveries, then signed as the fake signs them and delivered all at once to
//    POST /api/billing/webhooks/stripe. Per event, the HTTP round trip is the time from delivery
//    to committed effect: the route (billing.routes.ts) answers only once handleBillingWebhook
//    (billing-webhook.service.ts) has returned, which is after the transaction that records the
//    event and applies its effect has committed (and after the emails it wrote were handed to the
//    mailer). Budget: p95 ≤ 500 ms. Stripe waits far longer before it retries, and the return page
//    applies its own checkout without waiting for the webhook (billing.service.ts), so the budget
//    guards the burst's queueing: events about one subject are applied one after another.
// 2. Accepts: POST /api/generations timed to its 202 (not to the result), for (a) a seller whose
//    plan has room and (b) a seller whose plan quota is used up, who pays with top-up credits and
//    has auto top-up on, so that the accepts meeting an empty balance charge a pack off-session
//    on the fake (auto-topup.service.ts). Both on the same server, in alternating blocks, a few
//    requests in flight. No worker runs (billing-server.ts): the jobs stay queued, so nothing but
//    the accepts uses the server's CPU. Budget: p95 of (b) ≤ 1.10 × p95 of (a).
// Exits 1 when a budget is missed. An argument runs one part alone (`webhooks` or `accepts`);
// BENCH_CPU_PROFILE=<file> profiles the app server during the webhook burst (billing-server.ts).

const webhookEventCount = 50
const webhookBudgetMs = 500
/**
 * Timed accepts per scenario. One pack buys 100 images, so in steady use one accept in 100 meets
 * an empty balance and charges: 200 accepts starting with creditsAtStart credits meet exactly
 * two charges (the 11th and the 111th), that rate. Fewer accepts with the same two charges would
 * weigh the charges above what a seller's accepts meet (the requests in flight beside a charge
 * wait for it too), and the p99 and max below show those requests either way.
 */
const acceptsPerScenario = 200
/**
 * Rounds of them. A p95 of a few tens of milliseconds moves by 20 % from run to run on a shared
 * 2-core machine (0.88-1.74 for one round, measured: a stall of the machine that meets the four
 * requests in flight lands on (a) or (b) at random), so the budget is judged on the median
 * round. Five, since each charges two packs and the monthly cap allows ten.
 */
const acceptRounds = 5
const acceptBlock = 20
const acceptsInFlight = 4
const acceptRatioBudget = 1.1
const topUpPack = getTopUpPack('images_100')
/** Credits seller (b) has left when the timed accepts start. */
const creditsAtStart = 10

const databaseName = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'

type Stack = { stripe: Child; app: Child; origin: string; stripeUrl: string }

/** The fake Stripe server and an app billing through it, its account set up as billing:setup leaves it. */
async function startStack(): Promise<Stack> {
  const stripe = await startChild('bench/support/stripe-fake-server.ts')
  const { url: stripeUrl, appSettings } = stripe.ready
  if (!stripeUrl || !appSettings) throw new Error('the Stripe fake reported no URL or settings')
  try {
    const app = await startChild('bench/support/billing-server.ts', [JSON.stringify(appSettings)])
    const origin = originOf(app)
    await askChild(stripe, { type: 'connect', appUrl: origin }, 'connected')
    return { stripe, app, origin, stripeUrl }
  } catch (error) {
    await stopChild(stripe)
    throw error
  }
}

async function stopStack(stack: Stack): Promise<void> {
  await stopChild(stack.app)
  await stopChild(stack.stripe)
}

/** A signed-in seller: the headers of their requests (session cookie, their own client address). */
type Seller = { headers: Record<string, string> }

async function newSeller(origin: string): Promise<Seller> {
  const address = { 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` }
  return { headers: { ...address, cookie: await signUp(origin, address) } }
}

/** Calls the app as the seller; throws unless it answers `expected`. */
async function callApp<T>(
  stack: Stack,
  seller: Seller,
  path: string,
  init: { method?: string; json?: unknown; expected?: number } = {},
): Promise<T> {
  const response = await fetch(`${stack.origin}${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      ...seller.headers,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  })
  if (response.status !== (init.expected ?? 200)) {
    throw new Error(`${init.method ?? 'POST'} ${path} answered ${response.status}: ${await response.text()}`)
  }
  return (await response.json()) as T
}

/** Calls the fake's control routes (tests/fakes/stripe-server.ts, "control"). */
async function callStripe<T>(stack: Stack, path: string, method: 'GET' | 'POST' = 'POST'): Promise<T> {
  const response = await fetch(`${stack.stripeUrl}/__control/${path}`, { method })
  if (!response.ok)
    throw new Error(`Stripe fake ${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as T
}

/** Pays a Checkout the app started, as the hosted page's Pay button does; returns the session. */
async function pay(stack: Stack, redirect: BillingRedirectResponse): Promise<{ subscription?: string }> {
  const sessionId = redirect.url.split('/').pop()
  return callStripe(stack, `checkout/${sessionId}/complete`)
}

/** Buys a plan on Stripe Checkout; returns the subscription id. */
async function subscribe(stack: Stack, seller: Seller, planId: PlanId): Promise<string> {
  const started = await callApp<BillingRedirectResponse>(stack, seller, '/api/billing/checkout', {
    json: { planId },
  })
  const session = await pay(stack, started)
  if (!session.subscription) throw new Error('the plan checkout made no subscription')
  return session.subscription
}

async function buyPack(stack: Stack, seller: Seller): Promise<void> {
  await pay(
    stack,
    await callApp<BillingRedirectResponse>(stack, seller, '/api/billing/top-up', {
      json: { packId: topUpPack.id },
    }),
  )
}

async function usageOf(stack: Stack, seller: Seller): Promise<UsageResponse> {
  return callApp<UsageResponse>(stack, seller, '/api/usage')
}

/** The 95th percentile, the median and the slowest of a list of timings. */
function spread(label: string, timings: number[], p95Budget?: number): Figure[] {
  return [
    { name: `${label}: p50`, value: percentile(timings, 50), unit: 'ms' },
    { name: `${label}: p95`, value: percentile(timings, 95), unit: 'ms', budget: p95Budget },
    { name: `${label}: p99`, value: percentile(timings, 99), unit: 'ms' },
    { name: `${label}: max`, value: Math.max(...timings), unit: 'ms' },
  ]
}

// --- 1. Webhooks -----------------------------------------------------------------------------

type StripeEvent = { id: string; type: string }
type WebhookTiming = { type: string; ms: number; status: number; outcome: string | undefined }

/**
 * Makes the burst's events: 10 sellers subscribe beforehand (delivered as they happen); then, with
 * deliveries held, 2 more subscribe, all 12 buy a pack, 2 upgrade, 2 cancel at the period's end,
 * 6 renew (4 of them with a failing card) and the 2 canceled ones reach their period's end.
 */
async function makeWebhookEvents(stack: Stack): Promise<{ sellers: Seller[]; events: StripeEvent[] }> {
  const sellers = await Promise.all(Array.from({ length: 12 }, () => newSeller(stack.origin)))
  const subscriptions: string[] = []
  for (const [index, seller] of sellers.slice(0, 10).entries()) {
    subscriptions.push(await subscribe(stack, seller, index % 2 === 0 ? 'starter' : 'growth'))
  }
  const before = (await callStripe<{ events: StripeEvent[] }>(stack, 'events', 'GET')).events.length
  await callStripe(stack, 'events/hold')
  const subscription = (index: number) => subscriptions[index] ?? ''
  for (const seller of sellers.slice(10)) await subscribe(stack, seller, 'growth')
  for (const seller of sellers) await buyPack(stack, seller)
  for (const seller of sellers.slice(0, 2)) {
    await callApp(stack, seller, '/api/billing/subscription', { json: { planId: 'pro' } })
  }
  for (const seller of sellers.slice(2, 4)) {
    await callApp(stack, seller, '/api/billing/subscription', { method: 'DELETE' })
  }
  for (const index of [4, 5, 8, 9])
    await callStripe(stack, `subscriptions/${subscription(index)}/fail-renewal`)
  for (const index of [6, 7]) await callStripe(stack, `subscriptions/${subscription(index)}/renew`)
  // A renewal of a subscription set to cancel ends it instead.
  for (const index of [2, 3]) await callStripe(stack, `subscriptions/${subscription(index)}/renew`)
  const subscribed = new Set<string>(stripeWebhookEvents)
  const events = (await callStripe<{ events: StripeEvent[] }>(stack, 'events', 'GET')).events
    .slice(before)
    .filter((event) => subscribed.has(event.type))
  if (events.length < webhookEventCount) {
    throw new Error(`the flows made ${events.length} events, fewer than ${webhookEventCount}`)
  }
  return { sellers, events: events.slice(0, webhookEventCount) }
}

/** Delivers every event at once, signed as Stripe signs them; times each to its answer. */
async function deliverBurst(stack: Stack, events: StripeEvent[]): Promise<WebhookTiming[]> {
  const signed = events.map((event) => {
    const payload = JSON.stringify(event)
    return {
      event,
      payload,
      signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: stripeWebhookSecret }),
    }
  })
  return Promise.all(
    signed.map(async ({ event, payload, signature }) => {
      const started = performance.now()
      const response = await fetch(`${stack.origin}${stripeWebhookPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
        body: payload,
      })
      const answer = (await response.json().catch(() => ({}))) as { outcome?: string }
      return {
        type: event.type,
        ms: performance.now() - started,
        status: response.status,
        outcome: answer.outcome,
      }
    }),
  )
}

async function benchWebhooks(): Promise<Figure[]> {
  const load = machineLoad()
  const stack = await startStack()
  try {
    const { sellers, events } = await makeWebhookEvents(stack)
    const appCpu = cpuTimeMs(stack.app.ready.pid ?? Number.NaN)
    const stripeCpu = cpuTimeMs(stack.stripe.process.pid ?? Number.NaN)
    await askChild(stack.app, { type: 'profile-start' }, 'profile-start-done')
    const timings = await deliverBurst(stack, events)
    await askChild(stack.app, { type: 'profile-stop' }, 'profile-stop-done')
    const appCpuMs = cpuTimeMs(stack.app.ready.pid ?? Number.NaN) - appCpu
    const stripeCpuMs = cpuTimeMs(stack.stripe.process.pid ?? Number.NaN) - stripeCpu
    const refused = timings.filter(
      (t) => t.status !== 200 || (t.outcome !== 'applied' && t.outcome !== 'ignored'),
    )
    if (refused.length > 0) throw new Error(`deliveries not applied: ${JSON.stringify(refused.slice(0, 3))}`)
    // The effects are there once answered: every pack credited, the two new plans live.
    for (const [index, seller] of sellers.entries()) {
      const usage = await usageOf(stack, seller)
      if (usage.credits.images !== topUpPack.amount) throw new Error(`seller ${index} was not credited`)
      if (index >= 10 && usage.subscription?.planId !== 'growth')
        throw new Error(`seller ${index} has no plan`)
    }
    const types = new Map<string, number>()
    for (const event of events) types.set(event.type, (types.get(event.type) ?? 0) + 1)
    const label = `${events.length} events at once, delivery → committed`
    return [
      load,
      ...spread(
        label,
        timings.map((t) => t.ms),
        webhookBudgetMs,
      ),
      { name: '  applied', value: timings.filter((t) => t.outcome === 'applied').length, unit: 'events' },
      {
        name: '  ignored (no effect to apply)',
        value: timings.filter((t) => t.outcome === 'ignored').length,
        unit: 'events',
      },
      ...[...types].map(([type, count]) => ({ name: `    ${type}`, value: count, unit: 'events' })),
      { name: 'app server CPU time during the burst', value: appCpuMs, unit: 'ms' },
      { name: 'Stripe fake CPU time during the burst', value: stripeCpuMs, unit: 'ms' },
    ]
  } finally {
    await stopStack(stack)
  }
}

// --- 2. Accepts ------------------------------------------------------------------------------

type Generator = { seller: Seller; imageAssetId: string }

/** Sends `count` image generations, `acceptsInFlight` at a time; returns each one's time to its 202. */
async function accept(stack: Stack, generator: Generator, count: number): Promise<number[]> {
  const timings: number[] = []
  let next = 0
  const sendNext = async (): Promise<void> => {
    while (next < count) {
      next++
      const started = performance.now()
      const response = await fetch(`${stack.origin}/api/generations`, {
        method: 'POST',
        headers: { ...generator.seller.headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          mode: 'image',
          imageAssetId: generator.imageAssetId,
          prompt: 'on white marble',
        }),
      })
      const ms = performance.now() - started
      if (response.status !== 202) {
        throw new Error(`POST /api/generations answered ${response.status}: ${await response.text()}`)
      }
      await response.body?.cancel()
      timings.push(ms)
    }
  }
  await Promise.all(Array.from({ length: acceptsInFlight }, sendNext))
  return timings
}

/** Both scenarios, `perScenario` accepts each, in alternating blocks so that drift weighs on both alike. */
async function acceptInBlocks(stack: Stack, a: Generator, b: Generator, perScenario: number) {
  const timings = { a: [] as number[], b: [] as number[] }
  for (let sent = 0; sent < perScenario; sent += acceptBlock) {
    const size = Math.min(acceptBlock, perScenario - sent)
    timings.a.push(...(await accept(stack, a, size)))
    timings.b.push(...(await accept(stack, b, size)))
  }
  return timings
}

async function offSessionCharges(stack: Stack): Promise<number> {
  const { requests } = await callStripe<{ requests: { method: string; path: string }[] }>(
    stack,
    'requests',
    'GET',
  )
  return requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents').length
}

async function benchAccepts(): Promise<Figure[]> {
  const stack = await startStack()
  try {
    const photo = await makeInputPhoto()
    const withRoom = await newSeller(stack.origin)
    // Pro: its quota has room for the warm-up and every round.
    await subscribe(stack, withRoom, 'pro')
    // Seller (b): Starter bought on Checkout, its images used up, one pack bought (their card is
    // saved for off-session charges), auto top-up on.
    const onCredits = await newSeller(stack.origin)
    await subscribe(stack, onCredits, 'starter')
    await buyPack(stack, onCredits)
    await callApp(stack, onCredits, '/api/test/usage', {
      method: 'PUT',
      json: { imagesUsed: getPlan('starter').imageQuota, videosUsed: 0 },
    })
    await callApp(stack, onCredits, '/api/settings', {
      method: 'PATCH',
      json: { autoTopupEnabled: true, autoTopupMonthlyCap: 10 },
    })
    const a = {
      seller: withRoom,
      imageAssetId: await uploadAsset(stack.origin, withRoom.headers.cookie ?? '', photo, 'a.jpg'),
    }
    const b = {
      seller: onCredits,
      imageAssetId: await uploadAsset(stack.origin, onCredits.headers.cookie ?? '', photo, 'b.jpg'),
    }
    const before = await usageOf(stack, onCredits)
    if (before.images.used < before.images.quota || before.credits.images !== topUpPack.amount) {
      throw new Error(`seller (b) is not at the plan's end with one pack: ${JSON.stringify(before)}`)
    }

    // Untimed: warms every path, and spends (b)'s credits down to creditsAtStart.
    await acceptInBlocks(stack, a, b, topUpPack.amount - creditsAtStart)
    const chargesBefore = await offSessionCharges(stack)
    const load = machineLoad()
    // Each round ends with (b) back at creditsAtStart (two packs bought, 200 used), so every
    // round meets its charges at the same places.
    const rounds: { a: number[]; b: number[] }[] = []
    for (let round = 0; round < acceptRounds; round++) {
      rounds.push(await acceptInBlocks(stack, a, b, acceptsPerScenario))
    }
    const charges = (await offSessionCharges(stack)) - chargesBefore
    const expectedCharges = acceptRounds * Math.ceil((acceptsPerScenario - creditsAtStart) / topUpPack.amount)
    if (charges !== expectedCharges)
      throw new Error(`${charges} off-session charges, ${expectedCharges} expected`)

    const ratios = rounds.map((round) => percentile(round.b, 95) / percentile(round.a, 95))
    const all = { a: rounds.flatMap((round) => round.a), b: rounds.flatMap((round) => round.b) }
    return [
      load,
      ...spread(`(a) plan has room, ${acceptRounds} × ${acceptsPerScenario} accepts`, all.a),
      ...spread(`(b) on credits + auto top-up, ${acceptRounds} × ${acceptsPerScenario}`, all.b),
      { name: '  (b) packs charged off-session meanwhile', value: charges, unit: '' },
      ...ratios.map((ratio, index) => ({
        name: `  p95 (b) / p95 (a), round ${index + 1}`,
        value: ratio,
        unit: '×',
        digits: 2,
      })),
      {
        name: 'p95 (b) / p95 (a), median of the rounds',
        value: median(ratios),
        unit: '×',
        digits: 2,
        budget: acceptRatioBudget,
      },
    ]
  } finally {
    await stopStack(stack)
  }
}

const only = process.argv[2]
let isWithinBudgets = true
if (!only || only === 'webhooks') {
  const figures = await benchWebhooks()
  isWithinBudgets =
    printFigures(`Stripe webhooks to POST ${stripeWebhookPath} (${databaseName})`, figures) && isWithinBudgets
}
if (!only || only === 'accepts') {
  const figures = await benchAccepts()
  isWithinBudgets =
    printFigures(
      `POST /api/generations to its 202, ${acceptsInFlight} in flight, no worker (${databaseName})`,
      figures,
    ) && isWithinBudgets
}
process.exit(isWithinBudgets ? 0 : 1)
