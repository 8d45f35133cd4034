import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { z } from 'zod'
import type { Auth } from '#server/auth/auth.ts'
import { callAuth } from '#server/auth/auth-errors.ts'
import { deleteResetTokens, issueResetToken, resetTokenOwner } from '#server/auth/reset-tokens.ts'
import type { Db } from '#server/db/client.ts'
import { accounts, users } from '#server/db/schema/index.ts'
import type { Mailer } from '#server/email/outbox.ts'
import type { RequestUser } from '#server/http/context.ts'
import { requestContext } from '#server/http/request-context.ts'
import { presentUser } from '#server/http/session.ts'
import type { Logger } from '#server/logger.ts'
import {
  type BackoffRule,
  type RateLimiter,
  type RateLimitRule,
  refuseIfLimited,
} from '#server/rate-limit/rate-limiter.ts'
import type {
  addEmailRequestSchema,
  changePasswordRequestSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  SessionUser,
  signInRequestSchema,
  signUpRequestSchema,
} from '#shared/contracts/auth.ts'
import { AppError } from '#shared/errors.ts'
import { isLocale } from '#shared/i18n/locales.ts'
import { sendAccountExistsEmail, sendPasswordResetEmail } from './password-reset-email.ts'

export const authRateLimits = {
  signUpPerClient: { name: 'sign-up-ip', limit: 10, windowSeconds: 60 * 60 },
  signUpPerEmail: { name: 'sign-up-email', limit: 5, windowSeconds: 60 * 60 },
  resetPerClient: { name: 'reset-ip', limit: 10, windowSeconds: 60 * 60 },
  resetPerEmail: { name: 'reset-email', limit: 3, windowSeconds: 60 * 60 },
  changePasswordPerUser: { name: 'change-password', limit: 10, windowSeconds: 15 * 60 },
  /** A beta account adding an email: per client like sign-up (the per-email count is sign-up's). */
  addEmailPerClient: { name: 'add-email-ip', limit: 10, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>

/**
 * Sign-in is slowed down by failures, never locked: only wrong passwords count, per
 * (email, client address) and per client address, and past the free ones each further try
 * waits 1 s, 2 s, 4 s, … (at most 15 minutes) after the previous failure. A correct password
 * from another address is never held back by someone else's failures; a success forgets the
 * (email, client) failures. Counts are forgotten 24 hours after the first failure.
 */
export const signInBackoff = {
  perAccountClient: {
    name: 'sign-in-fail',
    freeAttempts: 5,
    maxDelaySeconds: 15 * 60,
    windowSeconds: 24 * 60 * 60,
  },
  perClient: {
    name: 'sign-in-fail-ip',
    freeAttempts: 20,
    maxDelaySeconds: 15 * 60,
    windowSeconds: 24 * 60 * 60,
  },
} satisfies Record<string, BackoffRule>

export type AuthDeps = {
  auth: Auth
  rateLimiter: RateLimiter
  db: Db
  mailer: Mailer
  /** Read at send time: emailed links use config.publicUrl only. */
  config: { publicUrl: string }
  logger: Logger
  now: () => Date
}
type CallContext = { headers: Headers; clientIp: string }

/** Library calls answer with the headers to forward (the session cookie) and our view of the user. */
export type AuthResult = { headers: Headers; user: SessionUser }

/**
 * Creates an account with email and password and signs it in. For an email that already has an
 * account the answer is the same (201, a user of the same shape) but without a session, and the
 * account's owner is emailed instead (after the answer, like a password reset), so sign-up does
 * not tell who has an account. The work before the answer is of one kind either way: the
 * password is hashed (the library hashes a new one; here it is hashed and dropped), which is what
 * takes the time.
 */
export async function signUp(
  deps: AuthDeps,
  input: z.output<typeof signUpRequestSchema>,
  ctx: CallContext,
): Promise<AuthResult> {
  await deps.rateLimiter.consume(authRateLimits.signUpPerClient, ctx.clientIp)
  await deps.rateLimiter.consume(authRateLimits.signUpPerEmail, input.email)
  const [owner] = await deps.db
    .select({ id: users.id, locale: users.locale })
    .from(users)
    .where(eq(users.email, input.email))
  if (owner) return answerRegisteredEmail(deps, input, owner.locale)
  try {
    const { headers, response } = await callAuth(() =>
      deps.auth.api.signUpEmail({
        body: {
          email: input.email,
          password: input.password,
          name: input.email.split('@')[0] ?? input.email,
        },
        headers: ctx.headers,
        returnHeaders: true,
      }),
    )
    return { headers, user: presentUser({ ...response.user, isBeta: false }) }
  } catch (error) {
    // Another sign-up for the same email got there first.
    if (error instanceof AppError && error.code === 'AUTH_EMAIL_TAKEN') {
      const [taken] = await deps.db
        .select({ locale: users.locale })
        .from(users)
        .where(eq(users.email, input.email))
      return answerRegisteredEmail(deps, input, taken?.locale ?? null)
    }
    throw error
  }
}

/**
 * A sign-up for an email that has an account: what a new account's answer looks like (an id
 * never used, no cookie), after hashing the password as a new account would; the owner gets an
 * email in their language (the one they last used the app in, else the one of this request).
 */
async function answerRegisteredEmail(
  deps: AuthDeps,
  input: z.output<typeof signUpRequestSchema>,
  ownerLocale: string | null,
): Promise<AuthResult> {
  const context = await deps.auth.$context
  await context.password.hash(input.password)
  const request = requestContext.getStore()
  const log = request?.log ?? deps.logger
  const locale = isLocale(ownerLocale) ? ownerLocale : (request?.locale ?? 'en')
  setImmediate(() => {
    sendAccountExistsEmail(
      { db: deps.db, mailer: deps.mailer, publicUrl: deps.config.publicUrl },
      { email: input.email, locale },
      log,
    ).catch((error: unknown) =>
      log.error({ err: error, kind: 'account_exists' }, 'account-exists email could not be queued'),
    )
  })
  return {
    headers: new Headers(),
    user: presentUser({ id: randomUUID(), email: input.email, isBeta: false, createdAt: deps.now() }),
  }
}

export async function signIn(
  deps: AuthDeps,
  input: z.output<typeof signInRequestSchema>,
  ctx: CallContext,
): Promise<AuthResult> {
  // Each attempt is counted up front (so attempts sent together cannot all slip past a wait)
  // and handed back when it turns out not to be a failure.
  const { perClient, perAccountClient } = signInBackoff
  const accountClient = `${input.email}|${ctx.clientIp}`
  refuseIfLimited(await deps.rateLimiter.attempt(perAccountClient, accountClient), 'sign-in')
  const forClient = await deps.rateLimiter.attempt(perClient, ctx.clientIp)
  if (!forClient.isAllowed) {
    await deps.rateLimiter.refund(perAccountClient, accountClient)
    refuseIfLimited(forClient, 'sign-in')
  }
  try {
    const { headers, response } = await callAuth(() =>
      deps.auth.api.signInEmail({
        body: { email: input.email, password: input.password },
        headers: ctx.headers,
        returnHeaders: true,
      }),
    )
    await deps.rateLimiter.clear(perAccountClient, accountClient)
    await deps.rateLimiter.refund(perClient, ctx.clientIp)
    return { headers, user: presentUser({ ...response.user, isBeta: false }) }
  } catch (error) {
    // Only a wrong email or password counts; our own failures do not slow anyone down.
    if (!(error instanceof AppError && error.code === 'AUTH_INVALID_CREDENTIALS')) {
      await deps.rateLimiter.refund(perAccountClient, accountClient)
      await deps.rateLimiter.refund(perClient, ctx.clientIp)
    }
    throw error
  }
}

/** Ends the current session on the server and clears the cookie. */
export async function signOut(deps: AuthDeps, ctx: CallContext): Promise<Headers> {
  const { headers } = await callAuth(() =>
    deps.auth.api.signOut({ headers: ctx.headers, returnHeaders: true }),
  )
  return headers
}

/**
 * Emails a reset link when the account exists. The answer is the same either way, and so is the
 * work done before it (issueResetToken), so neither the answer nor its timing reveals who has an
 * account: the email is written and sent after the answer, in the background.
 */
export async function requestPasswordReset(
  deps: AuthDeps,
  input: z.output<typeof passwordResetRequestSchema>,
  ctx: CallContext,
): Promise<void> {
  await deps.rateLimiter.consume(authRateLimits.resetPerClient, ctx.clientIp)
  await deps.rateLimiter.consume(authRateLimits.resetPerEmail, input.email)
  const issued = await issueResetToken(deps.db, input.email, deps.now())
  if (!issued) return
  const context = requestContext.getStore()
  const log = context?.log ?? deps.logger
  const email = { email: issued.email, token: issued.token, locale: context?.locale ?? 'en' }
  setImmediate(() => {
    sendPasswordResetEmail(
      { db: deps.db, mailer: deps.mailer, publicUrl: deps.config.publicUrl },
      email,
      log,
    ).catch((error: unknown) =>
      log.error({ err: error, kind: 'password_reset' }, 'reset email could not be queued'),
    )
  })
}

/**
 * Sets a new password from an emailed token; the token works once, every other reset token of
 * the user dies with it (auth.ts, onPasswordReset), and every session ends.
 */
export async function confirmPasswordReset(
  deps: AuthDeps,
  input: z.output<typeof passwordResetConfirmSchema>,
  ctx: CallContext,
): Promise<void> {
  await deps.rateLimiter.consume(authRateLimits.resetPerClient, ctx.clientIp)
  const owner = await resetTokenOwner(deps.db, input.token, deps.now())
  if (owner) refusePasswordEqualToEmail(input.password, owner.email, 'password')
  await callAuth(() =>
    deps.auth.api.resetPassword({
      body: { token: input.token, newPassword: input.password },
      headers: ctx.headers,
    }),
  )
}

/** A password that is the account's own email (in any case) is refused as a field error. */
function refusePasswordEqualToEmail(password: string, email: string, field: string): void {
  if (password.trim().toLowerCase() === email.toLowerCase()) {
    throw new AppError('VALIDATION_FAILED', 'The password must not be the email', {
      fields: { [field]: 'sameAsEmail' },
    })
  }
}

/** Changes the password and ends the user's other sessions; this one gets a fresh cookie. */
export async function changePassword(
  deps: AuthDeps,
  user: RequestUser,
  input: z.output<typeof changePasswordRequestSchema>,
  ctx: CallContext,
): Promise<Headers> {
  await deps.rateLimiter.consume(authRateLimits.changePasswordPerUser, user.id)
  refusePasswordEqualToEmail(input.newPassword, user.email, 'newPassword')
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
  // A reset link sent before the change must not undo it.
  await deleteResetTokens(deps.db, user.id)
  return headers
}

/** Whether a database error is a unique violation (PostgreSQL and PGlite both report 23505). */
function isUniqueViolation(error: unknown): boolean {
  const withCode = error as { code?: unknown; cause?: { code?: unknown } } | null
  return withCode?.code === '23505' || withCode?.cause?.code === '23505'
}

/**
 * Gives a beta account an email and password of its own, keeping the same user, so its library,
 * usage, trial and plan stay with it; from then on it signs in like any account, and its
 * sessions follow the same rules (nothing else about them was beta). Refuses an account that
 * already has an email (ACCOUNT_HAS_EMAIL), an email in use (AUTH_EMAIL_TAKEN), and too many
 * tries per client or per email (RATE_LIMITED, counted like sign-up).
 *
 * The library has no call that turns its anonymous user into an email one in place, so we write
 * its rows as its sign-up does (auth.ts's tables: the user's email, and a `credential` account
 * whose accountId is the user id, holding the library's own password hash), in one transaction
 * of ours. The hash is made before it, and nothing in it calls the library (whose writes use
 * their own connection: on PGlite they would wait for our transaction forever), so a failure
 * leaves the account a beta account, unchanged.
 */
export async function addEmailToBetaAccount(
  deps: AuthDeps,
  user: RequestUser,
  input: z.output<typeof addEmailRequestSchema>,
  ctx: CallContext,
): Promise<SessionUser> {
  if (!user.isBeta) throw new AppError('ACCOUNT_HAS_EMAIL', 'This account already has an email')
  await deps.rateLimiter.consume(authRateLimits.addEmailPerClient, ctx.clientIp)
  await deps.rateLimiter.consume(authRateLimits.signUpPerEmail, input.email)
  const [owner] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, input.email))
  if (owner) throw new AppError('AUTH_EMAIL_TAKEN', 'Email already in use')
  const context = await deps.auth.$context
  const hash = await context.password.hash(input.password)
  const accountRowId = context.generateId({ model: 'account' }) || randomUUID()
  try {
    await deps.db.transaction(async (tx) => {
      const upgraded = await tx
        .update(users)
        .set({
          email: input.email,
          name: input.email.split('@')[0] ?? input.email,
          emailVerified: false,
          isBeta: false,
        })
        .where(and(eq(users.id, user.id), eq(users.isBeta, true)))
        .returning({ id: users.id })
      // Another request of this browser got here first.
      if (upgraded.length === 0) throw new AppError('ACCOUNT_HAS_EMAIL', 'This account already has an email')
      await tx.insert(accounts).values({
        id: accountRowId,
        accountId: user.id,
        providerId: 'credential',
        userId: user.id,
        password: hash,
      })
    })
  } catch (error) {
    // Someone took the email between the check and the write.
    if (isUniqueViolation(error)) throw new AppError('AUTH_EMAIL_TAKEN', 'Email already in use')
    throw error
  }
  return presentUser({ id: user.id, email: input.email, isBeta: false, createdAt: user.createdAt })
}
