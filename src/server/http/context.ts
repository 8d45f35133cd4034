import type { Logger } from '#server/logger.ts'

/** The signed-in user as routes see it. */
export type RequestUser = { id: string; email: string; isBeta: boolean; createdAt: Date }

/** What every request carries through Hono's context. */
export type AppEnv = {
  Variables: {
    requestId: string
    log: Logger
    clientIp: string
    /** Set on /api routes: the signed-in user, or null. */
    user: RequestUser | null
    sessionId: string | null
    /** When the session ends unless used again (renewal never passes its absolute lifetime). */
    sessionEndsAt: Date | null
    /** Set on /v1 routes: the API key the request came with (user is its owner; no session). */
    apiKeyId: string | null
  }
}
