import { Hono } from 'hono'
import { z } from 'zod'
import { forwardCookies } from '#server/auth/auth-errors.ts'
import type { AppEnv } from '#server/http/context.ts'
import { validate } from '#server/http/validate.ts'
import type { SignedInResponse } from '#shared/contracts/auth.ts'
import { type RedeemDeps, redeemAccessCode } from './access-codes.service.ts'

export type AccessDeps = RedeemDeps

// The body is checked loosely here so a malformed code counts as an attempt and gets the
// ACCESS_CODE_INVALID answer ("Invalid access code. Please try again.") rather than a field error.
const redeemBodySchema = z.object({ code: z.string().max(64) })

export function accessRoutes(deps: AccessDeps) {
  return new Hono<AppEnv>().post('/', validate('json', redeemBodySchema), async (c) => {
    const redeemed = await redeemAccessCode(deps, {
      code: c.req.valid('json').code,
      clientIp: c.get('clientIp'),
      headers: c.req.raw.headers,
      signedIn: c.get('user'),
    })
    forwardCookies(redeemed.headers, c.header)
    return c.json<SignedInResponse>({ user: redeemed.user }, redeemed.isNew ? 201 : 200)
  })
}
