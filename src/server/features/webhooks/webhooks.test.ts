import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { signatureToleranceSeconds, verifyVitrinSignature } from '#docs/examples/verify-signature.ts'
import {
  catalogueBatches,
  catalogueRows,
  generations,
  type WebhookDeliveryRow,
  webhookDeliveries,
} from '#server/db/schema/index.ts'
import { startWebhookDispatcher } from '#server/jobs/webhook-dispatcher.ts'
import { webhookDispatcherOptions } from '#server/jobs/worker-runtime.ts'
import type { Resolver } from '#server/net/public-request.ts'
import type {
  CreateWebhookEndpointResponse,
  WebhookDeliveriesResponse,
  WebhookDeliveryResponse,
  WebhookEndpointsResponse,
  WebhookEvent,
} from '#shared/contracts/webhooks.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { startWebhookReceiver, type WebhookReceiver } from '#tests/fakes/webhook-receiver.ts'
import { createScriptedProviders } from '#tests/support/fake-providers.ts'
import {
  createGeneration,
  signedInClient,
  uploadPhoto,
  userIdOf,
  waitForStatus,
} from '#tests/support/generation-client.ts'
import { type OpenApiContract, openApiContract } from '#tests/support/openapi-contract.ts'
import { testEngine } from '#tests/support/test-database.ts'
import {
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'
import { type DeliveryDeps, deliverDueWebhooks, retryDelayMs } from './deliver.ts'
import { signWebhookBody } from './webhooks.service.ts'

// Webhooks over the real app and a real receiver on 127.0.0.1 (let through by the test setting
// FETCH_ALLOW_PRIVATE_HOSTS, exactly as remote photos are). Deliveries are attempted by calling
// the dispatcher's round (deliverDueWebhooks) with a clock the test moves, so retries and the
// 24-hour window take no waiting; one test runs the real dispatcher to show it wakes by itself.

describe(`signature (${testEngine})`, () => {
  const secret = 'whsec_test-secret'
  const body = JSON.stringify({ id: 'evt', type: 'webhook.test' })
  const now = 1_800_000_000

  it('verifies with the documented code, and only with the right secret, body and time', () => {
    const header = signWebhookBody(secret, now, body)
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/)
    expect(verifyVitrinSignature(body, header, secret, { nowSeconds: now })).toBe(true)
    expect(verifyVitrinSignature(Buffer.from(body), header, secret, { nowSeconds: now + 60 })).toBe(true)
    expect(verifyVitrinSignature(body, header, 'whsec_other', { nowSeconds: now })).toBe(false)
    expect(verifyVitrinSignature(`${body} `, header, secret, { nowSeconds: now })).toBe(false)
    expect(verifyVitrinSignature(body.replace('test', 'tesT'), header, secret, { nowSeconds: now })).toBe(
      false,
    )
    // Older (or newer) than the tolerance the docs state: a replay.
    expect(
      verifyVitrinSignature(body, header, secret, { nowSeconds: now + signatureToleranceSeconds + 1 }),
    ).toBe(false)
    expect(verifyVitrinSignature(body, header, secret, { nowSeconds: now + signatureToleranceSeconds })).toBe(
      true,
    )
    expect(verifyVitrinSignature(body, null, secret, { nowSeconds: now })).toBe(false)
    expect(verifyVitrinSignature(body, header.replace(/v1=\w+/, 'v1=zz'), secret, { nowSeconds: now })).toBe(
      false,
    )
    // Another entry beside the right one (a receiver rotating secrets sees two) still verifies.
    const other = signWebhookBody('whsec_other', now, body).split(',')[1]
    expect(verifyVitrinSignature(body, `${header},${other}`, secret, { nowSeconds: now })).toBe(true)
  })

  it('backs off exponentially with jitter, up to the cap', () => {
    const retry = { baseMs: 1000, maxMs: 10_000 }
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, retry, () => 0.999999))).toEqual([
      1000, 2000, 4000, 8000, 10_000,
    ])
    expect(retryDelayMs(3, retry, () => 0)).toBe(2000)
  })
})

describe(`webhooks (${testEngine})`, () => {
  let server: TestServer
  let receiver: WebhookReceiver
  let scripted: ReturnType<typeof createScriptedProviders>
  let contract: OpenApiContract
  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    scripted = createScriptedProviders()
    server = await startTestServer(
      { FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1' },
      { providers: scripted.providers },
    )
    contract = await openApiContract(server)
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    receiver.reset()
  })
  // Every delivery a test made is what the OpenAPI document's `webhooks` section says it is.
  afterEach(() => {
    for (const delivery of receiver.received) contract.checkWebhook(delivery)
  })
  afterAll(async () => {
    await server.close()
    await receiver.close()
  })

  /** The delivery deps the dispatcher uses, on a clock the test sets. */
  function deliveryDeps(clock: { now: Date }, overrides: Partial<DeliveryDeps> = {}): DeliveryDeps {
    return {
      ...webhookDispatcherOptions(server.deps),
      now: () => clock.now,
      timeoutMs: 2000,
      random: () => 0.999999,
      ...overrides,
    }
  }

  /** One dispatcher round; resolves when every attempt it started has been recorded. */
  async function deliverDue(deps: DeliveryDeps) {
    const { claimed, attempts } = await deliverDueWebhooks(deps, {
      workerId: 'test',
      limit: 20,
      leaseMs: 30_000,
    })
    return { claimed: claimed.length, outcomes: await Promise.all(attempts) }
  }

  async function addEndpoint(
    client: TestClient,
    path: string,
    events: string[] = ['generation.succeeded', 'generation.failed', 'batch.completed'],
  ) {
    const response = await client.request('/api/webhooks', { json: { url: receiver.url + path, events } })
    expect(response.status).toBe(201)
    const created = (await response.json()) as CreateWebhookEndpointResponse
    receiver.setSecret(path, created.secret)
    return created
  }

  async function deliveriesOf(endpointId: string): Promise<WebhookDeliveryRow[]> {
    return server.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(webhookDeliveries.createdAt)
  }

  async function expectError(response: Response, status: number, code: string) {
    expect(response.status).toBe(status)
    expect(((await response.json()) as ErrorBody).error.code).toBe(code)
  }

  it('lets Pro accounts add endpoints with a whsec_ secret they can reveal again; others see the plan error', async () => {
    const growth = await signedInClient(server, 'growth')
    await expectError(
      await growth.request('/api/webhooks', {
        json: { url: 'https://hooks.example.com/x', events: ['batch.completed'] },
      }),
      403,
      'API_PLAN_REQUIRED',
    )
    const listed = (await (await growth.request('/api/webhooks')).json()) as WebhookEndpointsResponse
    expect(listed).toEqual({ hasApiAccess: false, maxEndpoints: 10, endpoints: [] })

    const pro = await signedInClient(server, 'pro')
    const created = await addEndpoint(pro, '/hooks', ['generation.succeeded'])
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    expect(created.endpoint).toMatchObject({
      events: ['generation.succeeded'],
      isEnabled: true,
      disabledAt: null,
    })
    const list = await (await pro.request('/api/webhooks')).text()
    expect(list).not.toContain(created.secret)
    const revealed = await pro.request(`/api/webhooks/${created.endpoint.id}/secret`)
    expect(await revealed.json()).toEqual({ secret: created.secret })
    // Another account's endpoint does not exist for this one.
    const other = await signedInClient(server, 'pro')
    await expectError(await other.request(`/api/webhooks/${created.endpoint.id}/secret`), 404, 'NOT_FOUND')
    await expectError(
      await other.request(`/api/webhooks/${created.endpoint.id}`, { method: 'DELETE' }),
      404,
      'NOT_FOUND',
    )
    // Unknown events and empty lists are refused.
    expect(
      (await pro.request('/api/webhooks', { json: { url: 'https://a.example/', events: ['x'] } })).status,
    ).toBe(400)
    expect(
      (await pro.request('/api/webhooks', { json: { url: 'https://a.example/', events: [] } })).status,
    ).toBe(400)
  })

  it('refuses target URLs that are not public http(s) when they are saved', async () => {
    const pro = await signedInClient(server, 'pro')
    const cases: [string, string][] = [
      ['ftp://hooks.example.com/x', 'URL_INVALID'],
      ['not a url', 'URL_INVALID'],
      ['https://user:pw@hooks.example.com/x', 'URL_INVALID'],
      ['https://hooks.example.com:8443/x', 'URL_INVALID'],
      ['http://10.0.0.8/x', 'URL_NOT_PUBLIC'],
      ['http://[::1]/x', 'URL_NOT_PUBLIC'],
      ['http://169.254.169.254/latest', 'URL_NOT_PUBLIC'],
      ['http://localhost/x', 'URL_NOT_PUBLIC'],
      ['http://0x7f.2/x', 'URL_NOT_PUBLIC'],
    ]
    for (const [url, code] of cases) {
      await expectError(
        await pro.request('/api/webhooks', { json: { url, events: ['batch.completed'] } }),
        400,
        code,
      )
    }
    // A name is resolved at delivery, not here.
    expect(
      (
        await pro.request('/api/webhooks', {
          json: { url: 'https://hooks.example.com/x', events: ['batch.completed'] },
        })
      ).status,
    ).toBe(201)
  })

  it('never sends to a private address without the test setting, nor to a name that resolves to one', async () => {
    const pro = await signedInClient(server, 'pro')
    const local = await addEndpoint(pro, '/private')
    const named = await pro.request('/api/webhooks', {
      json: { url: 'http://hooks.example.test/in', events: ['batch.completed'] },
    })
    const namedId = ((await named.json()) as CreateWebhookEndpointResponse).endpoint.id
    expect((await pro.request(`/api/webhooks/${local.endpoint.id}/test`, { method: 'POST' })).status).toBe(
      202,
    )
    expect((await pro.request(`/api/webhooks/${namedId}/test`, { method: 'POST' })).status).toBe(202)
    const resolve: Resolver = async () => [{ address: '10.1.2.3', family: 4 }]
    const clock = { now: new Date() }
    const round = await deliverDue(deliveryDeps(clock, { fetch: { allowPrivateHosts: [], resolve } }))
    expect(round.claimed).toBe(2)
    expect(receiver.received).toEqual([])
    const [refusedLocal] = await deliveriesOf(local.endpoint.id)
    const [refusedNamed] = await deliveriesOf(namedId)
    expect(refusedLocal).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'URL_NOT_PUBLIC',
      responseStatus: null,
    })
    expect(refusedNamed).toMatchObject({ status: 'pending', attempts: 1, lastError: 'URL_NOT_PUBLIC' })
  })

  it('sends one signed delivery per subscribed, enabled endpoint of the owner for a succeeded and a failed generation', async () => {
    const pro = await signedInClient(server, 'pro')
    const both = await addEndpoint(pro, '/both')
    const onlyFailed = await addEndpoint(pro, '/failed-only', ['generation.failed'])
    const disabled = await addEndpoint(pro, '/disabled')
    expect(
      (
        await pro.request(`/api/webhooks/${disabled.endpoint.id}`, {
          method: 'PATCH',
          json: { isEnabled: false },
        })
      ).status,
    ).toBe(200)
    const stranger = await signedInClient(server, 'pro')
    const strangers = await addEndpoint(stranger, '/stranger')

    const photo = await uploadPhoto(pro)
    const ok = (
      (await (
        await createGeneration(pro, { mode: 'image', imageAssetId: photo, aspectRatio: '1:1' })
      ).json()) as {
        generation: { id: string }
      }
    ).generation.id
    await waitForStatus(pro, ok, ['succeeded'])
    scripted.script.image.push('rejected')
    const bad = (
      (await (
        await createGeneration(pro, { mode: 'image', imageAssetId: photo, aspectRatio: '1:1' })
      ).json()) as {
        generation: { id: string }
      }
    ).generation.id
    await waitForStatus(pro, bad, ['failed'])

    const toBoth = await deliveriesOf(both.endpoint.id)
    expect(toBoth.map((d) => d.eventType)).toEqual(['generation.succeeded', 'generation.failed'])
    expect((await deliveriesOf(onlyFailed.endpoint.id)).map((d) => d.eventType)).toEqual([
      'generation.failed',
    ])
    expect(await deliveriesOf(disabled.endpoint.id)).toEqual([])
    expect(await deliveriesOf(strangers.endpoint.id)).toEqual([])
    // One event, one id: both endpoints got the failure under the same event id.
    expect((await deliveriesOf(onlyFailed.endpoint.id))[0]?.eventId).toBe(toBoth[1]?.eventId)

    const [finished] = await server.database.db.select().from(generations).where(eq(generations.id, ok))
    const round = await deliverDue(deliveryDeps({ now: new Date() }))
    expect(round.outcomes.map((o) => o.kind)).toEqual(['delivered', 'delivered', 'delivered'])
    expect(receiver.received.map((d) => d.path).sort()).toEqual(['/both', '/both', '/failed-only'])
    for (const delivery of receiver.received) {
      expect(delivery.isSignatureValid).toBe(true)
      expect(delivery.headers['content-type']).toBe('application/json')
      expect(delivery.headers['user-agent']).toMatch(/^Vitrin-Webhooks\/1/)
      expect(delivery.eventId).toBe((delivery.event as WebhookEvent).id)
    }
    const succeeded = receiver.received.find((d) => d.eventType === 'generation.succeeded')
      ?.event as WebhookEvent
    expect(succeeded).toEqual({
      id: toBoth[0]?.eventId,
      type: 'generation.succeeded',
      created: expect.any(String),
      data: {
        generation: {
          id: ok,
          status: 'succeeded',
          tool: 'product',
          mode: 'image',
          errorCode: null,
          createdAt: finished?.createdAt.toISOString(),
          finishedAt: finished?.finishedAt?.toISOString(),
        },
      },
    })
    const failed = receiver.received.find((d) => d.path === '/failed-only')?.event as WebhookEvent
    expect(failed.type === 'generation.failed' && failed.data.generation).toMatchObject({
      id: bad,
      status: 'failed',
      errorCode: 'PROVIDER_REJECTED',
    })
    const rows = await deliveriesOf(both.endpoint.id)
    expect(rows.map((row) => [row.status, row.attempts, row.responseStatus])).toEqual([
      ['succeeded', 1, 200],
      ['succeeded', 1, 200],
    ])
  })

  it('retries after 500s with backoff, succeeds later, and keeps the latest status in the log', async () => {
    const pro = await signedInClient(server, 'pro')
    const endpoint = await addEndpoint(pro, '/flaky')
    receiver.script('/flaky', [500, 503])
    await pro.request(`/api/webhooks/${endpoint.endpoint.id}/test`, { method: 'POST' })
    const start = new Date()
    const clock = { now: start }
    const deps = deliveryDeps(clock, { retry: { baseMs: 60_000, maxMs: 3_600_000 } })

    expect((await deliverDue(deps)).outcomes).toEqual([
      { kind: 'retry', retryAt: new Date(start.getTime() + 60_000) },
    ])
    let [row] = await deliveriesOf(endpoint.endpoint.id)
    expect(row).toMatchObject({
      status: 'pending',
      attempts: 1,
      responseStatus: 500,
      lastError: 'HTTP_STATUS',
    })
    // Not due yet: nothing is sent.
    clock.now = new Date(start.getTime() + 59_000)
    expect((await deliverDue(deps)).claimed).toBe(0)
    clock.now = new Date(start.getTime() + 60_000)
    expect((await deliverDue(deps)).outcomes).toEqual([
      { kind: 'retry', retryAt: new Date(start.getTime() + 180_000) },
    ])
    ;[row] = await deliveriesOf(endpoint.endpoint.id)
    expect(row).toMatchObject({ attempts: 2, responseStatus: 503 })
    clock.now = new Date(start.getTime() + 180_000)
    expect((await deliverDue(deps)).outcomes).toEqual([{ kind: 'delivered' }])
    ;[row] = await deliveriesOf(endpoint.endpoint.id)
    expect(row).toMatchObject({ status: 'succeeded', attempts: 3, responseStatus: 200, lastError: null })
    expect(row?.deliveredAt).toEqual(clock.now)
    expect(receiver.received.map((d) => d.answer)).toEqual([500, 503, 200])
    // Each attempt is signed afresh, and carries the same event id.
    expect(new Set(receiver.received.map((d) => d.eventId)).size).toBe(1)
    expect(receiver.received.every((d) => d.isSignatureValid)).toBe(true)

    const log = (await (
      await pro.request(`/api/webhooks/${endpoint.endpoint.id}/deliveries`)
    ).json()) as WebhookDeliveriesResponse
    expect(log.deliveries).toEqual([
      expect.objectContaining({
        eventType: 'webhook.test',
        status: 'succeeded',
        attempts: 3,
        responseStatus: 200,
      }),
    ])
  })

  it('gives up once the 24-hour window is over and marks the delivery failed', async () => {
    const pro = await signedInClient(server, 'pro')
    const endpoint = await addEndpoint(pro, '/down')
    receiver.script('/down', Array(10).fill(500))
    await pro.request(`/api/webhooks/${endpoint.endpoint.id}/test`, { method: 'POST' })
    const start = new Date()
    const clock = { now: start }
    const deps = deliveryDeps(clock, { retry: { baseMs: 3_600_000 * 10, maxMs: 3_600_000 * 40 } })
    expect((await deliverDue(deps)).outcomes[0]?.kind).toBe('retry')
    // 10 h, then 20 h would pass the window: the last try is at its end, exactly 24 h on.
    clock.now = new Date(start.getTime() + 10 * 3_600_000)
    const second = (await deliverDue(deps)).outcomes[0]
    const [row] = await deliveriesOf(endpoint.endpoint.id)
    expect(second).toEqual({ kind: 'retry', retryAt: row?.giveUpAt })
    expect(row?.giveUpAt.getTime()).toBeGreaterThanOrEqual(start.getTime() + 24 * 3_600_000 - 5000)
    clock.now = row?.giveUpAt ?? clock.now
    expect((await deliverDue(deps)).outcomes).toEqual([{ kind: 'failed' }])
    const [failed] = await deliveriesOf(endpoint.endpoint.id)
    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 3,
      responseStatus: 500,
      lastError: 'HTTP_STATUS',
    })
    clock.now = new Date(clock.now.getTime() + 3_600_000 * 48)
    expect((await deliverDue(deps)).claimed).toBe(0)
  })

  it('does not follow a redirect and counts it as a failure; a receiver that never answers times out', async () => {
    const pro = await signedInClient(server, 'pro')
    const moved = await addEndpoint(pro, '/moved-away')
    receiver.script('/moved-away', ['redirect'])
    const slow = await addEndpoint(pro, '/slow')
    receiver.script('/slow', ['timeout'])
    await pro.request(`/api/webhooks/${moved.endpoint.id}/test`, { method: 'POST' })
    await pro.request(`/api/webhooks/${slow.endpoint.id}/test`, { method: 'POST' })
    await deliverDue(deliveryDeps({ now: new Date() }, { timeoutMs: 300 }))
    expect(receiver.received.map((d) => d.path).sort()).toEqual(['/moved-away', '/slow'])
    expect((await deliveriesOf(moved.endpoint.id))[0]).toMatchObject({
      responseStatus: 302,
      lastError: 'REDIRECT',
    })
    expect((await deliveriesOf(slow.endpoint.id))[0]).toMatchObject({
      responseStatus: null,
      lastError: 'URL_TIMEOUT',
    })
  })

  it('resends a delivery as a new one with the same event id and payload; the test event goes through the same signing', async () => {
    const pro = await signedInClient(server, 'pro')
    const endpoint = await addEndpoint(pro, '/resend')
    const test = await pro.request(`/api/webhooks/${endpoint.endpoint.id}/test`, { method: 'POST' })
    expect(test.status).toBe(202)
    const { delivery } = (await test.json()) as WebhookDeliveryResponse
    expect(delivery).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0 })
    await deliverDue(deliveryDeps({ now: new Date() }))
    const [first] = receiver.received
    expect(first?.isSignatureValid).toBe(true)
    expect(first?.event).toEqual({
      id: delivery.eventId,
      type: 'webhook.test',
      created: expect.any(String),
      data: { endpointId: endpoint.endpoint.id },
    })

    const resent = await pro.request(
      `/api/webhooks/${endpoint.endpoint.id}/deliveries/${delivery.id}/resend`,
      {
        method: 'POST',
      },
    )
    expect(resent.status).toBe(202)
    const copy = ((await resent.json()) as WebhookDeliveryResponse).delivery
    expect(copy.id).not.toBe(delivery.id)
    expect(copy.eventId).toBe(delivery.eventId)
    await deliverDue(deliveryDeps({ now: new Date() }))
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[1]?.eventId).toBe(delivery.eventId)
    expect(receiver.received[1]?.event).toEqual(first?.event)
    expect(receiver.received[1]?.isSignatureValid).toBe(true)
    const log = (await (
      await pro.request(`/api/webhooks/${endpoint.endpoint.id}/deliveries`)
    ).json()) as WebhookDeliveriesResponse
    expect(log.deliveries.map((d) => [d.eventId, d.status])).toEqual([
      [delivery.eventId, 'succeeded'],
      [delivery.eventId, 'succeeded'],
    ])

    // A disabled endpoint sends nothing: its pending deliveries fail, and test and resend are refused.
    await pro.request(`/api/webhooks/${endpoint.endpoint.id}/test`, { method: 'POST' })
    await pro.request(`/api/webhooks/${endpoint.endpoint.id}`, {
      method: 'PATCH',
      json: { isEnabled: false },
    })
    expect((await deliveriesOf(endpoint.endpoint.id)).at(-1)).toMatchObject({
      status: 'failed',
      lastError: 'ENDPOINT_DISABLED',
    })
    await expectError(
      await pro.request(`/api/webhooks/${endpoint.endpoint.id}/test`, { method: 'POST' }),
      409,
      'WEBHOOK_ENDPOINT_DISABLED',
    )
    // Deleting takes the log with it.
    expect((await pro.request(`/api/webhooks/${endpoint.endpoint.id}`, { method: 'DELETE' })).status).toBe(
      204,
    )
    expect(await deliveriesOf(endpoint.endpoint.id)).toEqual([])
  })

  it('limits test events and resends together per account: 10 a minute, then 429 RATE_LIMITED, others unaffected', async () => {
    const pro = await signedInClient(server, 'pro')
    const endpoint = await addEndpoint(pro, '/limited')
    const id = endpoint.endpoint.id
    const first = await pro.request(`/api/webhooks/${id}/test`, { method: 'POST' })
    expect(first.status).toBe(202)
    const { delivery } = (await first.json()) as WebhookDeliveryResponse
    // Sent together, as a script would: exactly the rest of the 10 get through.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        pro.request(
          i % 2 === 0 ? `/api/webhooks/${id}/test` : `/api/webhooks/${id}/deliveries/${delivery.id}/resend`,
          { method: 'POST' },
        ),
      ),
    )
    expect(answers.filter((answer) => answer.status === 202)).toHaveLength(9)
    const refused = answers.filter((answer) => answer.status !== 202)
    expect(refused).toHaveLength(21)
    for (const answer of refused) {
      expect(answer.status).toBe(429)
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/)
      const body = (await answer.json()) as ErrorBody & {
        error: { details?: { retryAfterSeconds?: number } }
      }
      expect(body.error.code).toBe('RATE_LIMITED')
      expect(body.error.details?.retryAfterSeconds).toBeGreaterThan(0)
    }
    expect(await deliveriesOf(id)).toHaveLength(10)
    // Another account has its own count.
    const other = await signedInClient(server, 'pro')
    const its = await addEndpoint(other, '/limited-other')
    expect((await other.request(`/api/webhooks/${its.endpoint.id}/test`, { method: 'POST' })).status).toBe(
      202,
    )
  })

  it('sends batch.completed once when the last job of a catalogue batch settles in the worker', async () => {
    const pro = await signedInClient(server, 'pro')
    const userId = await userIdOf(pro)
    const endpoint = await addEndpoint(pro, '/batches', ['batch.completed'])
    const photo = await uploadPhoto(pro)
    const db = server.database.db
    const [batch] = await db
      .insert(catalogueBatches)
      .values({
        userId,
        status: 'running',
        fileName: 'urunler.csv',
        headers: [],
        mapping: {},
        startedAt: new Date(),
      })
      .returning()
    if (!batch) throw new Error('no batch')
    const rows = await db
      .insert(catalogueRows)
      .values([1, 2].map((line) => ({ batchId: batch.id, line, cells: [], inputAssetId: photo })))
      .returning()
    scripted.script.image.push('rejected')
    await db.insert(generations).values(
      rows.map((row) => ({
        userId,
        tool: 'product' as const,
        mode: 'image' as const,
        aspectRatio: '1:1' as const,
        provider: 'fal',
        inputAssetId: photo,
        batchRowId: row.id,
      })),
    )
    server.deps.notifier.workAvailable()
    await expect
      .poll(
        async () =>
          (await db.select().from(catalogueBatches).where(eq(catalogueBatches.id, batch.id)))[0]?.status,
        {
          timeout: 15_000,
          interval: 50,
        },
      )
      .toBe('finished')
    // Reading the batch afterwards finishes nothing again.
    expect((await pro.request(`/api/catalogue/batches/${batch.id}`)).status).toBe(200)
    const deliveries = await deliveriesOf(endpoint.endpoint.id)
    expect(deliveries).toHaveLength(1)
    const event = deliveries[0]?.payload as WebhookEvent
    expect(event).toMatchObject({
      type: 'batch.completed',
      data: {
        batch: {
          id: batch.id,
          status: 'finished',
          fileName: 'urunler.csv',
          counts: { done: 1, failed: 1, canceled: 0 },
        },
      },
    })
    await deliverDue(deliveryDeps({ now: new Date() }))
    expect(receiver.received.map((d) => [d.eventType, d.isSignatureValid])).toEqual([
      ['batch.completed', true],
    ])
  })

  it('delivers by itself: the dispatcher wakes when a generation settles', async () => {
    const pro = await signedInClient(server, 'pro')
    await addEndpoint(pro, '/live', ['generation.succeeded'])
    const dispatcher = startWebhookDispatcher({
      ...webhookDispatcherOptions(server.deps),
      // Only a notice can wake it within this test's time.
      pollMs: 60_000,
      crossProcessPollMs: 60_000,
    })
    try {
      const arrived = new Promise<void>((resolve) => receiver.onDelivery(() => resolve()))
      const photo = await uploadPhoto(pro)
      const response = await createGeneration(pro, { mode: 'image', imageAssetId: photo, aspectRatio: '1:1' })
      expect(response.status).toBe(202)
      await arrived
      expect(receiver.received.map((d) => [d.eventType, d.isSignatureValid])).toEqual([
        ['generation.succeeded', true],
      ])
    } finally {
      await dispatcher.stop()
    }
  })
})
