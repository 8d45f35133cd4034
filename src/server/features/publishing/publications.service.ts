import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import {
  type PublicationItemRow,
  type PublicationRow,
  publicationItems,
  publications,
} from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import type { EventRecorder } from '#server/events/recorder.ts'
import type { Logger } from '#server/logger.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import type { WebhookPublication } from '#shared/contracts/webhooks.ts'
import { type Channel, hepsiburadaChannel, type ProductOutcome, trendyolChannel } from './channels.ts'
import { type ConnectionsDeps, openHepsiburada, openTrendyol } from './connections.service.ts'
import type { Listing } from './listing.ts'
import { MarketplaceApiError } from './marketplace-api-error.ts'
import type { TrendyolApi } from './trendyol-api.ts'

// Publishing listings (issue 30): a publication is one request of products to one marketplace,
// stored with each product's listing and the item built from it, then moved along by the
// publisher one step at a time (send; read the request's outcome; read the review) until every
// product is live, rejected or failed. Every step is taken under a lease by one worker process,
// within the seller account's request budgets (shared through rate_limit_buckets), and a send cut
// off halfway is sent again so that products the marketplace already has are updated, not created
// twice (channels.ts).

export type PublisherDeps = {
  db: Db
  rateLimiter: RateLimiter
  connections: ConnectionsDeps
  log: Logger
  now: () => Date
  /** Wakes publishers when publications are queued, and webhook dispatchers when outcomes are written. */
  notifier: Pick<Notifier, 'publicationsDue' | 'webhooksDue'>
  /** Records each decided product's event with its outcome (the webhooks' deliveries). */
  events: EventRecorder
  /** Image addresses may be http (the marketplaces' fakes only). */
  allowHttpImages: boolean
  /** How long to wait before reading a request's outcome again, and a review again. */
  pollMs: { processing: number; review: number }
}

/** Sends cut off or failed by the marketplace's outage before a publication fails for good. */
export const maxSendAttempts = 8

/** The seller's channel to a marketplace, from their connection; null when not connected. */
export async function openChannel(
  deps: ConnectionsDeps,
  userId: string,
  marketplace: IntegrationMarketplace,
): Promise<{ channel: Channel; trendyol: TrendyolApi | null; accountId: string } | null> {
  if (marketplace === 'trendyol') {
    const api = await openTrendyol(deps, userId)
    return api
      ? { channel: trendyolChannel(api, api.sellerId), trendyol: api, accountId: api.sellerId }
      : null
  }
  const api = await openHepsiburada(deps, userId)
  return api
    ? { channel: hepsiburadaChannel(api, api.merchantId), trendyol: null, accountId: api.merchantId }
    : null
}

/**
 * Takes the publication whose turn has come longest ago and that no live lease holds, for
 * `holder` until the lease ends; null when none is due. Two processes never take the same one.
 */
export async function claimDuePublication(
  db: Db,
  holder: string,
  leaseMs: number,
  now: Date,
): Promise<PublicationRow | null> {
  const until = new Date(now.getTime() + leaseMs)
  const claimed = (await db.execute(sql`
    update publications set lease_owner = ${holder}, lease_until = ${until.toISOString()}
    where id = (
      select id from publications
      where status in ('queued', 'sending', 'processing', 'reviewing')
        and due_at <= ${now.toISOString()}
        and (lease_until is null or lease_until < ${now.toISOString()})
      order by due_at
      limit 1
      for update skip locked
    )
    returning id`)) as unknown as { rows: { id: string }[] }
  const id = claimed.rows[0]?.id
  if (!id) return null
  const [row] = await db.select().from(publications).where(eq(publications.id, id))
  return row ?? null
}

/** What the step did, for the loop: more to do later, or nothing more ever. */
export type StepResult = 'later' | 'finished'

/**
 * Moves a claimed publication one step along and hands it back (its lease ended, its next turn
 * set). Marketplace failures become the publication's state; only the database's own failures
 * throw.
 */
export async function stepPublication(deps: PublisherDeps, publication: PublicationRow): Promise<StepResult> {
  const log = deps.log.child({ publicationId: publication.id, marketplace: publication.marketplace })
  const opened = await openChannel(deps.connections, publication.userId, publication.marketplace)
  if (!opened) return fail(deps, publication, 'MARKETPLACE_NOT_CONNECTED', [])
  const { channel } = opened
  try {
    switch (publication.status) {
      case 'queued':
      case 'sending':
        return await send(deps, publication, channel)
      case 'processing':
        return await readRequests(deps, publication, channel)
      case 'reviewing':
        return await readReview(deps, publication, channel)
      default:
        return 'finished'
    }
  } catch (error) {
    if (!(error instanceof MarketplaceApiError)) throw error
    log.warn({ err: error, messages: error.messages }, 'marketplace request failed')
    return failedRequest(deps, publication, error)
  }
}

/** Sends the queued products: after a send that was cut off, the channel updates what exists. */
async function send(deps: PublisherDeps, publication: PublicationRow, channel: Channel): Promise<StepResult> {
  const budget = await spend(deps, channel, 'write')
  if (budget !== null) return later(deps, publication, budget, { status: publication.status })
  const rows = await deps.db
    .select()
    .from(publicationItems)
    .where(and(eq(publicationItems.publicationId, publication.id), eq(publicationItems.status, 'queued')))
  if (rows.length === 0) return finish(deps, publication)
  // Written before the request: a process that stops while it is out leaves this behind, and the
  // next send knows the marketplace may have the products.
  await deps.db
    .update(publications)
    .set({ status: 'sending', attempts: sql`${publications.attempts} + 1`, updatedAt: deps.now() })
    .where(eq(publications.id, publication.id))
  const sent = await channel.send(new Map(rows.map((row) => [row.productKey, row.item])))
  const now = deps.now()
  await deps.db.transaction(async (tx) => {
    for (const request of sent) {
      await tx
        .update(publicationItems)
        .set({ status: 'sent', remoteId: request.remoteId, updatedAt: now })
        .where(
          and(
            eq(publicationItems.publicationId, publication.id),
            eq(publicationItems.status, 'queued'),
            inArray(publicationItems.productKey, request.keys),
          ),
        )
    }
    await tx
      .update(publications)
      .set({
        status: 'processing',
        dueAt: new Date(now.getTime() + deps.pollMs.processing),
        leaseOwner: null,
        leaseUntil: null,
        updatedAt: now,
      })
      .where(eq(publications.id, publication.id))
  })
  return 'later'
}

/** Reads each request's per-product outcome; once all are read, the review follows. */
async function readRequests(
  deps: PublisherDeps,
  publication: PublicationRow,
  channel: Channel,
): Promise<StepResult> {
  const rows = await deps.db
    .select()
    .from(publicationItems)
    .where(and(eq(publicationItems.publicationId, publication.id), eq(publicationItems.status, 'sent')))
  const remoteIds = [...new Set(rows.flatMap((row) => (row.remoteId ? [row.remoteId] : [])))]
  let isWaiting = false
  for (const remoteId of remoteIds) {
    const budget = await spend(deps, channel, 'read')
    if (budget !== null) return later(deps, publication, budget, {})
    const outcomes = await channel.requestOutcome(remoteId)
    if (!outcomes) {
      isWaiting = true
      continue
    }
    // A product the answer leaves out was taken without a word (Trendyol's already approved).
    await recordOutcomes(
      deps,
      publication,
      rows.filter((row) => row.remoteId === remoteId),
      outcomes,
      { status: 'pending', reasons: [] },
      channel,
    )
  }
  if (isWaiting) return later(deps, publication, deps.pollMs.processing, {})
  return reviewOrFinish(deps, publication)
}

/** Reads the review of the products under it, until none is. */
async function readReview(
  deps: PublisherDeps,
  publication: PublicationRow,
  channel: Channel,
): Promise<StepResult> {
  const rows = await deps.db
    .select()
    .from(publicationItems)
    .where(and(eq(publicationItems.publicationId, publication.id), eq(publicationItems.status, 'pending')))
  const remoteIds = [...new Set(rows.flatMap((row) => (row.remoteId ? [row.remoteId] : [])))]
  for (const remoteId of remoteIds) {
    const budget = await spend(deps, channel, 'read')
    if (budget !== null) return later(deps, publication, budget, {})
    const ofRequest = rows.filter((row) => row.remoteId === remoteId)
    const outcomes = await channel.review(
      remoteId,
      ofRequest.map((row) => row.productKey),
    )
    await recordOutcomes(deps, publication, ofRequest, outcomes, null, channel)
  }
  const videoWait = await stepVideos(deps, publication, channel)
  if (videoWait !== null) return later(deps, publication, videoWait, {})
  return reviewOrFinish(deps, publication)
}

/** Trendyol's video title: 3–50 characters (its video service), from the listing's title. */
export function videoTitleOf(title: string | undefined): string {
  const words = (title ?? '').trim().split(/\s+/).filter(Boolean)
  let fitted = ''
  for (const word of words) {
    const next = fitted === '' ? word : `${fitted} ${word}`
    if (next.length > 50) break
    fitted = next
  }
  if (fitted === '' && words[0]) fitted = words[0].slice(0, 50)
  return fitted.length >= 3 ? fitted : 'Ürün videosu'
}

/**
 * Videos that go to the marketplace's own video service once their product is live (Trendyol):
 * each queued one created from its public address for the product's content id, each one under
 * way read until it shows or fails. A refusal of one video (its title, its address) is that
 * video's failure, never the publication's: the product stays live. Answers how long to wait when
 * a budget is spent, else null.
 */
async function stepVideos(
  deps: PublisherDeps,
  publication: PublicationRow,
  channel: Channel,
): Promise<number | null> {
  const service = channel.video
  if (!service) return null
  const rows = await deps.db
    .select()
    .from(publicationItems)
    .where(
      and(
        eq(publicationItems.publicationId, publication.id),
        inArray(publicationItems.videoStatus, ['queued', 'processing']),
      ),
    )
  const settle = (row: PublicationItemRow, set: Partial<PublicationItemRow>) =>
    deps.db
      .update(publicationItems)
      .set({ ...set, updatedAt: deps.now() })
      .where(eq(publicationItems.id, row.id))
  for (const row of rows) {
    if (row.videoStatus === 'queued') {
      const listing = row.listing as Partial<Listing>
      if (!row.contentId || !listing.videoUrl) {
        await settle(row, { videoStatus: 'failed', videoReasons: ['The marketplace gave no content id.'] })
        continue
      }
      const result = await deps.rateLimiter.hit(service.rule, channel.marketplace)
      if (!result.isAllowed) return Math.max(1, result.retryAfterSeconds) * 1000
      try {
        const remoteId = await service.create({
          title: videoTitleOf(listing.title),
          videoUrl: listing.videoUrl,
          contentId: row.contentId,
        })
        await settle(row, { videoStatus: 'processing', videoRemoteId: remoteId })
      } catch (error) {
        // Refused for what it is (400): this video failed. Keys, account, outages: the step's.
        if (!(error instanceof MarketplaceApiError) || error.failure !== 'rejected') throw error
        await settle(row, { videoStatus: 'failed', videoReasons: error.messages })
      }
      continue
    }
    if (!row.videoRemoteId) continue
    const budget = await spend(deps, channel, 'read')
    if (budget !== null) return budget
    const outcome = await service.outcome(row.videoRemoteId)
    if (outcome.status !== 'processing') {
      await settle(row, { videoStatus: outcome.status, videoReasons: outcome.reasons })
    }
  }
  return null
}

/**
 * Writes each product's outcome, and in the same transaction a webhook event for each product it
 * decides (live, rejected): an item already decided is left as it is, so no event is written twice.
 */
async function recordOutcomes(
  deps: PublisherDeps,
  publication: PublicationRow,
  rows: PublicationItemRow[],
  outcomes: Map<string, ProductOutcome>,
  fallback: ProductOutcome | null,
  channel: Pick<Channel, 'video'>,
) {
  const now = deps.now()
  const events = await deps.db.transaction(async (tx) => {
    const decided: PublicationItemRow[] = []
    for (const row of rows) {
      const outcome = outcomes.get(row.productKey) ?? fallback
      if (!outcome) continue
      // Live with a video its marketplace takes by a service of its own: the video goes next.
      const videoUrl = (row.listing as Partial<Listing>).videoUrl
      const queuesVideo =
        outcome.status === 'live' &&
        channel.video !== undefined &&
        Boolean(videoUrl) &&
        row.videoStatus === null
      const [updated] = await tx
        .update(publicationItems)
        .set({
          status: outcome.status,
          reasons: outcome.reasons,
          ...(outcome.productUrl ? { productUrl: outcome.productUrl } : {}),
          ...(outcome.contentId ? { contentId: outcome.contentId } : {}),
          ...(queuesVideo ? { videoStatus: 'queued' as const } : {}),
          updatedAt: now,
        })
        .where(and(eq(publicationItems.id, row.id), inArray(publicationItems.status, ['sent', 'pending'])))
        .returning()
      if (updated && updated.status !== 'pending') decided.push(updated)
    }
    return deps.events.publicationsDecided(tx, {
      userId: publication.userId,
      publications: decided.map((item) => webhookPublicationOf(publication, item, null, now)),
      now,
    })
  })
  if (events > 0) deps.notifier.webhooksDue()
}

/** A decided product as its webhook event carries it. */
function webhookPublicationOf(
  publication: PublicationRow,
  item: PublicationItemRow,
  errorCode: string | null,
  now: Date,
): WebhookPublication {
  const status = item.status === 'live' ? 'live' : item.status === 'rejected' ? 'rejected' : 'failed'
  return {
    id: publication.id,
    marketplace: publication.marketplace,
    barcode: item.barcode,
    status,
    reasons: status === 'live' ? [] : (item.reasons as string[]),
    errorCode: status === 'failed' ? errorCode : null,
    productUrl: status === 'live' ? (item.productUrl ?? null) : null,
    generationId: item.generationId,
    catalogueRowId: item.catalogueRowId,
    decidedAt: now.toISOString(),
  }
}

/** Reviewing while a product is under review or its video on its way, else done. */
async function reviewOrFinish(deps: PublisherDeps, publication: PublicationRow): Promise<StepResult> {
  const [left] = await deps.db
    .select({
      products: sql<number>`count(*) filter (where ${publicationItems.status} in ('queued', 'sent', 'pending'))::int`,
      videos: sql<number>`count(*) filter (where ${publicationItems.videoStatus} in ('queued', 'processing'))::int`,
    })
    .from(publicationItems)
    .where(eq(publicationItems.publicationId, publication.id))
  const products = left?.products ?? 0
  const videos = left?.videos ?? 0
  if (products === 0 && videos === 0) return finish(deps, publication)
  // Only videos left: the video service is read at the processing pace, not the review's.
  const wait = products > 0 ? deps.pollMs.review : deps.pollMs.processing
  return later(deps, publication, wait, { status: 'reviewing' })
}

/**
 * A marketplace failure of a whole step: its budget spent or an outage → try again later (a send
 * cut off by an outage may have arrived, so it stays `sending`); refused keys or a refused
 * request → the publication fails, each unsent product with the marketplace's words.
 */
async function failedRequest(
  deps: PublisherDeps,
  publication: PublicationRow,
  error: MarketplaceApiError,
): Promise<StepResult> {
  const isSend = publication.status === 'queued' || publication.status === 'sending'
  if (error.failure === 'rate-limited') {
    // Refused before it was taken: a send goes back to the queue as it was.
    const wait = error.retryAfterMs ?? 60_000
    return later(deps, publication, wait, isSend ? { status: publication.status } : {})
  }
  if (error.failure === 'unavailable') {
    const attempts = publication.attempts + (isSend ? 1 : 0)
    if (isSend && attempts >= maxSendAttempts)
      return fail(deps, publication, 'MARKETPLACE_UNAVAILABLE', error.messages)
    const wait = Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000)
    return later(deps, publication, wait, isSend ? { status: 'sending' } : {})
  }
  const code =
    error.failure === 'auth'
      ? 'MARKETPLACE_KEYS_REFUSED'
      : error.failure === 'forbidden'
        ? 'MARKETPLACE_ACCOUNT_MISMATCH'
        : 'MARKETPLACE_REQUEST_REFUSED'
  return fail(deps, publication, code, error.messages)
}

async function fail(
  deps: PublisherDeps,
  publication: PublicationRow,
  errorCode: string,
  reasons: string[],
): Promise<StepResult> {
  const now = deps.now()
  const events = await deps.db.transaction(async (tx) => {
    const failed = await tx
      .update(publicationItems)
      .set({ status: 'failed', reasons, updatedAt: now })
      .where(
        and(
          eq(publicationItems.publicationId, publication.id),
          inArray(publicationItems.status, ['queued', 'sent', 'pending']),
        ),
      )
      .returning()
    await tx
      .update(publications)
      .set({ status: 'failed', errorCode, leaseOwner: null, leaseUntil: null, updatedAt: now })
      .where(eq(publications.id, publication.id))
    return deps.events.publicationsDecided(tx, {
      userId: publication.userId,
      publications: failed.map((item) => webhookPublicationOf(publication, item, errorCode, now)),
      now,
    })
  })
  if (events > 0) deps.notifier.webhooksDue()
  return 'finished'
}

async function finish(deps: PublisherDeps, publication: PublicationRow): Promise<StepResult> {
  await deps.db
    .update(publications)
    .set({ status: 'done', leaseOwner: null, leaseUntil: null, updatedAt: deps.now() })
    .where(eq(publications.id, publication.id))
  return 'finished'
}

/** Hands the publication back with its next turn `waitMs` from now. */
async function later(
  deps: PublisherDeps,
  publication: PublicationRow,
  waitMs: number,
  set: { status?: PublicationRow['status'] },
): Promise<StepResult> {
  const now = deps.now()
  await deps.db
    .update(publications)
    .set({
      ...set,
      dueAt: new Date(now.getTime() + waitMs),
      leaseOwner: null,
      leaseUntil: null,
      updatedAt: now,
    })
    .where(eq(publications.id, publication.id))
  return 'later'
}

/** Counts one request against the account's budget: null when allowed, else how long to wait. */
async function spend(deps: PublisherDeps, channel: Channel, kind: 'read' | 'write'): Promise<number | null> {
  const rule = kind === 'write' ? channel.writeRule : channel.readRule
  const result = await deps.rateLimiter.hit(rule, channel.marketplace)
  return result.isAllowed ? null : Math.max(1, result.retryAfterSeconds) * 1000
}
