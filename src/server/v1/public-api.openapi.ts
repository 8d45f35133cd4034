import type { RouteConfig } from '@hono/zod-openapi'
import { idempotencyHeaders, idempotencyKeyHours, idempotencyKeyMaxLength } from '#shared/api-limits.ts'
import { publicErrorSchema } from '#shared/contracts/public-api.ts'
import { type ErrorCode, errorStatus } from '#shared/errors.ts'

type ResponseConfig = Exclude<RouteConfig['responses'][string], { $ref: string }>

// The parts of the OpenAPI document that every /v1 operation shares: the error answers (each
// with the codes it can carry), the rate-limit headers and the Idempotency-Key parameter.
// Parts of the API that add a behaviour to every request (idempotency, per-key rate limits, a
// new error code) document it here, so the document and the contract test stay in step.

/**
 * Errors any /v1 request can meet: the key, the plan, the per-key rate limit, a fault of ours,
 * and VALIDATION_FAILED for a query parameter the operation does not know (every operation's
 * query is strict, as its body is).
 */
export const everyRequestErrors: ErrorCode[] = [
  'VALIDATION_FAILED',
  'API_KEY_REQUIRED',
  'API_KEY_INVALID',
  'API_PLAN_REQUIRED',
  'RATE_LIMITED',
  'INTERNAL',
]

/**
 * Errors of any POST with a JSON body: a field unknown or at fault, a body that is not JSON, or
 * too large, or sent without `Content-Type: application/json`.
 */
export const jsonBodyErrors: ErrorCode[] = [
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
]

/**
 * Errors of any POST, from its Idempotency-Key (features/idempotency, decision 30): a malformed
 * key (VALIDATION_FAILED, the header named in `details.fields`), a key used for another request,
 * a key whose first request still runs.
 */
export const idempotencyErrors: ErrorCode[] = [
  'VALIDATION_FAILED',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
]

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const } })

/** On every answer (part of the per-key rate limit). */
export const rateLimitHeaders = {
  'RateLimit-Limit': integerHeader('Requests this key may make in the current window.'),
  'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window resets.'),
}

const retryAfterHeader = {
  'Retry-After': integerHeader('Seconds to wait before trying again.'),
}

/** The Idempotency-Key header, described as idempotency.routes.ts checks it (idempotencyKeyPattern). */
export const idempotencyKeyParameter = {
  name: idempotencyHeaders.key,
  in: 'header' as const,
  required: false,
  description:
    `Any unique string (a UUID, say) per intended action: 1 to ${idempotencyKeyMaxLength} printable ASCII characters (space to \`~\`). ` +
    `Sending the same key with the same body within ${idempotencyKeyHours} hours returns the first answer again (with \`Idempotent-Replayed: true\`) and creates nothing new; ` +
    'the same key with another request is refused with 422 IDEMPOTENCY_KEY_REUSED, and while its first request still runs with 409 IDEMPOTENCY_KEY_IN_USE. ' +
    'A key outside that form is refused with 400 VALIDATION_FAILED. Use it to retry a POST safely after a timeout.',
  schema: {
    type: 'string' as const,
    minLength: 1,
    maxLength: idempotencyKeyMaxLength,
    pattern: '^[\\x20-\\x7e]+$',
  },
}

/** The error answers for `codes` (with everyRequestErrors), one per HTTP status. */
export function errorResponses(codes: readonly ErrorCode[]): Record<string, ResponseConfig> {
  const byStatus = new Map<number, ErrorCode[]>()
  for (const code of new Set([...everyRequestErrors, ...codes])) {
    const status = errorStatus[code]
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  const responses: Record<string, ResponseConfig> = {}
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Error: ${statusCodes.join(', ')}.`,
      headers: status === 429 ? { ...rateLimitHeaders, ...retryAfterHeader } : rateLimitHeaders,
      content: { 'application/json': { schema: publicErrorSchema(statusCodes) } },
    }
  }
  return responses
}
