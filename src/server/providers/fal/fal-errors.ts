import { ApiError } from '@fal-ai/client'
import type { Logger } from '#server/logger.ts'
import { ProviderError, type ProviderFailure } from '../types.ts'

/**
 * Generic English messages per failure. Provider text never goes into a ProviderError's
 * message (it may echo input or internals); it is logged and kept as the `cause`.
 */
const failureMessages: Record<ProviderFailure, string> = {
  rejected: 'The fal request was rejected',
  unavailable: 'The fal service is unavailable',
  rate_limited: 'The fal service is rate limiting requests',
  unauthorized: 'The fal key was not accepted',
  bad_output: 'The fal result could not be used',
  facts_broken: 'The fal result broke the seller details',
  timeout: 'The fal request timed out',
  canceled: 'The fal request was canceled',
}

/** Creates a ProviderError with the generic message of its failure. */
export function falError(failure: ProviderFailure, cause?: unknown): ProviderError {
  return new ProviderError('fal', failure, failureMessages[failure], cause === undefined ? {} : { cause })
}

type ApiErrorLike = { status: number; body: unknown; requestId: string; timeoutType?: string | undefined }

function asApiError(error: unknown): ApiErrorLike | null {
  if (error instanceof ApiError) return error
  // A second copy of the client (ESM and CJS builds) would break instanceof; match by shape.
  if (
    error instanceof Error &&
    (error.name === 'ApiError' || error.name === 'ValidationError') &&
    typeof (error as Partial<ApiErrorLike>).status === 'number'
  ) {
    return error as unknown as ApiErrorLike
  }
  return null
}

/** At most this many characters of a provider body go into the log. */
const logBodyMax = 2000

/** A provider body as log text, cut short: bodies can echo large inputs. */
export function truncateForLog(value: unknown): string {
  let text: string
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '')
  } catch {
    text = String(value)
  }
  return text.length > logBodyMax ? `${text.slice(0, logBodyMax)}… (${text.length} chars)` : text
}

function errorTypeOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'error_type' in body) {
    const type = (body as { error_type: unknown }).error_type
    return typeof type === 'string' ? type : undefined
  }
  return undefined
}

function failureForStatus(api: ApiErrorLike): ProviderFailure {
  const { status } = api
  if (status === 401 || status === 403) return 'unauthorized'
  if (status === 429) return 'rate_limited'
  // A 504 is a timeout only when fal says so (start timeout, or its request_timeout type);
  // other gateway errors are outages.
  if (status === 408 || api.timeoutType === 'user' || errorTypeOf(api.body) === 'request_timeout')
    return 'timeout'
  // 404 on status/result means fal no longer knows the request (wrong model or expired):
  // the work must be redone, like an outage, not a refusal of the user's input.
  if (status >= 500 || status === 404) return 'unavailable'
  return 'rejected'
}

/**
 * Maps anything a fal call threw to a ProviderError and logs the details (status, body,
 * request ids) once, here. Never logs credentials: the client keeps them in headers we do
 * not touch.
 */
export function toFalProviderError(
  error: unknown,
  context: { log: Logger; signal: AbortSignal; operation: string; model: string; requestId?: string },
): ProviderError {
  if (error instanceof ProviderError) return error
  const { log, operation, model } = context
  const requestId = context.requestId
  if (context.signal.aborted) return falError('canceled', error)
  const api = asApiError(error)
  if (api) {
    const failure = failureForStatus(api)
    log.warn(
      {
        provider: 'fal',
        operation,
        model,
        requestId,
        falRequestId: api.requestId || requestId,
        status: api.status,
        body: truncateForLog(api.body),
        failure,
      },
      'fal request failed',
    )
    return falError(failure, error)
  }
  const name = error instanceof Error ? error.name : ''
  const failure: ProviderFailure = name === 'TimeoutError' ? 'timeout' : 'unavailable'
  log.warn(
    {
      provider: 'fal',
      operation,
      model,
      requestId,
      error: error instanceof Error ? `${error.name}: ${error.message}` : truncateForLog(error),
      failure,
    },
    'fal request failed',
  )
  return falError(failure, error)
}
