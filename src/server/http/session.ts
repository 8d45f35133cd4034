import type { MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { type Auth, sessionMaxAgeSeconds } from '#server/auth/auth.ts'
import type { SessionUser } from '#shared/contracts/auth.ts'
import { AppError } from '#shared/errors.ts'
import type { AppEnv, RequestUser } from './context.ts'
import { createSessionCache, type SessionCache } from './session-cache.ts'

type SignedIn = { user: RequestUser; sessionId: string; endsAt: Date }

/** The session cookie's value (plain over HTTP, `__Secure-` prefixed in production), if any. */
function sessionCookie(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string | undefined {
  const cookies = getCookie(c)
  return cookies['__Secure-vitrin.session_token'] ?? cookies['vitrin.session_token']
}

/**
 * Reads the session cookie (if any) into `c.var.user`; never refuses. Lookups go through a
 * short in-process cache (see session-cache.ts); call `forget` when sessions end or change.
 */
export function loadSession(auth: Auth, cache: SessionCache<SignedIn> = createSessionCache()) {
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    const cookie = sessionCookie(c)
    const signedIn = cookie
      ? await cache.get(cookie, async () => {
          const result = await auth.api.getSession({ headers: c.req.raw.headers })
          if (!result) return null
          // Renewal with use never carries a session past its absolute lifetime.
          const endsAt = new Date(result.session.createdAt.getTime() + sessionMaxAgeSeconds * 1000)
          if (endsAt <= new Date()) {
            await (await auth.$context).internalAdapter.deleteSession(result.session.token)
            return null
          }
          const sessionEndsAt = result.session.expiresAt < endsAt ? result.session.expiresAt : endsAt
          return {
            value: {
              user: {
                id: result.user.id,
                email: result.user.email,
                isBeta: Boolean(result.user.isAnonymous),
                createdAt: result.user.createdAt,
              },
              sessionId: result.session.id,
              endsAt: sessionEndsAt,
            },
            expiresAt: sessionEndsAt,
          }
        })
      : null
    c.set('user', signedIn?.user ?? null)
    c.set('sessionId', signedIn?.sessionId ?? null)
    c.set('sessionEndsAt', signedIn?.endsAt ?? null)
    await next()
  }
  return Object.assign(middleware, { forget: () => cache.clear() })
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

/**
 * Refuses a beta account (made from an access code, no email of its own) with EMAIL_REQUIRED:
 * for what must reach the person later or outlive the browser's cookie, such as a checkout.
 * The web app answers it by offering to add an email (POST /api/auth/email).
 */
export function requireEmailAccount(user: RequestUser): void {
  if (user.isBeta)
    throw new AppError('EMAIL_REQUIRED', 'Add an email and password to this beta account first')
}

/** The signed-in user as the client sees it (a beta account's made-up email is not shown). */
export function presentUser(
  user: RequestUser | { id: string; email: string; isBeta?: boolean | null; createdAt: Date },
): SessionUser {
  const isBeta = Boolean(user.isBeta)
  return { id: user.id, email: isBeta ? null : user.email, isBeta, createdAt: user.createdAt.toISOString() }
}
