import { and, eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import {
  type CatalogueBatchRow,
  type CatalogueRowRow,
  catalogueBatches,
  catalogueMappings,
  catalogueRows,
} from '#server/db/schema/index.ts'
import { deleteUnusedUploads } from '#server/features/assets/assets.service.ts'
import type { batchQuota } from '#server/features/generations/batches.service.ts'
import type { ColumnMapping, SavedMapping } from '#shared/catalogue/columns.ts'
import {
  type BatchSummary,
  type CatalogueImportView,
  previewRowCount,
  type QuotaShortDetails,
} from '#shared/contracts/catalogue.ts'
import { AppError } from '#shared/errors.ts'
import type { ProductDetails } from '#shared/seo.ts'
import type { CatalogueDeps } from './catalogue.service.ts'
import type { ListRow } from './import/read-product-list.ts'

// A batch and its rows as the catalogue's services read them: the seller's own batch (or
// NOT_FOUND), its rows in list order, the import's view of them, a draft that has not started,
// and what a row's products are written from. Internal to the feature (not a service).

export async function ownedBatch(db: Db, userId: string, batchId: string): Promise<CatalogueBatchRow> {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(batchId)
  const [batch] = isUuid
    ? await db
        .select()
        .from(catalogueBatches)
        .where(and(eq(catalogueBatches.id, batchId), eq(catalogueBatches.userId, userId)))
    : []
  if (!batch) throw new AppError('NOT_FOUND', 'No such batch')
  return batch
}

export async function rowsOf(db: Db, batchId: string): Promise<CatalogueRowRow[]> {
  return db.select().from(catalogueRows).where(eq(catalogueRows.batchId, batchId)).orderBy(catalogueRows.line)
}

export function isProduct(row: Pick<CatalogueRowRow, 'problems'>): boolean {
  return row.problems.length === 0
}

export function summaryOf(
  batch: CatalogueBatchRow,
  counts: { rows: number; products: number },
): BatchSummary {
  return {
    id: batch.id,
    status: batch.status,
    fileName: batch.fileName,
    rowCount: counts.rows,
    productCount: counts.products,
    presetId: batch.presetId,
    createdAt: batch.createdAt.toISOString(),
    startedAt: batch.startedAt?.toISOString() ?? null,
    finishedAt: batch.finishedAt?.toISOString() ?? null,
  }
}

export function listRowOf(row: CatalogueRowRow): ListRow {
  const links = Object.entries(row.links)
  return {
    line: row.line,
    cells: row.cells,
    tooLong: row.tooLong,
    ...(links.length > 0 ? { links: new Map(links.map(([column, url]) => [Number(column), url])) } : {}),
  }
}

export function importView(batch: CatalogueBatchRow, rows: CatalogueRowRow[]): CatalogueImportView {
  const imageRefsNamed = rows.some((row) => row.imageRefs.some((ref) => !/^https?:\/\//i.test(ref)))
  return {
    batch: summaryOf(batch, { rows: rows.length, products: rows.filter(isProduct).length }),
    headers: batch.headers,
    mapping: batch.mapping,
    sampleRows: rows.slice(0, previewRowCount).map((row) => ({ line: row.line, cells: row.cells })),
    problems: rows.flatMap((row) => row.problems),
    zipPhotoCount: batch.zipPhotoCount,
    photosChecked: batch.photosCheckedAt !== null,
    needsZip: imageRefsNamed,
  }
}

export async function requireDraft(db: Db, userId: string, batchId: string): Promise<CatalogueBatchRow> {
  const batch = await ownedBatch(db, userId, batchId)
  if (batch.status !== 'draft') throw new AppError('CATALOGUE_BATCH_STARTED', 'The batch has started')
  return batch
}

export function quotaShort(quota: Awaited<ReturnType<typeof batchQuota>>): AppError {
  const details: QuotaShortDetails = { needed: quota.needed, available: quota.available, fits: quota.fits }
  return new AppError('CATALOGUE_QUOTA_SHORT', `Quota covers ${quota.fits} products`, details)
}

/** The text SEO copy is written from: the mapped fields a product has. */
export function seoDetails(batch: CatalogueBatchRow, row: CatalogueRowRow): ProductDetails {
  const cell = (field: keyof ColumnMapping) => {
    const column = batch.mapping[field]
    return column === undefined ? '' : (row.cells[column] ?? '').trim()
  }
  const details: Record<string, string> = {
    name: row.name.slice(0, 120),
    category: cell('category').slice(0, 80),
    brand: cell('brand').slice(0, 80),
    material: cell('material').slice(0, 80),
    color: cell('color').slice(0, 80),
    description: cell('description').slice(0, 1000),
  }
  return Object.fromEntries(Object.entries(details).filter(([, value]) => value !== ''))
}

/** The text of a mapped field of a row ('' when the field is not mapped). */
export function cellOf(batch: CatalogueBatchRow, row: CatalogueRowRow, field: keyof ColumnMapping): string {
  const column = batch.mapping[field]
  return column === undefined ? '' : (row.cells[column] ?? '').trim()
}

/** Removes a draft (still a draft when deleted) and then its stored photos. */
export async function removeDraft(
  deps: Pick<CatalogueDeps, 'db' | 'storage' | 'log'>,
  draft: { id: string; userId: string },
): Promise<void> {
  const rows = await rowsOf(deps.db, draft.id)
  await deps.db
    .delete(catalogueBatches)
    .where(and(eq(catalogueBatches.id, draft.id), eq(catalogueBatches.status, 'draft')))
  await deleteUnusedUploads(
    deps,
    draft.userId,
    rows.flatMap((row) => (row.inputAssetId ? [row.inputAssetId] : [])),
    deps.log,
  )
}

export async function savedMappingOf(db: Db, userId: string): Promise<SavedMapping | undefined> {
  const [saved] = await db
    .select({ mapping: catalogueMappings.mapping })
    .from(catalogueMappings)
    .where(eq(catalogueMappings.userId, userId))
  return saved?.mapping
}
