import { type MarketplaceProfile, megabyte, type RuleSource } from './types.ts'

// Instagram is not in marketplaces.md. Its formats come from a third party summarising Meta's
// specs (the same source the provider research for this product quotes), so every rule here is
// a hint ('3p') and warns at most. Feed images 4:5 to 1.91:1 (1:1 and 4:5 the usual sizes);
// Reels 9:16. Captions have no published title rules, so copy is empty (no brand advice either).

const mediaGuidelines: RuleSource = {
  url: 'https://www.ayrshare.com/docs/media-guidelines/instagram',
  confidence: '3p',
  date: '2026-10',
  note: "A third-party summary of Meta's specs: feed 4:5 to 1.91:1 (1080×1080, 1080×1350); Reels 9:16, at least 540×960, 3 s to 15 min, MP4/MOV",
}

export const instagram: MarketplaceProfile = {
  id: 'instagram',
  image: {
    all: {
      ratioRange: {
        value: { min: { width: 4, height: 5 }, max: { width: 191, height: 100 } },
        source: mediaGuidelines,
      },
    },
  },
  video: {
    minSeconds: { value: 3, source: mediaGuidelines },
    maxSeconds: { value: 15 * 60, source: mediaGuidelines },
    formats: { value: ['mp4', 'mov'], source: mediaGuidelines },
    minResolution: { value: { width: 540, height: 960 }, source: mediaGuidelines },
    ratios: { value: [{ width: 9, height: 16 }], source: mediaGuidelines },
  },
  copy: {},
  // 4:5 portrait takes the most room a feed post may have; 1080 px is the width the summary gives.
  // No file limit is published: 5 MB as for the other profiles without one.
  export: {
    width: 1080,
    height: 1350,
    background: 'extend',
    maxBytes: 5 * megabyte,
    choice: 'vitrin-default',
    maxBytesChoice: 'vitrin-default',
  },
}
