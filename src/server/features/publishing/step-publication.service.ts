import { and, eq, inArray, sql } from 'drizzle-orm'
import {
  type PublicationItemRow,
  type PublicationRow,
  publicationItems,
  publications,
} from '#server/db/schema/index.ts'
import type { Channel } from './channels.ts'
import { MarketplaceApiError } from './marketplace-api-error.ts'
import { openChannel, type PublisherDeps, type StepResult, spend } from './publications.service.ts'
import { fail, finish, later, recordOutcomes } from './record-outcomes.service.ts'
import { stepVideos } from './step-videos.service.ts'

// One step of a claimed publication (publications.service.ts claims it): by its state, send the
// queued products, read the requests' outcomes, or read the review (and the videos after it),
// until every product is decided. A marketplace failure of the whole step becomes the
// publication's state here too (failedRequest).

/** Sends cut off or failed by the marketplace's outage before a publication fails for good. */
export const maxSendAttempts = 8

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

/** The publication's products in a state, and the marketplace requests they went in (each once). */
async function itemsByRequest(
  deps: PublisherDeps,
  publication: PublicationRow,
  status: 'sent' | 'pending',
): Promise<{ rows: PublicationItemRow[]; remoteIds: string[] }> {
  const rows = await deps.db
    .select()
    .from(publicationItems)
    .where(and(eq(publicationItems.publicationId, publication.id), eq(publicationItems.status, status)))
  return { rows, remoteIds: [...new Set(rows.flatMap((row) => (row.remoteId ? [row.remoteId] : [])))] }
}

/** Reads each request's per-product outcome; once all are read, the review follows. */
async function readRequests(
  deps: PublisherDeps,
  publication: PublicationRow,
  channel: Channel,
): Promise<StepResult> {
  const { rows, remoteIds } = await itemsByRequest(deps, publication, 'sent')
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
  const { rows, remoteIds } = await itemsByRequest(deps, publication, 'pending')
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
