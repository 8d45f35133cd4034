import { type PublishableRow, publishableRows } from '#server/features/catalogue/outgoing.service.ts'
import {
  type BatchListingDefaults,
  type CatalogueDraftRow,
  type CataloguePublishDraftRequest,
  type CataloguePublishDraftResponse,
  type CataloguePublishRequest,
  type FilledAttribute,
  type MarketplaceAttribute,
  type MarketplaceCategory,
  type PublishResponse,
  videoMarketplaces,
} from '#shared/contracts/publishing.ts'
import { AppError } from '#shared/errors.ts'
import { type AttributeFill, askOnce, attributeKind, fillAttributes } from './attribute-filler.ts'
import { type Listing, type ListingProblem, sellerAttributes, type VatRate } from './listing.ts'
import { openChannel } from './publications.service.ts'
import { type PublishDeps, publicationViews, publishableImages, publishableVideo } from './publish.service.ts'
import { type DraftDeps, photoColour } from './publish-draft.service.ts'
import { type ListingToPublish, queuePublications } from './queue-publications.service.ts'

// A whole catalogue batch published (issue 30, point 4): each finished row with an image result
// becomes a listing from its own columns (barcode, stock code, brand, prices, stock, VAT, desi),
// its image results in the export's order, its copy (the seller's edit first) and the category's
// attributes filled as for one product (attribute-filler.ts, the row as catalogue facts, the
// photo's colour). What several rows lack is asked once (askOnce); what one row lacks and no
// answer or default gives holds that row back as `blocked`, never the batch.

export type CataloguePublishDeps = PublishDeps & { draft: DraftDeps }

/**
 * Rows worked on at once (photo colour, image check and rendering): storage and database reads
 * overlap while the segmenter and sharp take the processor.
 */
const rowConcurrency = 4

/** A listing field a row may lack (CatalogueDraftRow.lacking). */
type LackingField =
  | 'barcode'
  | 'salePrice'
  | 'stock'
  | 'vatRate'
  | 'desi'
  | 'brand'
  | 'title'
  | 'description'
  | 'images'
  | 'origin'
  | 'warrantyMonths'

/** The lacking fields a batch default can give, in the order the form asks them. */
const defaultable = [
  'brand',
  'vatRate',
  'desi',
  'stock',
  'origin',
  'warrantyMonths',
] as const satisfies readonly (LackingField | keyof BatchListingDefaults)[]

type DraftedRow = { source: PublishableRow; fill: AttributeFill; lacking: LackingField[] }

type Drafted = {
  category: MarketplaceCategory
  attributes: MarketplaceAttribute[]
  rows: DraftedRow[]
  questions: MarketplaceAttribute[]
}

async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const run = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await work(items[index] as T)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run))
  return results
}

/** The listing's title and description: the copy's (the seller's edit first), else the row's own. */
function copyOf(source: PublishableRow) {
  return {
    title: source.seo?.title.trim() || source.fields.name || '',
    description: source.seo?.description.trim() || source.fields.description || '',
    features: source.seo?.features ?? [],
  }
}

/** What a row lacks for the marketplace's listing, before any batch default. */
function lackingOf(
  source: PublishableRow,
  marketplace: CataloguePublishRequest['marketplace'],
): LackingField[] {
  const { listing } = source.row
  const copy = copyOf(source)
  const lacking: LackingField[] = []
  if (!listing.barcode) lacking.push('barcode')
  if (listing.price === undefined) lacking.push('salePrice')
  if (listing.stock === undefined) lacking.push('stock')
  if (listing.vatRate === undefined) lacking.push('vatRate')
  if (listing.desi === undefined) lacking.push('desi')
  if (!source.fields.brand) lacking.push('brand')
  if (copy.title === '') lacking.push('title')
  if (copy.description === '') lacking.push('description')
  if (source.imageGenerationIds.length === 0) lacking.push('images')
  // A file has no column for these: Trendyol requires the origin, Hepsiburada the warranty.
  lacking.push(marketplace === 'trendyol' ? 'origin' : 'warrantyMonths')
  return lacking
}

/**
 * The batch's rows filled for the category: each row's attributes (its columns by header, its
 * mapped fields, its copy, its photo's colour) and what it lacks, with the batch's questions.
 * NOT_FOUND for another's batch; CATALOGUE_NOTHING_TO_PUBLISH when no row can be published.
 */
async function draftBatch(
  deps: CataloguePublishDeps,
  userId: string,
  request: CataloguePublishDraftRequest & { excludedRowIds?: string[] },
): Promise<Drafted> {
  if (!(await openChannel(deps.connections, userId, request.marketplace))) {
    throw new AppError('MARKETPLACE_NOT_CONNECTED', `No ${request.marketplace} connection`)
  }
  const excluded = new Set(request.excludedRowIds ?? [])
  const sources = (await publishableRows(deps.db, userId, request.batchId)).rows.filter(
    (source) => !excluded.has(source.row.id),
  )
  if (sources.length === 0) {
    throw new AppError('CATALOGUE_NOTHING_TO_PUBLISH', 'No finished product of the batch has an image')
  }
  const read = await deps.draft.taxonomy.attributes(userId, request.marketplace, request.categoryId)
  const { category } = read
  // The listing's own fields (Hepsiburada lists them among a category's attributes) come from
  // the row's columns through the listing, never as attributes.
  const attributes = sellerAttributes(request.marketplace, read.attributes)
  const rows = await eachLimited(sources, rowConcurrency, async (source) => {
    const input = {
      attributes,
      copy: source.seo,
      catalogue: { fields: source.fields, columns: source.columns },
    }
    let fill = await fillAttributes(input)
    // The photo is segmented (seconds a row on a busy machine) only where it can change the
    // answer: a colour attribute the row's own words left open. Where they fill it, the filler
    // gives the same value with or without the photo (it never overrides the seller).
    const isColourOpen = attributes.some(
      (attribute) =>
        attributeKind(attribute) === 'colour' &&
        !fill.filled.some((value) => value.attributeId === attribute.id),
    )
    if (isColourOpen && source.row.inputAssetId) {
      fill = await fillAttributes({
        ...input,
        photoColour: await photoColour(deps.draft, userId, source.row.inputAssetId),
      })
    }
    return { source, fill, lacking: lackingOf(source, request.marketplace) }
  })
  return { category, attributes, rows, questions: askOnce(rows.map((row) => row.fill)).forBatch }
}

/** POST /api/publications/catalogue/draft: what publishing the batch would send, and what to ask. */
export async function draftCataloguePublish(
  deps: CataloguePublishDeps,
  userId: string,
  request: CataloguePublishDraftRequest,
): Promise<CataloguePublishDraftResponse> {
  const drafted = await draftBatch(deps, userId, request)
  const questionIds = new Set(drafted.questions.map((attribute) => attribute.id))
  const rows: CatalogueDraftRow[] = drafted.rows.map(({ source, fill, lacking }) => ({
    rowId: source.row.id,
    line: source.row.line,
    sku: source.row.sku,
    title: copyOf(source).title,
    barcode: source.row.listing.barcode ?? null,
    imageCount: source.imageGenerationIds.length,
    hasVideo: source.videoGenerationId !== null,
    filled: fill.filled,
    missing: fill.missing.map((attribute) => attribute.id).filter((id) => !questionIds.has(id)),
    lacking,
  }))
  const lacked = new Set(drafted.rows.flatMap((row) => row.lacking))
  return {
    category: drafted.category,
    attributes: drafted.attributes,
    rows,
    questions: drafted.questions.map((attribute) => attribute.id),
    defaultsAsked: defaultable.filter((field) => lacked.has(field)),
  }
}

/** A listing number the row lacks and no default gives: null where stored, refused by listing.ts. */
const absent = null as unknown as number

/**
 * POST /api/publications/catalogue: every row of the batch (but those left out) built into a
 * listing with the answers and defaults, its images checked and published, and queued as
 * publications of the batch. A row still lacking something is stored `blocked` with its
 * problems; the others are sent.
 */
export async function publishCatalogueBatch(
  deps: CataloguePublishDeps,
  userId: string,
  request: CataloguePublishRequest,
): Promise<PublishResponse> {
  const drafted = await draftBatch(deps, userId, request)
  const { defaults } = request
  // Each row's images checked and rendered a few at once (each waits on storage and sharp).
  const entries = await eachLimited(drafted.rows, rowConcurrency, async ({ source, fill }) => {
    const { row } = source
    const values = row.listing
    // An answer is for every row lacking its attribute; a row's own value stands.
    const answered = request.answers.filter((answer) =>
      fill.missing.some((attribute) => attribute.id === answer.attributeId),
    )
    const attributes: FilledAttribute[] = [...fill.filled, ...answered]
    const problems: ListingProblem[] = fill.missing
      .filter((attribute) => !answered.some((answer) => answer.attributeId === attribute.id))
      .map((attribute) => ({ code: 'attribute-missing', field: `attributes.${attribute.id}` }))
    const images = await publishableImages(deps, userId, request.marketplace, source.imageGenerationIds)
    problems.push(...images.problems)
    // The row's video goes where the marketplace takes one with the listing (Hepsiburada's Video1).
    const video =
      source.videoGenerationId && videoMarketplaces.includes(request.marketplace)
        ? await publishableVideo(deps, userId, request.marketplace, source.videoGenerationId)
        : { url: null, problems: [] }
    problems.push(...video.problems)
    const copy = copyOf(source)
    const listing: Listing = {
      barcode: values.barcode ?? '',
      stockCode: row.sku,
      variantGroup: null,
      title: copy.title,
      description: copy.description,
      features: copy.features,
      brand: source.fields.brand ?? defaults.brand ?? '',
      categoryId: request.categoryId,
      salePrice: values.price ?? absent,
      listPrice: values.listPrice ?? null,
      stock: values.stock ?? defaults.stock ?? absent,
      vatRate: values.vatRate ?? defaults.vatRate ?? (absent as VatRate),
      desi: values.desi ?? defaults.desi ?? absent,
      imageUrls: images.urls,
      videoUrl: video.url,
      attributes,
      origin: defaults.origin ?? null,
      warrantyMonths: defaults.warrantyMonths ?? null,
    }
    const entry: ListingToPublish = {
      listing,
      problems,
      generationId: source.imageGenerationIds[0] ?? null,
      catalogueRowId: row.id,
    }
    return entry
  })
  const ids = await queuePublications(deps, userId, request.marketplace, entries, {
    catalogueBatchId: request.batchId,
  })
  return { publications: await publicationViews(deps.db, userId, ids) }
}
