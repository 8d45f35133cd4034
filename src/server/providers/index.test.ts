import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Config, loadConfig } from '#server/config.ts'
import { createLogger } from '#server/logger.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { type FalFake, startFalFake } from '#tests/fakes/fal-server.ts'
import { type OpenAiFake, startOpenAiFake } from '#tests/fakes/openai-server.ts'
import { createAttributeVision, createProviders, describeProviders } from './index.ts'

const logger = createLogger({ level: 'silent' })
const hasOfflineStudio = existsSync(fileURLToPath(new URL('./offline-studio/index.ts', import.meta.url)))

function providersConfig(env: Record<string, string> = {}): Config['providers'] {
  return loadConfig(env).providers
}

const silentCtx = () => ({ signal: new AbortController().signal, log: logger })

let fal: FalFake
let openai: OpenAiFake
beforeAll(async () => {
  fal = await startFalFake()
  openai = await startOpenAiFake()
})
afterAll(async () => {
  await fal.close()
  await openai.close()
})

describe('createProviders', () => {
  // Runs once the offline studio (written in parallel) exists.
  it.skipIf(!hasOfflineStudio)('gives the offline studio for all three by default', async () => {
    const providers = await createProviders(providersConfig(), { logger, segmenter: sharedSegmenter() })
    expect(providers.image.name).toBe('offline')
    expect(providers.video.name).toBe('offline')
    expect(providers.seo.name).toBe('offline')
    // The process warms the segmentation model once it serves (main.ts, worker-main.ts).
    expect(providers.warmUp).toBeTypeOf('function')
  })

  it.skipIf(!hasOfflineStudio)('mixes providers per capability', async () => {
    const providers = await createProviders(providersConfig({ IMAGE_PROVIDER: 'fal' }), {
      logger,
      segmenter: sharedSegmenter(),
    })
    expect([providers.image.name, providers.video.name, providers.seo.name]).toEqual([
      'fal',
      'offline',
      'offline',
    ])
    // Images from fal: no model to warm.
    expect(providers.warmUp).toBeUndefined()
  })

  it.skipIf(!hasOfflineStudio)(
    'stops the start when the offline studio makes images and its segmentation model is missing',
    async () => {
      const tuning = { offline: { segmentationModelPath: '/nonexistent/u2netp.onnx' } }
      await expect(
        createProviders(providersConfig(), { logger, segmenter: sharedSegmenter(), tuning }),
      ).rejects.toMatchObject({
        name: 'SegmentationModelError',
        message: expect.stringContaining('segmentation model is missing: /nonexistent/u2netp.onnx'),
      })
      // Images from fal: the offline studio only makes videos and SEO copy, and needs no model.
      const providers = await createProviders(providersConfig({ IMAGE_PROVIDER: 'fal' }), {
        logger,
        segmenter: sharedSegmenter(),
        tuning,
      })
      expect(providers.video.name).toBe('offline')
    },
  )

  it('builds fal without any key (a user may bring one), and warns at start-up', async () => {
    const config = providersConfig({
      IMAGE_PROVIDER: 'fal',
      VIDEO_PROVIDER: 'fal',
      SEO_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-any',
    })
    const providers = await createProviders(config, { logger, segmenter: sharedSegmenter() })
    expect([providers.image.name, providers.video.name, providers.seo.name]).toEqual(['fal', 'fal', 'openai'])
    const warnings = describeProviders(config).filter((line) => line.level === 'warn')
    expect(warnings.map((w) => w.message)).toEqual([
      'IMAGE_PROVIDER and VIDEO_PROVIDER=fal but FAL_KEY is not set: only users who bring their own fal key can generate',
    ])
    // With no key at all a call fails clearly, before any traffic.
    const image = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer()
    await expect(
      providers.image.startImageEdit(
        { tool: 'product', image: { bytes: image, mime: 'image/jpeg' }, prompt: '', aspectRatio: '1:1' },
        silentCtx(),
      ),
    ).rejects.toMatchObject({ failure: 'unauthorized' })
  })

  it('wires FAL_BASE_URL, the models and OPENAI_BASE_URL through to working adapters', async () => {
    const config = providersConfig({
      IMAGE_PROVIDER: 'fal',
      VIDEO_PROVIDER: 'fal',
      FAL_KEY: 'fake-fal-key',
      FAL_BASE_URL: fal.url,
      FAL_VIDEO_MODEL: 'fal-ai/veo3.1/fast/image-to-video',
      SEO_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-fake',
      OPENAI_BASE_URL: openai.url,
      OPENAI_MODEL: 'gpt-4o-mini-2024-07-18',
    })
    const providers = await createProviders(config, {
      logger,
      segmenter: sharedSegmenter(),
      tuning: { fal: { pollIntervalMs: 10 } },
    })
    const bytes = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#09c' } })
      .jpeg()
      .toBuffer()
    const image = { bytes, mime: 'image/jpeg' as const }

    const started = await providers.video.startVideo({ image, prompt: '', aspectRatio: '9:16' }, silentCtx())
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    const video = await providers.video.resumeVideo(started.requestId, silentCtx())
    expect(video.video.mime).toBe('video/mp4')
    expect(fal.requests.some((r) => r.path === '/fal-ai/veo3.1/fast/image-to-video')).toBe(true)
    expect(fal.requests.find((r) => r.method === 'POST')?.headers.authorization).toBe('Key fake-fal-key')

    const seo = await providers.seo.writeSeo({ image, details: {} }, silentCtx())
    expect(seo.model).toBe('gpt-4o-mini-2024-07-18')
    expect(openai.requests[0]?.body).toMatchObject({ model: 'gpt-4o-mini-2024-07-18' })
  })
})

describe('createAttributeVision', () => {
  it('is none without VISION_MODEL, and with it chooses through OPENAI_BASE_URL', async () => {
    expect(await createAttributeVision(providersConfig({ OPENAI_API_KEY: 'sk-fake' }))).toBeNull()
    const vision = await createAttributeVision(
      providersConfig({
        VISION_MODEL: 'gpt-4o-mini-vision',
        OPENAI_API_KEY: 'sk-fake',
        OPENAI_BASE_URL: openai.url,
      }),
    )
    const photo = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#c00' } })
      .png()
      .toBuffer()
    const attribute = {
      id: '347',
      name: 'Parça Sayısı',
      isRequired: true,
      isMultiple: false,
      values: [{ id: '6001', name: '6' }],
    }
    const chosen = await vision?.chooseAttributes({ photo, attributes: [attribute] }, silentCtx())
    expect(chosen).toEqual([{ attributeId: '347', valueIds: ['6001'] }])
    expect(openai.requests.at(-1)?.body).toMatchObject({ model: 'gpt-4o-mini-vision' })
  })
})

describe('describeProviders', () => {
  it('says which provider serves each capability, with no warnings by default', () => {
    expect(describeProviders(providersConfig())).toEqual([
      { level: 'info', message: 'image provider: offline studio (built-in, no AI)' },
      { level: 'info', message: 'video provider: offline studio (built-in, no AI)' },
      { level: 'info', message: 'SEO provider: offline studio (built-in, no AI)' },
    ])
  })

  it('names the models and endpoints of the AI providers', () => {
    const lines = describeProviders(
      providersConfig({
        IMAGE_PROVIDER: 'fal',
        VIDEO_PROVIDER: 'fal',
        FAL_KEY: 'secret-fal-key-value',
        FAL_BASE_URL: 'http://127.0.0.1:4500',
        SEO_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-secret-openai-value',
        OPENAI_BASE_URL: 'http://user:pass@127.0.0.1:4600/v1',
      }),
    )
    expect(lines).toEqual([
      { level: 'info', message: 'image provider: fal (fal-ai/nano-banana/edit)' },
      { level: 'info', message: 'video provider: fal (fal-ai/veo3/fast/image-to-video)' },
      { level: 'info', message: 'SEO provider: OpenAI-compatible (gpt-4o-mini at http://127.0.0.1:4600/v1)' },
      { level: 'info', message: 'fal traffic goes to http://127.0.0.1:4500 (FAL_BASE_URL)' },
    ])
    const text = JSON.stringify(lines)
    expect(text).not.toContain('secret')
    expect(text).not.toContain('pass@')
  })

  it('warns about keys that no selected provider uses', () => {
    const lines = describeProviders(
      providersConfig({ FAL_KEY: 'secret-fal-key-value', OPENAI_API_KEY: 'sk-secret-openai-value' }),
    )
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      'FAL_KEY is set but not used: IMAGE_PROVIDER and VIDEO_PROVIDER are offline (set either to fal to use it)',
      'OPENAI_API_KEY is set but not used: SEO_PROVIDER is offline and VISION_MODEL is unset (set SEO_PROVIDER=openai or VISION_MODEL to use it)',
    ])
    expect(JSON.stringify(lines)).not.toContain('secret')
  })

  it('names the attribute vision model, whose key is then in use with offline SEO copy', () => {
    const lines = describeProviders(
      providersConfig({
        VISION_MODEL: 'qwen2.5vl:7b',
        OPENAI_API_KEY: 'sk-secret-openai-value',
        OPENAI_BASE_URL: 'http://user:pass@127.0.0.1:11434/v1',
      }),
    )
    expect(lines).toEqual([
      { level: 'info', message: 'image provider: offline studio (built-in, no AI)' },
      { level: 'info', message: 'video provider: offline studio (built-in, no AI)' },
      { level: 'info', message: 'SEO provider: offline studio (built-in, no AI)' },
      {
        level: 'info',
        message: 'attribute vision: OpenAI-compatible (qwen2.5vl:7b at http://127.0.0.1:11434/v1)',
      },
    ])
  })

  it('does not warn about FAL_KEY when only one of image and video uses fal', () => {
    const lines = describeProviders(
      providersConfig({ VIDEO_PROVIDER: 'fal', FAL_KEY: 'secret-fal-key-value' }),
    )
    expect(lines.filter((l) => l.level === 'warn')).toEqual([])
    expect(lines[1]?.message).toBe('video provider: fal (fal-ai/veo3/fast/image-to-video)')
  })
})
