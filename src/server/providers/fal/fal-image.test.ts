import { Writable } from 'node:stream'
import { pino } from 'pino'
import sharp from 'sharp'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FalFake, startFalFake } from '#tests/fakes/fal-server.ts'
import { buildImagePrompt } from '../prompts.ts'
import {
  type ImageEditRequest,
  type ImageFile,
  type ProviderCallContext,
  ProviderError,
  type ProviderProgress,
} from '../types.ts'
import { rewriteFalUrl } from './fal-client.ts'
import { createFalImageProvider } from './fal-image.ts'
import type { FalAdapterOptions } from './fal-queue.ts'

const serverKey = 'server-fal-key-123'
const userKey = 'user-own-fal-key-456'
const model = 'fal-ai/nano-banana/edit'

// The queue calls pin a 1 s base delay in @fal-ai/client 1.10; a multiplier of 0 makes every
// retry after the first immediate, so a retry test waits about 1 s instead of 3-7 s.
const fastRetry = { baseDelay: 5, maxDelay: 20, backoffMultiplier: 0, enableJitter: false }

let fake: FalFake
let product: ImageFile
let garment: ImageFile
let reference: ImageFile

function adapterOptions(overrides: Partial<FalAdapterOptions> = {}): FalAdapterOptions {
  return { key: serverKey, model, baseUrl: fake.url, pollIntervalMs: 20, retry: fastRetry, ...overrides }
}

/** Starts a job that never completes, waits until it reports progress, then aborts it. */
async function abortWhileWaiting(statusUpdates: 'stream' | 'poll') {
  fake.script({ completeAfterMs: 60_000 })
  const provider = createFalImageProvider(adapterOptions({ statusUpdates }))
  const started = await provider.startImageEdit(productRequest(), context().ctx)
  if (started.kind !== 'queued') throw new Error('expected a queued request')
  const controller = new AbortController()
  const { ctx, progress } = context({ signal: controller.signal })
  const waiting = provider.resumeImageEdit(started.requestId, ctx)
  await expect.poll(() => progress.length).toBeGreaterThan(0)
  controller.abort()
  return { error: await failureOf(waiting), requestId: started.requestId }
}

function captureLog() {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'))
      callback()
    },
  })
  return { log: pino({ level: 'debug' }, sink), lines }
}

function context(overrides: Partial<ProviderCallContext> = {}) {
  const { log, lines } = captureLog()
  const progress: ProviderProgress[] = []
  const ctx: ProviderCallContext = {
    signal: new AbortController().signal,
    log,
    onProgress: (p) => progress.push(p),
    ...overrides,
  }
  return { ctx, lines, progress }
}

async function solid(
  color: string,
  width: number,
  height: number,
  format: 'jpeg' | 'png',
): Promise<ImageFile> {
  const image = sharp({ create: { width, height, channels: 3, background: color } })
  const bytes = format === 'jpeg' ? await image.jpeg().toBuffer() : await image.png().toBuffer()
  return { bytes, mime: format === 'jpeg' ? 'image/jpeg' : 'image/png' }
}

function productRequest(overrides: Partial<ImageEditRequest> = {}): ImageEditRequest {
  return { tool: 'product', image: product, prompt: 'marble countertop', aspectRatio: '1:1', ...overrides }
}

function submits() {
  return fake.requests.filter((r) => r.method === 'POST' && r.path === `/${model}`)
}

function uploadedBytes(fileUrl: unknown): Buffer | undefined {
  if (typeof fileUrl !== 'string') return undefined
  return fake.files.get(fileUrl.slice(`${fake.url}/files/`.length))?.bytes
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ProviderError)
  return error as ProviderError
}

beforeAll(async () => {
  fake = await startFalFake()
  product = await solid('#c0392b', 64, 64, 'jpeg')
  garment = await solid('#2c3e50', 48, 64, 'jpeg')
  reference = await solid('#f1c40f', 36, 64, 'png')
})
afterAll(() => fake.close())
beforeEach(() => {
  fake.script({})
  fake.clearRequests()
})

describe('fal image edit: what is sent', () => {
  it('uploads the product photo, then submits exactly the nano-banana input', async () => {
    const provider = createFalImageProvider(adapterOptions())
    const { ctx } = context()
    const started = await provider.startImageEdit(productRequest({ aspectRatio: '1:1' }), ctx)
    expect(started.kind).toBe('queued')

    const paths = fake.requests.map((r) => `${r.method} ${r.path.replace(/\/f-[^/?]+/, '/:id')}`)
    expect(paths).toEqual([
      'POST /storage/upload/initiate?storage_type=fal-cdn-v3',
      'PUT /upload/:id',
      `POST /${model}`,
    ])
    const [submit] = submits()
    const body = submit?.body as Record<string, unknown>
    expect(body).toEqual({
      prompt: buildImagePrompt({ tool: 'product', prompt: 'marble countertop', hasReference: false }),
      image_urls: [expect.stringMatching(new RegExp(`^${fake.url}/files/`))],
      num_images: 1,
      output_format: 'jpeg',
      sync_mode: false,
      aspect_ratio: '1:1',
    })
    expect(Object.keys(body)).toEqual([
      'prompt',
      'image_urls',
      'num_images',
      'output_format',
      'sync_mode',
      'aspect_ratio',
    ])
    expect(body.prompt).toMatch(/^Professional e-commerce product photo: .*marble countertop/)
    // The model gets a storage URL holding exactly our bytes, never a data URI.
    const urls = body.image_urls as string[]
    expect(uploadedBytes(urls[0])?.equals(product.bytes)).toBe(true)
    expect(submit?.headers.authorization).toBe(`Key ${serverKey}`)
  })

  it('sends 9:16 as the aspect ratio', async () => {
    const provider = createFalImageProvider(adapterOptions())
    await provider.startImageEdit(productRequest({ aspectRatio: '9:16' }), context().ctx)
    expect(submits()[0]?.body).toMatchObject({ aspect_ratio: '9:16' })
  })

  it('fashion with a reference: image_urls = [garment, reference] and a clothing-transfer prompt', async () => {
    const provider = createFalImageProvider(adapterOptions())
    const request: ImageEditRequest = {
      tool: 'fashion',
      image: garment,
      reference,
      prompt: 'street style photography',
      aspectRatio: '9:16',
    }
    await provider.startImageEdit(request, context().ctx)
    const uploads = fake.requests.filter((r) => r.path.startsWith('/storage/upload/initiate'))
    expect(uploads).toHaveLength(2)
    const body = submits()[0]?.body as Record<string, unknown>
    const urls = body.image_urls as string[]
    expect(urls).toHaveLength(2)
    expect(uploadedBytes(urls[0])?.equals(garment.bytes)).toBe(true)
    expect(uploadedBytes(urls[1])?.equals(reference.bytes)).toBe(true)
    expect(fake.files.get((urls[1] ?? '').split('/').pop() ?? '')?.contentType).toBe('image/png')
    expect(body).toMatchObject({
      num_images: 1,
      output_format: 'jpeg',
      sync_mode: false,
      aspect_ratio: '9:16',
    })
    expect(body.prompt).toBe(
      buildImagePrompt({ tool: 'fashion', prompt: 'street style photography', hasReference: true }),
    )
    expect(body.prompt).toMatch(/second image's model, pose, lighting and background/)
    expect(body.prompt).toMatch(/garment from the first image/)
  })

  it('fashion without a reference: one image and a model wearing it in the style', async () => {
    const provider = createFalImageProvider(adapterOptions())
    await provider.startImageEdit(
      { tool: 'fashion', image: garment, prompt: 'vintage fashion', aspectRatio: '9:16' },
      context().ctx,
    )
    const body = submits()[0]?.body as Record<string, unknown>
    expect(body.image_urls).toHaveLength(1)
    expect(body.prompt).toMatch(/model wearing the garment from the image, vintage fashion style/)
  })

  it("uses the user's own key over the server's, on every authenticated call", async () => {
    const provider = createFalImageProvider(adapterOptions())
    const { ctx } = context({ falKey: userKey })
    const started = await provider.startImageEdit(productRequest(), ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    await provider.resumeImageEdit(started.requestId, ctx)
    const authenticated = fake.requests.filter(
      (r) => !r.path.startsWith('/upload/') && !r.path.startsWith('/files/'),
    )
    expect(authenticated.length).toBeGreaterThanOrEqual(4)
    for (const request of authenticated) expect(request.headers.authorization).toBe(`Key ${userKey}`)
  })

  it('the same photo under the same key goes to fal storage once, even for jobs started together', async () => {
    const provider = createFalImageProvider(adapterOptions())
    await Promise.all([1, 2, 3].map(() => provider.startImageEdit(productRequest(), context().ctx)))
    await provider.startImageEdit(productRequest({ aspectRatio: '9:16' }), context().ctx)
    const initiates = fake.requests.filter((r) => r.path.startsWith('/storage/upload/initiate'))
    expect(initiates).toHaveLength(1)
    const urls = submits().map((s) => (s.body as { image_urls: string[] }).image_urls[0])
    expect(urls).toHaveLength(4)
    expect(new Set(urls).size).toBe(1)
  })

  it('does not share an upload across keys, and does not remember a failed one', async () => {
    fake.script({ upload: [500, 500, 500, 500, 500] })
    const provider = createFalImageProvider(adapterOptions())
    await expect(provider.startImageEdit(productRequest(), context().ctx)).rejects.toBeInstanceOf(
      ProviderError,
    )
    fake.script({})
    const before = fake.requests.length
    await provider.startImageEdit(productRequest(), context().ctx)
    await provider.startImageEdit(productRequest(), context({ falKey: userKey }).ctx)
    const okInitiates = fake.requests
      .slice(before)
      .filter((r) => r.path.startsWith('/storage/upload/initiate'))
    expect(okInitiates).toHaveLength(2)
    expect(okInitiates.map((r) => r.headers.authorization)).toEqual([`Key ${serverKey}`, `Key ${userKey}`])
  })

  it('with reuse off, every job uploads its photo', async () => {
    const provider = createFalImageProvider(adapterOptions({ uploadReuseMs: 0 }))
    await provider.startImageEdit(productRequest(), context().ctx)
    await provider.startImageEdit(productRequest(), context().ctx)
    expect(fake.requests.filter((r) => r.path.startsWith('/storage/upload/initiate'))).toHaveLength(2)
  })

  it('without any key fails as unauthorized before any traffic', async () => {
    const provider = createFalImageProvider(adapterOptions({ key: undefined }))
    const error = await failureOf(provider.startImageEdit(productRequest(), context().ctx))
    expect(error.failure).toBe('unauthorized')
    expect(fake.requests).toEqual([])
  })
})

describe('fal image edit: waiting and the result', () => {
  it('resumes by request id from a fresh adapter (a restart) and returns the downloaded file', async () => {
    const first = createFalImageProvider(adapterOptions())
    fake.script({ statusPolls: 2, description: 'A red mug on marble.' })
    const started = await first.startImageEdit(productRequest({ aspectRatio: '9:16' }), context().ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')

    const afterRestart = createFalImageProvider(adapterOptions())
    const { ctx } = context()
    const result = await afterRestart.resumeImageEdit(started.requestId, ctx)
    expect(result.image.mime).toBe('image/jpeg')
    expect(result.description).toBe('A red mug on marble.')
    // The bytes are the file fal served, not a URL: our storage keeps results.
    const job = fake.jobs.get(started.requestId)
    const output = job?.output as { images: Array<{ url: string }> }
    expect(result.image.bytes.equals(uploadedBytes(output.images[0]?.url) ?? Buffer.alloc(0))).toBe(true)
    const meta = await sharp(result.image.bytes).metadata()
    expect(meta.format).toBe('jpeg')
    expect((meta.width ?? 0) / (meta.height ?? 1)).toBeCloseTo(9 / 16, 1)
    // Status, result and download went to owner/alias: the sub-path is dropped.
    expect(fake.requests.some((r) => r.path === `/fal-ai/nano-banana/requests/${started.requestId}`)).toBe(
      true,
    )
    // The status came over one status stream; nothing polled.
    const statusCalls = fake.requests.filter((r) => r.path.includes(`/requests/${started.requestId}/status`))
    expect(statusCalls.map((r) => r.path)).toEqual([
      `/fal-ai/nano-banana/requests/${started.requestId}/status/stream?logs=0`,
    ])
  })

  it('polls every status instead when told to (FAL_STATUS_UPDATES=poll)', async () => {
    const provider = createFalImageProvider(adapterOptions({ statusUpdates: 'poll' }))
    fake.script({ statusPolls: 2 })
    const started = await provider.startImageEdit(productRequest(), context().ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    const { ctx, progress } = context()
    expect((await provider.resumeImageEdit(started.requestId, ctx)).image.mime).toBe('image/jpeg')
    expect(progress).toEqual([{ state: 'queued', queuePosition: 0 }, { state: 'running' }])
    const statusCalls = fake.requests.filter((r) => r.path.includes(`/requests/${started.requestId}/status`))
    expect(statusCalls.map((r) => r.path)).toEqual(
      Array(3).fill(`/fal-ai/nano-banana/requests/${started.requestId}/status?logs=0`),
    )
  })

  it('falls back to polling when the status stream is refused, and finishes', async () => {
    fake.script({ stream: 404, statusPolls: 2 })
    const provider = createFalImageProvider(adapterOptions())
    const started = await provider.startImageEdit(productRequest(), context().ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    const { ctx, lines } = context()
    expect((await provider.resumeImageEdit(started.requestId, ctx)).image.mime).toBe('image/jpeg')
    const paths = fake.requests
      .filter((r) => r.path.includes(`/requests/${started.requestId}/status`))
      .map((r) => r.path.split('/').slice(-1)[0])
    expect(paths).toEqual(['stream?logs=0', 'status?logs=0', 'status?logs=0', 'status?logs=0'])
    expect(lines.some((line) => line.includes('fal status stream'))).toBe(true)
  })

  it('checks on a status stream that goes silent with a poll, and finishes', async () => {
    fake.script({ silentStream: true, statusPolls: 2, completeAfterMs: 50 })
    const provider = createFalImageProvider(adapterOptions({ streamCheckMs: 30 }))
    const started = await provider.startImageEdit(productRequest(), context().ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    const { ctx } = context()
    expect((await provider.resumeImageEdit(started.requestId, ctx)).image.mime).toBe('image/jpeg')
    const polls = fake.requests.filter((r) => r.path.endsWith(`/requests/${started.requestId}/status?logs=0`))
    expect(polls.length).toBeGreaterThanOrEqual(1)
  })

  it('an abort while following the status stream stops it with canceled', async () => {
    const { error, requestId } = await abortWhileWaiting('stream')
    expect(error.failure).toBe('canceled')
    // Nothing polled after the stream closed, and no result was read.
    expect(fake.requests.filter((r) => r.path.endsWith('/status?logs=0'))).toEqual([])
    expect(fake.requests.some((r) => r.path.endsWith(`/requests/${requestId}`))).toBe(false)
  })

  it('reports the prompt used when the same process started the request', async () => {
    const provider = createFalImageProvider(adapterOptions())
    const request = productRequest({ prompt: 'glass pedestal' })
    const started = await provider.startImageEdit(request, context().ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    const result = await provider.resumeImageEdit(started.requestId, context().ctx)
    expect(result.promptUsed).toBe(
      buildImagePrompt({ tool: 'product', prompt: 'glass pedestal', hasReference: false }),
    )
  })

  it('reports progress: queued with its position, then running, each change once', async () => {
    fake.script({ statusPolls: 4 })
    const provider = createFalImageProvider(adapterOptions())
    const started = await provider.startImageEdit(productRequest(), context().ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    const { ctx, progress } = context()
    await provider.resumeImageEdit(started.requestId, ctx)
    expect(progress).toEqual([
      { state: 'queued', queuePosition: 1 },
      { state: 'queued', queuePosition: 0 },
      { state: 'running' },
    ])
  })

  it('an empty images list is bad_output with "No image URL returned from API"', async () => {
    fake.script({ noImageUrl: true })
    const provider = createFalImageProvider(adapterOptions())
    const started = await provider.startImageEdit(productRequest(), context().ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    const error = await failureOf(provider.resumeImageEdit(started.requestId, context().ctx))
    expect(error.failure).toBe('bad_output')
    expect(error.message).toBe('No image URL returned from API')
  })

  it('retries a failed download of the output', async () => {
    fake.script({ download: [503] })
    const provider = createFalImageProvider(adapterOptions())
    const started = await provider.startImageEdit(productRequest(), context().ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    const result = await provider.resumeImageEdit(started.requestId, context().ctx)
    expect(result.image.mime).toBe('image/jpeg')
    expect(fake.requests.filter((r) => r.path.startsWith('/files/'))).toHaveLength(2)
  })

  it('an abort while waiting stops polling with canceled', async () => {
    const { error } = await abortWhileWaiting('poll')
    expect(error.failure).toBe('canceled')
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    // A status request already on its way when the abort came may still reach the fake; after
    // that, a poller still running would ask every 20 ms.
    await pause(40)
    const polls = fake.requests.filter((r) => r.path.endsWith('/status?logs=0')).length
    await pause(80)
    expect(fake.requests.filter((r) => r.path.endsWith('/status?logs=0')).length).toBe(polls)
  })

  it('a job aborted before it starts sends nothing and is canceled', async () => {
    const controller = new AbortController()
    controller.abort()
    const provider = createFalImageProvider(adapterOptions())
    const error = await failureOf(
      provider.startImageEdit(productRequest(), context({ signal: controller.signal }).ctx),
    )
    expect(error.failure).toBe('canceled')
    expect(fake.requests).toEqual([])
  })

  it.each(['stream', 'poll'] as const)('gives up with timeout after the longest wait (%s)', async (mode) => {
    fake.script({ completeAfterMs: 60_000 })
    const provider = createFalImageProvider(adapterOptions({ maxWaitMs: 100, statusUpdates: mode }))
    const started = await provider.startImageEdit(productRequest(), context().ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    const error = await failureOf(provider.resumeImageEdit(started.requestId, context().ctx))
    expect(error.failure).toBe('timeout')
  })

  it('cancel sends PUT …/cancel and is quiet when the job already finished', async () => {
    fake.script({ completeAfterMs: 60_000 })
    const provider = createFalImageProvider(adapterOptions())
    const started = await provider.startImageEdit(productRequest(), context().ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    await provider.cancel(started.requestId, context().ctx)
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'PUT',
      path: `/fal-ai/nano-banana/requests/${started.requestId}/cancel`,
    })
    expect(fake.jobs.get(started.requestId)?.state).toBe('canceled')
    await expect(provider.cancel('unknown-request', context().ctx)).resolves.toBeUndefined()
  })
})

describe('fal image edit: failures', () => {
  it('503 twice then OK: the client retries the submit and succeeds', async () => {
    fake.script({ submit: [503, 503, 'ok'] })
    const provider = createFalImageProvider(adapterOptions())
    const started = await provider.startImageEdit(productRequest(), context().ctx)
    expect(started.kind).toBe('queued')
    expect(submits()).toHaveLength(3)
  })

  it('always 500: unavailable, with a generic message and the details in the log', async () => {
    fake.script({ submit: [500, 500, 500, 500, 500] })
    const provider = createFalImageProvider(adapterOptions())
    const { ctx, lines } = context()
    const error = await failureOf(provider.startImageEdit(productRequest(), ctx))
    expect(error.failure).toBe('unavailable')
    expect(error.message).toBe('The fal service is unavailable')
    // 500 is not in the client's retry list for submit (only 429/502/503/504).
    expect(submits()).toHaveLength(1)
    const entry = lines.map((l) => JSON.parse(l)).find((e) => e.msg === 'fal request failed')
    expect(entry).toMatchObject({ status: 500, operation: 'submit', model })
    expect(entry.body).toContain('Fake fal error 500')
  })

  it('422 on submit is rejected; the provider text stays out of the message', async () => {
    fake.script({ submit: ['error422'] })
    const provider = createFalImageProvider(adapterOptions())
    const error = await failureOf(provider.startImageEdit(productRequest(), context().ctx))
    expect(error.failure).toBe('rejected')
    expect(error.message).not.toMatch(/content checker/)
    expect(submits()).toHaveLength(1)
  })

  it('422 from the result (the model failed) is rejected, logged with the request id', async () => {
    fake.script({ result: ['error422'] })
    const provider = createFalImageProvider(adapterOptions())
    const started = await provider.startImageEdit(productRequest(), context().ctx)
    if (started.kind !== 'queued') throw new Error('expected a queued request')
    const { ctx, lines } = context()
    const error = await failureOf(provider.resumeImageEdit(started.requestId, ctx))
    expect(error.failure).toBe('rejected')
    const entry = lines.map((l) => JSON.parse(l)).find((e) => e.msg === 'fal request failed')
    expect(entry).toMatchObject({ status: 422, requestId: started.requestId })
    expect(entry.body).toContain('content_policy_violation')
  })

  it('429 on every attempt ends as rate_limited after the retries', async () => {
    fake.script({ submit: [429, 429, 429, 429] })
    const provider = createFalImageProvider(adapterOptions())
    const error = await failureOf(provider.startImageEdit(productRequest(), context().ctx))
    expect(error.failure).toBe('rate_limited')
    expect(submits()).toHaveLength(4)
  })

  it('401 is unauthorized, and no log line carries the key', async () => {
    fake.script({ submit: [401] })
    const provider = createFalImageProvider(adapterOptions())
    const { ctx, lines } = context()
    const error = await failureOf(provider.startImageEdit(productRequest(), ctx))
    expect(error.failure).toBe('unauthorized')
    expect(lines.join('\n')).not.toContain(serverKey)
    expect(error.message).not.toContain(serverKey)
  })

  it('a fal that cannot be reached is unavailable', async () => {
    const closed = await startFalFake()
    const url = closed.url
    await closed.close()
    const provider = createFalImageProvider(adapterOptions({ baseUrl: url }))
    const error = await failureOf(provider.startImageEdit(productRequest(), context().ctx))
    expect(error.failure).toBe('unavailable')
  })
})

describe('rewriteFalUrl', () => {
  it('sends the queue, direct-run and storage hosts to the base URL, keeping path and query', () => {
    const base = 'http://127.0.0.1:4500/'
    expect(rewriteFalUrl('https://queue.fal.run/fal-ai/x/requests/1/status?logs=0', base)).toBe(
      'http://127.0.0.1:4500/fal-ai/x/requests/1/status?logs=0',
    )
    expect(rewriteFalUrl('https://fal.run/fal-ai/x', base)).toBe('http://127.0.0.1:4500/fal-ai/x')
    expect(rewriteFalUrl('https://rest.fal.ai/storage/upload/initiate?storage_type=fal-cdn-v3', base)).toBe(
      'http://127.0.0.1:4500/storage/upload/initiate?storage_type=fal-cdn-v3',
    )
    // Output files and look-alike hosts are left alone.
    expect(rewriteFalUrl('https://v3.fal.media/files/abc.jpeg', base)).toBe(
      'https://v3.fal.media/files/abc.jpeg',
    )
    expect(rewriteFalUrl('https://fal.run.evil.example/x', base)).toBe('https://fal.run.evil.example/x')
    expect(rewriteFalUrl('https://queue.fal.run/x', undefined)).toBe('https://queue.fal.run/x')
  })
})
