import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Config } from '#server/config.ts'
import {
  type CatalogueBatchRow,
  catalogueBatches,
  catalogueRows,
  isProductRow,
} from '#server/db/schema/index.ts'
import type { EventRecorder } from '#server/events/recorder.ts'
import type { AssetStorageDeps } from '#server/features/assets/assets.service.ts'
import {
  type BatchOutputPlan,
  type BatchProduct,
  batchOutputs,
  batchQuota,
  cancelBatch,
  queueBatch,
  retryBatch,
} from '#server/features/generations/batches.service.ts'
import type { GenerationDeps } from '#server/features/generations/generations.service.ts'
import type { MarketplaceDeps } from '#server/features/marketplaces/marketplaces.service.ts'
import type { Logger } from '#server/logger.ts'
import type { PublicRequestDeps } from '#server/net/public-request.ts'
import type { RateLimiter, RateLimitRule } from '#server/rate-limit/rate-limiter.ts'
import type {
  BatchCounts,
  BatchListResponse,
  BatchRowState,
  BatchRowView,
  BatchView,
  CatalogueImportView,
  SavedMappingResponse,
  StartBatchRequest,
} from '#shared/contracts/catalogue.ts'
import { AppError } from '#shared/errors.ts'
import {
  importView,
  isProduct,
  ownedBatch,
  quotaShort,
  removeDraft,
  requireDraft,
  rowsOf,
  savedMappingOf,
  seoDetails,
  summaryOf,
} from './batch-rows.ts'
import { finishBatchIfSettled } from './finish-batch.service.ts'
import type { ListReader } from './import/list-reader.ts'

// The catalogue (decision 24): a product list becomes a draft batch (its rows kept with their
// problems), its photos are checked and stored under the confirmed mapping, and starting it
// queues every output of every good row at once on the generation queue, with the quota for all
// of them. Progress, cancel and retry read and change those generations.

export type CatalogueDeps = AssetStorageDeps & {
  generations: GenerationDeps
  /** The public-address guard's settings, for image addresses in a list. */
  fetch: PublicRequestDeps
  log: Logger
  now: () => Date
  /** Records a finished batch's event with it (the webhooks' deliveries). */
  events: EventRecorder
  /**
   * The marketplace feature's measurements, segmenter and video slots, for exports of batches
   * with a preset; without it a preset batch exports its files as stored.
   */
  marketplaces?: MarketplaceDeps
  /** Reads product lists and indexes photo ZIPs off the main thread (the process's one, made by main.ts). */
  listReader: ListReader
  /** The photo step's deadline for one import, in seconds (CATALOGUE_PHOTO_STEP_SECONDS). */
  photoStepSeconds?: number
}

/** The per-account limits on the catalogue's costly steps (RATE_LIMITED past them). */
export type CatalogueRateLimits = {
  rateLimiter: RateLimiter
  limits: Pick<Config['limits'], 'catalogueImportsPerHour' | 'cataloguePhotoChecksPerHour'>
}

export function catalogueRateLimits(limits: CatalogueRateLimits['limits']): {
  imports: RateLimitRule
  photoChecks: RateLimitRule
} {
  return {
    imports: { name: 'catalogue-import', limit: limits.catalogueImportsPerHour, windowSeconds: 3_600 },
    photoChecks: {
      name: 'catalogue-photos',
      limit: limits.cataloguePhotoChecksPerHour,
      windowSeconds: 3_600,
    },
  }
}

/** Counts an import (or a photo check) against the account's hourly limit before its body is read. */
export async function admitCatalogueStep(
  deps: CatalogueRateLimits,
  userId: string,
  step: 'imports' | 'photoChecks',
): Promise<void> {
  await deps.rateLimiter.consume(catalogueRateLimits(deps.limits)[step], userId)
}

// --- Start -------------------------------------------------------------------------------------

/**
 * Starts a draft: every output of every product (or of the first `limitRows`, when the user
 * chose so after a short answer) queued at once with the quota for all of them. When the quota
 * left does not cover them: CATALOGUE_QUOTA_SHORT with how many fit, and nothing starts.
 */
export async function startBatch(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
  request: StartBatchRequest & { outputs: BatchOutputPlan },
): Promise<BatchView> {
  const batch = await requireDraft(deps.db, userId, batchId)
  if (!batch.photosCheckedAt) throw new AppError('CATALOGUE_PHOTOS_UNCHECKED', 'Photos not checked yet')
  const rows = await rowsOf(deps.db, batch.id)
  const ready = rows.filter((row) => isProduct(row) && row.inputAssetId)
  if (ready.length === 0) throw new AppError('CATALOGUE_NO_PRODUCTS', 'No row can become a product')
  const chosen = request.limitRows ? ready.slice(0, request.limitRows) : ready
  const quota = await batchQuota(deps.generations, userId, request.outputs, chosen.length)
  if (quota.fits < chosen.length) throw quotaShort(quota)
  const products: BatchProduct[] = chosen.map((row) => ({
    batchRowId: row.id,
    inputAssetId: row.inputAssetId as string,
    details: seoDetails(batch, row),
  }))
  const accepted = await queueBatch(deps.generations, userId, {
    products,
    outputs: request.outputs,
    holds: quota.holds,
    within: async (tx) => {
      const [started] = await tx
        .update(catalogueBatches)
        .set({
          status: 'running',
          outputs: request.outputs,
          presetId: request.presetId ?? null,
          startedAt: deps.now(),
        })
        .where(and(eq(catalogueBatches.id, batch.id), eq(catalogueBatches.status, 'draft')))
        .returning({ id: catalogueBatches.id })
      if (!started) throw new AppError('CATALOGUE_BATCH_STARTED', 'The batch has started')
    },
  })
  if (accepted.kind === 'short') {
    // Spent between the check and the start (another request): say so with fresh numbers.
    throw quotaShort(await batchQuota(deps.generations, userId, request.outputs, chosen.length))
  }
  return getBatchView(deps, userId, batch.id)
}

// --- Progress ----------------------------------------------------------------------------------

function rowState(outputs: { status: string }[]): BatchRowState {
  if (outputs.some((output) => output.status === 'running')) return 'running'
  if (outputs.some((output) => output.status === 'queued')) return 'queued'
  if (outputs.some((output) => output.status === 'failed')) return 'failed'
  if (outputs.length > 0 && outputs.every((output) => output.status === 'canceled')) return 'canceled'
  if (outputs.some((output) => output.status === 'canceled')) return 'failed'
  return 'done'
}

/** Seconds left at the pace so far: finished products per second since the start. */
function etaSeconds(batch: CatalogueBatchRow, counts: BatchCounts, now: Date): number | null {
  const left = counts.queued + counts.running
  const finished = counts.done + counts.failed
  if (!batch.startedAt || left === 0 || finished === 0) return null
  const elapsed = (now.getTime() - batch.startedAt.getTime()) / 1000
  return Math.max(1, Math.round((elapsed / finished) * left))
}

/**
 * The batch with its rows' states (products only, once started), counts and ETA. A running batch
 * whose generations have all settled is marked finished here, the first time it is read so.
 */
export async function getBatchView(deps: CatalogueDeps, userId: string, batchId: string): Promise<BatchView> {
  let batch = await ownedBatch(deps.db, userId, batchId)
  const rows = await rowsOf(deps.db, batch.id)
  const products = rows.filter(isProduct)
  const { byRow, photos } = await batchOutputs(
    deps.db,
    products.map((row) => row.id),
    products.flatMap((row) => (row.inputAssetId ? [row.inputAssetId] : [])),
  )
  const started = batch.status === 'draft' ? [] : products.filter((row) => byRow.has(row.id))
  const views: BatchRowView[] = started.map((row) => {
    const outputs = byRow.get(row.id) ?? []
    return {
      id: row.id,
      line: row.line,
      sku: row.sku,
      name: row.name,
      state: rowState(outputs),
      photo: row.inputAssetId ? (photos.get(row.inputAssetId) ?? null) : null,
      outputs,
      isCopyEdited: row.copyEdit !== null,
      excludedResults: row.excludedResults,
    }
  })
  const counts: BatchCounts = { queued: 0, running: 0, done: 0, failed: 0, canceled: 0 }
  for (const view of views) counts[view.state] += 1
  if (batch.status === 'running' && counts.queued + counts.running === 0) {
    const finished = await finishBatchIfSettled(
      { db: deps.db, now: deps.now, notifier: deps.generations.notifier, events: deps.events },
      batch.id,
    )
    if (finished) batch = finished
  }
  return {
    batch: summaryOf(batch, { rows: rows.length, products: products.length }),
    outputs: batch.outputs,
    counts,
    etaSeconds: etaSeconds(batch, counts, deps.now()),
    rows: views,
  }
}

/** The user's batches, newest first, with their row and product counts. */
export async function listBatches(deps: CatalogueDeps, userId: string): Promise<BatchListResponse> {
  const batches = await deps.db
    .select()
    .from(catalogueBatches)
    .where(eq(catalogueBatches.userId, userId))
    .orderBy(desc(catalogueBatches.createdAt))
    .limit(100)
  if (batches.length === 0) return { batches: [] }
  // Counted apart, not in a correlated subquery: Drizzle writes the columns of selected `sql`
  // unqualified, so `batch_id = id` inside one compared the row's own id and counted nothing.
  const counts = await deps.db
    .select({
      batchId: catalogueRows.batchId,
      rows: sql<number>`count(*)::int`,
      products: sql<number>`(count(*) filter (where ${isProductRow}))::int`,
    })
    .from(catalogueRows)
    .where(
      inArray(
        catalogueRows.batchId,
        batches.map((batch) => batch.id),
      ),
    )
    .groupBy(catalogueRows.batchId)
  const countsOf = new Map(counts.map((row) => [row.batchId, row]))
  return {
    batches: batches.map((batch) => {
      const counted = countsOf.get(batch.id)
      return summaryOf(batch, { rows: Number(counted?.rows ?? 0), products: Number(counted?.products ?? 0) })
    }),
  }
}

/** A draft as the import steps show it (to come back to an import). */
export async function getImportView(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
): Promise<CatalogueImportView> {
  const batch = await ownedBatch(deps.db, userId, batchId)
  return importView(batch, await rowsOf(deps.db, batch.id))
}

/** Cancels what of a started batch has not finished; its quota is given back. */
export async function cancelCatalogueBatch(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
): Promise<BatchView> {
  const batch = await ownedBatch(deps.db, userId, batchId)
  if (batch.status === 'draft') throw new AppError('CATALOGUE_BATCH_NOT_STARTED', 'The batch has not started')
  // Canceled before its jobs are: once they are all settled, anyone looking (the worker, a
  // polling view) would otherwise mark it finished and send batch.completed for a batch the
  // seller canceled. A batch that finished first stays finished; then there is nothing to cancel.
  if (batch.status === 'running') {
    await deps.db
      .update(catalogueBatches)
      .set({ status: 'canceled', finishedAt: deps.now() })
      .where(and(eq(catalogueBatches.id, batch.id), eq(catalogueBatches.status, 'running')))
  }
  await cancelBatch(deps.generations, batch.id)
  return getBatchView(deps, userId, batch.id)
}

/** Queues the failed outputs of a started batch again, with new quota (all or nothing). */
export async function retryCatalogueBatch(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
): Promise<BatchView> {
  const batch = await ownedBatch(deps.db, userId, batchId)
  if (batch.status === 'draft' || !batch.outputs) {
    throw new AppError('CATALOGUE_BATCH_NOT_STARTED', 'The batch has not started')
  }
  const view = await getBatchView(deps, userId, batch.id)
  const failedRows = view.rows.filter((row) => row.state === 'failed').length
  const quota = await batchQuota(deps.generations, userId, batch.outputs, failedRows)
  const retried = await retryBatch(deps.generations, batch.id, quota.holds)
  if (retried.kind === 'short') throw quotaShort(quota)
  await deps.db
    .update(catalogueBatches)
    .set({ status: 'running', finishedAt: null })
    .where(eq(catalogueBatches.id, batch.id))
  return getBatchView(deps, userId, batch.id)
}

/** Drafts left this long (never started) are deleted with their photos by the sweep. */
export const draftRetentionDays = 7

/**
 * Deletes drafts older than the retention, with their stored photos; run by the upload sweep.
 * Returns how many went.
 */
export async function sweepStaleDrafts(
  deps: Pick<CatalogueDeps, 'db' | 'storage' | 'log'>,
  now: Date,
): Promise<number> {
  const cutoff = new Date(now.getTime() - draftRetentionDays * 86_400_000)
  const stale = await deps.db
    .select({ id: catalogueBatches.id, userId: catalogueBatches.userId })
    .from(catalogueBatches)
    .where(
      and(
        eq(catalogueBatches.status, 'draft'),
        sql`${catalogueBatches.createdAt} < ${cutoff.toISOString()}::timestamptz`,
      ),
    )
    .limit(100)
  for (const draft of stale) await removeDraft(deps, draft)
  return stale.length
}

export async function getSavedMapping(deps: CatalogueDeps, userId: string): Promise<SavedMappingResponse> {
  return { mapping: (await savedMappingOf(deps.db, userId)) ?? {} }
}
