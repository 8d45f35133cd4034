import { publicationItems, publications } from '#server/db/schema/index.ts'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import { AppError } from '#shared/errors.ts'
import {
  type BuildOptions,
  type Built,
  type Listing,
  type ListingProblem,
  toHepsiburadaItem,
  toTrendyolItem,
} from './listing.ts'
import { appErrorOf, brandSpellings, MarketplaceApiError } from './marketplace-api-error.ts'
import { openChannel, type PublisherDeps } from './publications.service.ts'
import type { TrendyolApi } from './trendyol-api.ts'

// Queuing a publication: the seller's listings built into the marketplace's items (Trendyol's
// brands looked up by name first), stored with the problems that hold any back, and the
// publishers woken. Moving a publication along is step-publication.service.ts.

export type ListingToPublish = {
  listing: Listing
  /** Problems found before (the pre-publish checker's): the listing is held back with them. */
  problems?: ListingProblem[]
  generationId?: string | null
  catalogueRowId?: string | null
}

/** Folded for comparing names as Turkish sellers type them (İ/ı, case, spaces). */
function foldName(text: string): string {
  return text.trim().toLocaleLowerCase('tr-TR').replace(/\s+/g, ' ')
}

/** Trendyol's id of each brand named, by an exact (case-insensitive) match; null when it has none. */
async function trendyolBrandIds(api: TrendyolApi, names: string[]): Promise<Map<string, number | null>> {
  const ids = new Map<string, number | null>()
  for (const name of new Set(names.map(foldName))) {
    if (name === '') {
      ids.set(name, null)
      continue
    }
    // Trendyol matches case-sensitively: ask as typed, then in Turkish title case and capitals,
    // and keep the match that is the whole name.
    const typed = names.filter((n) => foldName(n) === name).map((n) => n.trim())
    const asked = [...new Set([...typed, ...brandSpellings(name)])]
    let id: number | null = null
    for (const spelling of asked) {
      const found = (await api.brandsByName(spelling)).find((brand) => foldName(brand.name) === name)
      if (found) {
        id = found.id
        break
      }
    }
    ids.set(name, id)
  }
  return ids
}

/** Where a publication's products come from, stored with each publication of one call. */
export type PublicationSource = {
  /** The catalogue batch the listings were built from. */
  catalogueBatchId?: string | null
  /** The publication whose refused products these listings send again. */
  resubmitOf?: string | null
}

/**
 * Stores the listings as publications to the marketplace (at most one request's worth each) and
 * queues them. A listing with problems is stored `blocked` with them and not sent; the same key
 * twice in one call is a problem of the second. Needs the seller's connection.
 */
export async function queuePublications(
  deps: PublisherDeps,
  userId: string,
  marketplace: IntegrationMarketplace,
  entries: ListingToPublish[],
  source: PublicationSource = {},
): Promise<string[]> {
  const opened = await openChannel(deps.connections, userId, marketplace)
  if (!opened) throw new AppError('MARKETPLACE_NOT_CONNECTED', `No ${marketplace} connection`)
  const { channel } = opened
  const buildOptions: BuildOptions = { allowHttpImages: deps.allowHttpImages }
  const brandIds = opened.trendyol
    ? await trendyolBrandIds(
        opened.trendyol,
        entries.map((entry) => entry.listing.brand),
      ).catch((error: unknown) => {
        throw error instanceof MarketplaceApiError ? appErrorOf(error) : error
      })
    : null
  const seen = new Set<string>()
  const built = entries.map((entry) => {
    const { listing } = entry
    const key = channel.keyOf(listing)
    const result: Built<unknown> =
      marketplace === 'trendyol'
        ? toTrendyolItem(listing, brandIds?.get(foldName(listing.brand)) ?? null, buildOptions)
        : toHepsiburadaItem(listing, opened.accountId, buildOptions)
    const problems: ListingProblem[] = []
    // A problem found before and again by the build is the seller's to fix once.
    for (const problem of [...(entry.problems ?? []), ...(result.ok ? [] : result.problems)]) {
      if (!problems.some((other) => other.code === problem.code && other.field === problem.field))
        problems.push(problem)
    }
    if (seen.has(key))
      problems.push({ code: 'key-duplicate', field: marketplace === 'trendyol' ? 'barcode' : 'stockCode' })
    seen.add(key)
    return { entry, key, item: result.ok ? result.item : null, problems }
  })

  const now = deps.now()
  const ids: string[] = []
  await deps.db.transaction(async (tx) => {
    for (let start = 0; start < built.length || start === 0; start += channel.maxItemsPerRequest) {
      const chunk = built.slice(start, start + channel.maxItemsPerRequest)
      const isSendable = chunk.some((row) => row.problems.length === 0)
      const [publication] = await tx
        .insert(publications)
        .values({
          userId,
          marketplace,
          status: isSendable ? 'queued' : 'done',
          catalogueBatchId: source.catalogueBatchId ?? null,
          resubmitOf: source.resubmitOf ?? null,
          dueAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: publications.id })
      if (!publication) throw new Error('publication insert returned nothing')
      ids.push(publication.id)
      if (chunk.length === 0) break
      await tx.insert(publicationItems).values(
        chunk.map((row) => ({
          publicationId: publication.id,
          userId,
          barcode: row.entry.listing.barcode,
          productKey: row.key,
          status: row.problems.length === 0 ? ('queued' as const) : ('blocked' as const),
          listing: row.entry.listing,
          item: row.problems.length === 0 ? row.item : null,
          problems: row.problems,
          generationId: row.entry.generationId ?? null,
          catalogueRowId: row.entry.catalogueRowId ?? null,
          updatedAt: now,
        })),
      )
    }
  })
  // Every process's publisher looks at once, rather than at its next poll.
  if (built.some((row) => row.problems.length === 0)) deps.notifier.publicationsDue()
  return ids
}
