import { and, eq, inArray } from 'drizzle-orm'
import {
  type PublicationItemRow,
  type PublicationRow,
  publicationItems,
  publications,
} from '#server/db/schema/index.ts'
import type { WebhookPublication } from '#shared/contracts/webhooks.ts'
import type { Channel, ProductOutcome } from './channels.ts'
import type { Listing } from './listing.ts'
import type { PublisherDeps, StepResult } from './publications.service.ts'

// What a publication's step writes as it ends (step-publication.service.ts): each product's
// outcome with its webhook event, and the publication handed back: its next turn later, done, or
// failed with every undecided product.

/**
 * Writes each product's outcome, and in the same transaction a webhook event for each product it
 * decides (live, rejected): an item already decided is left as it is, so no event is written twice.
 */
export async function recordOutcomes(
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

export async function fail(
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

export async function finish(deps: PublisherDeps, publication: PublicationRow): Promise<StepResult> {
  await deps.db
    .update(publications)
    .set({ status: 'done', leaseOwner: null, leaseUntil: null, updatedAt: deps.now() })
    .where(eq(publications.id, publication.id))
  return 'finished'
}

/** Hands the publication back with its next turn `waitMs` from now. */
export async function later(
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
