import { createFalClient, type FalClient, type RetryOptions } from '@fal-ai/client'
import { ProviderError } from '../types.ts'

/** The hosts @fal-ai/client talks to: the queue, direct runs and the storage REST API. */
const falHosts = /^https:\/\/(queue\.fal\.run|fal\.run|rest\.fal\.ai)(?=[/?]|$)/

/**
 * Points a fal URL at another origin (FAL_BASE_URL, e.g. the local fake), keeping path and
 * query. The client only builds fal.run/fal.ai URLs (it refuses a localhost endpoint id), so
 * a custom fetch is the one place a different origin can be swapped in (stack.md §9, mode A).
 */
export function rewriteFalUrl(url: string, baseUrl: string | undefined): string {
  if (!baseUrl) return url
  return url.replace(falHosts, baseUrl.replace(/\/+$/, ''))
}

function urlOf(input: string | URL | Request): string {
  if (typeof input === 'string') return input
  if (input instanceof URL) return input.href
  return input.url
}

/**
 * Wraps fetch so every call of one provider operation (storage PUT included, which the
 * client sends without its abort signal) is aborted with the job, and goes to `baseUrl`.
 */
export function createFalFetch(options: {
  fetch: typeof fetch
  baseUrl: string | undefined
  signal: AbortSignal
}): typeof fetch {
  const { baseUrl, signal } = options
  const baseFetch = options.fetch
  return (input, init) => {
    const url = rewriteFalUrl(urlOf(input), baseUrl)
    const signals = init?.signal ? [init.signal, signal] : [signal]
    const combined = signals.length === 1 ? signal : AbortSignal.any(signals)
    if (input instanceof Request) return baseFetch(new Request(url, input), { ...init, signal: combined })
    return baseFetch(url, { ...init, signal: combined })
  }
}

export type FalClientSettings = {
  /** The server's fal key; the user's own key (bring-your-own) wins when given. */
  serverKey: string | undefined
  baseUrl: string | undefined
  fetch: typeof fetch
  /**
   * Overrides of the client's retry defaults (429/502/503/504, 3 retries, 1 s base, ×2,
   * 30 s cap). Note: in 1.10 the queue calls (submit/status/result) pin their own
   * maxRetries, baseDelay, maxDelay and status codes; only backoffMultiplier and enableJitter
   * reach them. baseDelay applies to the storage initiate call and cancel.
   */
  retry: Partial<RetryOptions> | undefined
}

/**
 * A fal client for one call. Built per call because the credentials differ per user
 * (bring-your-own key) and the fetch carries that call's abort signal.
 */
export function openFalClient(
  settings: FalClientSettings,
  call: { userKey: string | undefined; signal: AbortSignal },
): FalClient {
  const credentials = call.userKey?.trim() || settings.serverKey
  if (!credentials) {
    // No key anywhere: fail before any network traffic, the same way fal would answer 401.
    throw new ProviderError('fal', 'unauthorized', 'No fal key is configured')
  }
  return createFalClient({
    credentials,
    fetch: createFalFetch({ fetch: settings.fetch, baseUrl: settings.baseUrl, signal: call.signal }),
    ...(settings.retry ? { retry: settings.retry } : {}),
  })
}
