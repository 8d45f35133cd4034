import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSecretBox } from '#server/crypto/secret-box.ts'
import type { Database } from '#server/db/client.ts'
import { publicationItems, publications } from '#server/db/schema/index.ts'
import { createNotifier } from '#server/events/notifier.ts'
import { webhookEvents } from '#server/features/webhooks/webhook-events.service.ts'
import { createLogger } from '#server/logger.ts'
import { createRateLimiter } from '#server/rate-limit/rate-limiter.ts'
import {
  defaultTrendyolSeller,
  startTrendyolFake,
  type TrendyolFake,
  trendyolFakeDefaults,
} from '#tests/fakes/trendyol-server.ts'
import { createUser } from '#tests/support/factories.ts'
import {
  cupAttribute,
  cupListing,
  type ImageServer,
  startImageServer,
} from '#tests/support/publishing-fixtures.ts'
import { openTestDatabase } from '#tests/support/test-database.ts'
import { type ConnectionsDeps, connectTrendyol } from './connections.service.ts'
import type { Listing } from './listing.ts'
import { claimDuePublication, type PublisherDeps } from './publications.service.ts'
import { queuePublications } from './queue-publications.service.ts'
import { stepPublication } from './step-publication.service.ts'

// The publisher against the fake Trendyol seller API over real HTTP, on a real database: listings
// queued, sent in one request within the account's budget, each product's outcome read back with
// the marketplace's own reasons, then its review, until every one is live or rejected; and a send
// cut off halfway sent again without a second listing.

let database: Database
let trendyol: TrendyolFake
let imageServer: ImageServer
let images = ''
let clock = Date.parse('2026-11-29T10:00:00Z')

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
})

const connections = (): ConnectionsDeps => ({
  db: database.db,
  box: createSecretBox('a'.repeat(64), 'marketplace-connections v1'),
  apis: { trendyol: trendyol.apiBase, hepsiburada: 'http://127.0.0.1:9' },
  log: createLogger({ level: 'silent' }),
})

function deps(): PublisherDeps {
  const now = () => new Date(clock)
  return {
    db: database.db,
    rateLimiter: createRateLimiter(database.db, now),
    connections: connections(),
    log: createLogger({ level: 'silent' }),
    now,
    notifier: createNotifier(),
    allowHttpImages: true,
    events: webhookEvents,
    pollMs: { processing: 1000, review: 60_000 },
  }
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
    new Date(clock),
  )
  return userId
}

const attribute = (name: string, value: string) => cupAttribute(name, value)
const listing = (barcode: string, overrides: Partial<Listing> = {}) => cupListing(barcode, images, overrides)

/** Claims and steps due publications until none is due at the current clock. */
async function runDue(d: PublisherDeps) {
  for (;;) {
    const claimed = await claimDuePublication(d.db, 'test-holder', 60_000, d.now())
    if (!claimed) return
    await stepPublication(d, claimed)
    await trendyol.idle()
  }
}

async function itemsOf(publicationId: string) {
  const rows = await database.db
    .select()
    .from(publicationItems)
    .where(eq(publicationItems.publicationId, publicationId))
  return Object.fromEntries(rows.map((row) => [row.barcode, row]))
}

async function publicationOf(id: string) {
  const [row] = await database.db.select().from(publications).where(eq(publications.id, id))
  return row
}

describe('publishing to Trendyol', () => {
  it('sends the good listings in one request, holds back a blocked one, and reads every outcome to the end', async () => {
    const d = deps()
    const userId = await connectedSeller()
    trendyol.script({
      reject: {
        'VTR-3': [{ rejectReason: 'Görsel', rejectReasonDetail: 'Ürün görseli beyaz fonda değil.' }],
      },
    })
    const [id] = await queuePublications(d, userId, 'trendyol', [
      { listing: listing('VTR-1') },
      // The fake refuses this value at import: a failure with its reason.
      { listing: listing('VTR-2', { attributes: [attribute('Renk', 'Beyaz')] }) },
      { listing: listing('VTR-3') },
      { listing: listing('VTR-4', { origin: null }) },
      { listing: listing('VTR-1') },
    ])
    if (!id) throw new Error('no publication')
    const queued = await itemsOf(id)
    expect(queued['VTR-4']).toMatchObject({
      status: 'blocked',
      problems: [{ code: 'origin-missing', field: 'origin' }],
    })
    const repeat = await database.db
      .select()
      .from(publicationItems)
      .where(eq(publicationItems.publicationId, id))
    const repeated = repeat
      .filter((row) => row.barcode === 'VTR-1')
      .map((row) => JSON.stringify(row.problems))
    expect(repeated.sort()).toEqual(
      ['[]', JSON.stringify([{ code: 'key-duplicate', field: 'barcode' }])].sort(),
    )

    await runDue(d)
    // One create request with the three sendable products; the blocked one and the repeat stayed.
    const creates = trendyol.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/v2/products'))
    expect(creates).toHaveLength(1)
    expect(
      ((creates[0]?.body ?? { items: [] }) as { items: { barcode: string }[] }).items.map(
        (item) => item.barcode,
      ),
    ).toEqual(['VTR-1', 'VTR-2', 'VTR-3'])
    expect((await publicationOf(id))?.status).toBe('processing')

    clock += 1000
    await runDue(d)
    const read = await itemsOf(id)
    expect(read['VTR-1']?.status).toBe('pending')
    expect(read['VTR-2']).toMatchObject({ status: 'rejected' })
    expect(((read['VTR-2']?.reasons ?? []) as string[]).join(' ')).toContain('Materyal')
    expect((await publicationOf(id))?.status).toBe('reviewing')

    // The review takes the fake's approval time; the publisher looks again a poll later.
    trendyol.advance(trendyolFakeDefaults.approvalMs)
    clock += 60_000
    await runDue(d)
    const reviewed = await itemsOf(id)
    expect(reviewed['VTR-1']).toMatchObject({ status: 'live' })
    expect(reviewed['VTR-1']?.productUrl).toMatch(/^https:\/\//)
    expect(reviewed['VTR-3']).toMatchObject({
      status: 'rejected',
      reasons: ['Görsel: Ürün görseli beyaz fonda değil.'],
    })
    expect(await publicationOf(id)).toMatchObject({ status: 'done', leaseOwner: null })
    // The repeated barcode was never sent and stays as it was.
    const statuses = (
      await database.db.select().from(publicationItems).where(eq(publicationItems.publicationId, id))
    ).map((row) => `${row.barcode}:${row.status}`)
    expect(statuses.sort()).toEqual([
      'VTR-1:blocked',
      'VTR-1:live',
      'VTR-2:rejected',
      'VTR-3:rejected',
      'VTR-4:blocked',
    ])
  })

  it('sends a cut-off request again as an update: never a second listing', async () => {
    const d = deps()
    const userId = await connectedSeller()
    const [id] = await queuePublications(d, userId, 'trendyol', [{ listing: listing('VTR-10') }])
    if (!id) throw new Error('no publication')
    const claimed = await claimDuePublication(d.db, 'stopped-holder', 1000, d.now())
    if (!claimed) throw new Error('nothing due')
    await stepPublication(d, claimed)
    await trendyol.idle()
    // As if the process had stopped after sending, before writing down what it sent.
    await database.db
      .update(publications)
      .set({ status: 'sending', leaseOwner: 'stopped-holder', leaseUntil: new Date(clock + 1000) })
      .where(eq(publications.id, id))
    await database.db
      .update(publicationItems)
      .set({ status: 'queued', remoteId: null })
      .where(eq(publicationItems.publicationId, id))
    // A live lease keeps it from others.
    expect(await claimDuePublication(d.db, 'other', 60_000, d.now())).toBeNull()
    clock += 2000
    await runDue(d)
    const writes = trendyol.requests.filter((r) => r.method === 'POST').map((r) => r.path.split('/').pop())
    expect(writes).toEqual(['products', 'unapproved-bulk-update'])
    expect([...trendyol.listings.keys()].filter((key) => key.endsWith(':VTR-10'))).toHaveLength(1)
    clock += 1000
    await runDue(d)
    expect((await itemsOf(id))['VTR-10']?.status).toBe('pending')
  })

  it('waits for the account’s budget, and fails the publication when the keys stop working', async () => {
    const d = deps()
    const userId = await connectedSeller()
    const [id] = await queuePublications(d, userId, 'trendyol', [{ listing: listing('VTR-20') }])
    if (!id) throw new Error('no publication')
    trendyol.script({ requests: [429] })
    await runDue(d)
    const waiting = await publicationOf(id)
    expect(waiting).toMatchObject({ status: 'queued', leaseOwner: null })
    expect(waiting?.dueAt.getTime()).toBeGreaterThan(clock)

    await database.db.delete(publications)
    const [other] = await queuePublications(d, userId, 'trendyol', [{ listing: listing('VTR-21') }])
    if (!other) throw new Error('no publication')
    trendyol.script({ requests: [401, 401, 401] })
    await runDue(d)
    expect(await publicationOf(other)).toMatchObject({
      status: 'failed',
      errorCode: 'MARKETPLACE_KEYS_REFUSED',
    })
    expect((await itemsOf(other))['VTR-21']?.status).toBe('failed')
  })
})
