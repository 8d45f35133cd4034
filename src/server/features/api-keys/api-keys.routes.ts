import { Hono, type MiddlewareHandler } from 'hono'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import type { RateLimiter, RateLimitRule } from '#server/rate-limit/rate-limiter.ts'
import { apiRateLimitHeaders, apiRateLimitWindowSeconds } from '#shared/api-limits.ts'
import {
  type ApiKeysResponse,
  type CreateApiKeyResponse,
  createApiKeyRequestSchema,
  type RevokeApiKeyResponse,
} from '#shared/contracts/api-keys.ts'
import { AppError } from '#shared/errors.ts'
import {
  type ApiCaller,
  type ApiKeysDeps,
  apiKeyAuthenticator,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from './api-keys.service.ts'

/** /api/api-keys: the signed-in user's keys for the public API (Settings → API). Cookie session only. */
export function apiKeysRoutes(deps: ApiKeysDeps) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/', async (c) => c.json<ApiKeysResponse>(await listApiKeys(deps, currentUser(c).id)))
    .post('/', validate('json', createApiKeyRequestSchema), async (c) =>
      c.json<CreateApiKeyResponse>(
        await createApiKey(deps, currentUser(c).id, c.req.valid('json').name),
        201,
      ),
    )
    .delete('/:id', async (c) =>
      c.json<RevokeApiKeyResponse>({ key: await revokeApiKey(deps, currentUser(c).id, c.req.param('id')) }),
    )
}

/**
 * /v1's one gate (api-keys.service.ts apiKeyAuthenticator): authenticates the request by its API
 * key alone, sets the request's user exactly as the session does on /api (so /v1 routes run the
 * same route code and services), and counts the request, before any work and in the same
 * statement as the key's lookup, in one of its key's two fixed-window buckets in
 * `rate_limit_buckets` (shared by every server): reads (GET, HEAD) or writes (the rest).
 * Cookies are never read here: a browser session cannot call /v1, which is also why /v1 needs no
 * cross-site check (nothing there rides on credentials a browser adds).
 * Every answer to a counted request, a refusal included, says where that bucket stands
 * (RateLimit-Limit, -Remaining, -Reset); past the limit the request is refused with 429
 * RATE_LIMITED and Retry-After. Refused requests are counted too, so a client that keeps trying
 * stays refused until the window ends, and no longer. A request refused for its key or plan is
 * not counted and carries no RateLimit headers.
 */
export function requireApiKey(
  deps: ApiKeysDeps & { rateLimiter: RateLimiter; readsPerMinute: number; writesPerMinute: number },
): MiddlewareHandler<AppEnv> {
  const reads: RateLimitRule = {
    name: 'api-read',
    limit: deps.readsPerMinute,
    windowSeconds: apiRateLimitWindowSeconds,
  }
  const writes: RateLimitRule = {
    name: 'api-write',
    limit: deps.writesPerMinute,
    windowSeconds: apiRateLimitWindowSeconds,
  }
  const authenticateApiKey = apiKeyAuthenticator(deps)
  return async (c, next) => {
    const rule = c.req.method === 'GET' || c.req.method === 'HEAD' ? reads : writes
    let caller: ApiCaller
    try {
      caller = await authenticateApiKey(c.req.header('authorization'), rule)
    } catch (error) {
      // RFC 9110: a 401 names the scheme that would be accepted.
      if (error instanceof AppError && error.status === 401) {
        c.header('WWW-Authenticate', 'Bearer realm="vitrin"')
      }
      throw error
    }
    c.set('user', caller.user)
    c.set('apiKeyId', caller.keyId)
    c.set('sessionId', null)
    c.set('sessionEndsAt', null)
    const { rate } = caller
    const headers: [string, string][] = [
      [apiRateLimitHeaders.limit, String(rule.limit)],
      [apiRateLimitHeaders.remaining, String(Math.max(0, rule.limit - rate.count))],
      [apiRateLimitHeaders.reset, String(rate.retryAfterSeconds)],
    ]
    // Set before the work, so an answer rendered from an error (handleError) carries them too.
    for (const [name, value] of headers) c.header(name, value)
    if (!rate.isAllowed) {
      throw new AppError('RATE_LIMITED', 'Too many requests with this API key', {
        retryAfterSeconds: rate.retryAfterSeconds,
      })
    }
    await next()
    // An answer a route built as its own Response (a file) did not take them from the context.
    for (const [name, value] of headers) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value)
    }
  }
}
