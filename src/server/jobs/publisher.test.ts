import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSecretBox } from '#server/crypto/secret-box.ts'
import type { Database } from '#server/db/client.ts'
import {
  publicationItems,
  publications,
  rateLimitBuckets,
  webhookDeliveries,
  webhookEndpoints,
} from '#server/db/schema/index.ts'
import { createNotifier, type Notifier } from '#server/events/notifier.ts'
import { type ConnectionsDeps, connectTrendyol } from '#server/features/publishing/connections.service.ts'
import type { Listing } from '#server/features/publishing/listing.ts'
import { queuePublications } from '#server/features/publishing/queue-publications.service.ts'
import { webhookEvents } from '#server/features/webhooks/webhook-events.service.ts'
import { createLogger } from '#server/logger.ts'
import { createRateLimiter } from '#server/rate-limit/rate-limiter.ts'
import {
  publicationFailedEventSchema,
  publicationSucceededEventSchema,
} from '#shared/contracts/webhook-events.ts'
import {
  defaultTrendyolSeller,
  startTrendyolFake,
  type TrendyolFake,
  trendyolFakeDefaults,
} from '#tests/fakes/trendyol-server.ts'
import { createUser } from '#tests/support/factories.ts'
import { cupListing, type ImageServer, startImageServer } from '#tests/support/publishing-fixtures.ts'
import { openTestDatabase } from '#tests/support/test-database.ts'
import { type Publisher, type PublisherOptions, startPublisher } from './publisher.ts'

// The publisher loop against the fake Trendyol seller API over real HTTP, on a real database:
// nothing here steps a publication by hand. Queuing wakes it, its own timers bring each next
// status read, and the fake's clock is moved on for the review. Its poll is set to a minute, so a
// test that passes shows the wake-ups work, not the fallback.

let database: Database
let trendyol: TrendyolFake
let imageServer: ImageServer
let images = ''
const started: Publisher[] = []

beforeAll(async () => {
  database = await openTestDatabase()
  imageServer = await startImageServer()
  images = imageServer.origin
  trendyol = await startTrendyolFake({ allowHttpImages: true })
})

afterAll(async () => {
  await trendyol.close()
  await imageServer.close()
  await database.close()
})

beforeEach(async () => {
  trendyol.reset()
  trendyol.requests.length = 0
  await database.db.delete(publications)
  await database.db.delete(rateLimitBuckets)
})

afterEach(async () => {
  for (const publisher of started.splice(0)) await publisher.stop()
})

const logger = createLogger({ level: (process.env.PUBLISHER_TEST_LOG as 'info') ?? 'silent' })

function connections(apiBase = trendyol.apiBase): ConnectionsDeps {
  return {
    db: database.db,
    box: createSecretBox('a'.repeat(64), 'marketplace-connections v1'),
    apis: { trendyol: apiBase, hepsiburada: 'http://127.0.0.1:9' },
    log: logger,
  }
}

function options(notifier: Notifier, overrides: Partial<PublisherOptions> = {}): PublisherOptions {
  const now = () => new Date()
  return {
    db: database.db,
    rateLimiter: createRateLimiter(database.db, now),
    connections: connections(),
    log: logger,
    now,
    notifier,
    allowHttpImages: true,
    events: webhookEvents,
    pollMs: { processing: 50, review: 200 },
    concurrency: 2,
    leaseMs: 60_000,
    idlePollMs: 60_000,
    ...overrides,
  }
}

function start(notifier: Notifier, overrides: Partial<PublisherOptions> = {}): Publisher {
  const publisher = startPublisher(options(notifier, overrides))
  started.push(publisher)
  return publisher
}

async function connectedSeller(): Promise<string> {
  const userId = await createUser(database.db)
  await connectTrendyol(
    connections(),
    userId,
    {
      sellerId: defaultTrendyolSeller.sellerId,
      apiKey: defaultTrendyolSeller.apiKey,
      apiSecret: defaultTrendyolSeller.apiSecret,
    },
    new Date(),
  )
  return userId
}

const listing = (barcode: string): Listing => cupListing(barcode, images)

/** Queues with deps like the publisher's (its notifier wakes the publishers). */
function queue(notifier: Notifier, userId: string, entries: Parameters<typeof queuePublications>[3]) {
  return queuePublications(options(notifier), userId, 'trendyol', entries)
}

async function statusesOf(publicationId: string): Promise<Record<string, string>> {
  const rows = await database.db
    .select()
    .from(publicationItems)
    .where(eq(publicationItems.publicationId, publicationId))
  return Object.fromEntries(rows.map((row) => [row.barcode, row.status]))
}

async function publicationStatus(id: string) {
  const [row] = await database.db.select().from(publications).where(eq(publications.id, id))
  return row?.status
}

const createRequests = () =>
  trendyol.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/v2/products') && r.status < 300)
const sentBarcodes = () =>
  createRequests().flatMap((r) =>
    (r.body as { items: { barcode: string }[] }).items.map((item) => item.barcode),
  )

/**
 * An upper bound, not a wait: each step is a few local requests, but a 2-core machine running
 * the whole suite has taken over 10 s to get through one publication.
 */
const patience = { timeout: 30_000, interval: 20 }

describe('the publisher', { timeout: 90_000 }, () => {
  it('sends a queued publication once it is woken, and follows it to live by itself', async () => {
    const notifier = createNotifier()
    start(notifier)
    const userId = await connectedSeller()
    const [id] = await queue(notifier, userId, [{ listing: listing('PUB-1') }])
    if (!id) throw new Error('no publication')

    // Sent, read back and under review, with no poll to fall back on.
    await expect.poll(() => publicationStatus(id), patience).toBe('reviewing')
    expect(await statusesOf(id)).toEqual({ 'PUB-1': 'pending' })
    expect(sentBarcodes()).toEqual(['PUB-1'])

    // The review ends on the fake's clock; the publisher's next read sees it.
    trendyol.advance(trendyolFakeDefaults.approvalMs)
    await expect.poll(() => statusesOf(id), patience).toEqual({ 'PUB-1': 'live' })
    await expect.poll(() => publicationStatus(id), patience).toBe('done')
    expect(sentBarcodes()).toEqual(['PUB-1'])
  })

  it("follows a slow batch within Trendyol's 50 requests to one endpoint in 10 seconds", async () => {
    // Processing takes 3 s here while the publisher looks every 50 ms: at that pace a read budget
    // of 1,000 a minute alone would reach the endpoint's 51st request in 10 s and be refused.
    trendyol.script({ processingMs: 3000 })
    const notifier = createNotifier()
    start(notifier)
    const userId = await connectedSeller()
    const [id] = await queue(notifier, userId, [{ listing: listing('PUB-SLOW') }])
    if (!id) throw new Error('no publication')
    await expect.poll(() => publicationStatus(id), patience).toBe('reviewing')
    expect(trendyol.readRefusals()).toBe(0)
  })

  it('stops at once when told to while it is claiming', { timeout: 10_000 }, async () => {
    // Its first look starts at once, so the stop comes while that claim is in flight; a
    // publisher that went on to wait for its next poll (a minute here) would outlive the test.
    const publisher = startPublisher(options(createNotifier()))
    await publisher.stop()
  })

  it('shares the work between two publishers on one database without sending anything twice', async () => {
    const gate = await startGate()
    try {
      const userId = await connectedSeller()
      // Two processes: each its own notifier, so each hears only its own signals.
      const first = createNotifier()
      const second = createNotifier()
      const barcodes = ['PUB-10', 'PUB-11', 'PUB-12', 'PUB-13', 'PUB-14']
      const ids: string[] = []
      for (const barcode of barcodes)
        ids.push(...(await queue(first, userId, [{ listing: listing(barcode) }])))
      // Both start with the same work due, and both claim at once.
      start(first, { connections: connections(gate.apiBase) })
      start(second, { connections: connections(gate.apiBase) })

      // Four sends out at once: two slots of each publisher, so both took a share.
      await expect.poll(() => gate.held.length, patience).toBe(4)
      gate.open()
      await expect
        .poll(
          async () => (await Promise.all(ids.map(publicationStatus))).every((s) => s === 'reviewing'),
          patience,
        )
        .toBe(true)
      expect(sentBarcodes().sort()).toEqual(barcodes)
      expect(createRequests()).toHaveLength(barcodes.length)
      for (const barcode of barcodes) {
        expect([...trendyol.listings.keys()].filter((key) => key.endsWith(`:${barcode}`))).toHaveLength(1)
      }
      trendyol.advance(trendyolFakeDefaults.approvalMs)
      await expect
        .poll(
          async () => (await Promise.all(ids.map(publicationStatus))).every((s) => s === 'done'),
          patience,
        )
        .toBe(true)
      expect(createRequests()).toHaveLength(barcodes.length)
      // Every step handed its publication back.
      const rows = await database.db.select().from(publications)
      expect(rows.map((row) => row.leaseOwner)).toEqual(barcodes.map(() => null))
    } finally {
      await gate.close()
    }
  })

  it('waits for a step under way when stopped', async () => {
    const gate = await startGate()
    try {
      const notifier = createNotifier()
      const publisher = startPublisher(options(notifier, { connections: connections(gate.apiBase) }))
      const userId = await connectedSeller()
      const [id] = await queue(notifier, userId, [{ listing: listing('PUB-20') }])
      if (!id) throw new Error('no publication')
      await expect.poll(() => gate.held.length, patience).toBe(1)

      let isStopped = false
      const stopping = publisher.stop().then(() => {
        isStopped = true
      })
      // Turns of the event loop pass; the send is still out, so stop has not returned.
      for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve))
      expect(isStopped).toBe(false)
      expect(await publicationStatus(id)).toBe('sending')

      gate.open()
      await stopping
      // The step finished and was written down before stop returned: sent, handed back.
      const [row] = await database.db.select().from(publications).where(eq(publications.id, id))
      expect(row).toMatchObject({ status: 'processing', leaseOwner: null })
      expect(await statusesOf(id)).toEqual({ 'PUB-20': 'sent' })
    } finally {
      await gate.close()
    }
  })

  it('writes publication.succeeded and publication.failed events for the seller’s endpoints', async () => {
    const notifier = createNotifier()
    let webhookSignals = 0
    notifier.onWebhooksDue(() => webhookSignals++)
    start(notifier)
    const userId = await connectedSeller()
    const [endpoint] = await database.db
      .insert(webhookEndpoints)
      .values({
        userId,
        url: 'https://hooks.example.com/vitrin',
        events: ['publication.succeeded', 'publication.failed'],
        encryptedSecret: 'sealed',
      })
      .returning()
    // Another endpoint of theirs, not subscribed to these: gets nothing.
    await database.db.insert(webhookEndpoints).values({
      userId,
      url: 'https://hooks.example.com/other',
      events: ['generation.succeeded'],
      encryptedSecret: 'sealed',
    })
    trendyol.script({
      reject: {
        'PUB-31': [{ rejectReason: 'Görsel', rejectReasonDetail: 'Ürün görseli beyaz fonda değil.' }],
      },
    })
    const generationId = randomUUID()
    const catalogueRowId = randomUUID()
    const [id] = await queue(notifier, userId, [
      { listing: listing('PUB-30'), generationId },
      { listing: listing('PUB-31'), catalogueRowId },
    ])
    if (!id) throw new Error('no publication')
    await expect.poll(() => publicationStatus(id), patience).toBe('reviewing')
    trendyol.advance(trendyolFakeDefaults.approvalMs)
    await expect.poll(() => publicationStatus(id), patience).toBe('done')

    const deliveries = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.userId, userId))
    expect(deliveries.map((row) => [row.endpointId, row.eventType]).sort()).toEqual(
      [
        [endpoint?.id, 'publication.failed'],
        [endpoint?.id, 'publication.succeeded'],
      ].sort(),
    )
    const live = deliveries.find((row) => row.eventType === 'publication.succeeded')
    const rejected = deliveries.find((row) => row.eventType === 'publication.failed')
    // Each payload is what the API document says a receiver gets.
    expect(publicationSucceededEventSchema.parse(live?.payload)).toMatchObject({
      id: live?.eventId,
      type: 'publication.succeeded',
      data: {
        publication: {
          id,
          marketplace: 'trendyol',
          barcode: 'PUB-30',
          status: 'live',
          reasons: [],
          errorCode: null,
          productUrl: expect.stringMatching(/^https:\/\//),
          generationId,
          catalogueRowId: null,
        },
      },
    })
    expect(publicationFailedEventSchema.parse(rejected?.payload)).toMatchObject({
      type: 'publication.failed',
      data: {
        publication: {
          id,
          barcode: 'PUB-31',
          status: 'rejected',
          reasons: ['Görsel: Ürün görseli beyaz fonda değil.'],
          errorCode: null,
          productUrl: null,
          generationId: null,
          catalogueRowId,
        },
      },
    })
    expect(webhookSignals).toBeGreaterThan(0)

    // A publication the marketplace refuses outright (keys no longer valid): each product failed.
    const [refused] = await queue(notifier, userId, [{ listing: listing('PUB-32') }])
    if (!refused) throw new Error('no publication')
    // Set before the publisher, woken by the queuing, reaches the marketplace (it reads the
    // database first).
    trendyol.script({ requests: [401, 401, 401] })
    await expect.poll(() => publicationStatus(refused), patience).toBe('failed')
    const [failed] = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.eventType, 'publication.failed'))
      .then((rows) => rows.filter((row) => JSON.stringify(row.payload).includes('PUB-32')))
    expect(publicationFailedEventSchema.parse(failed?.payload).data.publication).toMatchObject({
      id: refused,
      barcode: 'PUB-32',
      status: 'failed',
      errorCode: 'MARKETPLACE_KEYS_REFUSED',
    })
    // One event per decided product, never a second.
    expect(
      await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, userId)),
    ).toHaveLength(3)
  })
})

/**
 * The fake behind a gate: create requests are held until `open()`, so a test can see sends out
 * at once and hold one mid-step. Everything else passes straight through.
 */
async function startGate() {
  const held: (() => void)[] = []
  let isOpen = false
  const server = createServer(async (req, res) => {
    const body = await readBody(req)
    if (!isOpen && req.method === 'POST' && req.url?.endsWith('/v2/products')) {
      await new Promise<void>((resolve) => held.push(resolve))
    }
    const answer = await fetch(`${trendyol.url}${req.url}`, {
      method: req.method ?? 'GET',
      headers: Object.fromEntries(
        Object.entries(req.headers).flatMap(([name, value]) =>
          typeof value === 'string' && !hopHeaders.has(name) ? [[name, value]] : [],
        ),
      ),
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    })
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' })
    res.end(Buffer.from(await answer.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    apiBase: `http://127.0.0.1:${(server.address() as AddressInfo).port}/integration`,
    held,
    open() {
      isOpen = true
      for (const release of held) release()
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

const hopHeaders = new Set(['host', 'content-length', 'connection', 'keep-alive', 'transfer-encoding'])

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}
