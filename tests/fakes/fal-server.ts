// A fake fal.ai speaking the real queue and storage protocols (the calls
// src/server/providers/fal/fal-queue.ts makes), for adapter tests and for running the app by
// hand without an account. Start it from a test with
// `startFalFake()`, or by hand: `npx tsx tests/fakes/fal-server.ts --port 4500` (see README.md).
//
// The app reaches it through FAL_BASE_URL: the adapter's fetch rewrites queue.fal.run, fal.run
// and rest.fal.ai to this origin. Jobs live in this process's memory until they complete, so
// an app restart in the middle of a job can resume it by request id.

import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import sharp from 'sharp'
import { answerControl, argValue, closeServer, exitOnStop } from './control.ts'

/** One scripted answer: 'ok' runs the protocol; a number (or 'error422') answers that status. */
export type FalFakeStep = 'ok' | number | `error${number}`

/**
 * Steps for one kind of request: a list is consumed one request at a time, then 'ok' again;
 * a single step (not in a list) answers every such request, e.g. `submit: 500` for "always 500".
 */
export type FalFakeSteps = FalFakeStep[] | FalFakeStep

/** Per-test behaviour. */
export type FalFakeScript = {
  /** POST /storage/upload/initiate */
  upload?: FalFakeSteps
  /** POST /{owner}/{alias}[/{path}] (queue submit) */
  submit?: FalFakeSteps
  /** GET …/requests/{id}/status */
  status?: FalFakeSteps
  /** GET …/requests/{id}/status/stream (server-sent events) */
  stream?: FalFakeSteps
  /** The status stream sends its first event, then nothing more until the client leaves. */
  silentStream?: boolean
  /** On the status stream, how long each state before IN_PROGRESS lasts (default 5 ms). */
  queueStepMs?: number
  /** GET …/requests/{id} (the result) */
  result?: FalFakeSteps
  /** PUT …/requests/{id}/cancel */
  cancel?: FalFakeSteps
  /** GET /files/{id} (downloading an output) */
  download?: FalFakeSteps
  /** Status polls answered IN_QUEUE/IN_PROGRESS before COMPLETED (default 2). */
  statusPolls?: number
  /** And not COMPLETED before this many ms after submit (default 0). */
  completeAfterMs?: number
  /** The image result has no `images[0].url`. */
  noImageUrl?: boolean
  /** The video result has no `video.url`. */
  noVideoUrl?: boolean
  /** The image result's description. */
  description?: string
}

export type FalFakeRequest = {
  method: string
  /** Path and query, e.g. /fal-ai/nano-banana/requests/req-1/status?logs=0 */
  path: string
  /** Lower-case header names, as received (Authorization included, for assertions). */
  headers: Record<string, string>
  /** The parsed JSON body, or null (binary uploads: see `bytes`). */
  body: unknown
  bytes: number
  /** The keyed script (see `scriptFor`) this request followed, if any. */
  match?: string
}

export type FalFakeJob = {
  id: string
  /** The endpoint id submitted to, e.g. fal-ai/nano-banana/edit */
  endpoint: string
  /** owner/alias: status, result and cancel drop the sub-path. */
  app: string
  input: Record<string, unknown>
  kind: 'image' | 'video'
  submittedAt: number
  polls: number
  state: 'pending' | 'completed' | 'canceled'
  /** The keyed script (see `scriptFor`) the submit matched, or null for the shared script. */
  match: string | null
  /** Behaviour captured at submit, so a later script() does not change a job in flight. */
  statusPolls: number
  silentStream: boolean
  queueStepMs: number
  completeAfterMs: number
  noImageUrl: boolean
  noVideoUrl: boolean
  description: string
  output?: Record<string, unknown>
}

export type FalFake = {
  /** Origin to use as FAL_BASE_URL, e.g. http://127.0.0.1:4500 */
  url: string
  requests: FalFakeRequest[]
  jobs: Map<string, FalFakeJob>
  files: Map<string, StoredFile>
  /** Replaces the shared script (and restarts its step lists). */
  script(script: FalFakeScript): void
  /**
   * A script only for submits whose `prompt` contains `match`, and for those jobs' status,
   * result, cancel and output downloads; other traffic keeps the shared script. Lets tests
   * running in parallel against one fake script their own jobs. Replaces an earlier one for
   * the same `match`.
   */
  scriptFor(match: string, script: FalFakeScript): void
  /** Drops the keyed script for `match`, or every keyed script and the shared one (back to the defaults). */
  reset(match?: string): void
  clearRequests(): void
  close(): Promise<void>
}

type StoredFile = { bytes: Buffer; contentType: string }
type StepKind = 'upload' | 'submit' | 'status' | 'stream' | 'result' | 'cancel' | 'download'
/** A script with the defaults filled in, and its step lists as consumed so far. */
type ScriptState = { script: FalFakeScript; steps: Record<StepKind, FalFakeSteps> }

const stepKinds: StepKind[] = ['upload', 'submit', 'status', 'stream', 'result', 'cancel', 'download']

function stepStatus(step: FalFakeStep | undefined): number | null {
  if (step === undefined || step === 'ok') return null
  if (typeof step === 'number') return step
  return Number(step.slice('error'.length))
}

/** fal's error bodies: validation `detail` lists for 422, `{detail, error_type}` otherwise. */
function errorBody(status: number): { body: Record<string, unknown>; headers: Record<string, string> } {
  if (status === 422) {
    return {
      body: {
        detail: [
          {
            loc: ['body', 'prompt'],
            msg: 'The content could not be processed because it contained material flagged by a content checker.',
            type: 'content_policy_violation',
          },
        ],
      },
      headers: { 'x-fal-retryable': 'false' },
    }
  }
  if (status === 401 || status === 403) return { body: { detail: 'Invalid or missing key' }, headers: {} }
  if (status === 429) return { body: { detail: 'Too many requests' }, headers: {} }
  const errorType =
    status === 503
      ? 'runner_scheduling_failure'
      : status === 504
        ? 'request_timeout'
        : 'internal_server_error'
  return {
    body: { detail: `Fake fal error ${status}`, error_type: errorType },
    headers: { 'x-fal-error-type': errorType },
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  })
  res.end(text)
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

/** Pixel size of a generated image for an aspect ratio like 9:16 (long side 1024). */
export function sizeForRatio(ratio: unknown): { width: number; height: number } {
  const match = typeof ratio === 'string' ? /^(\d+):(\d+)$/.exec(ratio) : null
  if (!match) return { width: 1024, height: 1024 }
  const w = Number(match[1])
  const h = Number(match[2])
  if (!(w > 0 && h > 0)) return { width: 1024, height: 1024 }
  const scale = 1024 / Math.max(w, h)
  // Even sizes, as real encoders produce.
  const even = (n: number) => Math.max(2, Math.round((n * scale) / 2) * 2)
  return { width: even(w), height: even(h) }
}

/** A real JPEG at the requested ratio: the input photo, if we hold it, on a soft gradient. */
async function makeImage(ratio: unknown, input: StoredFile | undefined): Promise<Buffer> {
  const { width, height } = sizeForRatio(ratio)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#f4f1ec"/><stop offset="1" stop-color="#d9d2c5"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <text x="50%" y="${height - 24}" text-anchor="middle" font-family="sans-serif" font-size="22" fill="#8a8174">fake fal result</text>
  </svg>`
  const background = sharp(Buffer.from(svg))
  if (input) {
    try {
      const product = await sharp(input.bytes)
        .resize({ width: Math.round(width * 0.7), height: Math.round(height * 0.7), fit: 'inside' })
        .toBuffer()
      return await background
        .composite([{ input: product, gravity: 'center' }])
        .jpeg({ quality: 85 })
        .toBuffer()
    } catch {
      // Not an image sharp can read: the plain background still is a valid result.
    }
  }
  return background.jpeg({ quality: 85 }).toBuffer()
}

const execFileAsync = promisify(execFile)
const videoCache = new Map<string, Promise<Buffer>>()

/** A minimal ISO-BMFF header, for machines without ffmpeg: enough to pass an MP4 sniff. */
function fallbackMp4(): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypisom', 'latin1'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isommp41', 'latin1'),
  ])
  return Buffer.concat([ftyp, Buffer.alloc(1024)])
}

/** A small real H.264 MP4 at the ratio, made once per process with ffmpeg. */
function makeVideo(ratio: '9:16' | '16:9', ffmpegPath: string): Promise<Buffer> {
  const cached = videoCache.get(ratio)
  if (cached) return cached
  const created = (async () => {
    if (!existsSync(ffmpegPath)) return fallbackMp4()
    const dir = await mkdtemp(join(tmpdir(), 'fal-fake-'))
    const out = join(dir, 'video.mp4')
    const size = ratio === '9:16' ? '180x320' : '320x180'
    try {
      await execFileAsync(
        ffmpegPath,
        [
          ...[
            '-hide_banner',
            '-loglevel',
            'error',
            '-y',
            '-f',
            'lavfi',
            '-i',
            `testsrc=size=${size}:rate=12`,
          ],
          ...['-t', '1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-an'],
          ...['-movflags', '+faststart', out],
        ],
        { timeout: 20_000 },
      )
      return await readFile(out)
    } catch {
      return fallbackMp4()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })()
  videoCache.set(ratio, created)
  return created
}

const reservedFirstSegments = new Set(['storage', 'upload', 'files'])

/**
 * Starts the fake on a free port (or `port`); `defaults` applies until a test scripts it.
 * `control` adds the JSON endpoints under /__control/ (see README.md) that script it over HTTP.
 */
export async function startFalFake(
  options: {
    port?: number
    host?: string
    defaults?: FalFakeScript
    ffmpegPath?: string
    control?: boolean
  } = {},
): Promise<FalFake> {
  const host = options.host ?? '127.0.0.1'
  const ffmpegPath = options.ffmpegPath ?? '/usr/bin/ffmpeg'
  const requests: FalFakeRequest[] = []
  const jobs = new Map<string, FalFakeJob>()
  const files = new Map<string, StoredFile>()
  const pendingUploads = new Map<string, string>()
  let shared = scriptState({})
  const keyed = new Map<string, ScriptState>()
  /** Job id → wake-ups of its status streams waiting for the next state. */
  const waiters = new Map<string, Set<() => void>>()
  /** Output file id → the keyed script of the job that made it. */
  const outputMatches = new Map<string, string>()
  let origin = ''
  let sequence = 0

  function scriptState(script: FalFakeScript): ScriptState {
    const merged = { ...options.defaults, ...script }
    const steps = Object.fromEntries(
      stepKinds.map((kind) => {
        const plan = merged[kind] ?? []
        return [kind, Array.isArray(plan) ? [...plan] : plan]
      }),
    ) as Record<StepKind, FalFakeSteps>
    return { script: merged, steps }
  }

  /** The keyed script for a match (while it is still set), else the shared one. */
  function stateFor(match: string | null | undefined): ScriptState {
    return (match ? keyed.get(match) : undefined) ?? shared
  }

  /** The keyed script whose marker the prompt contains, if any. */
  function matchOf(input: unknown): string | null {
    const prompt = (input as { prompt?: unknown } | null)?.prompt
    if (typeof prompt !== 'string') return null
    for (const match of keyed.keys()) if (prompt.includes(match)) return match
    return null
  }

  /** Answers the next scripted error for this kind of request, if there is one. */
  function scriptedError(kind: StepKind, res: ServerResponse, state: ScriptState = shared): boolean {
    const plan = state.steps[kind]
    const status = stepStatus(Array.isArray(plan) ? plan.shift() : plan)
    if (status === null) return false
    const { body, headers } = errorBody(status)
    send(res, status, body, { 'x-fal-request-id': `err-${++sequence}`, ...headers })
    return true
  }

  function hasKey(req: FalFakeRequest): boolean {
    return /^Key \S+/.test(req.headers.authorization ?? '')
  }

  function jobUrls(job: FalFakeJob) {
    const base = `${origin}/${job.app}/requests/${job.id}`
    return {
      request_id: job.id,
      response_url: base,
      status_url: `${base}/status`,
      cancel_url: `${base}/cancel`,
    }
  }

  function isComplete(job: FalFakeJob): boolean {
    return job.polls >= job.statusPolls && Date.now() - job.submittedAt >= job.completeAfterMs
  }

  function inputFile(url: unknown): StoredFile | undefined {
    if (typeof url !== 'string' || !url.startsWith(`${origin}/files/`)) return undefined
    return files.get(url.slice(`${origin}/files/`.length))
  }

  async function outputOf(job: FalFakeJob): Promise<Record<string, unknown>> {
    if (job.output) return job.output
    const id = `out-${randomUUID()}`
    if (job.match) outputMatches.set(id, job.match)
    if (job.kind === 'video') {
      const ratio = job.input.aspect_ratio === '9:16' ? '9:16' : '16:9'
      files.set(id, { bytes: await makeVideo(ratio, ffmpegPath), contentType: 'video/mp4' })
      job.output = job.noVideoUrl
        ? { video: { content_type: 'video/mp4' } }
        : { video: { url: `${origin}/files/${id}`, content_type: 'video/mp4', file_name: 'output.mp4' } }
      return job.output
    }
    const urls = Array.isArray(job.input.image_urls) ? job.input.image_urls : []
    const bytes = await makeImage(job.input.aspect_ratio, inputFile(urls[0]))
    const meta = await sharp(bytes).metadata()
    files.set(id, { bytes, contentType: 'image/jpeg' })
    const image = {
      content_type: 'image/jpeg',
      file_name: 'output.jpeg',
      width: meta.width,
      height: meta.height,
    }
    job.output = {
      images: [job.noImageUrl ? image : { url: `${origin}/files/${id}`, ...image }],
      description: job.description,
    }
    return job.output
  }

  /**
   * The status a poll sees now, moving the job along: IN_QUEUE for the first half of its
   * scripted polls (position counting down), IN_PROGRESS for the rest, then COMPLETED once
   * the polls are used up and its time has passed. A canceled job reads COMPLETED too.
   */
  function nextStatus(job: FalFakeJob): Record<string, unknown> & { status: string } {
    if (job.state !== 'pending' || isComplete(job)) {
      if (job.state === 'pending') job.state = 'completed'
      return { status: 'COMPLETED', ...jobUrls(job), logs: null, metrics: { inference_time: 1.5 } }
    }
    const poll = job.polls++
    const queuedPolls = Math.ceil(job.statusPolls / 2)
    if (poll < queuedPolls) {
      return { status: 'IN_QUEUE', ...jobUrls(job), queue_position: queuedPolls - 1 - poll }
    }
    return { status: 'IN_PROGRESS', ...jobUrls(job), logs: [] }
  }

  /**
   * fal's status stream: one server-sent event per state the job passes through (the same
   * states polls would see), the last one COMPLETED, and then the stream ends. A silent
   * stream (scripted) sends its first event and then nothing, as a stalled connection would.
   */
  async function streamStatus(job: FalFakeJob, req: IncomingMessage, res: ServerResponse) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    let isOpen = true
    req.once('close', () => {
      isOpen = false
    })
    let lastSent = ''
    while (isOpen) {
      const status = nextStatus(job)
      const key = `${status.status}:${String(status.queue_position ?? '')}`
      if (key !== lastSent) {
        lastSent = key
        res.write(`data: ${JSON.stringify(status)}\n\n`)
      }
      if (status.status === 'COMPLETED') break
      if (job.silentStream) {
        if (isOpen) await new Promise((resolve) => req.once('close', resolve))
        return
      }
      // Queue positions step along; then wait for the job's time, a cancel or the client leaving.
      const untilDone = job.submittedAt + job.completeAfterMs - Date.now()
      const wait = job.polls < job.statusPolls ? job.queueStepMs : Math.max(1, untilDone)
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          req.off('close', wake)
          waiters.get(job.id)?.delete(wake)
          resolve()
        }
        const timer = setTimeout(wake, wait)
        req.once('close', wake)
        if (!waiters.has(job.id)) waiters.set(job.id, new Set())
        waiters.get(job.id)?.add(wake)
      })
    }
    res.end()
  }

  /** Wakes the status streams of a job whose state changed (a cancel). */
  function wakeStreams(job: FalFakeJob) {
    for (const wake of [...(waiters.get(job.id) ?? [])]) wake()
  }

  /** 422 for an input the real model would refuse at validation. */
  function validationError(kind: 'image' | 'video', input: Record<string, unknown>): string | null {
    if (typeof input.prompt !== 'string' || input.prompt.length === 0) return 'prompt'
    if (kind === 'image') {
      const urls = input.image_urls
      if (!Array.isArray(urls) || urls.length === 0 || !urls.every((u) => typeof u === 'string'))
        return 'image_urls'
      return null
    }
    return typeof input.image_url === 'string' ? null : 'image_url'
  }

  /** Test control over HTTP (only with `control`): outside every fal path, never logged. */
  function handleControl(method: string, url: URL, raw: Buffer, res: ServerResponse) {
    const answer = answerControl(method, url, raw.toString('utf8'), {
      script(body, match) {
        if (!body.script || typeof body.script !== 'object' || Array.isArray(body.script)) {
          return 'script must be an object'
        }
        const script = body.script as FalFakeScript
        if (match) keyed.set(match, scriptState(script))
        else shared = scriptState(script)
        return null
      },
      reset,
      release(match) {
        let released = 0
        for (const job of jobs.values()) {
          if (job.match !== match || job.state !== 'pending') continue
          job.completeAfterMs = 0
          job.statusPolls = Math.min(job.statusPolls, job.polls)
          wakeStreams(job)
          released += 1
        }
        return released
      },
      requests,
    })
    send(res, answer.status, answer.body)
  }

  function reset(match?: string): void {
    if (match) {
      keyed.delete(match)
      return
    }
    keyed.clear()
    shared = scriptState({})
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const url = new URL(req.url ?? '/', origin)
    const method = req.method ?? 'GET'
    if (options.control && url.pathname.startsWith('/__control/')) return handleControl(method, url, raw, res)
    const headers = headerRecord(req)
    const isJson = (headers['content-type'] ?? '').includes('application/json')
    let body: unknown = null
    if (isJson && raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'))
      } catch {
        body = null
      }
    }
    const logged: FalFakeRequest = {
      method,
      path: url.pathname + url.search,
      headers,
      body,
      bytes: raw.length,
    }
    requests.push(logged)
    const segments = url.pathname.split('/').filter(Boolean)

    // Storage: initiate (authenticated), then a plain PUT of the bytes, then files served.
    if (method === 'POST' && url.pathname === '/storage/upload/initiate') {
      if (!hasKey(logged)) return send(res, 401, errorBody(401).body)
      if (scriptedError('upload', res)) return
      const id = `f-${randomUUID()}`
      const contentType =
        body &&
        typeof body === 'object' &&
        typeof (body as { content_type?: unknown }).content_type === 'string'
          ? (body as { content_type: string }).content_type
          : 'application/octet-stream'
      pendingUploads.set(id, contentType)
      return send(res, 200, { upload_url: `${origin}/upload/${id}`, file_url: `${origin}/files/${id}` })
    }
    if (method === 'PUT' && segments[0] === 'upload' && segments[1]) {
      const declared = pendingUploads.get(segments[1])
      if (!declared) return send(res, 404, { detail: 'Unknown upload' })
      files.set(segments[1], { bytes: raw, contentType: headers['content-type'] ?? declared })
      res.writeHead(200).end()
      return
    }
    if (method === 'GET' && segments[0] === 'files' && segments[1]) {
      const match = outputMatches.get(segments[1])
      if (match) logged.match = match
      if (scriptedError('download', res, stateFor(match))) return
      const file = files.get(segments[1])
      if (!file) return send(res, 404, { detail: 'File not found' })
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.bytes.length })
      res.end(file.bytes)
      return
    }

    // Queue: …/requests/{id}[/status|/cancel] under owner/alias (the sub-path is dropped).
    if (segments.length >= 4 && segments[2] === 'requests' && !reservedFirstSegments.has(segments[0] ?? '')) {
      if (!hasKey(logged)) return send(res, 401, errorBody(401).body)
      const app = `${segments[0]}/${segments[1]}`
      const job = jobs.get(segments[3] ?? '')
      const action = segments[4]
      if (job?.match) logged.match = job.match
      const state = stateFor(job?.match)
      if (method === 'GET' && action === 'status' && segments[5] === 'stream') {
        if (scriptedError('stream', res, state)) return
        if (!job || job.app !== app) return send(res, 404, { detail: 'Request not found' })
        return streamStatus(job, req, res)
      }
      if (method === 'GET' && action === 'status') {
        if (scriptedError('status', res, state)) return
        if (!job || job.app !== app) return send(res, 404, { detail: 'Request not found' })
        const status = nextStatus(job)
        return send(res, status.status === 'COMPLETED' ? 200 : 202, status)
      }
      if (method === 'GET' && action === undefined) {
        if (scriptedError('result', res, state)) return
        if (!job || job.app !== app) return send(res, 404, { detail: 'Request not found' })
        if (job.state === 'canceled') return send(res, 400, { detail: 'Request was cancelled' })
        if (job.state !== 'completed') return send(res, 400, { detail: 'Request is still in progress' })
        return send(res, 200, await outputOf(job), { 'x-fal-request-id': job.id })
      }
      if (method === 'PUT' && action === 'cancel') {
        if (scriptedError('cancel', res, state)) return
        if (!job || job.app !== app) return send(res, 404, { status: 'NOT_FOUND' })
        if (job.state === 'completed') return send(res, 400, { status: 'ALREADY_COMPLETED' })
        job.state = 'canceled'
        wakeStreams(job)
        return send(res, 202, { status: 'CANCELLATION_REQUESTED' })
      }
      return send(res, 405, { detail: 'Method not allowed' })
    }

    // Queue submit: POST /{owner}/{alias}[/{path}] with the JSON input.
    if (method === 'POST' && segments.length >= 2 && !reservedFirstSegments.has(segments[0] ?? '')) {
      if (!hasKey(logged)) return send(res, 401, errorBody(401).body)
      const match = matchOf(body)
      if (match) logged.match = match
      const state = stateFor(match)
      if (scriptedError('submit', res, state)) return
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        return send(res, 422, {
          detail: [{ loc: ['body'], msg: 'Input should be an object', type: 'dict_type' }],
        })
      }
      const input = body as Record<string, unknown>
      const endpoint = segments.join('/')
      const kind = endpoint.includes('video') || 'image_url' in input ? 'video' : 'image'
      const badField = validationError(kind, input)
      if (badField) {
        return send(res, 422, {
          detail: [{ loc: ['body', badField], msg: 'Field required', type: 'missing' }],
        })
      }
      const job: FalFakeJob = {
        id: `req-${++sequence}-${randomUUID().slice(0, 8)}`,
        endpoint,
        app: `${segments[0]}/${segments[1]}`,
        input,
        kind,
        submittedAt: Date.now(),
        polls: 0,
        state: 'pending',
        match,
        statusPolls: state.script.statusPolls ?? 2,
        silentStream: state.script.silentStream ?? false,
        queueStepMs: state.script.queueStepMs ?? 5,
        completeAfterMs: state.script.completeAfterMs ?? 0,
        noImageUrl: state.script.noImageUrl ?? false,
        noVideoUrl: state.script.noVideoUrl ?? false,
        description: state.script.description ?? 'Here is the product on the requested background.',
      }
      jobs.set(job.id, job)
      return send(
        res,
        200,
        { status: 'IN_QUEUE', ...jobUrls(job), queue_position: Math.ceil(job.statusPolls / 2) },
        { 'x-fal-request-id': job.id },
      )
    }

    send(res, 404, { detail: `No route for ${method} ${url.pathname}` })
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { detail: `Fake fal crashed: ${String(error)}` })
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  origin = `http://${host}:${port}`

  return {
    url: origin,
    requests,
    jobs,
    files,
    script(script) {
      shared = scriptState(script)
    },
    scriptFor(match, script) {
      keyed.set(match, scriptState(script))
    },
    reset,
    clearRequests() {
      requests.length = 0
    },
    close: () => closeServer(server),
  }
}

// By hand: `npx tsx tests/fakes/fal-server.ts [--port 4500] [--host 127.0.0.1] [--delay-ms 3000]`
// (the end-to-end tests start it this way too, and script it through /__control/).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2)
  const fake = await startFalFake({
    port: Number(argValue(args, '--port') ?? 4500),
    host: argValue(args, '--host') ?? '127.0.0.1',
    control: true,
    // A few seconds of queue and progress, so the app's job states can be watched.
    defaults: { statusPolls: 2, completeAfterMs: Number(argValue(args, '--delay-ms') ?? 3000) },
  })
  console.log(`fal fake listening on ${fake.url}`)
  console.log(
    `run the app with: IMAGE_PROVIDER=fal VIDEO_PROVIDER=fal FAL_KEY=fake-key FAL_BASE_URL=${fake.url}`,
  )
  exitOnStop(fake.close)
}
