import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { anonymous } from 'better-auth/plugins'
import type { Db } from '#server/db/client.ts'
import { accounts, sessions, users, verifications } from '#server/db/schema/index.ts'
import { describeForLog, type Logger } from '#server/logger.ts'
import { maxPasswordLength, minPasswordLength } from '#shared/contracts/auth.ts'
import { deleteResetTokens, resetTokenLifetimeSeconds } from './reset-tokens.ts'

/** How long a session lasts; every session, beta or not, lasts 7 days and renews daily with use. */
export const sessionLifetimeSeconds = 7 * 24 * 60 * 60
/**
 * The absolute lifetime of a session: however often it is renewed, a session created longer ago
 * than this is refused and deleted (http/session.ts), so a stolen cookie cannot live forever.
 */
export const sessionMaxAgeSeconds = 30 * 24 * 60 * 60

export type AuthOptions = {
  db: Db
  secret: string
  /** The public origin (config.publicUrl); never taken from a request. */
  baseUrl: string
  isProduction: boolean
  logger: Logger
}

/**
 * The authentication library, configured on our database. Its HTTP handler is not mounted:
 * our routes call its API, so every auth endpoint has our validation, rate limits and errors.
 */
export function createAuth(options: AuthOptions) {
  return betterAuth({
    appName: 'Vitrin',
    baseURL: options.baseUrl,
    secret: options.secret,
    database: drizzleAdapter(options.db, {
      provider: 'pg',
      schema: { users, sessions, accounts, verifications },
    }),
    user: { modelName: 'users' },
    session: { modelName: 'sessions', expiresIn: sessionLifetimeSeconds, updateAge: 24 * 60 * 60 },
    account: { modelName: 'accounts' },
    verification: { modelName: 'verifications' },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength,
      maxPasswordLength,
      // Reset tokens are issued by us (auth/reset-tokens.ts: one live token per user, equal
      // timing for unknown emails); the library checks and consumes them in resetPassword.
      resetPasswordTokenExpiresIn: resetTokenLifetimeSeconds,
      revokeSessionsOnPasswordReset: true,
      onPasswordReset: async ({ user }) => {
        // The used token is gone; so must be every other one the user was sent.
        await deleteResetTokens(options.db, user.id)
      },
    },
    plugins: [
      // Beta accounts made from access codes: a user with no email of its own.
      anonymous({
        emailDomainName: 'beta.vitrin.invalid',
        generateName: () => 'Beta',
        disableDeleteAnonymousUser: true,
        schema: { user: { fields: { isAnonymous: 'isBeta' } } },
      }),
    ],
    // Limits are ours (database counters per client and per email), in front of these calls.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    advanced: {
      cookiePrefix: 'vitrin',
      useSecureCookies: options.isProduction,
      defaultCookieAttributes: { sameSite: 'lax', httpOnly: true },
    },
    logger: {
      level: 'warn',
      log: (level, message, ...args) => {
        const log = options.logger.child({ component: 'auth' })
        const payload = args.length > 0 ? { details: args.map(describeForLog).join(' ').slice(0, 500) } : {}
        if (level === 'error') log.error(payload, message)
        else if (level === 'warn') log.warn(payload, message)
        else log.debug(payload, message)
      },
    },
  })
}

export type Auth = ReturnType<typeof createAuth>
