import { brandInTitleAdvice } from './brand-advice.ts'
import { type MarketplaceProfile, megabyte } from './types.ts'

// Çiçeksepeti (marketplaces.md §5): only the API's field names are known. Every image, video and
// copy rule was searched for and not found, so every rule is absent and the checker says
// "not published"; only Vitrin's own brand advice applies.

export const ciceksepeti: MarketplaceProfile = {
  id: 'ciceksepeti',
  image: { all: {} },
  video: {},
  copy: { brandInTitle: brandInTitleAdvice },
  // No size or file limit is published: the same square and 5 MB as hepsiburada.ts, for the same reasons.
  export: {
    width: 1500,
    height: 1500,
    background: 'extend',
    maxBytes: 5 * megabyte,
    choice: 'vitrin-default',
    maxBytesChoice: 'vitrin-default',
  },
}
