import { and, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Auth } from '#server/auth/auth.ts'
import type { Db } from '#server/db/client.ts'
import {
  accounts,
  assets,
  emailOutbox,
  publishedMedia,
  users,
  verifications,
} from '#server/db/schema/index.ts'
import type { RequestUser } from '#server/http/context.ts'
import type { Logger } from '#server/logger.ts'
import type { RateLimiter, RateLimitRule } from '#server/rate-limit/rate-limiter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { deleteAccountRequestSchema } from '#shared/contracts/settings.ts'
import { AppError } from '#shared/errors.ts'

export type AccountDeps = { db: Db; storage: ObjectStorage; auth: Auth; rateLimiter: RateLimiter }

/** Password guesses through account deletion are limited like password changes. */
export const deleteAccountRateLimit: RateLimitRule = {
  name: 'delete-account',
  limit: 10,
  windowSeconds: 15 * 60,
}

/**
 * Checks that the person means it: an account with a password must re-enter it
 * (AUTH_WRONG_PASSWORD otherwise); a beta account, which has none, must send the confirmation
 * (ACCOUNT_DELETE_CONFIRMATION_INVALID otherwise).
 */
async function confirmOwner(
  deps: AccountDeps,
  userId: string,
  input: z.output<typeof deleteAccountRequestSchema>,
): Promise<void> {
  const [credential] = await deps.db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
  if (credential?.hash) {
    const context = await deps.auth.$context
    const isRight =
      input.password !== undefined &&
      (await context.password.verify({ hash: credential.hash, password: input.password }))
    if (!isRight) throw new AppError('AUTH_WRONG_PASSWORD', 'Wrong password')
    return
  }
  if (input.confirmation !== 'DELETE') {
    throw new AppError('ACCOUNT_DELETE_CONFIRMATION_INVALID', 'Confirm the deletion')
  }
}

/**
 * Deletes the account and everything it owns. In one statement the user row goes, and with it
 * (foreign keys, on delete cascade) sessions, sign-in accounts, subscriptions, usage, quota
 * reservations, provider keys, access-code redemptions, generations and asset rows; the same
 * statement drops the user's pending reset tokens and the emails addressed to them. Then every
 * stored file of theirs is removed; a file that cannot be removed is logged (orphaned, no row).
 * A job of theirs running meanwhile finds its row gone and stops (see jobs/worker.ts).
 */
export async function deleteAccount(
  deps: AccountDeps,
  user: RequestUser,
  input: z.output<typeof deleteAccountRequestSchema>,
  log: Logger,
): Promise<void> {
  await deps.rateLimiter.consume(deleteAccountRateLimit, user.id)
  await confirmOwner(deps, user.id, input)
  // The select reads the snapshot from before the deletes, so it still sees the asset rows.
  const removedUser = deps.db
    .$with('removed_user')
    .as(deps.db.delete(users).where(eq(users.id, user.id)).returning({ id: users.id, email: users.email }))
  const removedTokens = deps.db
    .$with('removed_tokens')
    .as(
      deps.db
        .delete(verifications)
        .where(eq(verifications.value, user.id))
        .returning({ id: verifications.id }),
    )
  const removedMail = deps.db
    .$with('removed_mail')
    .as(
      deps.db
        .delete(emailOutbox)
        .where(sql`${emailOutbox.toAddress} in (select ${removedUser.email} from ${removedUser})`)
        .returning({ id: emailOutbox.id }),
    )
  // Images published to marketplaces are files of the account too, and with S3_PUBLIC_URL the
  // bucket would go on serving them to anyone: they go with the rest (a revoked one's file is
  // gone already, and deleting a missing object is no error).
  const storedFiles = sql`(
    select ${assets.storageKey} as storage_key, ${assets.userId} as user_id from ${assets}
    union all
    select ${publishedMedia.storageKey}, ${publishedMedia.userId} from ${publishedMedia}
  ) as stored_files`
  const files = await deps.db
    .with(removedUser, removedTokens, removedMail)
    .select({ storageKey: sql<string>`stored_files.storage_key` })
    .from(storedFiles)
    .where(sql`stored_files.user_id in (select ${removedUser.id} from ${removedUser})`)
  await Promise.all(
    files.map(({ storageKey }) =>
      deps.storage
        .delete(storageKey)
        .catch((error: unknown) =>
          log.error({ err: error, storageKey }, 'deleting a stored object of a deleted account failed'),
        ),
    ),
  )
  log.info({ userId: user.id, files: files.length }, 'account deleted')
}
