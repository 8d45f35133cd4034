import { getTableColumns, sql } from 'drizzle-orm'
import type { Config } from '#server/config.ts'
import { type GenerationRow, generations, type NewGenerationRow } from '#server/db/schema/index.ts'
import type { RateLimiter, RateLimitRule } from '#server/rate-limit/rate-limiter.ts'
import { AppError } from '#shared/errors.ts'
import type { JobOutcomeDeps } from './job-queue.ts'
import type { QuotaHold } from './outcomes.ts'

// A job's start (job-queue.ts): its admission, the per-minute limits on starting one, and its
// acceptance, the row queued with its quota held in one statement.

// --- Admission -------------------------------------------------------------------------------

/** SEO copy is unlimited, but not unthrottled: 30 per user per 10 minutes. */
export const seoRateLimit: RateLimitRule = { name: 'seo', limit: 30, windowSeconds: 600 }

export type AdmissionLimits = Pick<Config['limits'], 'generationsPerMinute' | 'generationsPerMinutePerClient'>

/** Per-minute limits on starting generations of every kind: per account, and per client address. */
export function generationRateLimits(limits: AdmissionLimits): {
  perAccount: RateLimitRule
  perClient: RateLimitRule
} {
  return {
    perAccount: { name: 'generation', limit: limits.generationsPerMinute, windowSeconds: 60 },
    perClient: { name: 'generation-ip', limit: limits.generationsPerMinutePerClient, windowSeconds: 60 },
  }
}

/** Counts one attempt to start a generation; RATE_LIMITED past either per-minute limit. */
export async function admitJob(
  rateLimiter: RateLimiter,
  limits: AdmissionLimits,
  userId: string,
  clientIp: string,
): Promise<void> {
  const rules = generationRateLimits(limits)
  await rateLimiter.consumeAll([
    [rules.perAccount, userId],
    [rules.perClient, clientIp],
  ])
}

/** Counts one SEO job against its own limit; RATE_LIMITED past it. */
export async function admitSeoJob(rateLimiter: RateLimiter, userId: string): Promise<void> {
  await rateLimiter.consume(seoRateLimit, userId)
}

// --- Accept ----------------------------------------------------------------------------------

/** The columns of a job its request decides; the queue fills in status, lease and quota ones. */
export type JobRequest = Pick<
  NewGenerationRow,
  | 'userId'
  | 'tool'
  | 'mode'
  | 'aspectRatio'
  | 'prompt'
  | 'context'
  | 'inputAssetId'
  | 'referenceAssetId'
  | 'sourceGenerationId'
  | 'provider'
  | 'keepProduct'
  | 'view'
> & { usesOwnKey: boolean }

export type AcceptLimits = {
  /** The unit of quota to hold (images and videos on the server's key), or null (SEO, own key). */
  hold: QuotaHold | null
  /** The plan's storage in bytes; nothing is queued once the user's files take that much. */
  storageQuotaBytes: number
  /** Jobs one user may have queued or running; more are refused with QUEUE_FULL. */
  maxQueuedPerUser: number
}

/** A generations row as a raw statement returned it (database names and values), typed. */
function rowFromDriver(raw: Record<string, unknown>): GenerationRow {
  return Object.fromEntries(
    Object.entries(getTableColumns(generations)).map(([key, column]) => {
      const value = raw[column.name]
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)]
    }),
  ) as GenerationRow
}

/**
 * Queues a job. The queue and storage checks, the quota hold and the row are one statement (no
 * transaction kept open across round trips): with the user's queue full (QUEUE_FULL), their
 * storage full (STORAGE_QUOTA_EXCEEDED; the result would be stored, and one result may go past
 * it), or the quota used up (QUOTA_EXCEEDED_*), nothing is written. Returns the row as inserted.
 */
export async function acceptJob(
  deps: JobOutcomeDeps,
  job: JobRequest,
  limits: AcceptLimits,
): Promise<GenerationRow> {
  const { hold } = limits
  // Batch jobs (catalogue rows) are not counted: a batch runs at the user's fair share instead.
  const hasRoom = sql`(select count(*) from ${generations} active
    where active.user_id = ${job.userId} and active.status in ('queued', 'running')
      and active.batch_row_id is null) < ${limits.maxQueuedPerUser}`
  const { quota } = deps.outcomes
  const hasStorage = sql`${quota.storageUsedSql(job.userId)} < ${limits.storageQuotaBytes}`
  const result = (await deps.db.execute(sql`
    with room as (select ${hasRoom} as is_open, ${hasStorage} as has_storage),
    ${hold ? sql`${quota.reservationCtes(hold, sql`(select is_open and has_storage from room)`)},` : sql``}
    inserted as (
      insert into ${generations} (
        user_id, tool, mode, aspect_ratio, prompt, context, input_asset_id, reference_asset_id,
        source_generation_id, provider, uses_own_key, keep_product, view, quota_reservation_id
      )
      select ${job.userId}, ${job.tool}, ${job.mode}, ${job.aspectRatio}, ${job.prompt ?? ''},
        ${JSON.stringify(job.context ?? {})}::jsonb, ${job.inputAssetId ?? null},
        ${job.referenceAssetId ?? null}, ${job.sourceGenerationId ?? null}, ${job.provider},
        ${job.usesOwnKey}, ${job.keepProduct ?? false}, ${job.view ?? 'auto'}, ${hold ? sql`reserved.id from reserved` : sql`null where (select is_open and has_storage from room)`}
      returning *
    )
    select room.is_open as queue_open, room.has_storage, inserted.* from room left join inserted on true
  `)) as unknown as { rows: Record<string, unknown>[] }
  const [raw] = result.rows
  if (!raw?.queue_open) {
    throw new AppError('QUEUE_FULL', `At most ${limits.maxQueuedPerUser} generations may wait at once`)
  }
  if (!raw.has_storage) throw quota.storageExceeded()
  if (raw.id === null || raw.id === undefined) {
    if (hold) throw quota.exceeded(hold.resource)
    throw new Error('generation insert returned no row')
  }
  // The row as inserted (a read afterwards could already see the worker's claim).
  const created = rowFromDriver(raw)
  deps.notifier.workAvailable()
  return created
}
