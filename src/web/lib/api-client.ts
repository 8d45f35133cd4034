import { type ErrorBody, type ErrorCode, type ErrorDetails, isErrorCode } from '#shared/errors.ts'
import { isLocale } from '#shared/i18n/locales.ts'

/** A failed API call: `code` is an error code from shared/errors.ts, or NETWORK when no answer came. */
export class ApiError extends Error {
  readonly code: ErrorCode | 'NETWORK'
  readonly status: number
  readonly details: ErrorDetails | undefined

  constructor(code: ErrorCode | 'NETWORK', status: number, message: string, details?: ErrorDetails) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.status = status
    this.details = details
  }
}

let unauthorizedHandler: (() => Promise<void> | void) | null = null
let pendingUnauthorized: Promise<void> | null = null

/**
 * Sets what happens when any call answers 401 UNAUTHORIZED: the session ended elsewhere (a
 * password change, expiry), so the session provider asks who is signed in and the page guard
 * sends a signed-out user to /access. One handler at a time; `null` removes it. Set from the
 * provider so this module knows nothing of sessions.
 */
export function setUnauthorizedHandler(handler: (() => Promise<void> | void) | null): void {
  unauthorizedHandler = handler
}

/** Runs the handler once for a burst of 401s (a page often loads several things at once). */
function reportUnauthorized(): void {
  const handler = unauthorizedHandler
  if (!handler || pendingUnauthorized) return
  pendingUnauthorized = Promise.resolve()
    .then(handler)
    .catch(() => undefined)
    .finally(() => {
      pendingUnauthorized = null
    })
}

/**
 * The page's language, sent with every API request as X-Vitrin-Locale so that what the server
 * writes for this request (emails, an export's column names) is in the language the user reads.
 * The i18n provider keeps it on the document element.
 */
function localeHeader(): Record<string, string> {
  const lang = typeof document === 'undefined' ? '' : document.documentElement.lang
  return isLocale(lang) ? { 'x-vitrin-locale': lang } : {}
}

/** Answers already on their way: GETs started before anything asked for them (`primeGet`). */
const primed = new Map<string, { response: Promise<Response | null>; startedAt: number }>()
/** A primed answer older than this when first asked for is dropped and the path asked again. */
const primedFreshMs = 10_000

/**
 * Starts a GET before anything asks for it, so a page's first data downloads alongside its code
 * rather than after it (main.tsx primes the session and the opened page's first reads). The
 * first apiRequest of the path within 10 s takes that answer, whatever it is (a 401 included);
 * later ones, and one after a failed download, ask the server again.
 */
export function primeGet(path: string): void {
  if (primed.has(path)) return
  const response = fetch(path, {
    headers: { accept: 'application/json', ...localeHeader() },
    credentials: 'same-origin',
  }).catch(() => null)
  primed.set(path, { response, startedAt: performance.now() })
}

function takePrimed(path: string): Promise<Response | null> | null {
  const entry = primed.get(path)
  if (!entry) return null
  primed.delete(path)
  return performance.now() - entry.startedAt <= primedFreshMs ? entry.response : null
}

/** One request to the API; a network failure becomes ApiError NETWORK, an abort stays an abort. */
async function send(
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal | undefined },
): Promise<Response> {
  const isForm = init.body instanceof FormData
  try {
    return await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.body === undefined || isForm
          ? { accept: 'application/json' }
          : { 'content-type': 'application/json', accept: 'application/json' }),
        ...localeHeader(),
      },
      body:
        init.body === undefined ? undefined : isForm ? (init.body as FormData) : JSON.stringify(init.body),
      credentials: 'same-origin',
      signal: init.signal,
    })
  } catch (error) {
    // A request the caller aborted is not a network failure: let the abort through.
    if (init.signal?.aborted) throw error
    throw new ApiError('NETWORK', 0, 'network error')
  }
}

/**
 * Calls the Vitrin API and returns its JSON answer (undefined for an empty one, e.g. 204);
 * throws ApiError for anything but a 2xx answer. The body is sent as JSON, or as multipart
 * when it is FormData. `fallbackCode` names a 4xx answer that carries no error code. A 401
 * UNAUTHORIZED also starts the handler given to `setUnauthorizedHandler`.
 */
export async function apiRequest<T>(
  path: string,
  init: {
    method?: string
    body?: unknown
    signal?: AbortSignal | undefined
    fallbackCode?: ErrorCode
  } = {},
): Promise<T> {
  const isRead = init.method === undefined && init.body === undefined
  // A write (a sign-in, a plan change) may change what a primed read would answer.
  if (!isRead) primed.clear()
  const early = isRead ? takePrimed(path) : null
  const earlyResponse = early ? await early : null
  if (earlyResponse && init.signal?.aborted) throw init.signal.reason
  const response = earlyResponse ?? (await send(path, init))
  const payload: unknown = await response.json().catch(() => undefined)
  if (response.ok) return payload as T
  throw failure(payload, response.status, response.statusText, init.fallbackCode)
}

/**
 * The error for a failed answer: the body's code when it names one (else INTERNAL for a 5xx,
 * else `fallbackCode`), its message and details. An UNAUTHORIZED is also reported to the session.
 */
function failure(payload: unknown, status: number, statusText: string, fallbackCode?: ErrorCode): ApiError {
  const error = (payload as Partial<ErrorBody> | undefined)?.error
  const code = isErrorCode(error?.code)
    ? error.code
    : status >= 500
      ? 'INTERNAL'
      : (fallbackCode ?? 'VALIDATION_FAILED')
  if (code === 'UNAUTHORIZED') reportUnauthorized()
  return new ApiError(code, status, error?.message ?? statusText, error?.details)
}

/** How much of an upload has been sent: bytes so far and in all (0 while unknown). */
export type UploadProgress = { loaded: number; total: number }

/**
 * Sends a multipart form like `apiRequest`, through XMLHttpRequest because fetch cannot report
 * upload progress (a photo ZIP can be large). Answers and errors are the same as apiRequest's.
 */
export function apiUpload<T>(
  path: string,
  form: FormData,
  init: {
    onProgress?: (progress: UploadProgress) => void
    signal?: AbortSignal | undefined
    fallbackCode?: ErrorCode
  } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest()
    const abort = () => request.abort()
    if (init.signal?.aborted) {
      reject(init.signal.reason)
      return
    }
    init.signal?.addEventListener('abort', abort, { once: true })
    request.open('POST', path)
    request.setRequestHeader('accept', 'application/json')
    for (const [name, value] of Object.entries(localeHeader())) request.setRequestHeader(name, value)
    request.withCredentials = true
    request.upload.addEventListener('progress', (event) => {
      init.onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 })
    })
    request.addEventListener('load', () => {
      init.signal?.removeEventListener('abort', abort)
      let payload: unknown
      try {
        payload = request.responseText ? JSON.parse(request.responseText) : undefined
      } catch {
        payload = undefined
      }
      if (request.status >= 200 && request.status < 300) {
        resolve(payload as T)
        return
      }
      reject(failure(payload, request.status, request.statusText, init.fallbackCode))
    })
    request.addEventListener('error', () => {
      init.signal?.removeEventListener('abort', abort)
      reject(new ApiError('NETWORK', 0, 'network error'))
    })
    request.addEventListener('abort', () => {
      reject(init.signal?.reason ?? new DOMException('Aborted', 'AbortError'))
    })
    request.send(form)
  })
}
