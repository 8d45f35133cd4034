import type { TKey } from '#shared/i18n/messages.ts'
import { ApiError } from './api-client.ts'

/** The message key for a failed call: its error code's own text, or the generic one. */
export function errorMessageKey(error: unknown): TKey {
  return error instanceof ApiError ? `errors.${error.code}` : 'errors.INTERNAL'
}
