import { Hono } from 'hono'
import { forwardCookies } from '#server/auth/auth-errors.ts'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, presentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import {
  addEmailRequestSchema,
  changePasswordRequestSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  type SessionResponse,
  type SignedInResponse,
  signInRequestSchema,
  signUpRequestSchema,
} from '#shared/contracts/auth.ts'
import type { OkResponse } from '#shared/contracts/common.ts'
import {
  type AuthDeps,
  addEmailToBetaAccount,
  changePassword,
  confirmPasswordReset,
  requestPasswordReset,
  signIn,
  signOut,
  signUp,
} from './auth.service.ts'

export function authRoutes(deps: AuthDeps) {
  return new Hono<AppEnv>()
    .get('/session', (c) => {
      const user = c.get('user')
      c.header('Cache-Control', 'no-store')
      const endsAt = c.get('sessionEndsAt')
      return c.json<SessionResponse>({
        user: user ? presentUser(user) : null,
        sessionEndsAt: user && endsAt ? endsAt.toISOString() : null,
      })
    })
    .post('/auth/sign-up', validate('json', signUpRequestSchema), async (c) => {
      const result = await signUp(deps, c.req.valid('json'), {
        headers: c.req.raw.headers,
        clientIp: c.get('clientIp'),
      })
      forwardCookies(result.headers, c.header)
      return c.json<SignedInResponse>({ user: result.user }, 201)
    })
    .post('/auth/sign-in', validate('json', signInRequestSchema), async (c) => {
      const result = await signIn(deps, c.req.valid('json'), {
        headers: c.req.raw.headers,
        clientIp: c.get('clientIp'),
      })
      forwardCookies(result.headers, c.header)
      return c.json<SignedInResponse>({ user: result.user })
    })
    .post('/auth/sign-out', async (c) => {
      if (c.get('user')) {
        forwardCookies(
          await signOut(deps, { headers: c.req.raw.headers, clientIp: c.get('clientIp') }),
          c.header,
        )
      }
      return c.body(null, 204)
    })
    .post('/auth/password-reset', validate('json', passwordResetRequestSchema), async (c) => {
      await requestPasswordReset(deps, c.req.valid('json'), {
        headers: c.req.raw.headers,
        clientIp: c.get('clientIp'),
      })
      return c.json<OkResponse>({ ok: true }, 202)
    })
    .post('/auth/password-reset/confirm', validate('json', passwordResetConfirmSchema), async (c) => {
      await confirmPasswordReset(deps, c.req.valid('json'), {
        headers: c.req.raw.headers,
        clientIp: c.get('clientIp'),
      })
      return c.json<OkResponse>({ ok: true })
    })
    .post('/auth/password', requireUser, validate('json', changePasswordRequestSchema), async (c) => {
      const headers = await changePassword(deps, currentUser(c), c.req.valid('json'), {
        headers: c.req.raw.headers,
        clientIp: c.get('clientIp'),
      })
      forwardCookies(headers, c.header)
      return c.json<OkResponse>({ ok: true })
    })
    .post('/auth/email', requireUser, validate('json', addEmailRequestSchema), async (c) => {
      // The same user and session, now with an email (app.ts drops the session memo after
      // every non-GET /auth call, so the next request sees it).
      const user = await addEmailToBetaAccount(deps, currentUser(c), c.req.valid('json'), {
        headers: c.req.raw.headers,
        clientIp: c.get('clientIp'),
      })
      return c.json<SignedInResponse>({ user })
    })
}
