import { and, eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import {
  type CatalogueBatchRow,
  type CatalogueRowRow,
  catalogueBatches,
  catalogueRows,
  isProductRow,
} from '#server/db/schema/index.ts'
import {
  type BatchOutputPlan,
  batchOutputs,
  batchQuota,
  batchResults,
  regenerateBatchRow,
} from '#server/features/generations/batches.service.ts'
import type {
  BatchView,
  RegenerateRowRequest,
  RowCopyRequest,
  RowCopyView,
} from '#shared/contracts/catalogue.ts'
import { AppError } from '#shared/errors.ts'
import type { SeoContent } from '#shared/seo.ts'
import { cellOf, ownedBatch, quotaShort, removeDraft, requireDraft, seoDetails } from './batch-rows.ts'
import { type CatalogueDeps, getBatchView } from './catalogue.service.ts'

// Review before export (decision 41): a row's copy edited, reverted, its outputs left out, a row
// made again, and a draft batch deleted.

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * One product of the owner's started batch, for its review; NOT_FOUND for another's batch, a
 * row of another batch or a row with problems (never a product), CATALOGUE_BATCH_NOT_STARTED
 * for a draft.
 */
async function reviewedRow(
  db: Db,
  userId: string,
  batchId: string,
  rowId: string,
): Promise<{ batch: CatalogueBatchRow; row: CatalogueRowRow }> {
  const batch = await ownedBatch(db, userId, batchId)
  const [row] = uuidPattern.test(rowId)
    ? await db
        .select()
        .from(catalogueRows)
        .where(and(eq(catalogueRows.id, rowId), eq(catalogueRows.batchId, batch.id), isProductRow))
    : []
  if (!row) throw new AppError('NOT_FOUND', 'No such product')
  if (batch.status === 'draft') throw new AppError('CATALOGUE_BATCH_NOT_STARTED', 'The batch has not started')
  return { batch, row }
}

async function rowCopyView(db: Db, batch: CatalogueBatchRow, row: CatalogueRowRow): Promise<RowCopyView> {
  const { byRow } = await batchResults(db, [row.id])
  const seo = (byRow.get(row.id) ?? []).find((result) => result.result?.type === 'seo')?.result
  const generated: SeoContent | null =
    seo?.type === 'seo'
      ? { title: seo.title, description: seo.description, features: seo.features, keywords: seo.keywords }
      : null
  return { rowId: row.id, generated, edited: row.copyEdit, brand: cellOf(batch, row, 'brand') || null }
}

/** One product's copy: what was generated and the seller's edit. */
export async function getRowCopy(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
  rowId: string,
): Promise<RowCopyView> {
  const { batch, row } = await reviewedRow(deps.db, userId, batchId, rowId)
  return rowCopyView(deps.db, batch, row)
}

/** Stores the seller's copy for one product (checked by rowCopyRequestSchema); the export uses it. */
export async function saveRowCopy(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
  rowId: string,
  copy: RowCopyRequest,
): Promise<RowCopyView> {
  const { batch, row } = await reviewedRow(deps.db, userId, batchId, rowId)
  const edit: SeoContent = {
    title: copy.title,
    description: copy.description,
    features: copy.features,
    keywords: copy.keywords,
  }
  const [updated] = await deps.db
    .update(catalogueRows)
    .set({ copyEdit: edit })
    .where(eq(catalogueRows.id, row.id))
    .returning()
  return rowCopyView(deps.db, batch, updated ?? row)
}

/** Drops the seller's edit: the generated copy goes out again. */
export async function revertRowCopy(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
  rowId: string,
): Promise<RowCopyView> {
  const { batch, row } = await reviewedRow(deps.db, userId, batchId, rowId)
  const [updated] = await deps.db
    .update(catalogueRows)
    .set({ copyEdit: null })
    .where(eq(catalogueRows.id, row.id))
    .returning()
  return rowCopyView(deps.db, batch, updated ?? row)
}

/**
 * Which of one product's outputs stay out of the export. Only the row's own outputs can be named
 * (another id is a validation error, so a typo never silently leaves everything in).
 */
export async function setRowExclusions(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
  rowId: string,
  excluded: string[],
): Promise<BatchView> {
  const { batch, row } = await reviewedRow(deps.db, userId, batchId, rowId)
  const { byRow } = await batchOutputs(deps.db, [row.id], [])
  const own = new Set((byRow.get(row.id) ?? []).map((output) => output.generationId))
  const unknown = excluded.findIndex((id) => !own.has(id))
  if (unknown >= 0) {
    throw new AppError('VALIDATION_FAILED', 'Not an output of this product', {
      fields: { [`excluded.${unknown}`]: 'invalid' },
    })
  }
  await deps.db
    .update(catalogueRows)
    .set({ excludedResults: [...new Set(excluded)] })
    .where(eq(catalogueRows.id, row.id))
  return getBatchView(deps, userId, batch.id)
}

/**
 * Makes one product again as new jobs: every output the batch makes (images and videos with
 * their quota, all or nothing: CATALOGUE_QUOTA_SHORT), or only its SEO copy (no quota). New copy
 * replaces the seller's edit, which the page says before. CATALOGUE_ROW_BUSY while any of the
 * row's outputs is still queued or running. A finished batch runs again until the row is done.
 */
export async function regenerateRow(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
  rowId: string,
  request: RegenerateRowRequest,
): Promise<BatchView> {
  const { batch, row } = await reviewedRow(deps.db, userId, batchId, rowId)
  if (!batch.outputs || !row.inputAssetId) {
    throw new AppError('CATALOGUE_BATCH_NOT_STARTED', 'The product was not started')
  }
  const { byRow } = await batchOutputs(deps.db, [row.id], [])
  const current = byRow.get(row.id) ?? []
  if (current.length === 0) throw new AppError('CATALOGUE_BATCH_NOT_STARTED', 'The product was not started')
  if (current.some((output) => output.status === 'queued' || output.status === 'running')) {
    throw new AppError('CATALOGUE_ROW_BUSY', 'The product is still being made')
  }
  const outputs: BatchOutputPlan = request.scope === 'seo' ? { seo: true } : batch.outputs
  const quota = await batchQuota(deps.generations, userId, outputs, 1)
  if (quota.fits < 1) throw quotaShort(quota)
  const accepted = await regenerateBatchRow(deps.generations, userId, {
    product: { batchRowId: row.id, inputAssetId: row.inputAssetId, details: seoDetails(batch, row) },
    outputs,
    holds: quota.holds,
    within: async (tx) => {
      // New copy is what the seller asked for: it replaces the edit.
      if (outputs.seo)
        await tx.update(catalogueRows).set({ copyEdit: null }).where(eq(catalogueRows.id, row.id))
      await tx
        .update(catalogueBatches)
        .set({ status: 'running', finishedAt: null })
        .where(eq(catalogueBatches.id, batch.id))
    },
  })
  if (accepted.kind === 'short') throw quotaShort(await batchQuota(deps.generations, userId, outputs, 1))
  return getBatchView(deps, userId, batch.id)
}

/** Deletes a draft with its stored photos; a started batch stays (its results are the user's). */
export async function deleteDraft(deps: CatalogueDeps, userId: string, batchId: string): Promise<void> {
  const batch = await requireDraft(deps.db, userId, batchId)
  await removeDraft(deps, batch)
}
