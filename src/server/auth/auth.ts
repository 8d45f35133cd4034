import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { anonymous } from 'better-auth/plugins'
import { maxPasswordLength, minPasswordLength } from '../../shared/contracts/auth.ts'
import type { Db } from '../db/client.ts'
import { accounts, sessions, users, verifications } from '../db/schema/index.ts'
import type { Logger } from '../logger.ts'

/** How long a session lasts; every session, beta or not, lasts 7 days and renews daily with use. */
export const sessionLifetimeSeconds = 7 * 24 * 60 * 60

export type AuthOptions = {
  db: Db
  secret: string
  /** Public origin, when configured; otherwise the library takes it from each request. */
  baseUrl: string | undefined
  isProduction: boolean
  logger: Logger
  /** Sends the reset email; the token goes into a link to our own confirm page. */
  sendPasswordResetEmail: (input: { userId: string; email: string; token: string }) => Promise<void>
}

/**
 * The authentication library, configured on our database. Its HTTP handler is not mounted:
 * our routes call its API, so every auth endpoint has our validation, rate limits and errors.
 */
export function createAuth(options: AuthOptions) {
  return betterAuth({
    appName: 'Vitrin',
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
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
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        await options.sendPasswordResetEmail({ userId: user.id, email: user.email, token })
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
        // Without PUBLIC_URL we take the origin from each request on purpose (our emails build
        // their own links), so the library's start-up warning about it is noise.
        if (message.includes('Base URL is not set')) return
        const log = options.logger.child({ component: 'auth' })
        const payload = args.length > 0 ? { details: args.map(String).join(' ').slice(0, 500) } : {}
        if (level === 'error') log.error(payload, message)
        else if (level === 'warn') log.warn(payload, message)
        else log.debug(payload, message)
      },
    },
  })
}

export type Auth = ReturnType<typeof createAuth>
