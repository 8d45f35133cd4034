import { and, eq, isNull, ne, or } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { users } from '#server/db/schema/index.ts'
import { setNewest } from '#shared/bounded-map.ts'
import type { Locale } from '#shared/i18n/locales.ts'

/**
 * Keeps each user's language as the app last sent it (users.locale), so that email written with
 * no request to take the language from (billing webhooks) is in it. The database is written only
 * when the language changes: a process remembers what it last wrote for each of its recent users
 * (at most `maxUsers`, the least recently seen dropped first), so a steady user costs one
 * conditional UPDATE per process, and switching languages one more.
 */
export function createUserLocaleRecorder(db: Db, options: { maxUsers?: number } = {}) {
  const maxUsers = options.maxUsers ?? 10_000
  const written = new Map<string, Locale>()
  return {
    async record(userId: string, locale: Locale): Promise<void> {
      const known = written.get(userId)
      setNewest(written, userId, locale, maxUsers)
      if (known === locale) return
      await db
        .update(users)
        .set({ locale })
        .where(and(eq(users.id, userId), or(isNull(users.locale), ne(users.locale, locale))))
    },
  }
}

export type UserLocaleRecorder = ReturnType<typeof createUserLocaleRecorder>
