import { Hono, type MiddlewareHandler } from 'hono'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import {
  type ApiKeysResponse,
  type CreateApiKeyResponse,
  createApiKeyRequestSchema,
  type RevokeApiKeyResponse,
} from '#shared/contracts/api-keys.ts'
import { AppError } from '#shared/errors.ts'
import {
  type ApiKeysDeps,
  authenticateApiKey,
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
 * Authenticates a /v1 request by its API key alone (api-keys.service.ts authenticateApiKey) and
 * sets the request's user exactly as the session does on /api, so /v1 routes run the same route
 * code and services. Cookies are never read here: a browser session cannot call /v1, which is
 * also why /v1 needs no cross-site check (nothing there rides on credentials a browser adds).
 */
export function requireApiKey(deps: ApiKeysDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    try {
      const caller = await authenticateApiKey(deps, c.req.header('authorization'))
      c.set('user', caller.user)
      c.set('apiKeyId', caller.keyId)
    } catch (error) {
      // RFC 9110: a 401 names the scheme that would be accepted.
      if (error instanceof AppError && error.status === 401) {
        c.header('WWW-Authenticate', 'Bearer realm="vitrin"')
      }
      throw error
    }
    c.set('sessionId', null)
    c.set('sessionEndsAt', null)
    await next()
  }
}
