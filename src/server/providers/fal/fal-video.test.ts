import { Writable } from 'node:stream'
import { pino } from 'pino'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FalFake, startFalFake } from '#tests/fakes/fal-server.ts'
import { defaultVideoPrompt } from '../prompts.ts'
import { type ImageFile, type ProviderCallContext, ProviderError, type VideoRequest } from '../types.ts'
import type { FalAdapterOptions } from './fal-queue.ts'
import { createFalVideoProvider } from './fal-video.ts'

const model = 'fal-ai/veo3/fast/image-to-video'
let fake: FalFake
let still: ImageFile

function adapterOptions(overrides: Partial<FalAdapterOptions> = {}): FalAdapterOptions {
  return {
    key: 'server-fal-key-123',
    model,
    baseUrl: fake.url,
    pollIntervalMs: 20,
    retry: { baseDelay: 5, maxDelay: 20, backoffMultiplier: 0, enableJitter: false },
    ...overrides,
  }
}

function context(): ProviderCallContext {
  const sink = new Writable({
    write(_chunk: Buffer, _encoding, callback) {
      callback()
    },
  })
  return { signal: new AbortController().signal, log: pino({ level: 'debug' }, sink) }
}

function submitted(): Record<string, unknown> {
  const submit = fake.requests.find((r) => r.method === 'POST' && r.path === `/${model}`)
  return submit?.body as Record<string, unknown>
}

async function startQueued(provider: ReturnType<typeof createFalVideoProvider>, request: VideoRequest) {
  const started = await provider.startVideo(request, context())
  if (started.kind !== 'queued') throw new Error('expected a queued request')
  return started.requestId
}

beforeAll(async () => {
  fake = await startFalFake()
  const bytes = await sharp({ create: { width: 72, height: 128, channels: 3, background: '#336699' } })
    .jpeg()
    .toBuffer()
  still = { bytes, mime: 'image/jpeg' }
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.script({})
  fake.clearRequests()
})

describe('fal image-to-video', () => {
  it('9:16 stays 9:16: exact veo3 input with the default rotation prompt', async () => {
    const provider = createFalVideoProvider(adapterOptions())
    await startQueued(provider, { image: still, prompt: '', aspectRatio: '9:16' })
    const body = submitted()
    expect(body).toEqual({
      prompt: defaultVideoPrompt,
      image_url: expect.stringMatching(new RegExp(`^${fake.url}/files/`)),
      aspect_ratio: '9:16',
      duration: '8s',
      generate_audio: false,
      resolution: '720p',
    })
    expect(body.prompt).toMatch(/360-degree rotation/)
    const fileId = String(body.image_url).split('/').pop() ?? ''
    expect(fake.files.get(fileId)?.bytes.equals(still.bytes)).toBe(true)
    const order = fake.requests.map((r) => r.method)
    expect(order).toEqual(['POST', 'PUT', 'POST'])
  })

  it('1:1 becomes 16:9, and a user prompt gets the smooth-and-professional suffix', async () => {
    const provider = createFalVideoProvider(adapterOptions())
    await startQueued(provider, {
      image: still,
      prompt: '  zoom in slowly on the label. ',
      aspectRatio: '1:1',
    })
    const body = submitted()
    expect(body.aspect_ratio).toBe('16:9')
    expect(body.prompt).toBe(
      'zoom in slowly on the label. Smooth and professional camera movement, high quality, no text overlays.',
    )
  })

  it('returns the downloaded MP4 bytes and the prompt used', async () => {
    const provider = createFalVideoProvider(adapterOptions())
    const requestId = await startQueued(provider, { image: still, prompt: '', aspectRatio: '9:16' })
    const result = await provider.resumeVideo(requestId, context())
    expect(result.video.mime).toBe('video/mp4')
    expect(result.video.bytes.subarray(4, 8).toString('latin1')).toBe('ftyp')
    const output = fake.jobs.get(requestId)?.output as { video: { url: string } }
    const served = fake.files.get(output.video.url.split('/').pop() ?? '')
    expect(result.video.bytes.equals(served?.bytes ?? Buffer.alloc(0))).toBe(true)
    expect(result.promptUsed).toBe(defaultVideoPrompt)
    // Status and result drop the /fast/image-to-video sub-path.
    expect(fake.requests.some((r) => r.path === `/fal-ai/veo3/requests/${requestId}`)).toBe(true)
  })

  it('resumes after a restart with a fresh adapter', async () => {
    const requestId = await startQueued(createFalVideoProvider(adapterOptions()), {
      image: still,
      prompt: '',
      aspectRatio: '1:1',
    })
    const result = await createFalVideoProvider(adapterOptions()).resumeVideo(requestId, context())
    expect(result.video.bytes.length).toBeGreaterThan(100)
  })

  it('a result without video.url is bad_output', async () => {
    fake.script({ noVideoUrl: true })
    const provider = createFalVideoProvider(adapterOptions())
    const requestId = await startQueued(provider, { image: still, prompt: '', aspectRatio: '9:16' })
    const error = await provider.resumeVideo(requestId, context()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderError)
    expect(error).toMatchObject({ failure: 'bad_output', message: 'No video URL returned from API' })
  })

  it('a failed model run (500 from the result) is unavailable', async () => {
    fake.script({ result: [500] })
    const provider = createFalVideoProvider(adapterOptions())
    const requestId = await startQueued(provider, { image: still, prompt: '', aspectRatio: '9:16' })
    const error = await provider.resumeVideo(requestId, context()).catch((e: unknown) => e)
    expect(error).toMatchObject({ failure: 'unavailable' })
  })
})
