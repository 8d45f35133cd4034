import type { MiddlewareHandler } from 'hono'
import { AppError } from '../../shared/errors.ts'
import type { Auth } from '../auth/auth.ts'
import type { AppEnv } from './context.ts'

/** Reads the session cookie (if any) into `c.var.user`; never refuses. */
export function loadSession(auth: Auth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const result = await auth.api.getSession({ headers: c.req.raw.headers })
    c.set(
      'user',
      result
        ? {
            id: result.user.id,
            email: result.user.email,
            isBeta: Boolean(result.user.isAnonymous),
            createdAt: result.user.createdAt,
          }
        : null,
    )
    c.set('sessionId', result?.session.id ?? null)
    await next()
  }
}

/** Refuses with 401 unless someone is signed in. */
export const requireUser: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('user')) throw new AppError('UNAUTHORIZED', 'Sign in required')
  await next()
}

/** The signed-in user of a route behind requireUser. */
export function currentUser(c: { get: (key: 'user') => AppEnv['Variables']['user'] }) {
  const user = c.get('user')
  if (!user) throw new AppError('UNAUTHORIZED', 'Sign in required')
  return user
}
