import type { Config } from '#server/config.ts'
import type { Logger } from '#server/logger.ts'
import { createAttributeVision, type VisionTuning } from '#server/providers/index.ts'
import { type AttributeVisionProvider, ProviderError } from '#server/providers/types.ts'
import type { VisionChooser } from './attribute-filler.ts'

// The vision model as the attribute filler meets it (issue 30, point 3): a product photo bound
// to a VisionChooser that never fails the draft. Whatever goes wrong (no answer in time, the
// provider down or refusing, an answer that is not JSON) is logged with its context and leaves
// the attributes unanswered, so the seller is asked for them as without a vision model.

export type VisionContext = {
  /** The log to write to (a request's, with its id); the app's otherwise. */
  log?: Logger | undefined
  /** What the seller called the product and the category's name, sent beside the photo. */
  product?: { name?: string | undefined; category?: string | undefined } | undefined
  /** Stops the model's request (e.g. the seller left). */
  signal?: AbortSignal | undefined
}

/**
 * `deps.vision` of the drafts (single product and catalogue batch): binds a product photo (its
 * stored bytes, any format the image library reads; it is downscaled to 768 px JPEG before it
 * is sent) to the configured vision model. Null when no vision model is configured.
 */
export type VisionFor = (photo: Buffer, context?: VisionContext) => VisionChooser

/** Binds photos to a vision provider (or its first load), failures logged and answered with nothing. */
export function bindVision(
  provider: AttributeVisionProvider | (() => Promise<AttributeVisionProvider>),
  log: Logger,
): VisionFor {
  const load = typeof provider === 'function' ? provider : async () => provider
  return (photo, context = {}) =>
    async (attributes) => {
      const out = context.log ?? log
      try {
        const vision = await load()
        return await vision.chooseAttributes(
          { photo, attributes, product: context.product },
          { signal: context.signal ?? new AbortController().signal, log: out },
        )
      } catch (error) {
        // The provider has logged what it was told (status, request id, scrubbed text); this
        // says what it cost: the attributes go to the seller. Never the key, never to the user.
        out.warn(
          {
            provider: error instanceof ProviderError ? error.provider : undefined,
            failure: error instanceof ProviderError ? error.failure : 'error',
            error: error instanceof ProviderError ? undefined : String(error).slice(0, 300),
            attributes: attributes.map((attribute) => attribute.id),
            category: context.product?.category,
          },
          'attributes not chosen from the photo: left for the seller',
        )
        return []
      }
    }
}

/**
 * The drafts' vision from configuration: null without VISION_MODEL (the offline default, the
 * draft works as before); otherwise the model, its SDK loaded on first use.
 */
export function visionFromConfig(
  config: Config['providers'],
  log: Logger,
  tuning?: VisionTuning,
): VisionFor | null {
  if (!config.openai.visionModel) return null
  let loading: Promise<AttributeVisionProvider> | undefined
  const load = () => {
    loading ??= createAttributeVision(config, tuning).then(
      (vision) => {
        if (!vision) throw new Error('VISION_MODEL is not set')
        return vision
      },
      (error: unknown) => {
        // Tried again by the next draft rather than remembered as broken.
        loading = undefined
        throw error
      },
    )
    return loading
  }
  return bindVision(load, log)
}
