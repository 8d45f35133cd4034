import { eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { type PublicationRow, publications } from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import type { EventRecorder } from '#server/events/recorder.ts'
import type { Logger } from '#server/logger.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import { type Channel, hepsiburadaChannel, trendyolChannel } from './channels.ts'
import { type ConnectionsDeps, openHepsiburada, openTrendyol } from './connections.service.ts'
import type { TrendyolApi } from './trendyol-api.ts'

// Publishing listings (issue 30): a publication is one request of products to one marketplace,
// stored with each product's listing and the item built from it, then moved along by the
// publisher one step at a time (send; read the request's outcome; read the review) until every
// product is live, rejected or failed. Every step is taken under a lease by one worker process,
// within the seller account's request budgets (shared through rate_limit_buckets), and a send cut
// off halfway is sent again so that products the marketplace already has are updated, not created
// twice (channels.ts).
//
// Here: what the publisher needs, a seller's channel, and the claim. A claimed publication's step
// is step-publication.service.ts (its videos step-videos.service.ts), and what a step writes as it
// ends (each product's outcome, the publication handed back) is record-outcomes.service.ts.

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

/** Counts one request against the account's budget: null when allowed, else how long to wait. */
export async function spend(
  deps: PublisherDeps,
  channel: Channel,
  kind: 'read' | 'write',
): Promise<number | null> {
  const rule = kind === 'write' ? channel.writeRule : channel.readRule
  const result = await deps.rateLimiter.hit(rule, channel.marketplace)
  return result.isAllowed ? null : Math.max(1, result.retryAfterSeconds) * 1000
}
