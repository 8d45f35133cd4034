import { z } from 'zod'
import type { IntegrationMarketplace } from './integrations.ts'

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
