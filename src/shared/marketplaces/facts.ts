/**
 * What the pre-publish checker knows about a result before it applies a marketplace's rules.
 * The server measures these (src/server/features/marketplaces: pixels, bytes, the separation
 * mask, the container's duration); the rules in this folder judge them, the same code on the
 * server and in the browser.
 */

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'tiff' | 'heic' | 'other'
export type ColourSpace = 'srgb' | 'cmyk' | 'grey' | 'other'

export type ImageFacts = {
  width: number
  height: number
  bytes: number
  format: ImageFormat
  colourSpace: ColourSpace
  /**
   * Share (0–1) of the pixels in the border band (the outer 2 % of each side) that are pure
   * white within a small tolerance (each channel ≥ 250): 1 for a clean white background.
   */
  borderWhiteShare: number
  /** Share of the border band's pixels that are exactly RGB 255,255,255. */
  borderPureWhiteShare: number
  /**
   * The product, from the separation mask: the share of the image its bounding box fills along
   * its longer side (what marketplaces mean by "fills 85 %"), and whether it touches an edge
   * (cut off). Null when no credible mask could be made.
   */
  product: { fillShare: number; areaShare: number; touchesEdge: boolean } | null
  /** The image is a generated scene (an AI edit or a composite), not the seller's photo. */
  isGenerated: boolean
  /**
   * Text or a watermark found on the image by OCR, when OCR ran: the words read, or an empty
   * list. Null when OCR could not run (the rule is then "check by eye").
   */
  text: string[] | null
}

export type VideoFacts = {
  /** The container's real duration in seconds (not the requested length). */
  durationSeconds: number
  width: number
  height: number
  bytes: number
  /** The container format, e.g. 'mp4', 'mov', 'webm'. */
  format: string
  hasAudio: boolean
}

/** The copy a listing would carry (the result's SEO copy, and the product's brand if known). */
export type CopyFacts = {
  title: string
  description: string
  features: string[]
  keywords: string[]
  brand: string | null
}
