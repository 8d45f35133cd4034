import { z } from 'zod'
import { aspectRatios } from '#shared/scenes.ts'
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
  /** Default: 1:1 for products, 9:16 for fashion. */
  aspectRatio: z.enum(aspectRatios).optional(),
  prompt: safeText().trim().max(1000).default(''),
  imageAssetId: z.uuid(),
  referenceAssetId: z.uuid().optional(),
  details: productDetailsSchema.optional(),
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
  saved: z.enum(['1', 'true']).optional(),
  cursor: safeText().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
})

export type AssetView = {
  id: string
  url: string
  downloadUrl: string
  mime: string
  width: number | null
  height: number | null
  fileName: string
}

export type GenerationResultView =
  | { type: 'image'; image: AssetView; description: string | null; promptUsed: string; provider: string }
  | { type: 'video'; video: AssetView; poster: AssetView | null; promptUsed: string; provider: string }
  | ({ type: 'seo'; model: string; provider: string } & SeoContent)

/** A generation as the web app sees it. */
export type GenerationView = {
  id: string
  tool: GenerationTool
  mode: GenerationMode
  aspectRatio: '1:1' | '9:16'
  prompt: string
  status: GenerationStatus
  queuePosition: number | null
  /** Queued again after a transient failure, waiting to be tried once more. */
  isRetrying: boolean
  errorCode: string | null
  provider: string
  usesOwnKey: boolean
  isSaved: boolean
  input: AssetView | null
  result: GenerationResultView | null
  /** The image generation a video was made from. */
  sourceGenerationId: string | null
  createdAt: string
  startedAt: string | null
  finishedAt: string | null
}

export type GenerationListResponse = { items: GenerationView[]; nextCursor: string | null }
