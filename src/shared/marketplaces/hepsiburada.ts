import { brandInTitleAdvice } from './brand-advice.ts'
import { type MarketplaceProfile, megabyte, type RuleSource } from './types.ts'

// Hepsiburada (marketplaces.md §2). Only the image count is published; pixel size, ratio,
// background, file size, formats, title and description limits and video limits were not found
// (the developer portal's detailed notes could not be read), so they are absent.

const juneChangelog: RuleSource = {
  url: 'https://developers.hepsiburada.com/hepsiburada/changelog/hepsiburada-entegrasyon-haziran-2025',
  confidence: 'official',
  date: '2025-06',
  note: 'Image1…Image10: raised from 5 to 10 in June 2025',
}

const catalogOpenApi: RuleSource = {
  url: 'https://github.com/taha-kanar/hepsiburada-sdk/blob/HEAD/openapi/catalog.json',
  confidence: 'official-copy',
  // The capture shows no date of its own.
  date: '2026-10',
  note: 'Hepsiburada catalog OpenAPI ("Ürün Bilgisi Gönderme"): one Video1 URL field per product',
}

export const hepsiburada: MarketplaceProfile = {
  id: 'hepsiburada',
  image: { all: { maxCount: { value: 10, source: juneChangelog } } },
  video: { maxCount: { value: 1, source: catalogOpenApi } },
  copy: { brandInTitle: brandInTitleAdvice },
  // Nothing about size is published. A square keeps the whole product in whatever frame the site
  // shows, and a 1500-px side clears the one published sharpness bar we have (Amazon's 1000 px for
  // zoom) with room; 5 MB as for every profile without a file limit.
  export: {
    width: 1500,
    height: 1500,
    background: 'extend',
    maxBytes: 5 * megabyte,
    choice: 'vitrin-default',
    maxBytesChoice: 'vitrin-default',
  },
}
