import { type AspectRatio, videoRatioFor } from '#shared/scenes.ts'
import { buildVideoPrompt } from '../prompts.ts'
import {
  type ProviderCallContext,
  ProviderError,
  type Started,
  type VideoProvider,
  type VideoRequest,
  type VideoResult,
} from '../types.ts'
import { falError } from './fal-errors.ts'
import { createFalQueue, createPromptMemory, type FalAdapterOptions, isMp4 } from './fal-queue.ts'

/** The veo3 fast image-to-video input, field for field (fal-video.test.ts pins it). */
export type FalVideoInput = {
  prompt: string
  image_url: string
  aspect_ratio: '9:16' | '16:9'
  duration: '8s'
  generate_audio: false
  resolution: '720p'
}

/** Builds the exact input sent to the image-to-video model. */
export function buildVideoInput(
  request: { prompt: string; aspectRatio: AspectRatio },
  imageUrl: string,
): FalVideoInput {
  return {
    prompt: buildVideoPrompt(request.prompt),
    image_url: imageUrl,
    // Veo accepts only 16:9 and 9:16 (and auto): portrait stays portrait (9:16, and 2:3, which
    // the server already turns into 9:16 for videos), everything else becomes 16:9.
    aspect_ratio: videoRatioFor(request.aspectRatio) === '9:16' ? '9:16' : '16:9',
    // A string, not a number, in the schema.
    duration: '8s',
    // Our videos are silent; audio off also costs about a third less.
    generate_audio: false,
    resolution: '720p',
  }
}

/**
 * Image-to-video through fal's queue (`fal-ai/veo3/fast/image-to-video` by default). Start
 * uploads the still to fal storage and submits; resume polls, reads the result and downloads
 * the MP4.
 */
export function createFalVideoProvider(options: FalAdapterOptions): VideoProvider {
  const queue = createFalQueue(options)
  const promptsUsed = createPromptMemory()

  async function startVideo(request: VideoRequest, ctx: ProviderCallContext): Promise<Started<VideoResult>> {
    const imageUrl = await queue.upload(request.image, ctx)
    const input = buildVideoInput(request, imageUrl)
    const requestId = await queue.submit(input, ctx)
    promptsUsed.remember(requestId, input.prompt)
    return { kind: 'queued', requestId }
  }

  async function resumeVideo(requestId: string, ctx: ProviderCallContext): Promise<VideoResult> {
    const output = await queue.waitForResult(requestId, ctx)
    const url = videoUrlOf(output)
    if (!url) {
      ctx.log.warn({ provider: 'fal', model: queue.model, requestId }, 'fal result has no video URL')
      throw new ProviderError('fal', 'bad_output', 'No video URL returned from API')
    }
    const file = await queue.download(url, ctx, requestId)
    if (!isMp4(file.bytes)) {
      ctx.log.warn(
        { provider: 'fal', model: queue.model, requestId, contentType: file.contentType },
        'fal output is not an MP4 file',
      )
      throw falError('bad_output', new Error(`unexpected video content (${file.contentType ?? 'no type'})`))
    }
    const promptUsed = promptsUsed.take(requestId)
    return { video: { bytes: file.bytes, mime: 'video/mp4' }, promptUsed }
  }

  return {
    name: 'fal',
    startVideo,
    resumeVideo,
    cancel: (requestId, ctx) => queue.cancel(requestId, ctx),
  }
}

function videoUrlOf(output: unknown): string | null {
  if (!output || typeof output !== 'object') return null
  const video = (output as { video?: unknown }).video
  if (!video || typeof video !== 'object') return null
  const url = (video as { url?: unknown }).url
  return typeof url === 'string' && url.length > 0 ? url : null
}
