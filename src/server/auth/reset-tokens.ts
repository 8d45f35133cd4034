import { randomBytes, randomUUID } from 'node:crypto'
import { and, eq, like, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { users, verifications } from '#server/db/schema/index.ts'

// The auth library keeps reset tokens in `verifications`, one row per token: identifier
// `reset-password:<token>` (stored as is), value the user's id. Its resetPassword endpoint
// consumes them; issuing and revoking is ours, so a user has at most one live token.
const resetPrefix = 'reset-password:'

/** How long an emailed reset link works. */
export const resetTokenLifetimeSeconds = 60 * 60

export type IssuedResetToken = { userId: string; email: string; token: string }

/**
 * Issues a reset token for the account with this email, revoking the user's earlier ones in the
 * same statement. Known and unknown emails cost the same: one lookup and one write-shaped
 * statement each (for an unknown email, a delete that matches nothing), so the answer's timing
 * does not tell them apart.
 */
export async function issueResetToken(db: Db, email: string, now: Date): Promise<IssuedResetToken | null> {
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.email, email), eq(users.isBeta, false)))
  const token = randomBytes(24).toString('base64url')
  const userId = user?.id ?? `nobody-${randomUUID()}`
  const identifier = `${resetPrefix}${token}`
  const expiresAt = new Date(now.getTime() + resetTokenLifetimeSeconds * 1000)
  if (!user) {
    await deleteResetTokens(db, userId)
    return null
  }
  await db.execute(sql`
    with revoked as (
      delete from ${verifications}
      where ${verifications.value} = ${userId} and ${verifications.identifier} like ${`${resetPrefix}%`}
    )
    insert into ${verifications} (id, identifier, value, expires_at, created_at, updated_at)
    values (${randomUUID()}, ${identifier}, ${userId}, ${expiresAt.toISOString()}::timestamptz,
            ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
  `)
  return { userId, email: user.email, token }
}

/** Revokes every outstanding reset token of a user (after a reset, a password change, a new token). */
export async function deleteResetTokens(db: Db, userId: string): Promise<void> {
  await db
    .delete(verifications)
    .where(and(eq(verifications.value, userId), like(verifications.identifier, `${resetPrefix}%`)))
}

/** The account a live reset token belongs to, if any (for checks before the library consumes it). */
export async function resetTokenOwner(db: Db, token: string, now: Date): Promise<{ email: string } | null> {
  const [row] = await db
    .select({ email: users.email, expiresAt: verifications.expiresAt })
    .from(verifications)
    .innerJoin(users, eq(users.id, verifications.value))
    .where(eq(verifications.identifier, `${resetPrefix}${token}`))
  return row && row.expiresAt > now ? { email: row.email } : null
}
