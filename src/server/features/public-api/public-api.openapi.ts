import type { RouteConfig } from '@hono/zod-openapi'
import { publicErrorSchema } from '#shared/contracts/public-api.ts'
import { type ErrorCode, errorStatus } from '#shared/errors.ts'

type ResponseConfig = Exclude<RouteConfig['responses'][string], { $ref: string }>

// The parts of the OpenAPI document that every /v1 operation shares: the error answers (each
// with the codes it can carry), the rate-limit headers and the Idempotency-Key parameter.
// Parts of the API that add a behaviour to every request (idempotency, per-key rate limits, a
// new error code) document it here, so the document and the contract test stay in step.

/** Errors any /v1 request can meet: the key, the plan, the per-key rate limit, a fault of ours. */
export const everyRequestErrors: ErrorCode[] = [
  'API_KEY_REQUIRED',
  'API_KEY_INVALID',
  'API_PLAN_REQUIRED',
  'RATE_LIMITED',
  'INTERNAL',
]

/** Errors of any POST with a JSON body. */
export const jsonBodyErrors: ErrorCode[] = ['VALIDATION_FAILED', 'INVALID_JSON', 'PAYLOAD_TOO_LARGE']

/** Errors of any POST, from its Idempotency-Key (features/idempotency, decision 30). */
export const idempotencyErrors: ErrorCode[] = ['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE']

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

export const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    'Any unique string (a UUID, say) per intended action. Sending the same key with the same body within 24 hours ' +
    'returns the first answer again and creates nothing new; the same key with a different body is refused with 422. ' +
    'Use it to retry a POST safely after a timeout.',
  schema: { type: 'string' as const, maxLength: 255 },
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
