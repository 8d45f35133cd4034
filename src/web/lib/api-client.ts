import { type ErrorBody, type ErrorCode, type ErrorDetails, isErrorCode } from '../../shared/errors.ts'

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

/** Calls the Vitrin API with JSON in and out; throws ApiError for anything but a 2xx answer. */
export async function apiRequest<T>(
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers:
        init.body === undefined
          ? { accept: 'application/json' }
          : { 'content-type': 'application/json', accept: 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
    })
  } catch {
    throw new ApiError('NETWORK', 0, 'network error')
  }
  const payload: unknown = await response.json().catch(() => undefined)
  if (response.ok) return payload as T
  const error = (payload as Partial<ErrorBody> | undefined)?.error
  const code = isErrorCode(error?.code)
    ? error.code
    : response.status >= 500
      ? 'INTERNAL'
      : 'VALIDATION_FAILED'
  throw new ApiError(code, response.status, error?.message ?? response.statusText, error?.details)
}
