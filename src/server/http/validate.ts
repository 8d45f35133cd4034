import { zValidator } from '@hono/zod-validator'
import type { ValidationTargets } from 'hono'
import type { z } from 'zod'
import { AppError } from '#shared/errors.ts'
import { validationError } from './errors.ts'

/**
 * Validates a request part with a shared schema; a failure becomes our 400 with the fields named
 * (instead of the validator's own shape), and unreadable JSON becomes INVALID_JSON.
 */
export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw validationError(result.error as unknown as z.ZodError, result.data)
  })
}

/** Thrown by handlers that read a body which is not JSON at all. */
export const invalidJson = () => new AppError('INVALID_JSON', 'Request body must be JSON')
