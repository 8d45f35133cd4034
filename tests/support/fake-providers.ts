import sharp from 'sharp'
import type { Providers } from '#server/jobs/run-generation.ts'
import {
  type ImageEditResult,
  ProviderError,
  type ProviderFailure,
  type VideoResult,
} from '#server/providers/types.ts'

/** A small real JPEG of a given colour, for results and uploads in tests. */
export async function makeJpeg(width = 64, height = 64, color = '#c2410c'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer()
}

export async function makePng(width = 64, height = 64): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: '#1d4ed8' } })
    .png()
    .toBuffer()
}

/**
 * Rejects as a canceled provider call once the signal aborts, at once if it already has: a
 * worker stopping between recording a request id and resuming it must not leave the call hanging.
 */
function rejectOnAbort(signal: AbortSignal, reject: (error: unknown) => void): void {
  const abort = () => reject(new ProviderError('fake', 'canceled', 'aborted'))
  if (signal.aborted) abort()
  else signal.addEventListener('abort', abort, { once: true })
}

type Step = 'ok' | ProviderFailure | { queue: string } | { hang: true }

/**
 * In-process providers with scripted behaviour, for engine tests: each call takes the next
 * step of its script (then 'ok'): a result, a failure, a queued request id, or a hang until
 * aborted. Calls are recorded.
 */
export function createScriptedProviders() {
  const script: Record<'image' | 'video' | 'seo', Step[]> = { image: [], video: [], seo: [] }
  const calls: {
    kind: string
    requestId?: string
    falKey?: string | undefined
    view?: string | undefined
  }[] = []
  const queued = new Map<string, 'image' | 'video'>()
  /** Resolvers for queued requests; a test completes them when it wants. */
  const release = new Map<string, () => void>()
  const waitFor = (requestId: string, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (!release.has(requestId)) release.set(requestId, () => {})
      const previous = release.get(requestId)
      release.set(requestId, () => {
        previous?.()
        resolve()
      })
      rejectOnAbort(signal, reject)
    })
  const completed = new Set<string>()

  async function next<T>(
    kind: 'image' | 'video' | 'seo',
    signal: AbortSignal,
    make: () => Promise<T>,
  ): Promise<T | { queued: string }> {
    const step = script[kind].shift() ?? 'ok'
    if (step === 'ok') return make()
    if (typeof step === 'string') throw new ProviderError('fake', step, `scripted ${step}`)
    if ('queue' in step) return { queued: step.queue }
    await new Promise<never>((_, reject) => rejectOnAbort(signal, reject))
    throw new Error('unreachable')
  }

  const imageResult = async (prompt: string): Promise<ImageEditResult> => ({
    image: { bytes: await makeJpeg(108, 108), mime: 'image/jpeg' },
    description: 'scripted result',
    promptUsed: prompt || 'default prompt',
  })
  const videoResult = async (): Promise<VideoResult> => ({
    video: { bytes: Buffer.from('00000018667479706d703432', 'hex'), mime: 'video/mp4' },
    promptUsed: 'slow rotation',
  })

  const providers: Providers = {
    image: {
      name: 'fal',
      async startImageEdit(request, ctx) {
        calls.push({ kind: 'image.start', falKey: ctx.falKey, view: request.view })
        const outcome = await next('image', ctx.signal, () => imageResult(request.prompt))
        if ('queued' in outcome) {
          queued.set(outcome.queued, 'image')
          return { kind: 'queued', requestId: outcome.queued }
        }
        return { kind: 'done', result: outcome }
      },
      async resumeImageEdit(requestId, ctx) {
        calls.push({ kind: 'image.resume', requestId })
        if (!completed.has(requestId)) await waitFor(requestId, ctx.signal)
        return imageResult('resumed')
      },
      async cancel(requestId) {
        calls.push({ kind: 'image.cancel', requestId })
      },
    },
    video: {
      name: 'fal',
      async startVideo(_request, ctx) {
        calls.push({ kind: 'video.start', falKey: ctx.falKey })
        const outcome = await next('video', ctx.signal, videoResult)
        if ('queued' in outcome) {
          queued.set(outcome.queued, 'video')
          return { kind: 'queued', requestId: outcome.queued }
        }
        return { kind: 'done', result: outcome }
      },
      async resumeVideo(requestId, ctx) {
        calls.push({ kind: 'video.resume', requestId })
        if (!completed.has(requestId)) await waitFor(requestId, ctx.signal)
        return videoResult()
      },
      async cancel(requestId) {
        calls.push({ kind: 'video.cancel', requestId })
      },
    },
    seo: {
      name: 'offline',
      async writeSeo(_request, ctx) {
        calls.push({ kind: 'seo' })
        const outcome = await next('seo', ctx.signal, async () => ({
          title: 'Deri Cüzdan',
          description: 'El yapımı deri cüzdan.',
          features: ['Deri', 'El yapımı', 'İnce', 'Dayanıklı'],
          keywords: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'],
          model: 'scripted',
        }))
        if ('queued' in outcome) throw new Error('SEO never queues')
        return outcome
      },
    },
  }
  return {
    providers,
    script,
    calls,
    /** Lets a queued request finish (now, or as soon as something waits on it). */
    complete(requestId: string) {
      completed.add(requestId)
      release.get(requestId)?.()
    },
  }
}
