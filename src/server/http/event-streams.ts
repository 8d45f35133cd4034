import { and, eq, gt } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { sessions } from '#server/db/schema/index.ts'
import { AppError } from '#shared/errors.ts'

/**
 * Open event streams (server-sent events) one user may hold in one process, unless
 * EVENT_STREAMS_PER_USER says otherwise. A browser tab follows one generation at a time; more
 * than this is a script holding connections open.
 */
export const maxEventStreamsPerUser = 10

/** How often an open stream re-reads its session when nothing in this process says it ended. */
export const eventStreamSessionCheckMs = 5000

/**
 * Long-lived responses (event streams) per user: a cap on how many each may hold open, and a
 * signal that sessions may have ended in this process (sign-out, password change, account
 * deletion), so that open streams look at their session at once instead of at their next check.
 */
export type EventStreams = {
  /** Takes one of the user's slots, or refuses with RATE_LIMITED; returns the release. */
  open(userId: string): () => void
  /** Tells every open stream to re-check its session. */
  sessionsChanged(): void
  /** Called on sessionsChanged; returns the unsubscribe. */
  onSessionsChanged(listener: () => void): () => void
  /** Open streams of a user (for tests and metrics). */
  openCount(userId: string): number
}

export function createEventStreams(options: { maxPerUser?: number } = {}): EventStreams {
  const maxPerUser = options.maxPerUser ?? maxEventStreamsPerUser
  const open = new Map<string, number>()
  const listeners = new Set<() => void>()
  return {
    open(userId) {
      const count = open.get(userId) ?? 0
      if (count >= maxPerUser) {
        throw new AppError('RATE_LIMITED', 'Too many open event streams', { retryAfterSeconds: 10 })
      }
      open.set(userId, count + 1)
      let isReleased = false
      return () => {
        if (isReleased) return
        isReleased = true
        const left = (open.get(userId) ?? 1) - 1
        if (left <= 0) open.delete(userId)
        else open.set(userId, left)
      }
    },
    sessionsChanged() {
      for (const listener of [...listeners]) listener()
    },
    onSessionsChanged(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    openCount(userId) {
      return open.get(userId) ?? 0
    },
  }
}

/** Whether the session still exists and has not expired (it is deleted on sign-out). */
export async function isSessionLive(db: Db, sessionId: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now)))
    .limit(1)
  return row !== undefined
}
