import { lookup as dnsLookup } from 'node:dns/promises'
import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import type { Logger } from '#server/logger.ts'
import { AppError, type ErrorCode } from '#shared/errors.ts'
import {
  allowedPorts,
  bareHostname,
  effectivePort,
  isAllowListed,
  nonPublicReason,
} from './public-address.ts'

/**
 * The one way the server fetches a URL a user gave (remote product images, later webhook
 * targets): http(s) only, every address the host resolves to must be public, the connection goes
 * to an address that was checked, redirects are followed by hand and checked the same way, and
 * the whole exchange has a deadline and a size cap (decision 22).
 */

export type ResolvedAddress = { address: string; family: 4 | 6 }
/** Every address a host name resolves to (dns.lookup with all: true, as the system resolves it). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export type PublicRequestDeps = {
  /**
   * Host names (or host:port) that may resolve to private addresses and use any port: config's
   * fetchAllowPrivateHosts (FETCH_ALLOW_PRIVATE_HOSTS), empty outside tests and refused in production;
   * for webhooks also the loopback hosts with WEBHOOKS_ALLOW_LOOPBACK (config's webhookAllowPrivateHosts,
   * development only).
   */
  allowPrivateHosts: readonly string[]
  /** DNS; the system's by default. Tests give their own to play a name's answers. */
  resolve?: Resolver
  /** Where the cause of a refusal or failure is written; it never reaches the error message. */
  log?: Logger
}

export type PublicRequest = {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  url: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** Deadline for the whole exchange: every lookup, hop and byte of the body. */
  timeoutMs?: number
  /** Largest response body accepted; reading stops at the first byte past it. */
  maxBytes?: number
  /**
   * What a body past maxBytes means: `refuse` (default, URL_TOO_LARGE) or `truncate`, where the
   * first maxBytes are kept and the rest is never read (a webhook receiver's answer matters only
   * by its status).
   */
  overCap?: 'refuse' | 'truncate'
  /** Redirects followed for GET and HEAD (other methods never follow one). */
  maxRedirects?: number
  /** The caller's own cancel; its reason is thrown as it is. */
  signal?: AbortSignal
}

export type PublicResponse = {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
  /** The URL that answered, after redirects. */
  url: string
}

export const defaultTimeoutMs = 15_000
export const defaultMaxBytes = 10 * 1024 * 1024
export const defaultMaxRedirects = 5

/** Fixed text per code: the cause (addresses, resolver and socket errors) goes to the log only. */
const messages = {
  URL_INVALID: 'Only http:// and https:// links on the standard ports, without user names, can be fetched',
  URL_NOT_PUBLIC: 'The link does not lead to a public internet address',
  URL_UNREACHABLE: 'The link could not be reached',
  URL_TIMEOUT: 'The link took too long to answer',
  URL_TOO_LARGE: 'The linked file is too large',
  URL_BAD_STATUS: 'The link did not answer with the file',
} as const satisfies Partial<Record<ErrorCode, string>>

type UrlErrorCode = keyof typeof messages

/** Carries the log-only cause until request() logs it and turns it into the AppError thrown. */
class Refusal extends Error {
  readonly code: UrlErrorCode
  readonly reason: string
  constructor(code: UrlErrorCode, reason: string, cause?: unknown) {
    super(reason, { cause })
    this.code = code
    this.reason = reason
  }
}

export async function systemResolver(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dnsLookup(hostname, { all: true })
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))
}

const redirectStatuses = new Set([301, 302, 303, 307, 308])
/** Headers that belong to one origin and are not carried to another on a redirect. */
const originBoundHeaders = ['authorization', 'cookie', 'proxy-authorization']

type Hop = { url: URL; addresses: ResolvedAddress[] }

/**
 * Checks one URL and resolves its host once: the addresses returned are the only ones its
 * connection may use.
 */
async function checkHop(raw: string, deps: PublicRequestDeps, signal: AbortSignal): Promise<Hop> {
  let url: URL
  try {
    // WHATWG parsing turns every IPv4 spelling (2130706433, 0x7f.1, 0177.0.0.1, 127.1) into
    // dotted decimal and IPv6 into its short form, so the literal check below sees them all.
    url = new URL(raw)
  } catch (error) {
    throw new Refusal('URL_INVALID', 'not a URL', error)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Refusal('URL_INVALID', `scheme ${url.protocol}`)
  if (url.username || url.password) throw new Refusal('URL_INVALID', 'user info in the URL')
  const isAllowed = isAllowListed(url, deps.allowPrivateHosts)
  const host = bareHostname(url)
  const literalFamily = isIP(host)
  if (literalFamily !== 0) {
    const reason = isAllowed ? null : nonPublicReason(host)
    if (reason) throw new Refusal('URL_NOT_PUBLIC', `address ${host} is ${reason}`)
  }
  if (!isAllowed && !allowedPorts.has(effectivePort(url)))
    throw new Refusal('URL_INVALID', `port ${effectivePort(url)}`)
  if (literalFamily !== 0) return { url, addresses: [{ address: host, family: literalFamily === 6 ? 6 : 4 }] }

  let addresses: ResolvedAddress[]
  try {
    addresses = await untilAborted((deps.resolve ?? systemResolver)(host), signal)
  } catch (error) {
    if (signal.aborted) throw error
    throw new Refusal('URL_UNREACHABLE', `resolving ${host} failed`, error)
  }
  if (addresses.length === 0) throw new Refusal('URL_UNREACHABLE', `${host} has no address`)
  if (!isAllowed) {
    // One private answer is enough to refuse: which one a connection would use is not ours to pick.
    for (const { address } of addresses) {
      const reason = nonPublicReason(address)
      if (reason) throw new Refusal('URL_NOT_PUBLIC', `${host} resolves to ${address} (${reason})`)
    }
  }
  return { url, addresses }
}

/**
 * A lookup that answers only with the hop's checked addresses, so the socket cannot ask DNS
 * again and be sent elsewhere (DNS rebinding). With `all` (Node's default happy-eyeballs
 * connect) it offers every checked address; TLS still verifies the certificate for the host name.
 */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : undefined
    const offered = family ? addresses.filter((a) => a.family === family) : addresses
    const first = offered[0]
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(`no checked IPv${family} address`)
      error.code = 'ENOTFOUND'
      callback(error, '', 0)
      return
    }
    if (options.all) callback(null, offered)
    else callback(null, first.address, first.family)
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/** Sends one request to a checked hop and waits for the response head. */
function send(
  hop: Hop,
  method: string,
  headers: OutgoingHttpHeaders,
  body: string | Buffer | undefined,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const transport = hop.url.protocol === 'https:' ? https : http
    const request = transport.request({
      protocol: hop.url.protocol,
      hostname: bareHostname(hop.url),
      port: effectivePort(hop.url),
      path: `${hop.url.pathname}${hop.url.search}`,
      method,
      headers,
      // A fresh connection each time: a pooled socket would be keyed by name, not by checked address.
      agent: false,
      lookup: pinnedLookup(hop.addresses),
      signal,
    })
    request.once('response', resolve)
    // `on`, not `once`: an error after the head (the body failing) must not go unhandled; the
    // body's reader sees it on the response.
    request.on('error', reject)
    request.end(body)
  })
}

/** Reads a body, giving up at the first byte past the cap (never buffering past it). */
async function readCapped(
  response: IncomingMessage,
  maxBytes: number,
  signal: AbortSignal,
  isTruncated = false,
): Promise<Buffer> {
  const declared = Number(response.headers['content-length'])
  if (!isTruncated && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy()
    throw new Refusal('URL_TOO_LARGE', `declared ${declared} bytes, cap ${maxBytes}`)
  }
  const onAbort = () =>
    response.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'))
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    const chunks: Buffer[] = []
    let total = 0
    for await (const chunk of response as AsyncIterable<Buffer>) {
      total += chunk.length
      if (total > maxBytes && isTruncated) {
        chunks.push(chunk.subarray(0, chunk.length - (total - maxBytes)))
        response.destroy()
        return Buffer.concat(chunks, maxBytes)
      }
      if (total > maxBytes) {
        response.destroy()
        throw new Refusal('URL_TOO_LARGE', `more than ${maxBytes} bytes`)
      }
      chunks.push(chunk)
    }
    return Buffer.concat(chunks, total)
  } finally {
    signal.removeEventListener('abort', onAbort)
  }
}

function originOf(raw: string): string {
  try {
    return new URL(raw).origin
  } catch {
    return 'invalid'
  }
}

/**
 * Fetches a user-given URL through the guard. Answers with any final status (the caller decides
 * what a 404 or a POST's 3xx means); throws AppError with a URL_* code when the URL is refused or
 * the exchange fails, after logging the cause.
 */
export async function publicRequest(
  deps: PublicRequestDeps,
  request: PublicRequest,
): Promise<PublicResponse> {
  const method = request.method ?? 'GET'
  const maxBytes = request.maxBytes ?? defaultMaxBytes
  // Only GET and HEAD follow redirects: a 307/308 would send a POST's (signed) body to a target
  // the caller never chose, and a 303 would turn it into a GET.
  const maxRedirects =
    method === 'GET' || method === 'HEAD' ? (request.maxRedirects ?? defaultMaxRedirects) : 0
  const deadline = new AbortController()
  const timer = setTimeout(
    () =>
      deadline.abort(
        new Refusal('URL_TIMEOUT', `no answer within ${request.timeoutMs ?? defaultTimeoutMs} ms`),
      ),
    request.timeoutMs ?? defaultTimeoutMs,
  )
  const signal = request.signal ? AbortSignal.any([deadline.signal, request.signal]) : deadline.signal
  const headers: OutgoingHttpHeaders = { 'accept-encoding': 'identity' }
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    // The Host header is the URL's; a caller's would name a host we did not check.
    if (name.toLowerCase() !== 'host') headers[name.toLowerCase()] = value
  }
  let current = request.url
  let hops = 0
  try {
    for (;;) {
      const hop = await checkHop(current, deps, signal)
      const response = await send(hop, method, headers, request.body, signal)
      const location = response.headers.location
      if (redirectStatuses.has(response.statusCode ?? 0) && location && hops < maxRedirects) {
        response.destroy()
        hops++
        let next: URL
        try {
          next = new URL(location, hop.url)
        } catch (error) {
          throw new Refusal('URL_BAD_STATUS', 'a redirect to something that is not a URL', error)
        }
        if (next.origin !== hop.url.origin) for (const name of originBoundHeaders) delete headers[name]
        current = next.href
        continue
      }
      if (redirectStatuses.has(response.statusCode ?? 0) && location && maxRedirects > 0) {
        response.destroy()
        throw new Refusal('URL_BAD_STATUS', `more than ${maxRedirects} redirects`)
      }
      const body =
        method === 'HEAD'
          ? Buffer.alloc(0)
          : await readCapped(response, maxBytes, signal, request.overCap === 'truncate')
      return { status: response.statusCode ?? 0, headers: response.headers, body, url: hop.url.href }
    }
  } catch (error) {
    const refusal =
      deadline.signal.aborted && deadline.signal.reason instanceof Refusal
        ? deadline.signal.reason
        : error instanceof Refusal
          ? error
          : request.signal?.aborted
            ? null
            : new Refusal('URL_UNREACHABLE', 'connection failed', error)
    if (!refusal) throw request.signal?.reason ?? error
    deps.log?.warn(
      { err: refusal.cause ?? refusal, code: refusal.code, origin: originOf(current), redirects: hops },
      `outbound request refused: ${refusal.reason}`,
    )
    throw new AppError(refusal.code, messages[refusal.code], undefined, { cause: refusal })
  } finally {
    clearTimeout(timer)
  }
}
