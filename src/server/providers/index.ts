import type { Config } from '#server/config.ts'
import type { Logger } from '#server/logger.ts'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import type { FalAdapterOptions } from './fal/fal-queue.ts'
import type { OpenAiSeoOptions } from './openai-compatible/openai-seo.ts'
import type { OpenAiVisionOptions } from './openai-compatible/openai-vision.ts'
import type {
  AttributeVisionProvider,
  ImageFile,
  ImageProvider,
  SeoProvider,
  VideoProvider,
} from './types.ts'

/**
 * One provider per capability, chosen by configuration; `warmUp` loads what the first job would
 * otherwise wait for (the segmentation model), for a process to call once it serves, and given a
 * photo that has just arrived, separates its product too (the cut its image job will use).
 */
export type Providers = {
  image: ImageProvider
  video: VideoProvider
  seo: SeoProvider
  warmUp?: (photo?: ImageFile) => Promise<void>
}

type ProvidersConfig = Config['providers']

/** Knobs tests turn (shorter polls and retry waits, a wrapped fetch); production uses defaults. */
export type ProviderTuning = {
  fal?: Pick<FalAdapterOptions, 'pollIntervalMs' | 'streamCheckMs' | 'maxWaitMs' | 'retry' | 'fetch'>
  openai?: Pick<OpenAiSeoOptions, 'maxRetries' | 'timeoutMs' | 'fetch'>
  /** Another segmentation model file to check at start (tests of a missing or altered one). */
  offline?: { segmentationModelPath?: string }
}

/**
 * Loads the built-in offline studio, which serves all three capabilities. When it makes the
 * images, its segmentation model file is checked here: a missing or altered one stops the start
 * with SegmentationModelError instead of failing the first job. The model itself is loaded by
 * `warmUp`, off the way to serving (its runtime takes a second or more of CPU).
 */
async function loadOfflineStudio(
  config: ProvidersConfig,
  segmenter: Segmenter,
  tuning: ProviderTuning['offline'],
): Promise<Providers> {
  const [{ createOfflineStudio }, { defaultModelPath, readVerifiedModel }] = await Promise.all([
    import('./offline-studio/index.ts'),
    import('#server/segmentation/model-file.ts'),
  ])
  const studio = createOfflineStudio({ ffmpegPath: config.ffmpegPath, segmenter })
  if (config.image !== 'offline') return { image: studio, video: studio, seo: studio }
  await readVerifiedModel(tuning?.segmentationModelPath ?? defaultModelPath)
  return {
    image: studio,
    video: studio,
    seo: studio,
    warmUp: (photo) => (photo ? studio.prepare(photo) : studio.ready()),
  }
}

/**
 * Builds the provider of each capability from config. Vendor SDKs load only when their
 * provider is selected. 'fal' without FAL_KEY still builds: a user may bring their own key
 * (describeProviders warns at start-up).
 */
export async function createProviders(
  config: ProvidersConfig,
  deps: {
    logger: Logger
    /** The process's one segmentation model, which the offline studio shares with the rest. */
    segmenter: Segmenter
    tuning?: ProviderTuning
  },
): Promise<Providers> {
  const needsOffline = config.image === 'offline' || config.video === 'offline' || config.seo === 'offline'
  const offline = needsOffline ? await loadOfflineStudio(config, deps.segmenter, deps.tuning?.offline) : null
  const falOptions = (model: string): FalAdapterOptions => ({
    key: config.fal.key,
    model,
    baseUrl: config.fal.baseUrl,
    statusUpdates: config.fal.statusUpdates,
    ...deps.tuning?.fal,
  })

  let image: ImageProvider
  if (config.image === 'fal') {
    const { createFalImageProvider } = await import('./fal/fal-image.ts')
    image = createFalImageProvider(falOptions(config.fal.imageModel))
  } else if (offline) image = offline.image
  else throw new Error('unreachable: offline image provider missing')

  let video: VideoProvider
  if (config.video === 'fal') {
    const { createFalVideoProvider } = await import('./fal/fal-video.ts')
    video = createFalVideoProvider(falOptions(config.fal.videoModel))
  } else if (offline) video = offline.video
  else throw new Error('unreachable: offline video provider missing')

  let seo: SeoProvider
  if (config.seo === 'openai') {
    const { createOpenAiSeoProvider } = await import('./openai-compatible/openai-seo.ts')
    seo = createOpenAiSeoProvider({
      apiKey: config.openai.apiKey,
      baseUrl: config.openai.baseUrl,
      model: config.openai.model,
      ...deps.tuning?.openai,
    })
  } else if (offline) seo = offline.seo
  else throw new Error('unreachable: offline SEO provider missing')

  deps.logger.debug({ image: image.name, video: video.name, seo: seo.name }, 'providers created')
  // The offline studio's warm-up (its segmentation model) when it makes the images.
  return offline?.warmUp ? { image, video, seo, warmUp: offline.warmUp } : { image, video, seo }
}

/** Knobs of the attribute chooser (tests shorten the wait); production uses the defaults. */
export type VisionTuning = Pick<OpenAiVisionOptions, 'maxRetries' | 'timeoutMs' | 'fetch'>

/**
 * The attribute chooser's defaults: the seller waits on the form, so one retry (429/5xx) and
 * 30 s a try, not the SDK's two retries of 10 minutes.
 */
export const visionDefaults = { maxRetries: 1, timeoutMs: 30_000 }

/**
 * The vision model that chooses publishing attributes from the photo (VISION_MODEL, at the
 * OpenAI-compatible OPENAI_BASE_URL with OPENAI_API_KEY), or null when none is configured. The
 * SDK loads on the first call only.
 */
export async function createAttributeVision(
  config: ProvidersConfig,
  tuning: VisionTuning = {},
): Promise<AttributeVisionProvider | null> {
  const model = config.openai.visionModel
  if (!model) return null
  const { createOpenAiVisionProvider } = await import('./openai-compatible/openai-vision.ts')
  return createOpenAiVisionProvider({
    apiKey: config.openai.apiKey,
    baseUrl: config.openai.baseUrl,
    model,
    ...visionDefaults,
    ...tuning,
  })
}

export type ProviderLogLine = { level: 'info' | 'warn'; message: string }

/** A URL without user:password, so a base URL with credentials is safe to log. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.href.replace(/\/+$/, '')
  } catch {
    return '(invalid URL)'
  }
}

/**
 * The start-up log lines: which provider serves each capability, and warnings for settings
 * that do nothing (a key no selected provider uses) or that limit who can generate. Never
 * includes a key's value.
 */
export function describeProviders(config: ProvidersConfig): ProviderLogLine[] {
  const lines: ProviderLogLine[] = []
  const offline = 'offline studio (built-in, no AI)'
  lines.push({
    level: 'info',
    message: `image provider: ${config.image === 'fal' ? `fal (${config.fal.imageModel})` : offline}`,
  })
  lines.push({
    level: 'info',
    message: `video provider: ${config.video === 'fal' ? `fal (${config.fal.videoModel})` : offline}`,
  })
  lines.push({
    level: 'info',
    message: `SEO provider: ${
      config.seo === 'openai'
        ? `OpenAI-compatible (${config.openai.model} at ${withoutCredentials(config.openai.baseUrl)})`
        : offline
    }`,
  })
  if (config.openai.visionModel) {
    lines.push({
      level: 'info',
      message: `attribute vision: OpenAI-compatible (${config.openai.visionModel} at ${withoutCredentials(config.openai.baseUrl)})`,
    })
  }

  const falUsers = [
    ...(config.image === 'fal' ? ['IMAGE_PROVIDER'] : []),
    ...(config.video === 'fal' ? ['VIDEO_PROVIDER'] : []),
  ]
  if (falUsers.length > 0) {
    if (config.fal.baseUrl) {
      lines.push({
        level: 'info',
        message: `fal traffic goes to ${withoutCredentials(config.fal.baseUrl)} (FAL_BASE_URL)`,
      })
    }
    if (!config.fal.key) {
      lines.push({
        level: 'warn',
        message: `${falUsers.join(' and ')}=fal but FAL_KEY is not set: only users who bring their own fal key can generate`,
      })
    }
  } else {
    if (config.fal.key) {
      lines.push({
        level: 'warn',
        message:
          'FAL_KEY is set but not used: IMAGE_PROVIDER and VIDEO_PROVIDER are offline (set either to fal to use it)',
      })
    }
    if (config.fal.baseUrl) {
      lines.push({ level: 'warn', message: 'FAL_BASE_URL is set but not used: no capability uses fal' })
    }
  }
  if (config.seo !== 'openai' && !config.openai.visionModel && config.openai.apiKey) {
    lines.push({
      level: 'warn',
      message:
        'OPENAI_API_KEY is set but not used: SEO_PROVIDER is offline and VISION_MODEL is unset (set SEO_PROVIDER=openai or VISION_MODEL to use it)',
    })
  }
  return lines
}
