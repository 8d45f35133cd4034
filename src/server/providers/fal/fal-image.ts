import { buildImagePrompt } from '../prompts.ts'
import {
  type ImageEditRequest,
  type ImageEditResult,
  type ImageProvider,
  type ProviderCallContext,
  ProviderError,
  type Started,
} from '../types.ts'
import { falError } from './fal-errors.ts'
import { createFalQueue, createPromptMemory, type FalAdapterOptions, sniffImageMime } from './fal-queue.ts'

/** The nano-banana/edit input, field for field and in the order we send it (fal-image.test.ts pins it). */
export type FalImageEditInput = {
  prompt: string
  image_urls: string[]
  num_images: 1
  output_format: 'jpeg'
  sync_mode: false
  aspect_ratio?: string
}

/** Builds the exact input sent to the image-edit model from our request and uploaded URLs. */
export function buildImageEditInput(request: ImageEditRequest, imageUrls: string[]): FalImageEditInput {
  const prompt = buildImagePrompt({
    tool: request.tool,
    prompt: request.prompt,
    hasReference: imageUrls.length > 1,
    view: request.view,
  })
  return {
    prompt,
    image_urls: imageUrls,
    num_images: 1,
    // The schema's default moved from jpeg to png; we want the smaller JPEG, so always say it.
    output_format: 'jpeg',
    // false: fal keeps a URL (we download it) instead of inlining a data URI in the reply.
    sync_mode: false,
    // A ratio is sent only when it is not 16:9 (16:9 then means "keep the input's ratio");
    // Vitrin offers 1:1, 2:3 and 9:16, all in nano-banana's aspect_ratio enum, so in practice it
    // is always sent.
    ...(request.aspectRatio !== ('16:9' as string) ? { aspect_ratio: request.aspectRatio } : {}),
  }
}

/**
 * Image edits through fal's queue (`fal-ai/nano-banana/edit` by default). Start uploads the
 * photo(s) to fal storage and submits; resume polls, reads the result and downloads the file.
 */
export function createFalImageProvider(options: FalAdapterOptions): ImageProvider {
  const queue = createFalQueue(options)
  const promptsUsed = createPromptMemory()

  async function startImageEdit(
    request: ImageEditRequest,
    ctx: ProviderCallContext,
  ): Promise<Started<ImageEditResult>> {
    // A reference only means something in the fashion tool: [garment, reference].
    const files =
      request.tool === 'fashion' && request.reference ? [request.image, request.reference] : [request.image]
    const imageUrls = await Promise.all(files.map((file) => queue.upload(file, ctx)))
    const input = buildImageEditInput(request, imageUrls)
    const requestId = await queue.submit(input, ctx)
    promptsUsed.remember(requestId, input.prompt)
    return { kind: 'queued', requestId }
  }

  async function resumeImageEdit(requestId: string, ctx: ProviderCallContext): Promise<ImageEditResult> {
    const output = await queue.waitForResult(requestId, ctx)
    const url = firstImageUrl(output)
    if (!url) {
      ctx.log.warn({ provider: 'fal', model: queue.model, requestId }, 'fal result has no image URL')
      throw new ProviderError('fal', 'bad_output', 'No image URL returned from API')
    }
    const file = await queue.download(url, ctx, requestId)
    const mime = sniffImageMime(file.bytes)
    if (!mime) {
      ctx.log.warn(
        { provider: 'fal', model: queue.model, requestId, contentType: file.contentType },
        'fal output is not a PNG, JPEG or WebP image',
      )
      throw falError('bad_output', new Error(`unexpected image content (${file.contentType ?? 'no type'})`))
    }
    const promptUsed = promptsUsed.take(requestId)
    return { image: { bytes: file.bytes, mime }, description: descriptionOf(output), promptUsed }
  }

  return {
    name: 'fal',
    startImageEdit,
    resumeImageEdit,
    cancel: (requestId, ctx) => queue.cancel(requestId, ctx),
  }
}

function firstImageUrl(output: unknown): string | null {
  if (!output || typeof output !== 'object') return null
  const images = (output as { images?: unknown }).images
  if (!Array.isArray(images)) return null
  const first: unknown = images[0]
  if (!first || typeof first !== 'object') return null
  const url = (first as { url?: unknown }).url
  return typeof url === 'string' && url.length > 0 ? url : null
}

function descriptionOf(output: unknown): string | null {
  if (!output || typeof output !== 'object') return null
  const description = (output as { description?: unknown }).description
  return typeof description === 'string' && description.trim() ? description.trim() : null
}
