import { brandInTitleAdvice } from './brand-advice.ts'
import {
  type MarketplaceProfile,
  megabyte,
  type PromoPhrase,
  type RuleSource,
  type VitrinChoice,
} from './types.ts'

// Amazon.com.tr follows Amazon's worldwide listing rules (marketplaces.md §4). Seller Central
// help pages are named by the page ids marketplaces.md gives. Absent because not found: an
// official maximum video length or size; a ratio rule (square is only a third-party hint, and the
// 2018 Amazon.com.tr apparel guide asks for about 3:4, so the export's square is our choice). The
// claimed 75-character title limit from July 2026 has a single unverified source and is left out.

const suppression: RuleSource = {
  url: 'https://sellercentral.amazon.com.au/help/hub/reference/external/T8RSE9S9NK4LP6Z',
  confidence: 'official',
  date: '2026-10',
  note: 'Image rules resulting in suppression (main image)',
}
const imageStandards: RuleSource = {
  url: 'https://www.zixin.com.cn/doc/7441306.html',
  confidence: 'official-copy',
  // Undated, older official text; 2026-10 is when it was read.
  date: '2026-10',
  note: 'Amazon "Adding Images / Image Standards", an older official text reposted (also m.renrendoc.com/p-42271683.html)',
}
const trApparelGuide: RuleSource = {
  url: 'https://pdfslide.tips',
  confidence: 'official-copy',
  date: '2018-03',
  note: 'Amazon.com.tr "Kategori Stil Rehberi Özet – Kıyafet ve Aksesuar, Mart 2018", reposted on pdfslide.tips: .jpg .png .tif .gif',
}
const technicalGuides: RuleSource = {
  url: 'https://www.amalytix.com',
  confidence: '3p',
  date: '2026-10',
  note: 'Third-party guides (amalytix.com, cherryshot.ai, changethisfile.com, mercatuslab.com); no official page found',
}
const detailPageRules: RuleSource = {
  url: 'https://sellercentral.amazon.com/help/hub/reference/external/G200390640',
  confidence: 'official',
  date: '2026-10',
  note: 'Product detail page rules: no advertising, promotional material or watermarks on images',
}
const titleRequirements: RuleSource = {
  url: 'https://sellercentral-europe.amazon.com/help/hub/reference/external/G201100890',
  confidence: 'official',
  date: '2026-10',
  note: 'Product title requirements, for all Amazon stores worldwide',
}
const titleStyle: RuleSource = {
  url: 'https://sellercentral.amazon.com/help/hub/reference/external/YTR6SYGFA5E3EQC',
  confidence: 'official',
  date: '2026-10',
  note: 'Older title style page: under 80 characters, no ALL CAPS, no "Hot Item" / "Best Seller"',
}
const trendyolStoreRules: RuleSource = {
  url: 'https://akademi.trendyol.com/satici-bilgi-merkezi/detay/181',
  confidence: 'official',
  date: '2026-10',
  note: 'Trendyol names these Turkish advantage words as promotional (for store banners)',
}
const vitrinList: VitrinChoice = {
  vitrin: true,
  note: 'Vitrin list: common Turkish and English promotional phrases that no source above names',
}
const videoHints: RuleSource = {
  url: 'https://sellerby.com/p/2878.html',
  confidence: '3p',
  date: '2026-10',
  note: 'Third-party summary; no official video spec found',
}

/**
 * Amazon forbids promotional phrases in titles; each phrase names who calls it promotional.
 * Turkish phrases match with suffixes too ("indirimli").
 */
const promotionalPhrases: PromoPhrase[] = [
  { text: 'free shipping', lang: 'en', source: titleRequirements },
  { text: '100% quality guaranteed', lang: 'en', source: titleRequirements },
  { text: 'hot item', lang: 'en', source: titleStyle },
  { text: 'best seller', lang: 'en', source: titleStyle },
  { text: 'kampanya', lang: 'tr', source: trendyolStoreRules },
  { text: 'indirim', lang: 'tr', source: trendyolStoreRules },
  { text: 'kupon', lang: 'tr', source: trendyolStoreRules },
  { text: 'promosyon', lang: 'tr', source: trendyolStoreRules },
  { text: 'ücretsiz kargo', lang: 'tr', source: vitrinList },
  { text: 'kargo bedava', lang: 'tr', source: vitrinList },
  { text: 'bedava', lang: 'tr', source: vitrinList },
  { text: 'en ucuz', lang: 'tr', source: vitrinList },
  { text: 'çok satan', lang: 'tr', source: vitrinList },
  { text: 'fırsat', lang: 'tr', source: vitrinList },
  { text: 'sınırlı stok', lang: 'tr', source: vitrinList },
  { text: 'bestseller', lang: 'en', source: vitrinList },
  { text: 'on sale', lang: 'en', source: vitrinList },
  { text: 'discount', lang: 'en', source: vitrinList },
  { text: 'cheapest', lang: 'en', source: vitrinList },
  { text: 'limited offer', lang: 'en', source: vitrinList },
]

export const amazonTr: MarketplaceProfile = {
  id: 'amazon-tr',
  image: {
    all: {
      minLongSide: { value: 500, source: imageStandards },
      recommendedMinLongSide: {
        value: 1000,
        source: { ...imageStandards, note: '1000 px or more on height or width enables zoom' },
      },
      maxSide: { value: 10_000, source: technicalGuides },
      maxBytes: { value: 10 * megabyte, source: technicalGuides },
      formats: { value: ['jpeg', 'png', 'tiff', 'gif'], source: trApparelGuide },
      colourSpaces: { value: ['srgb', 'cmyk'], source: technicalGuides },
      noText: { value: 'watermarks', source: detailPageRules },
      maxCount: { value: 9, source: { ...imageStandards, note: '1 main and up to 8 alternate images' } },
    },
    main: {
      pureWhiteBackground: { value: true, source: suppression },
      minFillShare: { value: 0.85, source: imageStandards },
      notCutOff: { value: true, source: suppression },
      realPhoto: {
        value: 'required',
        source: {
          ...imageStandards,
          note: 'The main image shows the actual product, not a graphic or illustration',
        },
      },
      noText: { value: 'off-product', source: suppression },
    },
  },
  video: {
    formats: { value: ['3gp', 'avi', 'flv', 'mov', 'mp4', 'mpeg'], source: videoHints },
    minResolution: { value: { width: 1280, height: 720 }, source: videoHints },
    ratios: { value: [{ width: 16, height: 9 }], source: videoHints },
  },
  copy: {
    titleMax: { value: 200, source: titleRequirements },
    titleAdvisedMax: { value: 80, source: titleStyle },
    descriptionMax: {
      value: 2000,
      source: { url: 'https://viral-launch.com', confidence: '3p', date: '2026-10' },
    },
    titleForbiddenChars: { value: ['!', '$', '?', '_', '{', '}', '^', '¬', '¦'], source: titleRequirements },
    promotionalPhrases: { value: promotionalPhrases, source: titleRequirements },
    noAllCaps: { value: true, source: titleStyle },
    maxWordRepeats: {
      value: 2,
      source: {
        url: 'https://forestleopard.com',
        confidence: '3p',
        date: '2026-10',
        note: 'Summary of a January 2025 announcement: prepositions, articles and conjunctions excepted',
      },
    },
    brandInTitle: brandInTitleAdvice,
  },
  // The main image: pure white and square. Amazon asks for 1000 px for zoom; 2000×2000 doubles
  // that so zoom stays sharp and a later crop still clears 1000, and as a JPEG it stays far
  // under the 10 MB the guides quote. Square is our choice (third-party advice; no rule).
  export: {
    width: 2000,
    height: 2000,
    background: 'white',
    maxBytes: 10 * megabyte,
    choice: 'vitrin-default',
    maxBytesChoice: 'rule',
  },
}
