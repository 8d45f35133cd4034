import { Hono } from 'hono'
import { deleteCookie } from 'hono/cookie'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import { deleteAccountRequestSchema } from '#shared/contracts/settings.ts'
import { type AccountDeps, deleteAccount } from './account.service.ts'

/** The session cookie's names: plain over HTTP, `__Secure-` prefixed in production. */
const sessionCookieNames = ['vitrin.session_token', '__Secure-vitrin.session_token'] as const

/** DELETE /api/account: deletes the signed-in account and its files, and clears the session cookie. */
export function accountRoutes(deps: AccountDeps & { forgetSessions: () => void }) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .delete('/', validate('json', deleteAccountRequestSchema), async (c) => {
      await deleteAccount(deps, currentUser(c), c.req.valid('json'), c.get('log'))
      // Its sessions are gone with it; cached lookups must not keep them alive.
      deps.forgetSessions()
      for (const name of sessionCookieNames) {
        deleteCookie(c, name, { path: '/', ...(name.startsWith('__Secure-') ? { secure: true } : {}) })
      }
      return c.body(null, 204)
    })
}
