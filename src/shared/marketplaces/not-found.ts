import type { MarketplaceId } from './ids.ts'
import type { CopyRules, ImageRules, VideoRules } from './types.ts'

/** A rule of a profile by group and key, e.g. `image.maxBytes` (in any image slot). */
export type RuleKey = `image.${keyof ImageRules}` | `video.${keyof VideoRules}` | `copy.${keyof CopyRules}`

const allImage: RuleKey[] = [
  'image.exactSize',
  'image.minLongSide',
  'image.recommendedMinLongSide',
  'image.maxSide',
  'image.ratios',
  'image.ratioRange',
  'image.maxBytes',
  'image.formats',
  'image.colourSpaces',
  'image.pureWhiteBackground',
  'image.minFillShare',
  'image.notCutOff',
  'image.noText',
  'image.maxCount',
]
const allVideo: RuleKey[] = [
  'video.minSeconds',
  'video.maxSeconds',
  'video.maxBytes',
  'video.formats',
  'video.minResolution',
  'video.maxResolution',
  'video.ratios',
]
const allCopyLimits: RuleKey[] = [
  'copy.titleMin',
  'copy.titleMax',
  'copy.descriptionMax',
  'copy.titleForbiddenChars',
  'copy.promotionalPhrases',
  'copy.noAllCaps',
]

/**
 * What marketplaces.md marks NOT FOUND (searched, no citable source), as rule keys each profile
 * must leave absent; a test holds the profiles to it, so nobody fills a gap with a guess.
 */
export const notFoundInSpec: Record<Exclude<MarketplaceId, 'instagram'>, RuleKey[]> = {
  // Formats, file size, background and text on product images; video resolution and ratio;
  // forbidden words, ALL CAPS and special characters in product titles; a keywords field.
  trendyol: [
    'image.formats',
    'image.maxBytes',
    'image.pureWhiteBackground',
    'image.noText',
    'video.minResolution',
    'video.ratios',
    'copy.promotionalPhrases',
    'copy.noAllCaps',
    'copy.titleForbiddenChars',
    'copy.tags',
  ],
  // Every image rule but the count; title and description limits; video limits.
  hepsiburada: [
    ...allImage.filter((key) => key !== 'image.maxCount'),
    ...allVideo.filter((key) => key !== 'video.maxCount'),
    ...allCopyLimits,
  ],
  // Image pixel size, ratio, background, count and formats; REST title maximum (only the legacy
  // SOAP one is known); description maximum; video.
  n11: [
    'image.exactSize',
    'image.minLongSide',
    'image.ratios',
    'image.ratioRange',
    'image.pureWhiteBackground',
    'image.maxCount',
    'image.formats',
    'copy.descriptionMax',
    ...allVideo,
    'video.maxCount',
  ],
  // An official maximum video length and size.
  'amazon-tr': ['video.minSeconds', 'video.maxSeconds', 'video.maxBytes'],
  // Everything except the API's field names.
  ciceksepeti: [
    ...allImage,
    ...allVideo,
    'video.maxCount',
    ...allCopyLimits,
    'copy.descriptionRequired',
    'copy.tags',
  ],
  // An official photo size; video length and size; a description limit.
  etsy: [
    'image.exactSize',
    'image.minLongSide',
    'video.minSeconds',
    'video.maxSeconds',
    'video.maxBytes',
    'copy.descriptionMax',
  ],
  // Official product-title and SEO-field limits.
  shopify: ['copy.titleMin', 'copy.titleMax', 'copy.descriptionMax'],
}
