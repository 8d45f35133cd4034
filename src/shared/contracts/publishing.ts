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
