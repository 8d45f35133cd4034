import { brandInTitleAdvice } from './brand-advice.ts'
import { type MarketplaceProfile, megabyte, type RuleSource } from './types.ts'

// Etsy (marketplaces.md §6). Absent because not found or conflicting: an official photo size
// (third-party guides disagree whether ~2000 px is the shortest or the longest side), a
// description limit, video length and size.

const imagePolicy: RuleSource = {
  url: 'https://www.etsy.com/legal/policy/listing-image-requirements/253962679005',
  confidence: 'official',
  date: '2026-10',
  note: 'Listing images show the item itself, not a rendering or stock photo; software-made images only among the additional images of personalised items',
}
const openApi: RuleSource = {
  url: 'https://www.etsy.com/openapi/generated/oas/3.0.0.json',
  confidence: 'official-copy',
  date: '2026-10',
  note: "Etsy's OpenAPI, as quoted in public code",
}
const thirdParty: RuleSource = {
  url: 'https://skills.sh/jacob-balslev/skills/etsy',
  confidence: '3p',
  date: '2026-10',
}
const photoGuides: RuleSource = {
  url: 'https://hauld.app',
  confidence: '3p',
  date: '2026-10',
  note: 'Third-party guides (hauld.app, thotfy.com, etsyshop.ai)',
}

export const etsy: MarketplaceProfile = {
  id: 'etsy',
  image: {
    all: {
      maxBytes: { value: 10 * megabyte, source: photoGuides },
      formats: { value: ['jpeg', 'png', 'gif'], source: photoGuides },
      maxCount: { value: 20, source: openApi },
    },
    main: { realPhoto: { value: 'required', source: imagePolicy } },
    additional: { realPhoto: { value: 'required-unless-personalised', source: imagePolicy } },
  },
  video: { maxCount: { value: 2, source: { ...openApi, note: 'is_multi_video=true links up to 2 videos' } } },
  copy: {
    titleMax: { value: 140, source: thirdParty },
    titleOnceOnlyChars: { value: ['%', ':', '&', '+'], source: openApi },
    // Letters, numbers, punctuation, math symbols, whitespace, ™ © ®.
    titleAllowedChars: { value: String.raw`\p{L}\p{M}\p{N}\p{P}\p{Sm}\s™©®`, source: openApi },
    tags: { value: { maxCount: 13, maxLength: 20 }, source: thirdParty },
    // Letters, numbers, whitespace, - and ', ™ © ®.
    tagAllowedChars: { value: String.raw`\p{L}\p{M}\p{N}\s\-'™©®`, source: openApi },
    brandInTitle: brandInTitleAdvice,
  },
  // Guides say "about 2000 px" without agreeing on which side; 2500×2000 meets both readings.
  // 5:4 sits between the square and 4:3 thumbnails Etsy shows, so neither crops far into the item.
  export: {
    width: 2500,
    height: 2000,
    background: 'extend',
    maxBytes: 10 * megabyte,
    choice: 'vitrin-default',
    maxBytesChoice: 'rule',
  },
}
