import type { Logger } from '#server/logger.ts'
import type { MarketplaceAttribute } from '#shared/contracts/publishing.ts'
import type { AspectRatio, ViewChoice } from '#shared/scenes.ts'
import type { ProductDetails, SeoContent } from '#shared/seo.ts'

// The one contract every generation provider implements. The engine chooses a provider per
// capability from configuration; adapters never see HTTP requests, users or quotas.

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp'

/** An image in memory (an upload or a result). */
export type ImageFile = {
  bytes: Buffer
  mime: ImageMime
  /** SHA-256 of `bytes` (hex), when known already (a stored asset's checksum). */
  sha256?: string | undefined
}
export type VideoFile = { bytes: Buffer; mime: 'video/mp4' }

export type ImageEditRequest = {
  tool: 'product' | 'fashion'
  /** The product photo, or the garment photo in the fashion tool. */
  image: ImageFile
  /** Fashion only: a photo whose model, pose, light and background the result should keep. */
  reference?: ImageFile | undefined
  /** The user's words or a suggestion's prompt; may be empty (the provider picks a default). */
  prompt: string
  aspectRatio: AspectRatio
  /**
   * Product scenes: seen from above, from the front, or `auto` (absent too) for the view that
   * matches the photo's own camera (decision 42).
   */
  view?: ViewChoice | undefined
}

/**
 * Where the whole input photo (upright, whatever its pixel size) lies in a result, in the
 * result's pixels; it may reach past the frame.
 */
export type PhotoPlacement = { left: number; top: number; width: number; height: number }

export type ImageEditResult = {
  image: ImageFile
  /** What the provider says about the result (fal's model description), if anything. */
  description: string | null
  /** The exact prompt sent to the model, shown to the user as "the prompt used". */
  promptUsed: string
  /**
   * Where the provider put the input photo, when it knows (the offline studio moves and scales
   * the product); without it the photo is taken to fill the frame as it was given, centred.
   * "Keep my product exactly" lays the original product back at this place.
   */
  placement?: PhotoPlacement | undefined
}

export type VideoRequest = {
  image: ImageFile
  /** The user's animation prompt; empty means the provider's default (an AI provider's slow 360° rotation, the offline studio's push-in with parallax). */
  prompt: string
  aspectRatio: AspectRatio
}

export type VideoResult = { video: VideoFile; promptUsed: string }

export type SeoRequest = { image: ImageFile; details: ProductDetails }

/** Progress a queued provider reports while a request waits or runs. */
export type ProviderProgress = { state: 'queued' | 'running'; queuePosition?: number | undefined }

export type ProviderCallContext = {
  signal: AbortSignal
  log: Logger
  /** The user's own fal key (bring-your-own), used instead of the server's when present. */
  falKey?: string | undefined
  onProgress?: (progress: ProviderProgress) => void
}

/**
 * A provider either finishes at once (`done`) or queues the work and hands back a request id
 * (`queued`), which the engine stores before waiting, so the wait can resume after a restart.
 */
export type Started<T> = { kind: 'done'; result: T } | { kind: 'queued'; requestId: string }

export interface ImageProvider {
  readonly name: 'offline' | 'fal'
  startImageEdit(request: ImageEditRequest, ctx: ProviderCallContext): Promise<Started<ImageEditResult>>
  /** Waits for a queued request (also one started before a restart) and returns its result. */
  resumeImageEdit(requestId: string, ctx: ProviderCallContext): Promise<ImageEditResult>
  /** Best effort: asks the provider to stop a queued request. */
  cancel(requestId: string, ctx: ProviderCallContext): Promise<void>
}

export interface VideoProvider {
  readonly name: 'offline' | 'fal'
  startVideo(request: VideoRequest, ctx: ProviderCallContext): Promise<Started<VideoResult>>
  resumeVideo(requestId: string, ctx: ProviderCallContext): Promise<VideoResult>
  cancel(requestId: string, ctx: ProviderCallContext): Promise<void>
}

/**
 * A provider's SEO copy: within every limit and keeping every fact the seller gave (see
 * shared/seo-facts.ts). `colourFromPhoto` names the colour the copy took from the photo because
 * the seller gave none: a guess the seller is asked to check before publishing.
 */
export type SeoCopy = SeoContent & { model: string; colourFromPhoto?: string | undefined }

export interface SeoProvider {
  readonly name: 'offline' | 'openai'
  /** Turkish SEO copy within every limit (see shared/seo.ts), or a ProviderError. */
  writeSeo(request: SeoRequest, ctx: ProviderCallContext): Promise<SeoCopy>
}

/** A marketplace attribute as the chooser sees it: its allowed values are the only answers. */
export type ChoosableAttribute = Pick<
  MarketplaceAttribute,
  'id' | 'name' | 'isRequired' | 'isMultiple' | 'values'
>

export type AttributeChoiceRequest = {
  /** The product photo, in any format the image library reads. */
  photo: Buffer
  attributes: readonly ChoosableAttribute[]
  /** What the seller called the product and its marketplace category, to look at it rightly. */
  product?: { name?: string | undefined; category?: string | undefined } | undefined
}

/** Allowed value ids only, for the attributes the photo shows; none for the ones it does not. */
export type AttributeChoice = { attributeId: string; valueIds: string[] }

export interface AttributeVisionProvider {
  readonly name: 'openai'
  readonly model: string
  /** Chooses among each attribute's allowed values by looking at the photo, or a ProviderError. */
  chooseAttributes(request: AttributeChoiceRequest, ctx: ProviderCallContext): Promise<AttributeChoice[]>
}

/**
 * Why a provider call failed, in words the engine maps to user-facing error codes. The cause
 * (status, body) is for the log only and never reaches the user.
 */
export type ProviderFailure =
  | 'rejected' // the provider refused the input (e.g. 422 validation, content policy)
  | 'unavailable' // 5xx or network trouble after retries
  | 'rate_limited' // 429 after retries
  | 'unauthorized' // bad or missing key
  | 'bad_output' // an answer we cannot use (no image URL, unparseable JSON, limits not met)
  | 'facts_broken' // SEO copy that drops or contradicts a fact the seller gave, even when asked again
  | 'timeout'
  | 'canceled'

export class ProviderError extends Error {
  readonly failure: ProviderFailure
  readonly provider: string
  constructor(provider: string, failure: ProviderFailure, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'ProviderError'
    this.provider = provider
    this.failure = failure
  }
}
