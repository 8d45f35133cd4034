import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import type { AssetRow, CatalogueBatchRow, CatalogueRowRow, GenerationRow } from '#server/db/schema/index.ts'
import { catalogueRows } from '#server/db/schema/index.ts'
import { batchOutputs, batchResults } from '#server/features/generations/batches.service.ts'
import { presetExporter } from '#server/features/marketplaces/marketplace-export.service.ts'
import { type TextField, textFields } from '#shared/catalogue/columns.ts'
import type { BatchSummary } from '#shared/contracts/catalogue.ts'
import { AppError } from '#shared/errors.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { isMarketplaceId } from '#shared/marketplaces/ids.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import { cellOf, isProduct, ownedBatch, rowsOf, summaryOf } from './batch-rows.ts'
import type { CatalogueDeps } from './catalogue.service.ts'
import {
  type ExportFile,
  type ExportPreset,
  type ExportProduct,
  type ExportSeo,
  writeCatalogueExport,
} from './export/catalogue-export.ts'

// What goes out of a started batch: its ZIP (images, videos, listing.csv and .xlsx, with a
// marketplace's preset when one is chosen) and its finished products for publishing
// (features/publishing). Both read a row's results through outgoingResults, so what the seller
// left out in the review and their copy edit count the same everywhere.

/** Products read per page while an export is written (memory stays flat). */
const exportPage = 50

/** A download name for the batch's export: the list's name without its extension. */
export function exportFileName(batch: Pick<BatchSummary, 'fileName'>): string {
  const stem = batch.fileName.replace(/\.[^.]+$/, '').trim() || 'catalogue'
  return `${stem}-vitrin.zip`
}

/**
 * The owner's started batch, for its export; CATALOGUE_BATCH_NOT_STARTED for a draft.
 */
export async function exportableBatch(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
): Promise<BatchSummary> {
  const batch = await ownedBatch(deps.db, userId, batchId)
  if (batch.status === 'draft') throw new AppError('CATALOGUE_BATCH_NOT_STARTED', 'The batch has not started')
  return summaryOf(batch, { rows: 0, products: 0 })
}

/**
 * Writes the batch's results (products with at least one finished output, in list order) as a
 * ZIP to `out`, while reading them page by page: per SKU its images and video, then
 * listing.csv and listing.xlsx (catalogue/export). Rejects when the browser goes away.
 */
export async function writeBatchExport(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
  input: { out: NodeJS.WritableStream; locale: Locale; signal: AbortSignal; tempDir: string },
): Promise<void> {
  const batch = await ownedBatch(deps.db, userId, batchId)
  const db = deps.db
  async function* products(): AsyncIterable<ExportProduct> {
    let afterLine = 0
    for (;;) {
      const page = await db
        .select()
        .from(catalogueRows)
        .where(
          and(
            eq(catalogueRows.batchId, batch.id),
            sql`${catalogueRows.line} > ${afterLine}`,
            sql`jsonb_array_length(${catalogueRows.problems}) = 0`,
          ),
        )
        .orderBy(catalogueRows.line)
        .limit(exportPage)
      if (page.length === 0) return
      afterLine = (page.at(-1) as CatalogueRowRow).line
      const { byRow, assets } = await batchResults(
        db,
        page.map((row) => row.id),
      )
      for (const row of page) {
        const { files, seo } = outgoingResults(row, byRow.get(row.id) ?? [], assets)
        if (files.length === 0 && !seo) continue
        yield { line: row.line, sku: row.sku, name: row.name, cells: row.cells, files, seo }
      }
    }
  }
  const { marketplaces } = deps
  const presetId = batch.presetId
  const preset: ExportPreset | null =
    marketplaces && presetId !== null && isMarketplaceId(presetId)
      ? presetExporter(marketplaces, getProfile(presetId))
      : null
  await writeCatalogueExport(input.out, {
    headers: batch.headers,
    products: products(),
    openFile: (file) => deps.storage.getStream(file.storageKey),
    preset,
    locale: input.locale,
    signal: input.signal,
    tempDir: input.tempDir,
  })
}

/** A product's results as they leave Vitrin (export and publishing). */
export type OutgoingResults = {
  /** Its image and video results in output order (the main image first), each with its generation. */
  files: (ExportFile & { generationId: string })[]
  /** Its copy: the seller's edit, else the generated SEO result; null without either. */
  seo: ExportSeo | null
}

/**
 * What goes out of a product from its finished results (batchResults): what the seller left out
 * in the review (excluded_results) stays, and the seller's copy edit stands over the generated
 * copy. The one reading of a row's results for the export and for publishing a batch.
 */
function outgoingResults(
  row: CatalogueRowRow,
  results: GenerationRow[],
  assets: Map<string, AssetRow>,
): OutgoingResults {
  const files: OutgoingResults['files'] = []
  let seo: ExportSeo | null = null
  const excluded = new Set(row.excludedResults)
  for (const result of results) {
    // Left out in the review: neither its file nor (for copy) its text goes out.
    if (excluded.has(result.id)) continue
    const record = result.result
    if (record?.type === 'seo') {
      seo = {
        title: record.title,
        description: record.description,
        features: record.features,
        keywords: record.keywords,
      }
      continue
    }
    const asset = record ? assets.get(record.assetId) : undefined
    if (!record || !asset) continue
    files.push({
      generationId: result.id,
      assetId: asset.id,
      kind: record.type,
      mime: asset.mime,
      storageKey: asset.storageKey,
    })
  }
  // The seller's edit is the copy that goes out (listing, marketplace files and listings alike).
  if (row.copyEdit) seo = { ...row.copyEdit }
  return { files, seo }
}

// --- Publishing --------------------------------------------------------------------------------

/** A finished product of a batch as publishing takes it (features/publishing). */
export type PublishableRow = {
  row: CatalogueRowRow
  /** The row's mapped text fields that have a value (sku, name, brand, colour, material …). */
  fields: Partial<Record<TextField, string>>
  /** Every non-empty cell by its column's header (the first column of a header when repeated). */
  columns: Record<string, string>
  /** Image results in output order, the main image first (never empty). */
  imageGenerationIds: string[]
  /** The row's video result going out, if it has one (a listing takes one video). */
  videoGenerationId: string | null
  seo: ExportSeo | null
}

/**
 * The owner's batch's products that can be published: rows whose outputs have all settled (none
 * queued or running) with at least one image result going out (outgoingResults), in list order.
 * NOT_FOUND for another's batch; a draft has none.
 */
export async function publishableRows(
  db: Db,
  userId: string,
  batchId: string,
): Promise<{ batch: CatalogueBatchRow; rows: PublishableRow[] }> {
  const batch = await ownedBatch(db, userId, batchId)
  if (batch.status === 'draft') return { batch, rows: [] }
  const products = (await rowsOf(db, batch.id)).filter(isProduct)
  const ids = products.map((row) => row.id)
  const [{ byRow: outputs }, { byRow: results, assets }] = await Promise.all([
    batchOutputs(db, ids, []),
    batchResults(db, ids),
  ])
  const rows: PublishableRow[] = []
  for (const row of products) {
    const settled = (outputs.get(row.id) ?? []).every(
      (output) => output.status !== 'queued' && output.status !== 'running',
    )
    if (!settled) continue
    const { files, seo } = outgoingResults(row, results.get(row.id) ?? [], assets)
    const images = files.filter((file) => file.kind === 'image')
    if (images.length === 0) continue
    const fields: Partial<Record<TextField, string>> = {}
    for (const field of textFields) {
      const text = cellOf(batch, row, field)
      if (text !== '') fields[field] = text
    }
    const columns: Record<string, string> = {}
    batch.headers.forEach((header, index) => {
      const cell = (row.cells[index] ?? '').trim()
      if (header.trim() !== '' && cell !== '' && !(header in columns)) columns[header] = cell
    })
    rows.push({
      row,
      fields,
      columns,
      imageGenerationIds: images.map((file) => file.generationId),
      videoGenerationId: files.find((file) => file.kind === 'video')?.generationId ?? null,
      seo,
    })
  }
  return { batch, rows }
}
