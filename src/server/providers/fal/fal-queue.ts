import { createHash } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FalClient, QueueStatus, RetryOptions } from '@fal-ai/client'
import { setNewest } from '#shared/bounded-map.ts'
import { type ProviderCallContext, ProviderError, type ProviderProgress } from '../types.ts'
import { type FalClientSettings, openFalClient } from './fal-client.ts'
import { falError, toFalProviderError } from './fal-errors.ts'

/** Settings shared by the fal image and video adapters. */
export type FalAdapterOptions = {
  /** The server's fal key (FAL_KEY); a user's own key in the call context wins. */
  key: string | undefined
  /** The fal endpoint id, e.g. fal-ai/nano-banana/edit. */
  model: string
  /** Another origin for all fal traffic (FAL_BASE_URL), e.g. the local fake. */
  baseUrl?: string | undefined
  /**
   * How a job's status is followed: 'stream' (the default) keeps fal's status stream open and
   * hears each change as it happens; 'poll' asks every pollIntervalMs. A stream that fails
   * falls back to polling.
   */
  statusUpdates?: 'stream' | 'poll' | undefined
  /** Time between status polls; fal's own default is 500 ms, a job-runner needs less chatter. */
  pollIntervalMs?: number | undefined
  /** While streaming, how long a silent stream is trusted before one status poll checks on it. */
  streamCheckMs?: number | undefined
  /** Longest one resume call waits for a result before failing with 'timeout'. */
  maxWaitMs?: number | undefined
  /** Overrides of the client's retry options (tests shorten the waits). */
  retry?: Partial<RetryOptions> | undefined
  /** The fetch to use (tests may wrap it); defaults to the global one. */
  fetch?: typeof fetch | undefined
  /** Biggest output file we download (a guard against a runaway response). */
  maxDownloadBytes?: number | undefined
  /** How long an uploaded file's fal URL is reused for the same bytes and key (0: never). */
  uploadReuseMs?: number | undefined
}

const defaults = {
  pollIntervalMs: 1000,
  streamCheckMs: 10_000,
  // Veo can queue for a while on a busy account (2 concurrent jobs for new accounts).
  maxWaitMs: 30 * 60_000,
  maxDownloadBytes: 200 * 1024 * 1024,
  downloadAttempts: 3,
  // fal storage keeps files far longer than this; the window only bounds how long we trust a URL.
  uploadReuseMs: 30 * 60_000,
  uploadMemoSize: 200,
}

export type DownloadedFile = { bytes: Buffer; contentType: string | null }

/** A file to send to fal storage; `sha256` (hex of `bytes`), when known, spares hashing it again. */
export type UploadFile = { bytes: Buffer; mime: string; sha256?: string | undefined }

/**
 * The queue protocol steps both adapters share: upload to fal storage, submit, poll until
 * completed, read the result, download the output, cancel.
 */
export type FalQueue = {
  readonly model: string
  upload(file: UploadFile, ctx: ProviderCallContext): Promise<string>
  submit(input: Record<string, unknown>, ctx: ProviderCallContext): Promise<string>
  /**
   * Follows the request (its status stream, or polls) until COMPLETED, reporting progress, then
   * returns the model's output JSON.
   */
  waitForResult(requestId: string, ctx: ProviderCallContext): Promise<unknown>
  download(url: string, ctx: ProviderCallContext, requestId: string): Promise<DownloadedFile>
  cancel(requestId: string, ctx: ProviderCallContext): Promise<void>
}

function progressKey(progress: ProviderProgress): string {
  return `${progress.state}:${progress.queuePosition ?? ''}`
}

function isTransientStatus(status: number): boolean {
  return status === 429 || status >= 500
}

export function createFalQueue(options: FalAdapterOptions): FalQueue {
  const model = options.model
  const pollIntervalMs = options.pollIntervalMs ?? defaults.pollIntervalMs
  const streamCheckMs = options.streamCheckMs ?? defaults.streamCheckMs
  const statusUpdates = options.statusUpdates ?? 'stream'
  const maxWaitMs = options.maxWaitMs ?? defaults.maxWaitMs
  const maxDownloadBytes = options.maxDownloadBytes ?? defaults.maxDownloadBytes
  const baseFetch = options.fetch ?? globalThis.fetch
  const settings: FalClientSettings = {
    serverKey: options.key,
    baseUrl: options.baseUrl,
    fetch: baseFetch,
    retry: options.retry,
  }
  const open = (ctx: ProviderCallContext) =>
    openFalClient(settings, { userKey: ctx.falKey, signal: ctx.signal })
  const fail = (error: unknown, ctx: ProviderCallContext, operation: string, requestId?: string) =>
    toFalProviderError(error, {
      log: ctx.log,
      signal: ctx.signal,
      operation,
      model,
      ...(requestId ? { requestId } : {}),
    })

  // Sellers make several scenes from one photo: the same bytes under the same key go to fal
  // storage once, and jobs started together share the one upload in flight.
  const uploadReuseMs = options.uploadReuseMs ?? defaults.uploadReuseMs
  const uploads = new Map<string, { url: Promise<string>; at: number }>()
  // A stored asset's checksum stands for its bytes, so they are not hashed again per job.
  const uploadKey = (file: UploadFile, ctx: ProviderCallContext) => {
    const hash = createHash('sha256')
      .update(ctx.falKey ? `user:${ctx.falKey}` : 'server')
      .update('\0')
      .update(file.mime)
      .update('\0')
    return (file.sha256 ? hash.update(`sha256:${file.sha256}`) : hash.update(file.bytes)).digest('base64url')
  }

  async function uploadOnce(file: UploadFile, ctx: ProviderCallContext): Promise<string> {
    try {
      const fal = open(ctx)
      // Data URIs are not auto-uploaded by the client (since 0.13), so we always send bytes
      // through fal storage and hand the model a file URL.
      return await fal.storage.upload(new Blob([new Uint8Array(file.bytes)], { type: file.mime }))
    } catch (error) {
      throw fail(error, ctx, 'upload')
    }
  }

  async function downloadOnce(url: string, ctx: ProviderCallContext): Promise<DownloadedFile> {
    const response = await baseFetch(url, { signal: ctx.signal })
    if (!response.ok) {
      await response.body?.cancel()
      throw Object.assign(new Error(`download answered HTTP ${response.status}`), { status: response.status })
    }
    const declared = Number(response.headers.get('content-length') ?? '0')
    if (declared > maxDownloadBytes) {
      await response.body?.cancel()
      throw falError('bad_output', new Error(`output file of ${declared} bytes is over the limit`))
    }
    const bytes = Buffer.from(await response.arrayBuffer())
    if (bytes.length > maxDownloadBytes || bytes.length === 0) {
      throw falError('bad_output', new Error(`output file has ${bytes.length} bytes`))
    }
    return { bytes, contentType: response.headers.get('content-type') }
  }

  /**
   * Follows a request on fal's status stream (`…/status/stream`), passing each status to
   * `take`, until it says COMPLETED (true) or the stream ends or fails without it (false: the
   * caller polls from there, so a stream can only make a job finish sooner, never fail it).
   * A stream silent for streamCheckMs gets one status poll to check on it; the deadline or the
   * job's abort closes it.
   */
  async function followStatusStream(
    fal: FalClient,
    requestId: string,
    ctx: ProviderCallContext,
    take: (status: QueueStatus) => boolean,
    deadline: number,
  ): Promise<boolean> {
    const aborted = (cause: unknown) => falError('canceled', cause)
    let stream: Awaited<ReturnType<FalClient['queue']['streamStatus']>>
    try {
      stream = await fal.queue.streamStatus(model, { requestId, logs: false })
    } catch (error) {
      if (ctx.signal.aborted) throw aborted(error)
      ctx.log.info({ provider: 'fal', model, requestId, err: error }, 'fal status stream refused; polling')
      return false
    }
    // Once finished (completed, closed or failed), late events and checks are ignored.
    let isFinished = false
    let isCompleted = false
    let timer: NodeJS.Timeout | undefined
    const finish = (completed: boolean) => {
      if (isFinished) return
      isFinished = true
      isCompleted = completed
      clearTimeout(timer)
      stream.abort()
    }
    const close = () => finish(false)
    const onStatus = (status: QueueStatus) => {
      if (isFinished) return
      if (take(status)) finish(true)
      else watch()
    }
    const watch = () => {
      clearTimeout(timer)
      const remaining = deadline - Date.now()
      if (remaining <= 0) return close()
      timer = setTimeout(check, Math.min(streamCheckMs, remaining))
    }
    const check = async () => {
      try {
        onStatus(await fal.queue.status(model, { requestId, logs: false, abortSignal: ctx.signal }))
      } catch {
        // The polling that follows reports (or maps) the failure.
        close()
      }
    }
    ctx.signal.addEventListener('abort', close, { once: true })
    stream.on('data', onStatus)
    watch()
    try {
      await stream.done()
    } catch (error) {
      if (ctx.signal.aborted) throw aborted(error)
      if (!isCompleted) {
        ctx.log.info({ provider: 'fal', model, requestId, err: error }, 'fal status stream failed; polling')
      }
    } finally {
      // The stream ended by itself (or failed): stop listening either way.
      finish(isCompleted)
      ctx.signal.removeEventListener('abort', close)
    }
    if (ctx.signal.aborted) throw aborted(new Error('status stream aborted'))
    return isCompleted
  }

  return {
    model,

    async upload(file, ctx) {
      if (uploadReuseMs <= 0) return uploadOnce(file, ctx)
      const key = uploadKey(file, ctx)
      const known = uploads.get(key)
      if (known && Date.now() - known.at < uploadReuseMs) {
        try {
          return await known.url
        } catch {
          // The shared upload failed or was canceled with its own job: try on our own.
          if (ctx.signal.aborted) throw falError('canceled', new Error('upload aborted'))
          return uploadOnce(file, ctx)
        }
      }
      const url = uploadOnce(file, ctx)
      const entry = { url, at: Date.now() }
      setNewest(uploads, key, entry, defaults.uploadMemoSize)
      url.catch(() => {
        if (uploads.get(key) === entry) uploads.delete(key)
      })
      return url
    },

    async submit(input, ctx) {
      try {
        const fal = open(ctx)
        const queued = await fal.queue.submit(model, { input, abortSignal: ctx.signal })
        if (typeof queued?.request_id !== 'string' || queued.request_id.length === 0) {
          throw falError('bad_output', new Error('submit answered without a request_id'))
        }
        ctx.log.info({ provider: 'fal', model, requestId: queued.request_id }, 'fal request queued')
        return queued.request_id
      } catch (error) {
        throw fail(error, ctx, 'submit')
      }
    },

    async waitForResult(requestId, ctx) {
      try {
        const fal = open(ctx)
        const deadline = Date.now() + maxWaitMs
        let lastReported = ''
        /** Reports a status's progress (changes only); true once it is COMPLETED. */
        const take = (status: QueueStatus): boolean => {
          if (status.status === 'COMPLETED') return true
          const progress: ProviderProgress =
            status.status === 'IN_QUEUE'
              ? { state: 'queued', queuePosition: status.queue_position }
              : { state: 'running' }
          // Report changes only: the engine persists progress, and polls repeat the same state.
          if (progressKey(progress) !== lastReported) {
            lastReported = progressKey(progress)
            ctx.onProgress?.(progress)
          }
          return false
        }
        let isCompleted =
          statusUpdates === 'stream' && (await followStatusStream(fal, requestId, ctx, take, deadline))
        while (!isCompleted) {
          const status = await fal.queue.status(model, { requestId, logs: false, abortSignal: ctx.signal })
          isCompleted = take(status)
          if (isCompleted) break
          if (Date.now() + pollIntervalMs > deadline) {
            throw falError('timeout', new Error(`no result after ${maxWaitMs} ms`))
          }
          await sleep(pollIntervalMs, undefined, { signal: ctx.signal })
        }
        // A failed model run is COMPLETED too; result() then throws the model's error status.
        const result = await fal.queue.result(model, { requestId, abortSignal: ctx.signal })
        return result.data as unknown
      } catch (error) {
        throw fail(error, ctx, 'wait', requestId)
      }
    },

    async download(url, ctx, requestId) {
      // Our storage keeps results: fal's file URLs expire. A transient blip must not lose a
      // paid-for result, so retry a few times with the same backoff shape as the client.
      const baseDelay = options.retry?.baseDelay ?? 1000
      let lastError: unknown
      for (let attempt = 0; attempt < defaults.downloadAttempts; attempt++) {
        try {
          return await downloadOnce(url, ctx)
        } catch (error) {
          lastError = error
          const status = (error as { status?: unknown }).status
          const isTransient =
            !ctx.signal.aborted &&
            !(error instanceof ProviderError) &&
            (typeof status !== 'number' || isTransientStatus(status))
          if (!isTransient || attempt === defaults.downloadAttempts - 1) break
          try {
            await sleep(baseDelay * 2 ** attempt, undefined, { signal: ctx.signal })
          } catch (sleepError) {
            lastError = sleepError
            break
          }
        }
      }
      if (ctx.signal.aborted) throw falError('canceled', lastError)
      const failure = lastError instanceof ProviderError ? lastError : falError('unavailable', lastError)
      const cause = lastError instanceof ProviderError ? lastError.cause : lastError
      ctx.log.warn(
        {
          provider: 'fal',
          model,
          requestId,
          operation: 'download',
          failure: failure.failure,
          error: cause instanceof Error ? cause.message : String(cause),
        },
        'fal output download failed',
      )
      throw failure
    },

    async cancel(requestId, ctx) {
      try {
        const fal = open(ctx)
        await fal.queue.cancel(model, { requestId, abortSignal: ctx.signal })
        ctx.log.info({ provider: 'fal', model, requestId }, 'fal request cancel sent')
      } catch (error) {
        // Best effort by contract: a job that already finished or a missing key must not turn
        // a user's cancel into an error; the mapped failure is logged inside.
        const mapped = fail(error, ctx, 'cancel', requestId)
        ctx.log.info({ provider: 'fal', requestId, failure: mapped.failure }, 'fal cancel not confirmed')
      }
    },
  }
}

/**
 * Remembers the prompt sent per request id, so `resume` in the same process can report "the
 * prompt used". fal does not echo the input and the engine keeps only the request id across a
 * restart, so after a restart this is empty and the engine rebuilds the prompt from its stored
 * request with buildImagePrompt/buildVideoPrompt. Bounded: abandoned ids must not pile up.
 */
export function createPromptMemory(max = 500) {
  const prompts = new Map<string, string>()
  return {
    remember(requestId: string, prompt: string) {
      setNewest(prompts, requestId, prompt, max)
    },
    /** The prompt for the id ('' when unknown); forgets it, as a result is read once. */
    take(requestId: string): string {
      const prompt = prompts.get(requestId) ?? ''
      prompts.delete(requestId)
      return prompt
    },
  }
}

/** Recognises the image types we store, by content (magic bytes), not by declared type. */
export function sniffImageMime(bytes: Buffer): 'image/jpeg' | 'image/png' | 'image/webp' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png'
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp'
  return null
}

/** True for an ISO base-media file (MP4/MOV): an `ftyp` box comes first. */
export function isMp4(bytes: Buffer): boolean {
  return bytes.length >= 12 && bytes.subarray(4, 8).toString('latin1') === 'ftyp'
}
