import { and, eq } from 'drizzle-orm'
import {
  type PublicationItemRow,
  publicationItems,
  publications,
  publishedMedia,
} from '#server/db/schema/index.ts'
import { getOwnedRowWithResult } from '#server/features/generations/generations.service.ts'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import type {
  AppliedFix,
  FilledAttribute,
  ResubmitRequest,
  ResubmitResponse,
} from '#shared/contracts/publishing.ts'
import { AppError } from '#shared/errors.ts'
import { fitCopy } from '#shared/marketplaces/fit-copy.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import {
  classifyListingProblem,
  classifyReason,
  isMadeOnResubmit,
  type PublishFix,
  type Rejection,
} from '#shared/publishing/rejections.ts'
import { withoutPromotionalPhrases } from '#shared/seo-facts.ts'
import type { Listing, ListingProblem } from './listing.ts'
import { openChannel } from './publications.service.ts'
import { copyGenerationFor, type PublishDeps, publicationViews } from './publish.service.ts'
import { publishMedia, revokeMedia, tokenPattern } from './published-media.service.ts'
import { type ListingToPublish, queuePublications } from './queue-publications.service.ts'

// Fix and resubmit (issue 30, point 5): a publication's refused products sent again as a new
// publication. Each product's reasons (the marketplace's words) and problems (the listing's own)
// are read as rejections.ts codes; the fixes Vitrin can make by itself are made (images rendered
// again in the marketplace's size at new addresses, the title and description fitted to its
// limits or taken from the SEO copy when missing, promotional phrases taken out), and the seller's
// answers (attributes, listing fields, category) are applied to every product sent. A product
// whose reason nothing here can fix is sent again as it was: the seller asked. The marketplace
// updates what it already has by barcode (channels.ts), so nothing is listed twice.

/** The statuses a product can be sent again from: refused by the marketplace, failed, or held back here. */
const resubmittable = new Set<PublicationItemRow['status']>(['rejected', 'failed', 'blocked'])

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The published-media token an image address ends in (`…/<token>.jpg`), when it is one of ours. */
function tokenOf(url: string): string | null {
  const last = url.split(/[?#]/)[0]?.split('/').pop() ?? ''
  const token = last.replace(/\.jpg$/, '')
  return tokenPattern.test(token) ? token : null
}

/** What the item's reasons and problems call for. */
function rejectionsOf(marketplace: IntegrationMarketplace, item: PublicationItemRow): Rejection[] {
  return [
    ...(item.reasons as string[]).map((reason) => classifyReason(marketplace, reason)),
    ...(item.problems as ListingProblem[]).map((problem) => classifyListingProblem(problem)),
  ]
}

/**
 * Sends the publication's refused products again, fixed, as a new publication (202): the ones
 * named, or all that were rejected, failed or blocked. Another user's or an unknown publication is
 * NOT_FOUND; a product that is not refused, or not in it, is PUBLICATION_NOT_RESUBMITTABLE.
 */
export async function resubmitPublication(
  deps: PublishDeps,
  userId: string,
  publicationId: string,
  request: ResubmitRequest,
): Promise<ResubmitResponse> {
  if (!uuidPattern.test(publicationId)) throw new AppError('NOT_FOUND', 'No such publication')
  const [publication] = await deps.db
    .select()
    .from(publications)
    .where(and(eq(publications.id, publicationId), eq(publications.userId, userId)))
  if (!publication) throw new AppError('NOT_FOUND', 'No such publication')
  const items = await deps.db
    .select()
    .from(publicationItems)
    .where(eq(publicationItems.publicationId, publication.id))
    .orderBy(publicationItems.barcode)
  const chosen = chosenItems(items, request.itemIds)
  const { marketplace } = publication

  // Hepsiburada knows a product by its stock code (merchantSku): a new one for a product it already
  // has would list it a second time under the same barcode.
  const stockCode = request.listing.stockCode
  if (
    marketplace === 'hepsiburada' &&
    stockCode !== undefined &&
    chosen.some((item) => item.remoteId !== null && (item.listing as Listing).stockCode !== stockCode)
  ) {
    throw new AppError('VALIDATION_FAILED', 'Hepsiburada knows these products by their stock code', {
      fields: { 'listing.stockCode': 'invalid' },
    })
  }
  if (!(await openChannel(deps.connections, userId, marketplace))) {
    throw new AppError('MARKETPLACE_NOT_CONNECTED', `No ${marketplace} connection`)
  }

  /** The SEO copy of each image result, read once per call. */
  const copies = new Map<string, Promise<{ title: string; description: string } | null>>()
  const seoCopyFor = (item: PublicationItemRow) => {
    if (!item.generationId) return Promise.resolve(null)
    let copy = copies.get(item.generationId)
    if (!copy) {
      copy = seoCopyOf(deps, userId, item.generationId)
      copies.set(item.generationId, copy)
    }
    return copy
  }
  /** Rendered again in this call: by image and marketplace, and by the address each replaces. */
  const images = new Map<string, Promise<string>>()
  const renewed = new Map<string, Promise<string>>()
  const entries: ListingToPublish[] = []
  const applied: AppliedFix[] = []
  for (const item of chosen) {
    const rejections = rejectionsOf(marketplace, item)
    const named = new Set(rejections.map((rejection) => rejection.fix))
    const fixes: PublishFix[] = []
    let listing: Listing = { ...(item.listing as Listing) }

    // The seller's answers first, for every product sent: the automatic fixes then work on them.
    if (request.categoryId !== null && request.categoryId !== listing.categoryId) {
      listing = { ...listing, categoryId: request.categoryId }
      fixes.push('choose-category')
    }
    if (request.attributes.length > 0) {
      listing = { ...listing, attributes: withAnswers(listing.attributes, request.attributes) }
      fixes.push('attribute-form')
    }
    const { title, description, ...fields } = request.listing
    const correction = Object.entries(fields).filter(([, value]) => value !== undefined)
    if (correction.length > 0 || title !== undefined || description !== undefined) {
      listing = { ...listing, ...Object.fromEntries(correction) } as Listing
      // A title or description cleared (null) is the SEO copy's again, as when publishing.
      const copy = title === null || description === null ? await seoCopyFor(item) : null
      if (title !== undefined) listing.title = title ?? copy?.title ?? ''
      if (description !== undefined) listing.description = description ?? copy?.description ?? ''
      fixes.push('edit-listing')
    }

    if (rejections.some((rejection) => rejection.fix === 'checker-fix' && isMadeOnResubmit(rejection))) {
      listing = {
        ...listing,
        title: withoutPromotionalPhrases(listing.title),
        description: withoutPromotionalPhrases(listing.description),
        features: listing.features.map(withoutPromotionalPhrases).filter((feature) => feature !== ''),
      }
      fixes.push('checker-fix')
    }
    const fitsTitle = named.has('fit-title')
    const fitsDescription = named.has('fit-description')
    if (fitsTitle || fitsDescription) {
      listing = await fittedCopy(marketplace, listing, () => seoCopyFor(item), {
        title: fitsTitle,
        description: fitsDescription,
      })
      if (fitsTitle) fixes.push('fit-title')
      if (fitsDescription) fixes.push('fit-description')
    }
    // An image the pre-publish checker fails on a rule no export fixes stays held back with it
    // (and is not rendered again for nothing).
    const checkerProblems = (item.problems as ListingProblem[]).filter(
      (problem) => problem.code === 'checker-failed',
    )
    if (named.has('re-export-images') && checkerProblems.length === 0) {
      listing = {
        ...listing,
        imageUrls: await reExported(deps, userId, marketplace, item, listing, { images, renewed }),
      }
      fixes.push('re-export-images')
    }

    entries.push({
      listing,
      problems: checkerProblems,
      generationId: item.generationId,
      catalogueRowId: item.catalogueRowId,
    })
    applied.push({ itemId: item.id, barcode: item.barcode, fixes })
  }

  // A re-export revokes the old address of an image that other products sent here share: they
  // take the new one too.
  for (const entry of entries) {
    const urls: string[] = []
    for (const url of entry.listing.imageUrls) urls.push((await renewed.get(url)) ?? url)
    entry.listing = { ...entry.listing, imageUrls: urls }
  }
  const [id] = await queuePublications(deps, userId, marketplace, entries, {
    resubmitOf: publication.id,
    catalogueBatchId: publication.catalogueBatchId,
  })
  const [view] = await publicationViews(deps.db, userId, id ? [id] : [])
  if (!view) throw new Error('the resubmitted publication was not stored')
  return { publication: view, applied }
}

/** The items asked for, each refused and in the publication; all the refused ones for null. */
function chosenItems(items: PublicationItemRow[], itemIds: string[] | null): PublicationItemRow[] {
  if (itemIds === null) {
    const refused = items.filter((item) => resubmittable.has(item.status))
    if (refused.length === 0) {
      throw new AppError('PUBLICATION_NOT_RESUBMITTABLE', 'No product of this publication was refused', {
        fields: { itemIds: 'invalid' },
      })
    }
    return refused
  }
  const fields: Record<string, string> = {}
  const chosen: PublicationItemRow[] = []
  itemIds.forEach((itemId, index) => {
    const item = items.find((candidate) => candidate.id === itemId)
    if (!item || !resubmittable.has(item.status)) fields[`itemIds.${index}`] = 'invalid'
    else if (!chosen.includes(item)) chosen.push(item)
  })
  if (Object.keys(fields).length > 0) {
    throw new AppError('PUBLICATION_NOT_RESUBMITTABLE', 'Only refused products are sent again', { fields })
  }
  return chosen
}

/** The listing's attributes with each answered one's value replaced (all its values, when it had several). */
function withAnswers(attributes: FilledAttribute[], answers: FilledAttribute[]): FilledAttribute[] {
  const answered = new Set(answers.map((answer) => answer.attributeId))
  return [...attributes.filter((attribute) => !answered.has(attribute.attributeId)), ...answers]
}

/**
 * The title and/or description fitted to the marketplace's limits; a missing one is taken from
 * the SEO copy of the product's photo first (the newest finished SEO result made from it).
 */
async function fittedCopy(
  marketplace: IntegrationMarketplace,
  listing: Listing,
  seoCopy: () => Promise<{ title: string; description: string } | null>,
  fit: { title: boolean; description: boolean },
): Promise<Listing> {
  let { title, description } = listing
  const isTitleMissing = fit.title && title.trim() === ''
  const isDescriptionMissing = fit.description && description.trim() === ''
  if (isTitleMissing || isDescriptionMissing) {
    const copy = await seoCopy()
    if (copy && isTitleMissing) title = copy.title
    if (copy && isDescriptionMissing) description = copy.description
  }
  const fitted = fitCopy(getProfile(marketplace), { title, description })
  return {
    ...listing,
    title: fit.title ? fitted.title : listing.title,
    description: fit.description ? fitted.description : listing.description,
  }
}

/** The SEO result made from the same photo as the image result, newest first; null when none. */
async function seoCopyOf(
  deps: PublishDeps,
  userId: string,
  imageGenerationId: string,
): Promise<{ title: string; description: string } | null> {
  const image = await getOwnedRowWithResult(deps.db, userId, imageGenerationId).catch(notFoundAsNull)
  if (!image) return null
  const copyId = await copyGenerationFor(deps.db, userId, null, image.row)
  if (!copyId) return null
  const { row } = await getOwnedRowWithResult(deps.db, userId, copyId)
  return row.status === 'succeeded' && row.result?.type === 'seo'
    ? { title: row.result.title, description: row.result.description }
    : null
}

/**
 * The listing's images rendered again in the marketplace preset's size at new addresses: each of
 * ours (a published-media address) from the image it was rendered from, its old address revoked
 * (a published address's bytes never change, so a new render needs a new one); with none, the
 * main image from the product's image result. An image shared by several products is rendered
 * once per call (`done`).
 */
async function reExported(
  deps: PublishDeps,
  userId: string,
  marketplace: IntegrationMarketplace,
  item: PublicationItemRow,
  listing: Listing,
  done: { images: Map<string, Promise<string>>; renewed: Map<string, Promise<string>> },
): Promise<string[]> {
  const mediaDeps = { ...deps.media, db: deps.db, marketplaces: deps.marketplaces }
  const again = (assetId: string, old: { url: string; token: string } | null) => {
    const key = `${assetId}:${marketplace}`
    let url = done.images.get(key)
    if (!url) {
      url = (async () => {
        // Already revoked by someone else: nothing to do but publish anew.
        if (old) await revokeMedia(mediaDeps, userId, old.token).catch(notFoundAsNull)
        return (await publishMedia(mediaDeps, userId, assetId, marketplace)).url
      })()
      done.images.set(key, url)
    }
    if (old) done.renewed.set(old.url, url)
    return url
  }
  const urls: string[] = []
  for (const url of listing.imageUrls) {
    const token = tokenOf(url)
    const [row] = token
      ? await deps.db
          .select({ assetId: publishedMedia.assetId })
          .from(publishedMedia)
          .where(and(eq(publishedMedia.token, token), eq(publishedMedia.userId, userId)))
      : []
    urls.push(row?.assetId && token ? await again(row.assetId, { url, token }) : url)
  }
  if (urls.length === 0 && item.generationId) {
    // A deleted result leaves the product without images: it comes back blocked, saying so.
    const image = await getOwnedRowWithResult(deps.db, userId, item.generationId).catch(notFoundAsNull)
    if (image?.resultAsset) urls.push(await again(image.resultAsset.id, null))
  }
  return urls
}

/** A result deleted since it was published reads as none; any other failure is thrown. */
function notFoundAsNull(error: unknown): null {
  if (error instanceof AppError && error.code === 'NOT_FOUND') return null
  throw error
}
