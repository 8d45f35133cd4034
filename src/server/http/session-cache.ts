import { setNewest } from '#shared/bounded-map.ts'

/** What a session lookup gives a request: the user and session, or null when signed out. */
export type SessionLookup<T> = { value: T; expiresAt: Date } | null

export type SessionCache<T> = {
  /**
   * The lookup for a session cookie value: from the cache while fresh, else from `load`.
   * Concurrent requests with the same cookie share one load.
   */
  get(cookie: string, load: () => Promise<SessionLookup<T>>): Promise<T | null>
  /** Forgets every entry (a session ended or changed somewhere in this process). */
  clear(): void
  readonly size: number
}

type Entry<T> = { lookup: Promise<SessionLookup<T>>; freshUntil: number }

/**
 * A short-lived, in-process memo of session lookups. A page load or a burst of jobs sends many
 * requests with one cookie at once; without it each reads the session and the user from the
 * database before doing its own work. Entries live `ttlMs` at most (never past the session's
 * own expiry); a refused cookie is never kept, and sign-out and password changes clear it, so a
 * session ended in this process is refused at once and one ended in another within `ttlMs`.
 */
export function createSessionCache<T>(
  options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): SessionCache<T> {
  const ttlMs = options.ttlMs ?? 5000
  const maxEntries = options.maxEntries ?? 1000
  const now = options.now ?? Date.now
  const entries = new Map<string, Entry<T>>()

  function remember(cookie: string, entry: Entry<T>) {
    setNewest(entries, cookie, entry, maxEntries)
  }

  return {
    async get(cookie, load) {
      const known = entries.get(cookie)
      if (known && known.freshUntil > now()) return (await known.lookup)?.value ?? null
      const entry: Entry<T> = { lookup: load(), freshUntil: now() + ttlMs }
      remember(cookie, entry)
      let lookup: SessionLookup<T>
      try {
        lookup = await entry.lookup
      } catch (error) {
        if (entries.get(cookie) === entry) entries.delete(cookie)
        throw error
      }
      if (entries.get(cookie) === entry) {
        if (!lookup) entries.delete(cookie)
        else entry.freshUntil = Math.min(entry.freshUntil, lookup.expiresAt.getTime())
      }
      return lookup?.value ?? null
    },
    clear() {
      entries.clear()
    },
    get size() {
      return entries.size
    },
  }
}
