import { brandInTitleAdvice } from './brand-advice.ts'
import { type MarketplaceProfile, megabyte, type RuleSource } from './types.ts'

// Shopify (marketplaces.md §7). Background and text are the store owner's choice; product title
// and SEO field limits are not published officially, so they are absent.

const supportedMedia: RuleSource = {
  url: 'https://shopify.dev/docs/apps/build/graphql/migrate/new-files-model',
  confidence: 'official',
  date: '2026-10',
  note: 'Supported media types',
}

export const shopify: MarketplaceProfile = {
  id: 'shopify',
  image: {
    all: {
      maxSide: { value: 4472, source: supportedMedia },
      ratioRange: {
        value: { min: { width: 1, height: 100 }, max: { width: 100, height: 1 } },
        source: supportedMedia,
      },
      maxBytes: { value: 20 * megabyte, source: supportedMedia },
      formats: { value: ['png', 'gif', 'jpeg', 'webp', 'heic'], source: supportedMedia },
      maxCount: {
        value: 250,
        source: {
          url: 'https://grokipedia.com/page/Shopify_product_media',
          confidence: '3p',
          date: '2026-10',
          note: 'Media per product, citing Shopify Help',
        },
      },
    },
  },
  video: {
    maxSeconds: { value: 600, source: supportedMedia },
    maxBytes: { value: 1000 * megabyte, source: supportedMedia },
    formats: { value: ['mp4', 'mov', 'webm'], source: supportedMedia },
    maxResolution: { value: { width: 3840, height: 2160 }, source: supportedMedia },
  },
  copy: { brandInTitle: brandInTitleAdvice },
  // Shopify recommends 2048×2048 (official); the limit is Shopify's 20 MB.
  export: {
    width: 2048,
    height: 2048,
    background: 'extend',
    maxBytes: 20 * megabyte,
    choice: 'rule',
    maxBytesChoice: 'rule',
  },
}
