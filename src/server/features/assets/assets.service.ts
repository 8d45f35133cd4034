import { createHash, randomUUID } from 'node:crypto'
import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import {
  type AssetRow,
  assets,
  catalogueRows,
  generations,
  type SubscriptionRow,
} from '#server/db/schema/index.ts'
import { ensureStorageRoom } from '#server/features/quota/quota.service.ts'
import type { Logger } from '#server/logger.ts'
import type { PublicRequestDeps } from '#server/net/public-request.ts'
import { getActiveSubscription } from '#server/plans/live-plan.ts'
import type { RateLimiter, RateLimitRule } from '#server/rate-limit/rate-limiter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { AssetView } from '#shared/contracts/assets.ts'
import { AppError } from '#shared/errors.ts'
import { maxUploadBytes, type NormalizedImage, normalizeUploadedImage } from './image-intake.ts'
import { fetchRemoteImage } from './remote-image.ts'

/** The most an upload may be; past it the body is no longer read (FILE_TOO_LARGE). */
export const uploadMaxBytes = maxUploadBytes

/** What storing and reading files needs (the worker stores results with this much). */
export type AssetStorageDeps = { db: Db; storage: ObjectStorage }
export type AssetDeps = AssetStorageDeps & {
  rateLimiter: RateLimiter
  limits: Pick<Config['limits'], 'uploadsPerMinute' | 'uploadsPerMinutePerClient' | 'uploadRetentionHours'>
  now: () => Date
  /**
   * Told when a seller's photo has been stored. An image job usually follows, so a process that
   * runs the worker starts the offline studio's model and cut now, not on that job's path.
   */
  photoArrived?: (asset: AssetRow) => void
}

/** The per-minute upload limits: per account, and per client address across accounts. */
export function uploadRateLimits(limits: AssetDeps['limits']): {
  perAccount: RateLimitRule
  perClient: RateLimitRule
} {
  return {
    perAccount: { name: 'upload', limit: limits.uploadsPerMinute, windowSeconds: 60 },
    perClient: { name: 'upload-ip', limit: limits.uploadsPerMinutePerClient, windowSeconds: 60 },
  }
}

/**
 * What an upload must pass before its body is read: the per-minute limits (RATE_LIMITED) and an
 * active plan or trial (NO_SUBSCRIPTION, as for generating). Returns the plan, for the storage check.
 */
export async function admitUpload(
  deps: AssetDeps,
  userId: string,
  clientIp: string,
): Promise<SubscriptionRow> {
  const rules = uploadRateLimits(deps.limits)
  await deps.rateLimiter.consumeAll([
    [rules.perAccount, userId],
    [rules.perClient, clientIp],
  ])
  const subscription = await getActiveSubscription(deps.db, userId, deps.now())
  if (!subscription) throw new AppError('NO_SUBSCRIPTION', 'Uploading needs an active plan')
  return subscription
}

const extensionOf: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
}

/** A file name safe for a Content-Disposition header and any file system. */
export function safeFileName(name: string, mime: string): string {
  const extension = extensionOf[mime] ?? 'bin'
  const stem = name
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
  return `${stem || 'vitrin'}.${extension}`
}

/**
 * Stores bytes and records them as the user's asset. The bytes go first; if the row cannot be
 * written they are removed again, so nothing is left half-stored.
 */
export async function storeAsset(
  deps: AssetStorageDeps,
  input: {
    userId: string
    kind: AssetRow['kind']
    bytes: Buffer
    mime: string
    fileName: string
    width?: number
    height?: number
  },
): Promise<AssetRow> {
  const id = randomUUID()
  const storageKey = `${input.userId}/${id}.${extensionOf[input.mime] ?? 'bin'}`
  await deps.storage.put(storageKey, input.bytes, input.mime)
  try {
    const [row] = await deps.db
      .insert(assets)
      .values({
        id,
        userId: input.userId,
        kind: input.kind,
        mime: input.mime,
        bytes: input.bytes.length,
        width: input.width ?? null,
        height: input.height ?? null,
        storageKey,
        checksum: createHash('sha256').update(input.bytes).digest('hex'),
        fileName: safeFileName(input.fileName, input.mime),
      })
      .returning()
    if (!row) throw new Error('asset insert returned no row')
    return row
  } catch (error) {
    await deps.storage.delete(storageKey).catch(() => undefined)
    throw error
  }
}

/**
 * Checks, cleans and stores an uploaded photo, if it fits in the plan's storage
 * (STORAGE_QUOTA_EXCEEDED otherwise; see ensureStorageRoom for how exact that is).
 */
export async function storeUpload(
  deps: AssetStorageDeps,
  userId: string,
  file: { bytes: Buffer; name: string },
  subscription: SubscriptionRow,
): Promise<AssetRow> {
  const image = await normalizeUploadedImage(file.bytes)
  return storeCleanUpload(deps, userId, image, file.name, subscription)
}

/**
 * Stores a photo already checked and cleaned (normalizeUploadedImage, fetchRemoteImage) as the
 * user's upload, if it fits in the plan's storage.
 */
async function storeCleanUpload(
  deps: AssetStorageDeps,
  userId: string,
  image: NormalizedImage,
  name: string,
  subscription: SubscriptionRow,
): Promise<AssetRow> {
  await ensureStorageRoom(deps.db, userId, subscription, image.bytes.length)
  return storeAsset(deps, {
    userId,
    kind: 'upload',
    bytes: image.bytes,
    mime: image.mime,
    fileName: name,
    width: image.width,
    height: image.height,
  })
}

/**
 * Fetches a product photo from a link the user gave (through the public-address guard), checks
 * and cleans it like an upload, and stores it as theirs. URL_* and the upload's errors otherwise.
 */
export async function storeRemoteUpload(
  deps: AssetStorageDeps & { fetch: PublicRequestDeps },
  userId: string,
  url: string,
  subscription: SubscriptionRow,
  options: { signal?: AbortSignal } = {},
): Promise<AssetRow> {
  const image = await fetchRemoteImage(deps.fetch, url, { signal: options.signal })
  const last = new URL(url).pathname.split('/').pop() || 'photo'
  let name = last
  try {
    name = decodeURIComponent(last)
  } catch {
    // A stray % in the link: keep the name as written.
  }
  name = name.slice(0, 120)
  return storeCleanUpload(deps, userId, image, name, subscription)
}

/** The user's own asset, or NOT_FOUND (also for someone else's: existence is not revealed). */
export async function getOwnedAsset(db: Db, userId: string, id: string): Promise<AssetRow> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
  if (!isUuid) throw new AppError('NOT_FOUND', 'No such asset')
  const [row] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.id, id), eq(assets.userId, userId)))
  if (!row) throw new AppError('NOT_FOUND', 'No such asset')
  return row
}

export function presentAsset(row: AssetRow): AssetView {
  return {
    id: row.id,
    kind: row.kind,
    mime: row.mime,
    bytes: row.bytes,
    width: row.width,
    height: row.height,
    fileName: row.fileName,
    url: `/api/assets/${row.id}/file`,
    createdAt: row.createdAt.toISOString(),
  }
}

/** A queued or running generation that uses the asset as its input or reference. */
const usedByActiveJob = (assetId: unknown) => sql`exists (
  select 1 from ${generations}
  where ${generations.status} in ('queued', 'running')
    and (${generations.inputAssetId} = ${assetId} or ${generations.referenceAssetId} = ${assetId})
)`

/** Removes stored objects whose rows are gone; a failure is logged (the object is orphaned). */
async function deleteObjects(storage: ObjectStorage, keys: string[], log: Logger): Promise<void> {
  await Promise.all(
    keys.map((key) =>
      storage
        .delete(key)
        .catch((error: unknown) =>
          log.error({ err: error, storageKey: key }, 'deleting a stored object failed; it is orphaned'),
        ),
    ),
  )
}

/**
 * Deletes one of the user's own uploads: the row first (in one statement that refuses while a
 * queued or running job uses it), then the stored object. NOT_FOUND for someone else's or an
 * unknown id; FORBIDDEN for a result (results go with their generation); ASSET_IN_USE while a
 * job uses it. Finished generations that used it keep their results and lose the input photo.
 */
export async function deleteUpload(
  deps: AssetStorageDeps,
  userId: string,
  id: string,
  log: Logger,
): Promise<void> {
  const asset = await getOwnedAsset(deps.db, userId, id)
  if (asset.kind !== 'upload') throw new AppError('FORBIDDEN', 'Results are deleted with their generation')
  const [deleted] = await deps.db
    .delete(assets)
    .where(and(eq(assets.id, asset.id), eq(assets.userId, userId), sql`not ${usedByActiveJob(assets.id)}`))
    .returning({ storageKey: assets.storageKey })
  if (!deleted) {
    // Either a job uses it, or it went meanwhile (a second delete, the sweep).
    const [still] = await deps.db.select({ id: assets.id }).from(assets).where(eq(assets.id, asset.id))
    if (still) throw new AppError('ASSET_IN_USE', 'A running generation uses this photo')
    throw new AppError('NOT_FOUND', 'No such asset')
  }
  await deleteObjects(deps.storage, [deleted.storageKey], log)
}

/**
 * Deletes some of the user's uploads that no generation uses (a catalogue draft's photos when
 * its mapping changes or it is deleted): rows first, then objects. Others are left alone.
 */
export async function deleteUnusedUploads(
  deps: AssetStorageDeps,
  userId: string,
  ids: string[],
  log: Logger,
): Promise<void> {
  if (ids.length === 0) return
  const deleted = await deps.db
    .delete(assets)
    .where(
      and(
        eq(assets.userId, userId),
        eq(assets.kind, 'upload'),
        inArray(assets.id, [...new Set(ids)]),
        sql`not exists (
          select 1 from ${generations}
          where ${generations.inputAssetId} = ${assets.id} or ${generations.referenceAssetId} = ${assets.id}
        )`,
        // A catalogue photo is stored once for every row that names the same file.
        sql`not exists (select 1 from ${catalogueRows} where ${catalogueRows.inputAssetId} = ${assets.id})`,
      ),
    )
    .returning({ storageKey: assets.storageKey })
  await deleteObjects(
    deps.storage,
    deleted.map((row) => row.storageKey),
    log,
  )
}

/** How many unused uploads one sweep statement removes; the sweep repeats until none are left. */
const sweepBatchSize = 200

/**
 * Deletes uploads that no generation uses (as input or reference, in any state) and that are
 * older than the retention period: rows first, then their objects. Returns how many went.
 */
export async function sweepUnusedUploads(
  deps: AssetStorageDeps & { retentionHours: number; log: Logger },
  now: Date,
): Promise<number> {
  const cutoff = new Date(now.getTime() - deps.retentionHours * 3_600_000)
  let total = 0
  for (;;) {
    const unused = deps.db
      .select({ id: assets.id })
      .from(assets)
      .where(
        and(
          eq(assets.kind, 'upload'),
          sql`${assets.createdAt} < ${cutoff.toISOString()}::timestamptz`,
          sql`not exists (
            select 1 from ${generations}
            where ${generations.inputAssetId} = ${assets.id} or ${generations.referenceAssetId} = ${assets.id}
          )`,
          // A catalogue draft's photos wait for its start (they go with the draft).
          sql`not exists (select 1 from ${catalogueRows} where ${catalogueRows.inputAssetId} = ${assets.id})`,
        ),
      )
      .limit(sweepBatchSize)
    const deleted = await deps.db
      .delete(assets)
      .where(sql`${assets.id} in (${unused})`)
      .returning({ storageKey: assets.storageKey })
    await deleteObjects(
      deps.storage,
      deleted.map((row) => row.storageKey),
      deps.log,
    )
    total += deleted.length
    if (deleted.length < sweepBatchSize) return total
  }
}
