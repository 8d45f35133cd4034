import { z } from 'zod'
import { type AspectRatio, aspectRatios, type ViewChoice, viewChoices } from '#shared/scenes.ts'
import { productDetailsSchema, type SeoContent } from '#shared/seo.ts'
import { safeText } from '#shared/validation.ts'

export const generationModes = ['image', 'video', 'seo'] as const
export type GenerationMode = (typeof generationModes)[number]
export const generationTools = ['product', 'fashion'] as const
export type GenerationTool = (typeof generationTools)[number]
export const generationStatuses = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const
export type GenerationStatus = (typeof generationStatuses)[number]

export function isTerminalStatus(status: GenerationStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled'
}

/** POST /api/generations. `mode` is checked separately so an unknown one gets its own message. */
export const createGenerationRequestSchema = z.object({
  tool: z.enum(generationTools).default('product'),
  mode: safeText().max(20),
  /**
   * Default: the main-image shape of the seller's marketplace (Trendyol 2:3, others 1:1), else
   * 1:1 for products and 9:16 for fashion. A video is made 1:1 or 9:16 (2:3 becomes 9:16).
   */
  aspectRatio: z.enum(aspectRatios).optional(),
  prompt: safeText().trim().max(1000).default(''),
  imageAssetId: z.uuid(),
  referenceAssetId: z.uuid().optional(),
  details: productDetailsSchema.optional(),
  /**
   * "Keep my product exactly": the original product pixels are laid back over the generated
   * scene. Product image edits only; asking for it with another tool or mode is refused.
   */
  keepProduct: z.boolean().default(false),
  /**
   * Product images: the scene seen from above (`top`), from the front (`front`), or `auto` for
   * the view that matches the photo's own camera (decision 42). Ignored by other tools and modes.
   */
  view: z.enum(viewChoices).default('auto'),
})
export type CreateGenerationRequest = z.input<typeof createGenerationRequestSchema>

/** POST /api/generations/:id/video: a video from an image result, with its own prompt. */
export const createVideoRequestSchema = z.object({
  prompt: safeText().trim().max(1000).default(''),
  aspectRatio: z.enum(aspectRatios).optional(),
})
export type CreateVideoRequest = z.input<typeof createVideoRequestSchema>

export const listGenerationsQuerySchema = z.object({
  mode: z.enum(generationModes).optional(),
  tool: z.enum(generationTools).optional(),
  status: z.enum(generationStatuses).optional(),
  saved: z.enum(['1', 'true']).optional(),
  /** Opaque: the previous page's `nextCursor`, asked with the same filters. */
  cursor: safeText().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
})

/** A file a generation shows (its input photo, its result), with the link that downloads it. */
export type GenerationAssetView = {
  id: string
  url: string
  /** `url` answered as an attachment with the file's download name. */
  downloadUrl: string
  mime: string
  width: number | null
  height: number | null
  fileName: string
}

export type GenerationResultView =
  | {
      type: 'image'
      image: GenerationAssetView
      description: string | null
      promptUsed: string
      provider: string
      /**
       * With "keep my product exactly": true when the original product was laid over the scene,
       * false when no product could be found in the photo (the scene is as generated). Absent
       * when it was not asked for.
       */
      productKept?: boolean
    }
  | {
      type: 'video'
      video: GenerationAssetView
      poster: GenerationAssetView | null
      promptUsed: string
      provider: string
    }
  | ({
      type: 'seo'
      model: string
      provider: string
      /**
       * The colour the copy took from the photo because the seller gave none (e.g. 'kırmızı'):
       * a guess, shown with a note to check it before publishing. Absent when the seller gave a
       * colour or the copy names none.
       */
      colourFromPhoto?: string
    } & SeoContent)

/** A generation as the web app sees it. */
export type GenerationView = {
  id: string
  tool: GenerationTool
  mode: GenerationMode
  aspectRatio: AspectRatio
  prompt: string
  status: GenerationStatus
  queuePosition: number | null
  /** Queued again after a transient failure, waiting to be tried once more. */
  isRetrying: boolean
  errorCode: string | null
  provider: string
  usesOwnKey: boolean
  /** Asked for "keep my product exactly" (product image edits only). */
  keepProduct?: boolean
  /** The view the seller asked for (product image edits only; `auto` when they left it to the studio). */
  view?: ViewChoice
  isSaved: boolean
  input: GenerationAssetView | null
  result: GenerationResultView | null
  /** The image generation a video was made from. */
  sourceGenerationId: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
}

/** POST /api/generations (202), GET /api/generations/:id and the actions on one generation. */
export type GenerationResponse = { generation: GenerationView }

/** GET /api/generations: one page, newest first; `nextCursor` asks for the next one. */
export type GenerationListResponse = { items: GenerationView[]; nextCursor: string | null }
