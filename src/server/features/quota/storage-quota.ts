import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { assets } from '#server/db/schema/index.ts'
import type { SubscriptionRow } from '#server/features/billing/subscription.service.ts'
import { AppError } from '#shared/errors.ts'
import { getPlan } from '#shared/plans.ts'

/** The bytes the user's files (uploads and results) take in storage, as an SQL expression. */
export function storageUsedSql(userId: string): SQL<number> {
  return sql<number>`(select coalesce(sum(${assets.bytes}), 0)::float8 from ${assets} where ${assets.userId} = ${userId})`
}

/** Bytes the user's files (uploads and results) take in storage. */
export async function storageUsedBytes(db: Db, userId: string): Promise<number> {
  const [row] = await db.select({ used: storageUsedSql(userId) }).from(sql`(select 1) as one`)
  return Number(row?.used ?? 0)
}

/** The plan's storage in bytes; 0 without an active plan. */
export function storageQuotaBytes(subscription: SubscriptionRow | null): number {
  return subscription ? getPlan(subscription.planId).storageBytes : 0
}

export function storageQuotaExceeded(): AppError {
  return new AppError('STORAGE_QUOTA_EXCEEDED', 'Storage quota reached')
}

/**
 * Refuses with STORAGE_QUOTA_EXCEEDED unless `addedBytes` more still fit in the plan's storage
 * (with 0: unless the user is below it). A check, not a hold: requests racing each other may
 * together go past the quota by what they carry (an upload is at most 10 MB), and a job's
 * result is stored by the worker after the check, so a user may end slightly over.
 */
export async function ensureStorageRoom(
  db: Db,
  userId: string,
  subscription: SubscriptionRow | null,
  addedBytes: number,
): Promise<void> {
  const quota = storageQuotaBytes(subscription)
  const used = await storageUsedBytes(db, userId)
  const isFull = addedBytes > 0 ? used + addedBytes > quota : used >= quota
  if (isFull) throw storageQuotaExceeded()
}
