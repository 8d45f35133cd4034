import type { z } from 'zod'
import type {
  changePasswordRequestSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  SessionUser,
  signInRequestSchema,
  signUpRequestSchema,
} from '../../../shared/contracts/auth.ts'
import type { Auth } from '../../auth/auth.ts'
import { callAuth } from '../../auth/auth-errors.ts'
import type { RequestUser } from '../../http/context.ts'
import type { RateLimiter, RateLimitRule } from '../../rate-limit/rate-limiter.ts'

export const authRateLimits = {
  signInPerClient: { name: 'sign-in-ip', limit: 20, windowSeconds: 15 * 60 },
  signInPerEmail: { name: 'sign-in-email', limit: 10, windowSeconds: 15 * 60 },
  signUpPerClient: { name: 'sign-up-ip', limit: 10, windowSeconds: 60 * 60 },
  signUpPerEmail: { name: 'sign-up-email', limit: 5, windowSeconds: 60 * 60 },
  resetPerClient: { name: 'reset-ip', limit: 10, windowSeconds: 60 * 60 },
  resetPerEmail: { name: 'reset-email', limit: 3, windowSeconds: 60 * 60 },
  changePasswordPerUser: { name: 'change-password', limit: 10, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>

export type AuthDeps = { auth: Auth; rateLimiter: RateLimiter }
type CallContext = { headers: Headers; clientIp: string }

/** Library calls answer with the headers to forward (the session cookie) and our view of the user. */
export type AuthResult = { headers: Headers; user: SessionUser }

export function presentUser(
  user: RequestUser | { id: string; email: string; isBeta?: boolean | null; createdAt: Date },
): SessionUser {
  const isBeta = Boolean(user.isBeta)
  return { id: user.id, email: isBeta ? null : user.email, isBeta, createdAt: user.createdAt.toISOString() }
}

/** Creates an account with email and password and signs it in. */
export async function signUp(
  deps: AuthDeps,
  input: z.output<typeof signUpRequestSchema>,
  ctx: CallContext,
): Promise<AuthResult> {
  await deps.rateLimiter.consume(authRateLimits.signUpPerClient, ctx.clientIp)
  await deps.rateLimiter.consume(authRateLimits.signUpPerEmail, input.email)
  const { headers, response } = await callAuth(() =>
    deps.auth.api.signUpEmail({
      body: { email: input.email, password: input.password, name: input.email.split('@')[0] ?? input.email },
      headers: ctx.headers,
      returnHeaders: true,
    }),
  )
  return { headers, user: presentUser({ ...response.user, isBeta: false }) }
}

export async function signIn(
  deps: AuthDeps,
  input: z.output<typeof signInRequestSchema>,
  ctx: CallContext,
): Promise<AuthResult> {
  await deps.rateLimiter.consume(authRateLimits.signInPerClient, ctx.clientIp)
  await deps.rateLimiter.consume(authRateLimits.signInPerEmail, input.email)
  const { headers, response } = await callAuth(() =>
    deps.auth.api.signInEmail({
      body: { email: input.email, password: input.password },
      headers: ctx.headers,
      returnHeaders: true,
    }),
  )
  return { headers, user: presentUser({ ...response.user, isBeta: false }) }
}

/** Ends the current session on the server and clears the cookie. */
export async function signOut(deps: AuthDeps, ctx: CallContext): Promise<Headers> {
  const { headers } = await callAuth(() =>
    deps.auth.api.signOut({ headers: ctx.headers, returnHeaders: true }),
  )
  return headers
}

/**
 * Emails a reset link when the account exists. The answer is the same either way, so the form
 * does not reveal who has an account.
 */
export async function requestPasswordReset(
  deps: AuthDeps,
  input: z.output<typeof passwordResetRequestSchema>,
  ctx: CallContext,
): Promise<void> {
  await deps.rateLimiter.consume(authRateLimits.resetPerClient, ctx.clientIp)
  await deps.rateLimiter.consume(authRateLimits.resetPerEmail, input.email)
  await callAuth(() =>
    deps.auth.api.requestPasswordReset({ body: { email: input.email }, headers: ctx.headers }),
  )
}

/** Sets a new password from an emailed token; the token works once, and every session ends. */
export async function confirmPasswordReset(
  deps: AuthDeps,
  input: z.output<typeof passwordResetConfirmSchema>,
  ctx: CallContext,
): Promise<void> {
  await deps.rateLimiter.consume(authRateLimits.resetPerClient, ctx.clientIp)
  await callAuth(() =>
    deps.auth.api.resetPassword({
      body: { token: input.token, newPassword: input.password },
      headers: ctx.headers,
    }),
  )
}

/** Changes the password and ends the user's other sessions; this one gets a fresh cookie. */
export async function changePassword(
  deps: AuthDeps,
  user: RequestUser,
  input: z.output<typeof changePasswordRequestSchema>,
  ctx: CallContext,
): Promise<Headers> {
  await deps.rateLimiter.consume(authRateLimits.changePasswordPerUser, user.id)
  const { headers } = await callAuth(() =>
    deps.auth.api.changePassword({
      body: {
        currentPassword: input.currentPassword,
        newPassword: input.newPassword,
        revokeOtherSessions: true,
      },
      headers: ctx.headers,
      returnHeaders: true,
    }),
  )
  return headers
}
