import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import type {
  ListingCorrection,
  MarketplaceAttribute,
  PublicationItemStatus,
  PublicationItemView,
} from '#shared/contracts/publishing.ts'
import {
  classifyListingProblem,
  classifyReason,
  isMadeOnResubmit,
  type PublishFix,
  type Rejection,
  type RejectionCode,
} from '#shared/publishing/rejections.ts'

/** The products "Fix and resubmit" sends again: refused there, or held back here. */
export const resubmittableStatuses: readonly PublicationItemStatus[] = ['rejected', 'failed', 'blocked']

export function isResubmittable(item: PublicationItemView): boolean {
  return resubmittableStatuses.includes(item.status)
}

/** Each reason a product was held back or refused for, named, with its fix. */
export function rejectionsOf(item: PublicationItemView, marketplace: IntegrationMarketplace): Rejection[] {
  return [
    ...item.problems.map((problem) => classifyListingProblem(problem)),
    ...item.reasons.map((reason) => classifyReason(marketplace, reason)),
  ]
}

/** The fixes Vitrin makes by itself when the products are sent again: nothing to ask. */
const automaticFixes: readonly PublishFix[] = [
  're-export-images',
  'fit-title',
  'fit-description',
  'checker-fix',
]

/** The listing fields that correct each code (the barcode is the product's key: never corrected). */
const correctedFields: Partial<Record<RejectionCode, (keyof ListingCorrection)[]>> = {
  'brand-unknown': ['brand'],
  'stock-code-invalid': ['stockCode'],
  'price-invalid': ['salePrice', 'listPrice'],
  'list-price-below-sale': ['salePrice', 'listPrice'],
  'stock-invalid': ['stock'],
  'vat-invalid': ['vatRate'],
  'desi-invalid': ['desi'],
  'origin-missing': ['origin'],
  'warranty-missing': ['warrantyMonths'],
}

/** The order the listing's fields are shown in. */
export const correctionFieldOrder: readonly (keyof ListingCorrection)[] = [
  'title',
  'description',
  'brand',
  'stockCode',
  'salePrice',
  'listPrice',
  'stock',
  'vatRate',
  'desi',
  'origin',
  'warrantyMonths',
]

/** What sending these products again takes: what Vitrin does, and what the seller is asked. */
export type ResubmitPlan = {
  /** Fixes Vitrin makes by itself, each once, in the order of `automaticFixes`. */
  automatic: PublishFix[]
  /** Whether the attribute form is opened, and at which attributes (as the reasons name them). */
  needsAttributes: boolean
  attributes: string[]
  /** The listing fields to open; `hasKeyProblem` when a reason is about the barcode, which stays. */
  listingFields: (keyof ListingCorrection)[]
  hasKeyProblem: boolean
  /**
   * Hepsiburada knows a sent product by its stock code, so a resubmission cannot change it: the
   * field is not opened there, and this says why.
   */
  isStockCodeFixed: boolean
  needsCategory: boolean
  /** Reasons only the seller (or the marketplace's support) can act on. */
  unfixable: number
}

export function planResubmit(
  items: readonly PublicationItemView[],
  marketplace: IntegrationMarketplace,
): ResubmitPlan {
  const rejections = items.flatMap((item) => rejectionsOf(item, marketplace))
  // A checklist fix that makes a new image (a white background) is not made here: the seller's.
  const isSellers = (rejection: Rejection) => rejection.fix === 'checker-fix' && !isMadeOnResubmit(rejection)
  const fixes = new Set(
    rejections.filter((rejection) => !isSellers(rejection)).map((rejection) => rejection.fix),
  )
  const attributes = [
    ...new Set(
      rejections
        .filter((rejection) => rejection.fix === 'attribute-form' && rejection.attribute)
        .map((rejection) => rejection.attribute as string),
    ),
  ]
  const wanted = new Set(
    rejections.flatMap((rejection) =>
      rejection.fix === 'edit-listing' || rejection.fix === 'choose-brand'
        ? (correctedFields[rejection.code] ?? [])
        : [],
    ),
  )
  const isStockCodeFixed = marketplace === 'hepsiburada' && wanted.has('stockCode')
  if (isStockCodeFixed) wanted.delete('stockCode')
  return {
    automatic: automaticFixes.filter((fix) => fixes.has(fix)),
    needsAttributes: fixes.has('attribute-form'),
    attributes,
    listingFields: correctionFieldOrder.filter((field) => wanted.has(field)),
    hasKeyProblem: rejections.some(
      (rejection) => rejection.code === 'barcode-invalid' || rejection.code === 'barcode-duplicate',
    ),
    isStockCodeFixed,
    needsCategory: fixes.has('choose-category'),
    unfixable: rejections.filter((rejection) => rejection.fix === null || isSellers(rejection)).length,
  }
}

/** Turkish-aware folding for matching an attribute's name as a reason wrote it. */
function fold(text: string): string {
  return text.trim().toLocaleLowerCase('tr')
}

/**
 * The category's attributes the form opens at: those the reasons name (by name or id); when the
 * reasons name none the category knows, its required ones.
 */
export function attributesToAsk(
  attributes: readonly MarketplaceAttribute[],
  named: readonly string[],
): MarketplaceAttribute[] {
  const wanted = new Set(named.map(fold))
  const matched = attributes.filter(
    (attribute) => wanted.has(fold(attribute.name)) || wanted.has(fold(attribute.id)),
  )
  return matched.length > 0 ? matched : attributes.filter((attribute) => attribute.isRequired)
}
