import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { AppError, type ErrorBody } from '../../shared/errors.ts'
import { toFieldErrors } from '../../shared/validation.ts'
import type { AppEnv } from './context.ts'

/** Maps anything thrown in a handler to the one error wire shape; logs only what is ours to fix (5xx). */
export function handleError(error: Error, c: Context<AppEnv>): Response {
  const appError = toAppError(error)
  const requestId = c.get('requestId')
  if (appError.status >= 500) {
    c.get('log')?.error({ err: error, code: appError.code }, 'request failed')
  }
  const body: ErrorBody = {
    error: {
      code: appError.code,
      message: appError.status >= 500 ? 'Internal error' : appError.message,
      ...(appError.details ? { details: appError.details } : {}),
      requestId,
    },
  }
  if (appError.code === 'RATE_LIMITED' && appError.details?.retryAfterSeconds !== undefined) {
    c.header('Retry-After', String(appError.details.retryAfterSeconds))
  }
  return c.json(body, appError.status as 400)
}

function toAppError(error: Error): AppError {
  if (error instanceof AppError) return error
  if (error instanceof z.ZodError) return validationError(error, undefined)
  if (error instanceof HTTPException) {
    if (error.status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'Request body too large')
    if (error.status === 400) return new AppError('INVALID_JSON', 'Malformed request body')
    if (error.status === 404) return new AppError('NOT_FOUND', 'Not found')
  }
  return new AppError('INTERNAL', error.message, undefined, { cause: error })
}

/** A 400 naming every field at fault, e.g. "Invalid field(s): email, message". */
export function validationError(error: z.ZodError, input: unknown): AppError {
  const fields = toFieldErrors(error, input)
  return new AppError('VALIDATION_FAILED', `Invalid field(s): ${Object.keys(fields).join(', ')}`, { fields })
}
