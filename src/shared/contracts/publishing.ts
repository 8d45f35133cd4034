import { z } from 'zod'
import { type IntegrationMarketplace, integrationMarketplaces } from './integrations.ts'

// What publishing to a marketplace works with, the same shape for Trendyol and Hepsiburada
// (issue 30): a category with its path, the attributes it takes with their allowed values, and
// the values Vitrin fills in for the seller, each with where it came from.

/** A marketplace category: its own id (as text, whatever the marketplace's type), name and path. */
export type MarketplaceCategory = {
  marketplace: IntegrationMarketplace
  id: string
  name: string
  /** The names from the root down to this category, this one last. */
  path: string[]
  /** Only a leaf category takes products. */
  isLeaf: boolean
}

/** One allowed value of an attribute: the marketplace's id for it (the name again when it has none). */
export type MarketplaceAttributeValue = { id: string; name: string }

/** One attribute a category takes, as the marketplace names it ("Renk", "Materyal"). */
export type MarketplaceAttribute = {
  id: string
  name: string
  isRequired: boolean
  /** Whether it takes several values (Hepsiburada multiValue); Trendyol's take one. */
  isMultiple: boolean
  /** Whether a value outside `values` may be given (Trendyol allowCustom, a free-text attribute). */
  allowsCustom: boolean
  /** The allowed values; empty for a free-text attribute. */
  values: MarketplaceAttributeValue[]
}

/**
 * Where a filled value came from: the product photo (its colour), a catalogue column, the
 * product details the seller typed, the SEO copy, a vision model choosing among the allowed
 * values, or the seller answering the form.
 */
export const fillSources = ['photo', 'catalogue', 'details', 'copy', 'vision', 'seller'] as const
export type FillSource = (typeof fillSources)[number]

/** A value filled for one attribute: an allowed value's id, or null for a custom (typed) value. */
export type FilledAttribute = {
  attributeId: string
  valueId: string | null
  value: string
  source: FillSource
}

// The marketplaces' reference data (issue 30, point 2), under /api/integrations/:marketplace. The
// category list and each category's attributes are cached for a day and read again on a refresh;
// brands are asked of the marketplace each time.

/** GET /api/integrations/:marketplace/categories?q=fincan takımı: a search in Turkish (or folded) words. */
export const categorySearchQuerySchema = z.object({ q: z.string().trim().min(1).max(100) })
export type CategorySearchQuery = z.infer<typeof categorySearchQuerySchema>

/** The most categories a search answers with. */
export const categorySearchLimit = 20

/**
 * The answer to a category search: at most `categorySearchLimit`, categories that take products
 * first, then those whose own name matches before those matched through a parent.
 */
export type CategorySearchResponse = {
  categories: MarketplaceCategory[]
  /** When the category list was read from the marketplace (ISO 8601). */
  fetchedAt: string
}

/** GET /api/integrations/:marketplace/categories/:id/attributes: a leaf category's attributes. */
export type CategoryAttributesResponse = {
  category: MarketplaceCategory
  attributes: MarketplaceAttribute[]
  /** When these attributes were read from the marketplace (ISO 8601). */
  fetchedAt: string
}

/** POST /api/integrations/:marketplace/taxonomy/refresh: the category list read again now. */
export type TaxonomyRefreshResponse = {
  marketplace: IntegrationMarketplace
  categoryCount: number
  fetchedAt: string
}

/**
 * GET /api/integrations/trendyol/brands?q=: Trendyol's brands whose name contains the words.
 * Only Trendyol has a brand lookup: Hepsiburada takes the brand as free text (its "Marka"
 * attribute), so there is no Hepsiburada brand route.
 */
export const brandSearchQuerySchema = z.object({ q: z.string().trim().min(2).max(100) })
export type BrandSearchQuery = z.infer<typeof brandSearchQuerySchema>

/** A marketplace brand: its id (as text) for the listing, and its name. */
export type MarketplaceBrand = { id: string; name: string }

export type BrandSearchResponse = { brands: MarketplaceBrand[] }

// Publishing (issue 30, points 4–5): POST /api/publications sends studio results to a marketplace;
// GET /api/publications/:id follows each product until it is live or rejected.

const money = z.number().positive().max(10_000_000).multipleOf(0.01)

// The fields that may be null, without their default: a correction (below) must tell "not given"
// from "cleared", so it takes them bare, and the listing gives each its default.
const nullableListingFields = {
  listPrice: money.nullable(),
  /** Two capital letters (Trendyol requires it). */
  origin: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}$/)
    .nullable(),
  /** Months (Hepsiburada requires it). */
  warrantyMonths: z.number().int().min(0).max(240).nullable(),
  /** The title and description, when the seller writes them instead of taking the SEO copy's. */
  title: z.string().trim().min(1).max(300).nullable(),
  description: z.string().trim().min(1).max(30_000).nullable(),
}

/** What the seller says about a product that no photo or copy can: codes, prices, stock, tax. */
export const listingFieldsSchema = z.object({
  barcode: z.string().trim().min(1).max(40),
  stockCode: z.string().trim().min(1).max(100),
  brand: z.string().trim().min(1).max(100),
  salePrice: money,
  listPrice: nullableListingFields.listPrice.default(null),
  stock: z.number().int().min(0).max(1_000_000),
  vatRate: z.union([z.literal(0), z.literal(1), z.literal(10), z.literal(20)]),
  desi: z.number().min(0).max(10_000),
  origin: nullableListingFields.origin.default(null),
  warrantyMonths: nullableListingFields.warrantyMonths.default(null),
  title: nullableListingFields.title.default(null),
  description: nullableListingFields.description.default(null),
})
export type ListingFields = z.infer<typeof listingFieldsSchema>

export const filledAttributeSchema = z.object({
  attributeId: z.string().min(1).max(100),
  valueId: z.string().min(1).max(200).nullable(),
  value: z.string().trim().min(1).max(200),
  source: z.enum(fillSources),
})

/** The most products one publish request takes: one marketplace request's worth. */
export const maxProductsPerPublish = 1000

export const publishRequestSchema = z.object({
  marketplace: z.enum(integrationMarketplaces),
  categoryId: z.string().trim().min(1).max(40),
  products: z
    .array(
      z.object({
        /** Image results, the main image first, each rendered in the marketplace's size. */
        imageGenerationIds: z.array(z.uuid()).min(1).max(10),
        /**
         * An SEO result whose title, description and features the listing takes; by default the
         * newest finished one made from the same photo as the main image.
         */
        copyGenerationId: z.uuid().nullable().default(null),
        /**
         * A finished video result sent with the listing, made to the marketplace's video rules at
         * a public address: in the item on Hepsiburada (Video1), through Trendyol's video service
         * once the product is approved.
         */
        videoGenerationId: z.uuid().nullable().default(null),
        listing: listingFieldsSchema,
        attributes: z.array(filledAttributeSchema).max(100).default([]),
      }),
    )
    .min(1)
    .max(maxProductsPerPublish),
})
export type PublishRequest = z.infer<typeof publishRequestSchema>

export const publicationStatuses = ['queued', 'sending', 'processing', 'reviewing', 'done', 'failed'] as const
export type PublicationStatus = (typeof publicationStatuses)[number]

export const publicationItemStatuses = [
  'blocked',
  'queued',
  'sent',
  'pending',
  'live',
  'rejected',
  'failed',
] as const
export type PublicationItemStatus = (typeof publicationItemStatuses)[number]

/** One product of a publication, as the seller follows it. */
export type PublicationItemView = {
  id: string
  barcode: string
  title: string
  status: PublicationItemStatus
  /** Why it was not sent (listing.ts problem codes, and `checker:<rule>` for a failed pre-publish check). */
  problems: { code: string; field: string }[]
  /** The marketplace's own words for a rejection or failure. */
  reasons: string[]
  productUrl: string | null
  /**
   * Its video, where the marketplace takes it after approval (Trendyol's video service), with the
   * marketplace's words when it failed; null otherwise (Hepsiburada's goes in the product).
   */
  video: { status: PublicationVideoStatus; reasons: string[] } | null
  generationId: string | null
  catalogueRowId: string | null
  updatedAt: string
}

export type PublicationView = {
  id: string
  marketplace: IntegrationMarketplace
  /** The catalogue batch it was published from; null for studio results. */
  catalogueBatchId: string | null
  /** The publication whose products this one sent again; null for a first send. */
  resubmitOf: string | null
  status: PublicationStatus
  errorCode: string | null
  counts: Record<PublicationItemStatus, number>
  items: PublicationItemView[]
  createdAt: string
  updatedAt: string
}

/** GET /api/publications?batchId=: the newest publications, only a catalogue batch's with `batchId`. */
export const publicationListQuerySchema = z.object({ batchId: z.uuid().optional() })
export type PublicationListQuery = z.infer<typeof publicationListQuerySchema>

/** POST /api/publications: accepted (202), one publication per marketplace request. */
export type PublishResponse = { publications: PublicationView[] }

/**
 * POST /api/publications/draft: a product's attributes for a category, filled from what Vitrin
 * knows (the SEO result's details and copy, the photo's colour), for the seller to check.
 */
export const publishDraftRequestSchema = z.object({
  marketplace: z.enum(integrationMarketplaces),
  categoryId: z.string().trim().min(1).max(40),
  imageGenerationId: z.uuid(),
  copyGenerationId: z.uuid().nullable().default(null),
})
export type PublishDraftRequest = z.infer<typeof publishDraftRequestSchema>

export type PublishDraftResponse = {
  category: MarketplaceCategory
  attributes: MarketplaceAttribute[]
  /** Each with its source; the seller may change any. */
  filled: FilledAttribute[]
  /** Required attributes nothing could fill: the seller's to answer. */
  missing: string[]
  /** The seller's brand from the details, for the listing's brand field. */
  brand: string | null
  /**
   * The SEO result the listing's copy comes from (the one asked for, else the newest made from the
   * same photo); null when there is none, and the seller writes the title and description.
   */
  copy: { generationId: string; title: string; description: string } | null
  /**
   * The newest finished video made from the image result, offered to go with the listing where
   * the marketplace takes one (`videoMarketplaces`); null when there is none.
   */
  video: { generationId: string } | null
}

/**
 * The marketplaces a listing's video is sent to: Hepsiburada in the product's import item
 * (Video1), Trendyol through its video service once the product is approved.
 */
export const videoMarketplaces: readonly IntegrationMarketplace[] = ['hepsiburada', 'trendyol']

/** The marketplaces that take the video through a service of their own once the product is approved. */
export const videoAfterApproval: readonly IntegrationMarketplace[] = ['trendyol']

/** Where a product's video stands when its marketplace takes it after approval (Trendyol). */
export const publicationVideoStatuses = ['queued', 'processing', 'live', 'failed'] as const
export type PublicationVideoStatus = (typeof publicationVideoStatuses)[number]

// Fix and resubmit (issue 30, point 5): POST /api/publications/:id/resubmit sends a publication's
// refused products again, each with the fixes its reasons name that Vitrin can make by itself
// (images rendered again in the marketplace's size, the title or description fitted to its limit,
// promotional words taken out) and the seller's answers (the attribute form, the listing's fields).
// The products go as a new publication; the marketplace updates what it already has by barcode.

/** The listing fields the seller may correct when resubmitting (never the barcode: it is the key). */
export const listingCorrectionSchema = listingFieldsSchema
  .omit({ barcode: true })
  .extend(nullableListingFields)
  .partial()
export type ListingCorrection = z.infer<typeof listingCorrectionSchema>

export const resubmitRequestSchema = z.object({
  /**
   * The products to send again (items of this publication); null for every product of it that
   * was rejected, failed or blocked.
   */
  itemIds: z.array(z.uuid()).min(1).max(maxProductsPerPublish).nullable().default(null),
  /** Attribute values from the form; each replaces the value of the same attribute in every product. */
  attributes: z.array(filledAttributeSchema).max(100).default([]),
  /** Corrected listing fields, for every product sent again. */
  listing: listingCorrectionSchema.default({}),
  /** Another category, when the reason was the category. */
  categoryId: z.string().trim().min(1).max(40).nullable().default(null),
})
export type ResubmitRequest = z.infer<typeof resubmitRequestSchema>

/** What was done to one product before it was sent again (rejections.ts PublishFix names). */
export type AppliedFix = { itemId: string; barcode: string; fixes: string[] }

/** POST /api/publications/:id/resubmit: accepted (202), the new publication and what was fixed. */
export type ResubmitResponse = { publication: PublicationView; applied: AppliedFix[] }

// A whole catalogue batch published (issue 30, point 4): each finished row becomes a listing from
// its columns (barcode, stock code, brand, price, stock, VAT, desi), its image results in order,
// its SEO copy (the seller's edit first) and attributes filled as for one product. A required
// attribute no row could fill is asked once for the batch.

/** POST /api/publications/catalogue/draft: what publishing the batch would send, before it is sent. */
export const cataloguePublishDraftRequestSchema = z.object({
  marketplace: z.enum(integrationMarketplaces),
  categoryId: z.string().trim().min(1).max(40),
  batchId: z.uuid(),
})
export type CataloguePublishDraftRequest = z.infer<typeof cataloguePublishDraftRequestSchema>

/** The values a batch's rows may lack, given once for all of them. */
export const batchListingDefaultsSchema = listingFieldsSchema
  .pick({ brand: true, vatRate: true, desi: true, stock: true, origin: true, warrantyMonths: true })
  .partial()
export type BatchListingDefaults = z.infer<typeof batchListingDefaultsSchema>

export type CatalogueDraftRow = {
  rowId: string
  /** The row's line in the seller's file, as the batch page shows it (the header is line 1). */
  line: number
  sku: string
  title: string
  barcode: string | null
  imageCount: number
  /** Whether the row has a video result, which goes with its listing where the marketplace takes one. */
  hasVideo: boolean
  filled: FilledAttribute[]
  /** Required attributes this row lacks that are not batch questions. */
  missing: string[]
  /**
   * Listing fields the row lacks and no default gives (`barcode`, `salePrice`, `stock`, `vatRate`,
   * `desi`, `brand`, `title`, `images`): the row is held back until given.
   */
  lacking: string[]
}

export type CataloguePublishDraftResponse = {
  category: MarketplaceCategory
  attributes: MarketplaceAttribute[]
  /** The rows that would be published (finished, with at least one image result). */
  rows: CatalogueDraftRow[]
  /** Required attribute ids that rows lack, asked once: the answer is used for every row lacking it. */
  questions: string[]
  /** Listing fields some rows lack that a batch default can give. */
  defaultsAsked: (keyof BatchListingDefaults)[]
}

/** POST /api/publications/catalogue: the batch queued (202) as publications, with the answers. */
export const cataloguePublishRequestSchema = cataloguePublishDraftRequestSchema.extend({
  /** Answers to the batch questions, used for every row that lacks the attribute. */
  answers: z.array(filledAttributeSchema).max(100).default([]),
  defaults: batchListingDefaultsSchema.default({}),
  /** Rows left out by the seller. */
  excludedRowIds: z.array(z.uuid()).max(maxProductsPerPublish).default([]),
})
export type CataloguePublishRequest = z.infer<typeof cataloguePublishRequestSchema>
