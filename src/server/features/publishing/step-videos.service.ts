import { and, eq, inArray } from 'drizzle-orm'
import { type PublicationItemRow, type PublicationRow, publicationItems } from '#server/db/schema/index.ts'
import type { Channel } from './channels.ts'
import type { Listing } from './listing.ts'
import { MarketplaceApiError } from './marketplace-api-error.ts'
import { type PublisherDeps, spend } from './publications.service.ts'

// The video step of a publication (step-publication.service.ts takes it after each review):
// a live product's video sent to the marketplace's own video service, and read until it shows.

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
export async function stepVideos(
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
