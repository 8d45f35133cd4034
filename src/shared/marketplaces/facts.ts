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
  /**
   * Whether the product in a generated image is still the seller's (see ProductFidelity). Absent
   * when it does not apply or was not measured: not an edit of the seller's photo (an upload, a
   * fashion try-on, which shows another garment-on-model), or the original photo is gone. Null
   * when the product could not be outlined in one of the two images.
   */
  productFidelity?: ProductFidelity | null
}

/**
 * The product in a result compared with the product in the seller's photo, both cropped to the
 * product and scaled to one size (src/server/features/marketplaces/product-fidelity.ts).
 */
export type ProductFidelity = {
  /**
   * SSIM of the luminance in the least similar part of the product (the worst 5 % of its
   * blocks): near 1 the same; a changed label, text or logo brings it towards 0.
   */
  structure: number
  /** CIEDE2000 colour difference in the most changed part of the product (its worst 5 % of blocks); about 1 is just noticeable. */
  colourDelta: number
  /** Overlap (intersection over union, 0–1) of the two outlines once aligned: a changed shape lowers it. */
  shape: number
  /** Past a calibrated threshold on any of the three: the edit changed the product. */
  changed: boolean
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
