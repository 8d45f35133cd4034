import type { Segmenter } from '#server/segmentation/segmenter.ts'
import type {
  ImageEditRequest,
  ImageEditResult,
  ImageFile,
  ImageProvider,
  ProviderCallContext,
  SeoCopy,
  SeoProvider,
  SeoRequest,
  Started,
  VideoProvider,
  VideoRequest,
  VideoResult,
} from '../types.ts'
import { ProviderError } from '../types.ts'
import type { Backdrop } from './canvas.ts'
import { findDominantColour } from './dominant-colour.ts'
import {
  type BackdropSource,
  editFashionImage,
  editProductImage,
  prepareSubject,
  type SubjectSource,
} from './image-edit.ts'
import { createCache } from './kept.ts'
import { ProductNameNeededError, writeOfflineSeo } from './seo-writer/writer.ts'
import type { Subject } from './separate.ts'
import { offlineProviderName, throwIfAborted, withImageInput } from './studio-errors.ts'
import { makeVideo } from './video.ts'

// The built-in studio: real image and video processing with sharp and ffmpeg, and a small local
// segmentation model for products on busy backgrounds; no generative AI and no network.
// Everything finishes inside the call, so nothing is ever queued or resumable.

export type OfflineStudio = ImageProvider &
  VideoProvider &
  SeoProvider & {
    readonly name: 'offline'
    /** Checks and loads the segmentation model now, so a missing or altered file stops the start. */
    ready(): Promise<void>
    /**
     * Separates a photo's product now and keeps it with the subjects cut before: an image job
     * usually follows an upload within seconds, and then finds its cut made.
     */
    prepare(image: ImageFile): Promise<void>
  }

export type OfflineStudioOptions = {
  /** The ffmpeg binary for videos (config: providers.ffmpegPath). */
  ffmpegPath: string
  /** Upper bound on one ffmpeg run; a healthy run takes seconds. */
  videoTimeoutMs?: number
  /** Where video working folders go (the system temp folder by default). */
  tempDir?: string
  /** Rendered backdrops kept in memory (about 2–6 MB each); 0 renders every time. */
  backdropCacheSize?: number
  /** Separated subjects kept in memory (up to about 10 MB each); 0 separates every time. */
  subjectCacheSize?: number
  /**
   * How long the kept backdrops and subjects stay after the studio's last use of them (a minute
   * by default, as the model's process): a quiet server gives their memory back.
   */
  cacheIdleMs?: number
  /** Finds products on busy backgrounds: the process's one model, made by whoever starts it. */
  segmenter: Segmenter
}

/** The offline studio, implementing the image, video and SEO provider contracts. */
export function createOfflineStudio(options: OfflineStudioOptions): OfflineStudio {
  const cacheIdleMs = options.cacheIdleMs ?? 60_000
  const backdrops: BackdropSource = createCache<Backdrop>(options.backdropCacheSize ?? 6, cacheIdleMs)
  const subjects: SubjectSource = createCache<Subject>(options.subjectCacheSize ?? 3, cacheIdleMs)
  const { segmenter } = options
  // Only a request queued elsewhere (say at fal, before IMAGE_PROVIDER was switched to offline)
  // can reach resume here. 'unavailable' lets the engine fail it cleanly or start it afresh.
  const neverQueued = (requestId: string) =>
    new ProviderError(
      offlineProviderName,
      'unavailable',
      `The offline studio has no queued request ${requestId}`,
    )

  return {
    name: 'offline',

    ready: () => segmenter.ready(),

    prepare: (image) => prepareSubject(image, { subjects, segmenter }),

    async startImageEdit(
      request: ImageEditRequest,
      ctx: ProviderCallContext,
    ): Promise<Started<ImageEditResult>> {
      throwIfAborted(ctx.signal)
      const started = Date.now()
      const { scene, ...result } =
        request.tool === 'fashion'
          ? await editFashionImage(request, ctx.signal, { backdrops, subjects, segmenter })
          : await editProductImage(request, ctx.signal, { backdrops, subjects, segmenter }).then(
              ({ view, ...edited }) => {
                ctx.log.debug({ view }, 'offline studio scene view')
                return edited
              },
            )
      ctx.log.debug({ tool: request.tool, scene, ms: Date.now() - started }, 'offline studio image done')
      return { kind: 'done', result }
    },

    async resumeImageEdit(requestId: string): Promise<ImageEditResult> {
      throw neverQueued(requestId)
    },

    async startVideo(request: VideoRequest, ctx: ProviderCallContext): Promise<Started<VideoResult>> {
      const started = Date.now()
      const result = await makeVideo(request, ctx.signal, {
        ffmpegPath: options.ffmpegPath,
        timeoutMs: options.videoTimeoutMs,
        tempDir: options.tempDir,
        segmenter,
      })
      ctx.log.debug(
        { ms: Date.now() - started, bytes: result.video.bytes.length },
        'offline studio video done',
      )
      return { kind: 'done', result }
    },

    async resumeVideo(requestId: string): Promise<VideoResult> {
      throw neverQueued(requestId)
    },

    /** Nothing is ever queued, so there is nothing to cancel; in-flight work stops via ctx.signal. */
    async cancel(): Promise<void> {},

    async writeSeo(request: SeoRequest, ctx: ProviderCallContext): Promise<SeoCopy> {
      throwIfAborted(ctx.signal)
      // The seller's colour wins; one read from the photo is a guess the result marks for the
      // seller to check. Only a guess that can be used is worth the segmentation model's seconds
      // on a busy backdrop (the photo is still read: an unreadable one is refused either way).
      const hasSellersColour = Boolean(request.details.color?.trim())
      const colour = await withImageInput(() =>
        findDominantColour(request.image.bytes, hasSellersColour ? undefined : segmenter),
      )
      try {
        const { content, colourFromPhoto } = writeOfflineSeo(
          request.details,
          hasSellersColour ? undefined : colour.name,
        )
        return { ...content, model: 'offline-studio', ...(colourFromPhoto ? { colourFromPhoto } : {}) }
      } catch (error) {
        // Accept time refuses this already (SEO_NEEDS_PRODUCT_NAME); a catalogue row may still get here.
        if (error instanceof ProductNameNeededError) {
          throw new ProviderError(offlineProviderName, 'rejected', error.message)
        }
        throw error
      }
    },
  }
}
