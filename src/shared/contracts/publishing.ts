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

/** What the seller says about a product that no photo or copy can: codes, prices, stock, tax. */
export const listingFieldsSchema = z.object({
  barcode: z.string().trim().min(1).max(40),
  stockCode: z.string().trim().min(1).max(100),
  brand: z.string().trim().min(1).max(100),
  salePrice: money,
  listPrice: money.nullable().default(null),
  stock: z.number().int().min(0).max(1_000_000),
  vatRate: z.union([z.literal(0), z.literal(1), z.literal(10), z.literal(20)]),
  desi: z.number().min(0).max(10_000),
  /** Two capital letters (Trendyol requires it). */
  origin: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}$/)
    .nullable()
    .default(null),
  /** Months (Hepsiburada requires it). */
  warrantyMonths: z.number().int().min(0).max(240).nullable().default(null),
  /** The title and description, when the seller writes them instead of taking the SEO copy's. */
  title: z.string().trim().min(1).max(300).nullable().default(null),
  description: z.string().trim().min(1).max(30_000).nullable().default(null),
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
  generationId: string | null
  updatedAt: string
}

export type PublicationView = {
  id: string
  marketplace: IntegrationMarketplace
  status: PublicationStatus
  errorCode: string | null
  counts: Record<PublicationItemStatus, number>
  items: PublicationItemView[]
  createdAt: string
  updatedAt: string
}

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
}
