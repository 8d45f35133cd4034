import { Hono } from 'hono'
import { z } from 'zod'
import type { Auth } from '#server/auth/auth.ts'
import { forwardCookies } from '#server/auth/auth-errors.ts'
import type { Db } from '#server/db/client.ts'
import { presentUser } from '#server/features/auth/auth.service.ts'
import type { AppEnv } from '#server/http/context.ts'
import { validate } from '#server/http/validate.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { SessionResponse } from '#shared/contracts/auth.ts'
import { checkAccessCode, redeemAccessCode } from './access-codes.service.ts'

export type AccessDeps = { db: Db; auth: Auth; rateLimiter: RateLimiter; now: () => Date }

// The body is checked loosely here so a malformed code counts as an attempt and gets the
// seed's "Invalid access code" answer rather than a field error.
const redeemBodySchema = z.object({ code: z.string().max(64) })

export function accessRoutes(deps: AccessDeps) {
  return new Hono<AppEnv>().post('/', validate('json', redeemBodySchema), async (c) => {
    const code = await checkAccessCode(deps, c.req.valid('json').code, c.get('clientIp'))
    const signedIn = c.get('user')
    // Already inside (beta or account): a valid code changes nothing.
    if (signedIn) return c.json<SessionResponse>({ user: presentUser(signedIn) })
    const { headers, user } = await redeemAccessCode(deps, {
      code,
      clientIp: c.get('clientIp'),
      headers: c.req.raw.headers,
    })
    forwardCookies(headers, c.header)
    return c.json<SessionResponse>({ user }, 201)
  })
}
