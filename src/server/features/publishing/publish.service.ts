import { and, desc, eq, inArray, type SQL } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import {
  type GenerationRow,
  generations,
  type PublicationItemRow,
  type PublicationRow,
  publicationItems,
  publications,
} from '#server/db/schema/index.ts'
import { getOwnedRowWithResult } from '#server/features/generations/generations.service.ts'
import { checkForMarketplace } from '#server/features/marketplaces/check-for-marketplace.service.ts'
import type { MarketplaceDeps } from '#server/features/marketplaces/marketplaces.service.ts'
import {
  type PublicationItemStatus,
  type PublicationItemView,
  type PublicationView,
  type PublishRequest,
  type PublishResponse,
  publicationItemStatuses,
  videoMarketplaces,
} from '#shared/contracts/publishing.ts'
import { AppError } from '#shared/errors.ts'
import { isExportFix } from '#shared/marketplaces/export-fix.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import type { Listing, ListingProblem } from './listing.ts'
import { openChannel, type PublisherDeps } from './publications.service.ts'
import { type PublishedMediaDeps, publishMedia } from './published-media.service.ts'
import { type ListingToPublish, queuePublications } from './queue-publications.service.ts'

// Studio results published to a marketplace (POST /api/publications): each product's images
// checked by the pre-publish checker in the marketplace's slot, rendered in its size at a public
// address, its copy taken from an SEO result (or the seller's own), and the listing queued for the
// publisher. A failing check that the marketplace's export does not fix holds the product back
// with the rule, before anything is sent.

export type PublishDeps = PublisherDeps & {
  marketplaces: MarketplaceDeps
  media: Omit<PublishedMediaDeps, 'marketplaces' | 'db'>
}

type Product = PublishRequest['products'][number]

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A product's images (studio results or a catalogue row's), the main one first: each checked by
 * the pre-publish checker in its slot, then, when none fails, rendered in the marketplace's size at
 * its public address. Only the user's finished image results (VALIDATION_FAILED at
 * `${field}.<index>` otherwise). Gives the check's problems, the addresses when there are none,
 * and the main image's generation.
 */
export async function publishableImages(
  deps: PublishDeps,
  userId: string,
  marketplace: PublishRequest['marketplace'],
  imageGenerationIds: readonly string[],
  field = 'imageGenerationIds',
): Promise<{ urls: string[]; problems: ListingProblem[]; main: GenerationRow }> {
  const profile = getProfile(marketplace)
  let main: GenerationRow | null = null
  const problems: ListingProblem[] = []
  const assetIds: string[] = []
  for (const [index, generationId] of imageGenerationIds.entries()) {
    const { row, resultAsset } = await getOwnedRowWithResult(deps.db, userId, generationId)
    if (row.mode !== 'image' || row.status !== 'succeeded' || !resultAsset) {
      throw new AppError('VALIDATION_FAILED', 'Only finished image results are published', {
        fields: { [`${field}.${index}`]: 'invalid' },
      })
    }
    const view = await checkForMarketplace(deps.marketplaces, userId, {
      generationId,
      profile: marketplace,
      slot: index === 0 ? 'main' : 'additional',
    })
    for (const result of view.image?.results ?? []) {
      const isFixedByExport = result.fix !== undefined && isExportFix(result.fix, profile, 'image')
      if (result.status === 'fail' && !isFixedByExport) {
        problems.push({ code: 'checker-failed', field: `images.${index}.${result.ruleId}` })
      }
    }
    assetIds.push(resultAsset.id)
    main ??= row
  }
  if (!main) throw new Error('a product without images passed validation')
  if (problems.length > 0) return { urls: [], problems, main }
  const urls: string[] = []
  for (const assetId of assetIds) {
    const media = await publishMedia(
      { ...deps.media, db: deps.db, marketplaces: deps.marketplaces },
      userId,
      assetId,
      marketplace,
    )
    urls.push(media.url)
  }
  return { urls, problems, main }
}

/**
 * A product's video (a video result), checked by the pre-publish checker like its images and, when
 * nothing fails, made to the marketplace's video rules at its public address. Only the user's
 * finished video results, and only for a marketplace that takes a video with the listing
 * (VALIDATION_FAILED at `field` otherwise).
 */
export async function publishableVideo(
  deps: PublishDeps,
  userId: string,
  marketplace: PublishRequest['marketplace'],
  videoGenerationId: string,
  field = 'videoGenerationId',
): Promise<{ url: string | null; problems: ListingProblem[] }> {
  if (!videoMarketplaces.includes(marketplace)) {
    throw new AppError('VALIDATION_FAILED', `${marketplace} does not take a video with the listing`, {
      fields: { [field]: 'unsupported' },
    })
  }
  const { row, resultAsset } = await getOwnedRowWithResult(deps.db, userId, videoGenerationId)
  if (row.mode !== 'video' || row.status !== 'succeeded' || !resultAsset) {
    throw new AppError('VALIDATION_FAILED', 'Only finished video results are published', {
      fields: { [field]: 'invalid' },
    })
  }
  const profile = getProfile(marketplace)
  const view = await checkForMarketplace(deps.marketplaces, userId, {
    generationId: videoGenerationId,
    profile: marketplace,
    slot: 'main',
  })
  const problems: ListingProblem[] = []
  for (const result of view.video?.results ?? []) {
    const isFixedByExport = result.fix !== undefined && isExportFix(result.fix, profile, 'video')
    if (result.status === 'fail' && !isFixedByExport) {
      problems.push({ code: 'checker-failed', field: `video.${result.ruleId}` })
    }
  }
  if (problems.length > 0) return { url: null, problems }
  const media = await publishMedia(
    { ...deps.media, db: deps.db, marketplaces: deps.marketplaces },
    userId,
    resultAsset.id,
    marketplace,
  )
  return { url: media.url, problems }
}

/**
 * The user's newest finished result of `mode` that `made` picks (what it was made from), or null:
 * the copy from a photo, the video from an image result.
 */
export async function newestFinished(
  db: Db,
  userId: string,
  mode: GenerationRow['mode'],
  made: SQL,
): Promise<string | null> {
  const [newest] = await db
    .select({ id: generations.id })
    .from(generations)
    .where(
      and(
        eq(generations.userId, userId),
        eq(generations.mode, mode),
        eq(generations.status, 'succeeded'),
        made,
      ),
    )
    .orderBy(desc(generations.createdAt))
    .limit(1)
  return newest?.id ?? null
}

/**
 * The SEO result a product's copy comes from: the one asked for, else the newest finished SEO
 * result made from the same photo as its main image (null when there is none).
 */
export async function copyGenerationFor(
  db: Db,
  userId: string,
  asked: string | null,
  mainImage: Pick<GenerationRow, 'inputAssetId'>,
): Promise<string | null> {
  if (asked) return asked
  if (!mainImage.inputAssetId) return null
  return newestFinished(db, userId, 'seo', eq(generations.inputAssetId, mainImage.inputAssetId))
}

/** The copy: the seller's own title and description over the SEO result's. */
async function copyOf(
  deps: PublishDeps,
  userId: string,
  product: Product,
  mainImage: GenerationRow,
): Promise<{ title: string; description: string; features: string[] }> {
  let copy = { title: '', description: '', features: [] as string[] }
  const copyGenerationId = await copyGenerationFor(deps.db, userId, product.copyGenerationId, mainImage)
  if (copyGenerationId) {
    const { row } = await getOwnedRowWithResult(deps.db, userId, copyGenerationId)
    if (row.status !== 'succeeded' || row.result?.type !== 'seo') {
      throw new AppError('VALIDATION_FAILED', 'The copy must be a finished SEO result', {
        fields: { 'products.copyGenerationId': 'invalid' },
      })
    }
    copy = { title: row.result.title, description: row.result.description, features: row.result.features }
  }
  return {
    title: product.listing.title ?? copy.title,
    description: product.listing.description ?? copy.description,
    features: copy.features,
  }
}

/**
 * Queues the products for the marketplace and answers with the publications as they start. The
 * seller must be connected (MARKETPLACE_NOT_CONNECTED) and may publish only their own results.
 */
export async function publishResults(
  deps: PublishDeps,
  userId: string,
  request: PublishRequest,
): Promise<PublishResponse> {
  // Before any rendering: without a connection nothing can be sent.
  if (!(await openChannel(deps.connections, userId, request.marketplace))) {
    throw new AppError('MARKETPLACE_NOT_CONNECTED', `No ${request.marketplace} connection`)
  }
  const entries: ListingToPublish[] = []
  for (const product of request.products) {
    const images = await publishableImages(
      deps,
      userId,
      request.marketplace,
      product.imageGenerationIds,
      'products.imageGenerationIds',
    )
    const video = product.videoGenerationId
      ? await publishableVideo(
          deps,
          userId,
          request.marketplace,
          product.videoGenerationId,
          'products.videoGenerationId',
        )
      : { url: null, problems: [] }
    const copy = await copyOf(deps, userId, product, images.main)
    const { listing: fields } = product
    const listing: Listing = {
      barcode: fields.barcode,
      stockCode: fields.stockCode,
      variantGroup: null,
      title: copy.title,
      description: copy.description,
      features: copy.features,
      brand: fields.brand,
      categoryId: request.categoryId,
      salePrice: fields.salePrice,
      listPrice: fields.listPrice,
      stock: fields.stock,
      vatRate: fields.vatRate,
      desi: fields.desi,
      imageUrls: images.urls,
      videoUrl: video.url,
      attributes: product.attributes,
      origin: fields.origin,
      warrantyMonths: fields.warrantyMonths,
    }
    entries.push({
      listing,
      problems: [...images.problems, ...video.problems],
      generationId: product.imageGenerationIds[0] ?? null,
    })
  }
  const ids = await queuePublications(deps, userId, request.marketplace, entries)
  return { publications: await publicationViews(deps.db, userId, ids) }
}

function itemView(row: PublicationItemRow): PublicationItemView {
  const listing = row.listing as Partial<Listing>
  return {
    id: row.id,
    barcode: row.barcode,
    title: typeof listing.title === 'string' ? listing.title : '',
    status: row.status,
    problems: row.problems as ListingProblem[],
    reasons: row.reasons as string[],
    productUrl: row.productUrl,
    video: row.videoStatus ? { status: row.videoStatus, reasons: row.videoReasons as string[] } : null,
    generationId: row.generationId,
    catalogueRowId: row.catalogueRowId,
    updatedAt: row.updatedAt.toISOString(),
  }
}

function view(publication: PublicationRow, items: PublicationItemRow[]): PublicationView {
  const counts = Object.fromEntries(publicationItemStatuses.map((status) => [status, 0])) as Record<
    PublicationItemStatus,
    number
  >
  for (const item of items) counts[item.status] += 1
  return {
    id: publication.id,
    marketplace: publication.marketplace,
    catalogueBatchId: publication.catalogueBatchId,
    resubmitOf: publication.resubmitOf,
    status: publication.status,
    errorCode: publication.errorCode,
    counts,
    items: items.map(itemView),
    createdAt: publication.createdAt.toISOString(),
    updatedAt: publication.updatedAt.toISOString(),
  }
}

/** The user's publications by id, in the order asked; others' and unknown ids are left out. */
export async function publicationViews(db: Db, userId: string, asked: string[]): Promise<PublicationView[]> {
  const ids = asked.filter((id) => uuidPattern.test(id))
  if (ids.length === 0) return []
  const rows = await db
    .select()
    .from(publications)
    .where(and(eq(publications.userId, userId), inArray(publications.id, ids)))
  const items = await db
    .select()
    .from(publicationItems)
    .where(inArray(publicationItems.publicationId, ids))
    .orderBy(publicationItems.barcode)
  return ids.flatMap((id) => {
    const row = rows.find((publication) => publication.id === id)
    return row
      ? [
          view(
            row,
            items.filter((item) => item.publicationId === id),
          ),
        ]
      : []
  })
}

export async function getPublication(db: Db, userId: string, id: string): Promise<PublicationView> {
  const [found] = await publicationViews(db, userId, [id])
  if (!found) throw new AppError('NOT_FOUND', 'No such publication')
  return found
}

/** The user's newest publications, newest first; with `batchId`, only those of that catalogue batch. */
export async function listPublications(
  db: Db,
  userId: string,
  options: { batchId?: string | undefined; limit?: number } = {},
): Promise<PublicationView[]> {
  const { batchId, limit = 50 } = options
  const rows = await db
    .select({ id: publications.id })
    .from(publications)
    .where(
      and(
        eq(publications.userId, userId),
        batchId === undefined ? undefined : eq(publications.catalogueBatchId, batchId),
      ),
    )
    .orderBy(desc(publications.createdAt))
    .limit(limit)
  return publicationViews(
    db,
    userId,
    rows.map((row) => row.id),
  )
}
