// What the Trendyol and Hepsiburada fakes share: JSON answers, Basic auth parsing, a clock tests
// can move, per-account request windows, and fetching a listing's image URLs the way a
// marketplace does (over the network, then checking format and pixel size).

import type { IncomingMessage, ServerResponse } from 'node:http'
import sharp from 'sharp'

export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json;charset=UTF-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  })
  res.end(text)
}

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

export function headerRecord(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

/** The user and password of an `Authorization: Basic …` header, or null. */
export function basicCredentials(header: string | undefined): { user: string; password: string } | null {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '')
  if (!match?.[1]) return null
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

/**
 * The fake's time. Starts at the real clock (or `now`) and moves on with it; `advance(ms)` jumps
 * ahead, so a test can let approval time pass without waiting for it.
 */
export class FakeClock {
  private offset = 0
  constructor(private readonly base: () => number = Date.now) {}
  now(): number {
    return this.base() + this.offset
  }
  advance(ms: number): void {
    this.offset += ms
  }
}

/**
 * Requests one account may make in a sliding window. Keeps each accepted request's time, so a
 * test can also read the most requests that fell in any one window (the limit was respected).
 */
export class RequestWindow {
  private readonly accepted = new Map<string, number[]>()
  private readonly refusedCount = new Map<string, number>()
  constructor(
    public limit: number,
    public readonly windowMs: number,
  ) {}

  /** Counts the request if it fits, else counts a refusal; true when it fits. */
  take(key: string, now: number): boolean {
    const times = this.accepted.get(key) ?? []
    const inWindow = times.filter((t) => t > now - this.windowMs).length
    if (inWindow >= this.limit) {
      this.refusedCount.set(key, (this.refusedCount.get(key) ?? 0) + 1)
      return false
    }
    times.push(now)
    this.accepted.set(key, times)
    return true
  }

  /** When the oldest request in the window leaves it (ms from now). */
  msUntilFree(key: string, now: number): number {
    const times = (this.accepted.get(key) ?? []).filter((t) => t > now - this.windowMs)
    const oldest = times[0]
    return oldest === undefined ? 0 : Math.max(0, oldest + this.windowMs - now)
  }

  /** Refusals under every key. */
  refusedTotal(): number {
    let total = 0
    for (const count of this.refusedCount.values()) total += count
    return total
  }

  stats(key: string, now: number) {
    const times = this.accepted.get(key) ?? []
    let maxInAnyWindow = 0
    let start = 0
    for (let end = 0; end < times.length; end++) {
      while ((times[end] ?? 0) - (times[start] ?? 0) >= this.windowMs) start++
      maxInAnyWindow = Math.max(maxInAnyWindow, end - start + 1)
    }
    return {
      accepted: times.length,
      refused: this.refusedCount.get(key) ?? 0,
      inCurrentWindow: times.filter((t) => t > now - this.windowMs).length,
      maxInAnyWindow,
      limit: this.limit,
      windowMs: this.windowMs,
    }
  }

  reset(): void {
    this.accepted.clear()
    this.refusedCount.clear()
  }
}

export type ImageFormat = 'jpeg' | 'png' | 'webp'

/** The format from the file's first bytes (what was served, whatever the URL or header says). */
export function sniffImage(bytes: Buffer): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png'
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  )
    return 'webp'
  return null
}

/** Why an image URL was not usable, or its facts when it was. */
export type ImageCheck =
  | { ok: true; url: string; format: ImageFormat; width: number; height: number; bytes: number }
  | {
      ok: false
      url: string
      problem: 'notHttps' | 'unreachable' | 'httpStatus' | 'format' | 'size'
      status?: number
      width?: number
      height?: number
      detail?: string
    }

/** At most `size` tasks at once; the rest wait their turn (image downloads of a 1,000-row batch). */
export class Limiter {
  private active = 0
  private readonly waiting: (() => void)[] = []
  constructor(private readonly size: number) {}
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve))
    this.active++
    try {
      return await task()
    } finally {
      this.active--
      this.waiting.shift()?.()
    }
  }
}

export type ImageRules = {
  /** Plain http URLs are refused unless this is set (tests serve images from a local http server). */
  allowHttp: boolean
  formats: readonly ImageFormat[]
  /** Exact pixel size required, or null for no size rule. */
  size: { width: number; height: number } | null
  timeoutMs: number
  /** Downloads at once, shared by every batch of one fake. */
  limiter: Limiter
}

/**
 * Downloads one image as the marketplace would and checks it against `rules`. Results are cached
 * per URL in `cache` for the life of one batch, so a URL used by many rows is fetched once.
 */
export function checkImage(url: string, rules: ImageRules, cache: Map<string, Promise<ImageCheck>>) {
  const cached = cache.get(url)
  if (cached) return cached
  const result = rules.limiter.run(async (): Promise<ImageCheck> => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return { ok: false, url, problem: 'unreachable', detail: 'not a URL' }
    }
    if (parsed.protocol !== 'https:' && !(rules.allowHttp && parsed.protocol === 'http:')) {
      return { ok: false, url, problem: 'notHttps' }
    }
    let response: Response
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(rules.timeoutMs), redirect: 'follow' })
    } catch (error) {
      return { ok: false, url, problem: 'unreachable', detail: String(error) }
    }
    if (!response.ok) {
      await response.body?.cancel()
      return { ok: false, url, problem: 'httpStatus', status: response.status }
    }
    const bytes = Buffer.from(await response.arrayBuffer())
    const format = sniffImage(bytes)
    if (!format || !rules.formats.includes(format)) return { ok: false, url, problem: 'format' }
    let width = 0
    let height = 0
    try {
      const meta = await sharp(bytes).metadata()
      width = meta.width ?? 0
      height = meta.height ?? 0
    } catch {
      return { ok: false, url, problem: 'format', detail: 'unreadable image' }
    }
    if (rules.size && (width !== rules.size.width || height !== rules.size.height)) {
      return { ok: false, url, problem: 'size', width, height }
    }
    return { ok: true, url, format, width, height, bytes: bytes.length }
  })
  cache.set(url, result)
  return result
}

/** Why a video URL was not usable, or its size when it was. */
export type VideoCheck =
  | { ok: true; url: string; bytes: number }
  | { ok: false; url: string; problem: 'notHttps' | 'unreachable' | 'httpStatus' | 'format'; status?: number }

/**
 * Whether the file is an MP4 or QuickTime movie: an ISO base media file opens with a box whose
 * type, at bytes 4–8, is `ftyp` (QuickTime files may open with `moov`, `mdat`, `wide` or `free`).
 */
export function isMovie(bytes: Buffer): boolean {
  if (bytes.length < 12) return false
  return ['ftyp', 'moov', 'mdat', 'wide', 'free'].includes(bytes.toString('latin1', 4, 8))
}

/**
 * Downloads a video as a marketplace would: https (unless allowed), answered 2xx, and an MP4 or
 * MOV file by its first bytes. The marketplaces publish no other rule a fake could check here
 * (Hepsiburada's Video1 limits are NOT FOUND), so none is invented.
 */
export function checkVideo(
  url: string,
  rules: Pick<ImageRules, 'allowHttp' | 'timeoutMs' | 'limiter'>,
): Promise<VideoCheck> {
  return rules.limiter.run(async (): Promise<VideoCheck> => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return { ok: false, url, problem: 'unreachable' }
    }
    if (parsed.protocol !== 'https:' && !(rules.allowHttp && parsed.protocol === 'http:')) {
      return { ok: false, url, problem: 'notHttps' }
    }
    let response: Response
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(rules.timeoutMs), redirect: 'follow' })
    } catch {
      return { ok: false, url, problem: 'unreachable' }
    }
    if (!response.ok) {
      await response.body?.cancel()
      return { ok: false, url, problem: 'httpStatus', status: response.status }
    }
    const bytes = Buffer.from(await response.arrayBuffer())
    return isMovie(bytes) ? { ok: true, url, bytes: bytes.length } : { ok: false, url, problem: 'format' }
  })
}

/** A scripted answer for the next requests: 'ok' works normally, a number answers that status. */
export type FakeStep = 'ok' | number

/** Takes the next step of a list (consuming it), or the single step that answers every request. */
export function nextStep(plan: FakeStep[] | FakeStep | undefined): FakeStep {
  if (plan === undefined) return 'ok'
  if (Array.isArray(plan)) return plan.shift() ?? 'ok'
  return plan
}
