import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { AppError, type ErrorBody } from '#shared/errors.ts'
import { toFieldErrors } from '#shared/validation.ts'
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
  // An error is about this request only; it must not be stored and shown again.
  c.header('Cache-Control', 'no-store')
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
    // The route library's media-type check (a JSON route sent a body of another or no type).
    if (error.status === 415) {
      return new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the body as JSON, with Content-Type: application/json',
      )
    }
    if (error.status === 404) return new AppError('NOT_FOUND', 'Not found')
  }
  if (hasDatabaseCode(error, refusedTextCodes)) {
    // Text the database cannot store (e.g. a NUL byte) or read (a malformed uuid) that got past
    // validation: the request is at fault, not the server.
    return new AppError('VALIDATION_FAILED', 'Invalid text', { fields: { _root: 'invalid' } })
  }
  return new AppError('INTERNAL', 'Internal error', undefined, { cause: error })
}

/**
 * SQLSTATEs that mean the request's text was refused: 22021 character_not_in_repertoire,
 * 22P05 untranslatable_character, 22P02 invalid_text_representation.
 */
const refusedTextCodes = new Set(['22021', '22P05', '22P02'])

/** Whether the error or one of its causes (Drizzle wraps database errors) carries one of `codes`. */
function hasDatabaseCode(error: unknown, codes: ReadonlySet<string>): boolean {
  let node: unknown = error
  for (let depth = 0; depth < 5 && node && typeof node === 'object'; depth++) {
    const code = (node as { code?: unknown }).code
    if (typeof code === 'string' && codes.has(code)) return true
    node = (node as { cause?: unknown }).cause
  }
  return false
}

/** A 400 naming every field at fault, e.g. "Invalid field(s): email, message". */
export function validationError(error: z.ZodError, input: unknown): AppError {
  const fields = toFieldErrors(error, input)
  return new AppError('VALIDATION_FAILED', `Invalid field(s): ${Object.keys(fields).join(', ')}`, { fields })
}
