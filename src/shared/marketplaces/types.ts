import type { ColourSpace, ImageFormat } from './facts.ts'
import type { MarketplaceId } from './ids.ts'

/**
 * The rule model of the marketplace profiles. Every rule a marketplace publishes carries where it
 * was read and how far it can be trusted; a rule nobody could find is absent (never a guessed
 * value), and the checker then reports it as "not published" (check.ts).
 */

/**
 * How far a source can be trusted:
 * - `official`: the marketplace's own doc, help or API reference page (or a verbatim copy).
 * - `official-copy`: the marketplace's own text read through a third-party mirror or a captured
 *   OpenAPI file.
 * - `code`: a limit written into a public SDK or client, without a quote behind it.
 * - `3p`: a third-party guide, blog or forum; a hint only.
 */
export type SourceConfidence = 'official' | 'official-copy' | 'code' | '3p'

export type RuleSource = {
  url: string
  confidence: SourceConfidence
  /** The page's own date where one was given (YYYY-MM-DD or YYYY-MM), else the date it was read. */
  date: string
  /** What the source is, or how it has to be read (e.g. "legacy SOAP API"). */
  note?: string
}

/**
 * A check Vitrin adds although no marketplace publishes the rule (e.g. "the title names the
 * brand"). It is advice: the checker never fails a listing on it.
 */
export type VitrinChoice = { vitrin: true; note: string }

export type Sourced<T> = { value: T; source: RuleSource }
export type Advice<T> = { value: T; source: VitrinChoice }

/**
 * The date for sources whose page shows none: marketplaces.md was read from public pages "up to
 * about October 2026", so that is the read date we can truthfully give.
 */
export const specReadDate = '2026-10'

/** A width:height ratio, e.g. { width: 2, height: 3 } for Trendyol's 1200×1800. */
export type Ratio = { width: number; height: number }
export type PixelSize = { width: number; height: number }

/**
 * Whether an AI-made scene may stand in for a photo: `required` (a real photo only),
 * `required-unless-personalised` (Etsy's additional images may show personalisation options
 * made in software; we cannot know whether the item is personalised, so the checker warns).
 */
export type RealPhotoRule = 'required' | 'required-unless-personalised'

/** Image rules; each absent key is a rule no source publishes for this marketplace (or slot). */
export type ImageRules = {
  /** The one size the marketplace asks for (Trendyol); its ratio is the ratio rule too. */
  exactSize?: Sourced<PixelSize & { dpi?: number }>
  /** The smallest longest side accepted. */
  minLongSide?: Sourced<number>
  /** The longest side from which the marketplace works best (Amazon: zoom); below it warns. */
  recommendedMinLongSide?: Sourced<number>
  /** The largest side (width and height each). */
  maxSide?: Sourced<number>
  /** The ratios accepted (any one, within the checker's tolerance). */
  ratios?: Sourced<Ratio[]>
  /** The range of width ÷ height accepted, e.g. Shopify's 1:100 to 100:1. */
  ratioRange?: Sourced<{ min: Ratio; max: Ratio }>
  maxBytes?: Sourced<number>
  formats?: Sourced<ImageFormat[]>
  colourSpaces?: Sourced<ColourSpace[]>
  /** A pure white (RGB 255) background. */
  pureWhiteBackground?: Sourced<true>
  /** The share (0–1) of the image the product must fill along its longer side. */
  minFillShare?: Sourced<number>
  /** The product must not be cut off by the frame. */
  notCutOff?: Sourced<true>
  realPhoto?: Sourced<RealPhotoRule>
  /**
   * Text the image must not carry: `off-product` (no text, logos or watermarks except what is
   * printed on the product: Amazon's main image), `watermarks` (no watermarks or advertising;
   * other text such as an infographic's is allowed). OCR cannot tell which text it read, so found
   * text warns.
   */
  noText?: Sourced<'off-product' | 'watermarks'>
  /** The most images one listing may carry (all slots together). */
  maxCount?: Sourced<number>
}

export type VideoRules = {
  minSeconds?: Sourced<number>
  maxSeconds?: Sourced<number>
  maxBytes?: Sourced<number>
  /** Container formats, lower case: 'mp4', 'mov', … */
  formats?: Sourced<string[]>
  /** Compared without orientation: the long side against the long side, short against short. */
  minResolution?: Sourced<PixelSize>
  maxResolution?: Sourced<PixelSize>
  ratios?: Sourced<Ratio[]>
  /** The most videos one listing may carry (data for the export; no fact measures it). */
  maxCount?: Sourced<number>
  /** The video's own title and description, where the upload takes them (Trendyol). */
  titleLength?: Sourced<{ min: number; max: number }>
  descriptionMax?: Sourced<number>
}

export type PromoPhrase = {
  /** Written in lower case; Turkish phrases also match with suffixes ("indirim" → "indirimli"). */
  text: string
  lang: 'tr' | 'en'
  /** The source that names this phrase as promotional, or Vitrin's own list. */
  source: RuleSource | VitrinChoice
}

export type CopyRules = {
  /** Lengths count Unicode code points, as the marketplaces count characters. */
  titleMin?: Sourced<number>
  titleMax?: Sourced<number>
  /** A length the marketplace advises staying under; above it warns. */
  titleAdvisedMax?: Sourced<number>
  descriptionRequired?: Sourced<true>
  descriptionMax?: Sourced<number>
  /** Characters that must not appear in the title. */
  titleForbiddenChars?: Sourced<string[]>
  /** Characters that may appear at most once each in the title (Etsy). */
  titleOnceOnlyChars?: Sourced<string[]>
  /** The only characters a title may hold, as the body of a Unicode (`u`) regex character class. */
  titleAllowedChars?: Sourced<string>
  /** Promotional wording not allowed in the title; the rule's source says so, each phrase says where it is named. */
  promotionalPhrases?: Sourced<PromoPhrase[]>
  /** No words written in capitals only. */
  noAllCaps?: Sourced<true>
  /** How often one word (stop words aside) may appear in the title. */
  maxWordRepeats?: Sourced<number>
  /** The title names the brand, when the brand is known. */
  brandInTitle?: Advice<true>
  tags?: Sourced<{ maxCount: number; maxLength: number }>
  /** The only characters a tag may hold, as the body of a Unicode regex character class. */
  tagAllowedChars?: Sourced<string>
}

/**
 * What "export for this marketplace" renders. `choice: 'rule'` when the size comes from the
 * marketplace's rule or official recommendation; `'vitrin-default'` when the marketplace says
 * nothing and the size is our choice (the module says why). `background`: `white` pads with pure
 * white (white-background rules), `extend` continues the image's own background.
 */
export type ExportTarget = {
  width: number
  height: number
  background: 'extend' | 'white'
  maxBytes: number
  choice: 'rule' | 'vitrin-default'
  maxBytesChoice: 'rule' | 'vitrin-default'
}

export type MarketplaceProfile = {
  id: MarketplaceId
  image: {
    /** Rules for every image of a listing. */
    all: ImageRules
    /** Rules only for the first (main) image, added to `all`. */
    main?: ImageRules
    /** Rules only for the other images, added to `all`. */
    additional?: ImageRules
  }
  video: VideoRules
  copy: CopyRules
  export: ExportTarget
}

/** One megabyte as marketplaces write it when they do not say (10⁶ bytes: the smaller reading). */
export const megabyte = 1000 * 1000
/** One mebibyte, where a marketplace gives its limit in KB of 1024 bytes (n11: 10,240 KB). */
export const mebibyte = 1024 * 1024
