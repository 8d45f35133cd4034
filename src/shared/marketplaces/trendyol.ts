import { brandInTitleAdvice } from './brand-advice.ts'
import { type MarketplaceProfile, megabyte, type RuleSource } from './types.ts'

// Trendyol (marketplaces.md §1). Not found, so absent: image formats, file size, background,
// text on product images; video resolution and ratio; forbidden words, ALL CAPS and special
// characters in product titles (the "kampanya/indirim" list is for store banners only); a
// keywords field (createProducts has none).

const productCreate: RuleSource = {
  url: 'https://developers.trendyol.com/docs/ürün-yaratma-v2',
  confidence: 'official-copy',
  date: '2026-09-18',
  note: 'The page (updatedAt 2026-09-18) and its createProducts OpenAPI, read from a public GitHub mirror downloaded 2026-09-28',
}

const videoGuide: RuleSource = {
  url: 'https://developers.trendyol.com/docs/seller-integration-video-api',
  confidence: 'official-copy',
  date: '2026-07-03',
  note: 'Portal updatedAt 2026-07-03, as compiled in loncadev/lonca specs/trendyol/video.json',
}

export const trendyol: MarketplaceProfile = {
  id: 'trendyol',
  image: {
    all: {
      exactSize: { value: { width: 1200, height: 1800, dpi: 96 }, source: productCreate },
      maxCount: { value: 8, source: productCreate },
    },
  },
  video: {
    minSeconds: { value: 8, source: videoGuide },
    maxSeconds: { value: 120, source: videoGuide },
    maxBytes: { value: 500 * megabyte, source: videoGuide },
    formats: { value: ['mp4', 'mov'], source: videoGuide },
    maxCount: { value: 1, source: { ...videoGuide, note: 'One active video per productContentId' } },
    titleLength: { value: { min: 3, max: 50 }, source: videoGuide },
    descriptionMax: { value: 500, source: videoGuide },
  },
  copy: {
    titleMax: { value: 100, source: productCreate },
    descriptionRequired: { value: true, source: productCreate },
    descriptionMax: {
      value: 30_000,
      source: { ...productCreate, note: 'HTML string, max 30,000 characters' },
    },
    brandInTitle: brandInTitleAdvice,
  },
  // The size is Trendyol's rule. No file limit is published; 5 MB is ours: far under every limit
  // any marketplace here publishes (n11 and Amazon 10 MB), and a 1200×1800 JPEG needs far less.
  export: {
    width: 1200,
    height: 1800,
    background: 'extend',
    maxBytes: 5 * megabyte,
    choice: 'rule',
    maxBytesChoice: 'vitrin-default',
  },
}
