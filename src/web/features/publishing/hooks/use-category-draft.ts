import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import type { MarketplaceCategory } from '#shared/contracts/publishing.ts'
import { useResource } from '#web/lib/use-resource.ts'

/** Where a draft is for: the marketplace and its category. */
export type DraftTarget = { marketplace: IntegrationMarketplace; categoryId: string }

/**
 * What publishing `sourceId` (a result, a batch) in a marketplace's category would send, read
 * with `read` and read again when the marketplace, the category or the source changes.
 */
export function useCategoryDraft<Draft>(
  target: { marketplace: IntegrationMarketplace; category: MarketplaceCategory },
  sourceId: string,
  read: (target: DraftTarget) => Promise<Draft>,
) {
  const { marketplace, category } = target
  return useResource(() => read({ marketplace, categoryId: category.id }), {
    key: `${marketplace}:${category.id}:${sourceId}`,
  })
}
