import { verifyVitrinSignature } from '#docs/examples/verify-signature.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { CreateWebhookEndpointResponse, WebhookEvent } from '#shared/contracts/webhooks.ts'
import { type ReceivedDelivery, startWebhookReceiver } from '#tests/fakes/webhook-receiver.ts'
import { makeInputPhoto, signUp, uploadAsset } from './lib/app-client.ts'
import { type Child, originOf, startChild, stopChild } from './lib/child.ts'
import { type Figure, machineLoad, printFigures } from './lib/report.ts'
import { median, percentile } from './lib/stats.ts'

// `npx tsx bench/webhooks.ts` (part of `npm run bench`): issue 15's "webhook delivery p95 from job
// finished to delivered (local receiver), 100 jobs". No number is set for it, so every figure is
// reported only.
// A Pro seller adds a webhook endpoint for generation.succeeded and generation.failed that points
// at a receiver in this process (tests/fakes/webhook-receiver.ts, answering 200 at once), then
// starts 100 image generations at once. The app (bench/support/webhooks-server.ts) runs them 20 at
// a time on the fal fake (bench/support/fal-fake-server.ts, 2 s a job), so jobs finish in bursts
// and the dispatcher has several deliveries due together, as after a catalogue batch.
// Per job: from its finishedAt (read back from GET /api/generations/:id, written by the app's
// clock) to the moment the receiver had the whole generation.succeeded request (this process's
// clock; one machine, one clock). Every delivery's signature is checked with the documented code
// (docs/examples/verify-signature.ts) on the raw body. Exits 1 if any job or delivery goes wrong.

const jobCount = 100
const deliveryDeadlineMs = 300_000

async function call<T>(origin: string, cookie: string, path: string, json?: unknown): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { cookie, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  })
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as T
}

const figures: Figure[] = [{ ...machineLoad(), digits: 1 }]
const receiver = await startWebhookReceiver()
const fal: Child = await startChild('bench/support/fal-fake-server.ts')
let app: Child | null = null
let hasProblems = false
try {
  if (!fal.ready.url) throw new Error('the fal fake reported no URL')
  app = await startChild('bench/support/webhooks-server.ts', [fal.ready.url])
  const origin = originOf(app)
  const cookie = await signUp(origin)
  await call(origin, cookie, '/api/billing/subscription', { planId: 'pro' })
  const { endpoint, secret } = await call<CreateWebhookEndpointResponse>(origin, cookie, '/api/webhooks', {
    url: `${receiver.url}/hooks`,
    events: ['generation.succeeded', 'generation.failed'],
  })

  // Resolves once every generation has had its event, whichever way it went.
  const byGeneration = new Map<string, ReceivedDelivery>()
  const duplicates: ReceivedDelivery[] = []
  let settle = () => {}
  const allDelivered = new Promise<void>((resolve) => {
    settle = resolve
  })
  receiver.onDelivery((delivery) => {
    const event = delivery.event as WebhookEvent | null
    const generationId = event && 'generation' in event.data ? event.data.generation.id : null
    if (!generationId) return
    if (byGeneration.has(generationId)) duplicates.push(delivery)
    else byGeneration.set(generationId, delivery)
    if (byGeneration.size === jobCount) settle()
  })

  const imageAssetId = await uploadAsset(origin, cookie, await makeInputPhoto(), 'product.jpg')
  const startedAt = Date.now()
  const ids = await Promise.all(
    Array.from({ length: jobCount }, async (_, index) => {
      const { generation } = await call<{ generation: GenerationView }>(origin, cookie, '/api/generations', {
        mode: 'image',
        imageAssetId,
        prompt: `on marble, take ${index + 1}`,
      })
      return generation.id
    }),
  )
  let deadline: NodeJS.Timeout | undefined
  await Promise.race([
    allDelivered,
    new Promise((_, reject) => {
      deadline = setTimeout(
        () => reject(new Error(`only ${byGeneration.size} of ${jobCount} deliveries within the deadline`)),
        deliveryDeadlineMs,
      )
    }),
  ]).finally(() => clearTimeout(deadline))
  const allDeliveredAt = Date.now()

  const latencies: number[] = []
  const finishedTimes: number[] = []
  const problems: string[] = []
  for (const id of ids) {
    const { generation } = await call<{ generation: GenerationView }>(
      origin,
      cookie,
      `/api/generations/${id}`,
    )
    const delivery = byGeneration.get(id)
    if (!delivery) {
      problems.push(`${id}: no delivery`)
      continue
    }
    const event = delivery.event as WebhookEvent
    if (generation.status !== 'succeeded' || delivery.eventType !== 'generation.succeeded') {
      problems.push(`${id}: ${generation.status} (${generation.errorCode}), event ${delivery.eventType}`)
    }
    if (!verifyVitrinSignature(delivery.body, headerOf(delivery, 'vitrin-signature'), secret)) {
      problems.push(`${id}: the signature does not verify`)
    }
    if (delivery.path !== '/hooks' || event.id !== delivery.eventId) {
      problems.push(`${id}: delivered to ${delivery.path} with event id ${delivery.eventId} ≠ ${event.id}`)
    }
    if (!generation.finishedAt) {
      problems.push(`${id}: no finishedAt`)
      continue
    }
    const finishedAt = Date.parse(generation.finishedAt)
    const told = 'generation' in event.data ? event.data.generation.finishedAt : null
    if (told !== generation.finishedAt) problems.push(`${id}: the event says finishedAt ${told}`)
    finishedTimes.push(finishedAt)
    latencies.push(delivery.receivedAt - finishedAt)
  }
  if (duplicates.length > 0) problems.push(`${duplicates.length} generations were delivered more than once`)
  for (const problem of problems) console.error(`  problem: ${problem}`)
  hasProblems = problems.length > 0

  const firstFinished = Math.min(...finishedTimes)
  const lastFinished = Math.max(...finishedTimes)
  figures.push(
    { name: 'jobs', value: jobCount, unit: '' },
    { name: 'deliveries received (signature verified)', value: byGeneration.size, unit: '' },
    { name: `finished → delivered, p50 (${latencies.length})`, value: median(latencies), unit: 'ms' },
    { name: `finished → delivered, p95 (${latencies.length})`, value: percentile(latencies, 95), unit: 'ms' },
    { name: 'finished → delivered, max', value: Math.max(...latencies), unit: 'ms' },
    { name: 'finished → delivered, min', value: Math.min(...latencies), unit: 'ms' },
    { name: 'first job started → last job finished', value: lastFinished - startedAt, unit: 'ms' },
    { name: 'first job finished → last delivery', value: allDeliveredAt - firstFinished, unit: 'ms' },
    { name: 'extra deliveries (duplicates)', value: duplicates.length, unit: '' },
    { ...machineLoad(), name: 'machine load average (1 min) at the end', digits: 1 },
  )
  if (endpoint.url !== `${receiver.url}/hooks`) throw new Error(`the endpoint was saved as ${endpoint.url}`)
} finally {
  if (app) await stopChild(app)
  await stopChild(fal)
  await receiver.close()
}

function headerOf(delivery: ReceivedDelivery, name: string): string | undefined {
  const value = delivery.headers[name]
  return Array.isArray(value) ? value[0] : value
}

printFigures('Webhook delivery (issue 15; report only)', figures)
process.exit(hasProblems ? 1 : 0)
