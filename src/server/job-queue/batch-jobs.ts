import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { catalogueRows, generations } from '#server/db/schema/index.ts'
import type { GenerationMode } from '#shared/contracts/generations.ts'
import type { QuotaResource } from '#shared/quota.ts'
import type { JobRequest } from './accept-job.ts'
import type { JobOutcomeDeps } from './job-queue.ts'
import type { JobOutcomes, QuotaHold } from './outcomes.ts'

// A catalogue batch's jobs (decision 24): queued, canceled and retried together, each change in
// one transaction with the quota it holds or gives back. The single job's states are in
// job-queue.ts; these are the same rows, moved many at a time.

/** One job of a catalogue batch: its id is chosen beforehand, so a video can name its image. */
export type BatchJobRequest = JobRequest & {
  id: string
  batchRowId: string
  /** The quota it holds (null: SEO, or the user's own key). */
  resource: QuotaResource | null
}

export type BatchAcceptance = { kind: 'accepted' } | { kind: 'short'; resource: QuotaResource }

const insertChunk = 500

/**
 * Queues a batch's jobs in one transaction with their quota (plan first, then credits, all or
 * nothing: a batch never starts partly by accident) and whatever else the caller writes in
 * `within` (the batch's own state). Storage full: STORAGE_QUOTA_EXCEEDED. Quota short: nothing
 * is written and the short resource is named. Batch jobs are not counted against the per-user
 * queue cap: the fair claim runs them at the user's share.
 */
export async function acceptBatchJobs(
  deps: JobOutcomeDeps,
  input: {
    userId: string
    jobs: BatchJobRequest[]
    holds: Partial<Record<QuotaResource, QuotaHold>>
    storageQuotaBytes: number
    within?: (tx: Db) => Promise<void>
  },
): Promise<BatchAcceptance> {
  const { quota } = deps.outcomes
  const outcome = await deps.db
    .transaction(async (txRaw): Promise<BatchAcceptance> => {
      const tx = txRaw as unknown as Db
      const storage = (await tx.execute(
        sql`select ${quota.storageUsedSql(input.userId)} < ${input.storageQuotaBytes} as has_room`,
      )) as unknown as { rows: { has_room: boolean }[] }
      if (!storage.rows[0]?.has_room) throw quota.storageExceeded()
      const reservations = await reserveBatchUnits(
        tx,
        quota,
        input.holds,
        input.jobs.map((job) => job.resource),
      )
      const rows = input.jobs.map((job) => ({
        id: job.id,
        userId: job.userId,
        tool: job.tool,
        mode: job.mode,
        aspectRatio: job.aspectRatio,
        prompt: job.prompt ?? '',
        context: job.context ?? {},
        inputAssetId: job.inputAssetId ?? null,
        referenceAssetId: job.referenceAssetId ?? null,
        sourceGenerationId: job.sourceGenerationId ?? null,
        provider: job.provider,
        usesOwnKey: job.usesOwnKey,
        batchRowId: job.batchRowId,
        quotaReservationId: job.resource ? (reservations.get(job.resource)?.pop() ?? null) : null,
      }))
      for (let at = 0; at < rows.length; at += insertChunk) {
        await tx.insert(generations).values(rows.slice(at, at + insertChunk))
      }
      await input.within?.(tx)
      return { kind: 'accepted' }
    })
    .catch((error: unknown) => {
      if (error instanceof BatchShort) return { kind: 'short', resource: error.resource } as const
      throw error
    })
  if (outcome.kind === 'accepted') deps.notifier.workAvailable()
  return outcome
}

/**
 * Takes a catalogue row's failed and canceled jobs of these modes out of its batch (the row is
 * being made again): they stay the user's history, but the batch's view, retry and completion
 * count only what the row is now. Run in the transaction that queues the new jobs.
 */
export async function detachSettledRowJobs(
  tx: Db,
  batchRowId: string,
  modes: readonly GenerationMode[],
): Promise<void> {
  if (modes.length === 0) return
  await tx
    .update(generations)
    .set({ batchRowId: null })
    .where(
      and(
        eq(generations.batchRowId, batchRowId),
        inArray(generations.status, ['failed', 'canceled']),
        inArray(generations.mode, [...modes]),
      ),
    )
}

class BatchShort extends Error {
  constructor(readonly resource: QuotaResource) {
    super(`batch needs more ${resource} than are left`)
  }
}

/**
 * Reserves a unit for each job that holds one (plan first, then credits), per resource, all or
 * nothing: a resource with no hold is QUOTA_EXCEEDED; one short throws BatchShort, rolling back
 * what the other resource reserved (the callers turn it into their answer). Returns the
 * reservations' ids per resource, one per job, to be popped as the jobs are written.
 */
async function reserveBatchUnits(
  tx: Db,
  quota: JobOutcomes['quota'],
  holds: Partial<Record<QuotaResource, QuotaHold>>,
  resources: (QuotaResource | null)[],
): Promise<Map<QuotaResource, string[]>> {
  const reservations = new Map<QuotaResource, string[]>()
  for (const resource of ['images', 'videos'] as const) {
    const count = resources.filter((held) => held === resource).length
    if (count === 0) continue
    const hold = holds[resource]
    if (!hold) throw quota.exceeded(resource)
    const ids = await quota.reserveUnits(tx, hold, count)
    if (!ids) throw new BatchShort(resource)
    reservations.set(resource, ids)
  }
  return reservations
}

/** The batch's jobs, as a subquery of ids. */
function batchJobsOf(batchId: string) {
  return sql`${generations.batchRowId} in (select ${catalogueRows.id} from ${catalogueRows}
    where ${catalogueRows.batchId} = ${batchId})`
}

/**
 * Cancels what of a batch has not finished: queued jobs at once, their quota given back in the
 * same transaction; running ones flagged, for their workers to stop (and give theirs back).
 * Returns how many were canceled at once.
 */
export async function cancelBatchJobs(deps: JobOutcomeDeps, batchId: string, now: Date): Promise<number> {
  const canceled = await deps.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db
    const rows = await tx
      .update(generations)
      .set({ status: 'canceled', errorCode: 'GENERATION_CANCELED', finishedAt: now })
      .where(and(batchJobsOf(batchId), eq(generations.status, 'queued')))
      .returning({
        id: generations.id,
        userId: generations.userId,
        reservationId: generations.quotaReservationId,
      })
    await deps.outcomes.quota.releaseUnits(
      tx,
      rows.flatMap((row) => (row.reservationId ? [row.reservationId] : [])),
      now,
    )
    await tx
      .update(generations)
      .set({ cancelRequested: true })
      .where(and(batchJobsOf(batchId), eq(generations.status, 'running')))
    return rows
  })
  for (const row of canceled) deps.notifier.generationChanged(row.id, undefined, undefined, row.userId)
  deps.notifier.workAvailable()
  return canceled.length
}

/**
 * Queues a batch's failed jobs again, each with a new unit of quota (theirs was given back when
 * they failed), all or nothing. A video whose image failed waits for the image again.
 */
export async function retryBatchJobs(
  deps: JobOutcomeDeps,
  input: { batchId: string; holds: Partial<Record<QuotaResource, QuotaHold>>; now: Date },
): Promise<BatchAcceptance & { retried?: number }> {
  const { quota } = deps.outcomes
  const outcome = await deps.db
    .transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db
      const failed = await tx
        .select({
          id: generations.id,
          userId: generations.userId,
          mode: generations.mode,
          usesOwnKey: generations.usesOwnKey,
        })
        .from(generations)
        .where(and(batchJobsOf(input.batchId), eq(generations.status, 'failed')))
        .for('update')
      const resourceOf = (job: (typeof failed)[number]): QuotaResource | null =>
        job.usesOwnKey || job.mode === 'seo' ? null : job.mode === 'image' ? 'images' : 'videos'
      const reservations = await reserveBatchUnits(tx, quota, input.holds, failed.map(resourceOf))
      for (const job of failed) {
        const resource = resourceOf(job)
        await tx
          .update(generations)
          .set({
            status: 'queued',
            errorCode: null,
            result: null,
            attempts: 0,
            runAfter: input.now,
            finishedAt: null,
            startedAt: null,
            providerRequestId: null,
            queuePosition: null,
            cancelRequested: false,
            quotaReservationId: resource ? (reservations.get(resource)?.pop() ?? null) : null,
          })
          .where(eq(generations.id, job.id))
      }
      return { kind: 'accepted' as const, retried: failed.length, jobs: failed }
    })
    .catch((error: unknown) => {
      if (error instanceof BatchShort) return { kind: 'short' as const, resource: error.resource }
      throw error
    })
  if (outcome.kind === 'short') return outcome
  for (const job of outcome.jobs) deps.notifier.generationChanged(job.id, undefined, undefined, job.userId)
  deps.notifier.workAvailable()
  return { kind: 'accepted', retried: outcome.retried }
}
