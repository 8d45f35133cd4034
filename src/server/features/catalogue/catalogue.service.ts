import { rm } from 'node:fs/promises'
import { and, desc, eq, inArray, sql } from 'drizzle-orm'
import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import type { AssetRow, GenerationRow } from '#server/db/schema/index.ts'
import {
  type CatalogueBatchRow,
  type CatalogueRowRow,
  catalogueBatches,
  catalogueMappings,
  catalogueRows,
  generations,
  isProductRow,
  type SubscriptionRow,
} from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import {
  type AssetStorageDeps,
  deleteUnusedUploads,
  storeRemoteUpload,
  storeUpload,
} from '#server/features/assets/assets.service.ts'
import {
  type BatchOutputPlan,
  type BatchProduct,
  batchOutputs,
  batchQuota,
  batchResults,
  cancelBatch,
  queueBatch,
  regenerateBatchRow,
  retryBatch,
} from '#server/features/generations/batches.service.ts'
import type { GenerationDeps } from '#server/features/generations/generations.service.ts'
import { type MarketplaceDeps, presetExporter } from '#server/features/marketplaces/marketplaces.service.ts'
import { getActiveSubscription } from '#server/features/quota/plan.service.ts'
import { insertBatchCompletedEvent } from '#server/features/webhooks/webhooks.service.ts'
import type { Logger } from '#server/logger.ts'
import type { PublicRequestDeps } from '#server/net/public-request.ts'
import type { RateLimiter, RateLimitRule } from '#server/rate-limit/rate-limiter.ts'
import {
  type ColumnMapping,
  type SavedMapping,
  type TextField,
  textFields,
  toSavedMapping,
} from '#shared/catalogue/columns.ts'
import type { RowProblem, RowProblemCode } from '#shared/catalogue/row-problems.ts'
import {
  type BatchCounts,
  type BatchListResponse,
  type BatchRowState,
  type BatchRowView,
  type BatchSummary,
  type BatchView,
  type CatalogueImportView,
  previewRowCount,
  type QuotaShortDetails,
  type RegenerateRowRequest,
  type RowCopyRequest,
  type RowCopyView,
  type SavedMappingResponse,
  type StartBatchRequest,
} from '#shared/contracts/catalogue.ts'
import { AppError, type ErrorCode } from '#shared/errors.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { isMarketplaceId } from '#shared/marketplaces/ids.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import type { ProductDetails, SeoContent } from '#shared/seo.ts'
import {
  type ExportFile,
  type ExportPreset,
  type ExportProduct,
  type ExportSeo,
  writeCatalogueExport,
} from './export/catalogue-export.ts'
import { type ListReader, sharedListReader } from './import/list-reader.ts'
import { type PhotoFinder, type PhotoZip, photoZipFromIndex } from './import/photo-zip.ts'
import type { ListRow } from './import/read-product-list.ts'
import { type CatalogueRow, type PhotoRef, validateRows } from './import/validate-rows.ts'

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
  /**
   * The marketplace feature's measurements, segmenter and video slots, for exports of batches
   * with a preset; without it a preset batch exports its files as stored.
   */
  marketplaces?: MarketplaceDeps
  /** Reads product lists off the main thread; the process's shared pool unless given (tests). */
  listReader?: ListReader
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

/** The photo step's deadline unless configured (CATALOGUE_PHOTO_STEP_SECONDS). */
const defaultPhotoStepSeconds = 90

/** Photos checked and stored at once while an import's photos step runs. */
const photoConcurrency = 4
/** Rows written per insert statement. */
const insertChunk = 250

// --- Reading a batch ---------------------------------------------------------------------------

async function ownedBatch(db: Db, userId: string, batchId: string): Promise<CatalogueBatchRow> {
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

async function rowsOf(db: Db, batchId: string): Promise<CatalogueRowRow[]> {
  return db.select().from(catalogueRows).where(eq(catalogueRows.batchId, batchId)).orderBy(catalogueRows.line)
}

function isProduct(row: Pick<CatalogueRowRow, 'problems'>): boolean {
  return row.problems.length === 0
}

function summaryOf(batch: CatalogueBatchRow, counts: { rows: number; products: number }): BatchSummary {
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

function listRowOf(row: CatalogueRowRow): ListRow {
  const links = Object.entries(row.links)
  return {
    line: row.line,
    cells: row.cells,
    tooLong: row.tooLong,
    ...(links.length > 0 ? { links: new Map(links.map(([column, url]) => [Number(column), url])) } : {}),
  }
}

function importView(batch: CatalogueBatchRow, rows: CatalogueRowRow[]): CatalogueImportView {
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

// --- Import: the list --------------------------------------------------------------------------

/**
 * Answers every photo name as found: the list step checks the text alone, and the photos step
 * checks the names against the ZIP.
 */
const anyPhotoName: PhotoFinder = {
  find: (reference) => ({
    status: 'found',
    entry: {
      path: reference,
      alternates: [],
      size: 0,
      compressedSize: 0,
      localHeaderOffset: 0,
      compressionMethod: 0,
    },
  }),
}

function refsOf(row: CatalogueRow): string[] {
  return row.photos.map((photo) => (photo.kind === 'url' ? photo.url : photo.reference))
}

/** The rows' values under a mapping, for storing (cells, links and cut columns stay as read). */
function rowValues(list: ListRow[], validated: CatalogueRow[]) {
  return validated.map((row, index) => {
    const source = list[index] as ListRow
    return {
      line: row.line,
      sku: row.sku,
      name: row.name,
      listing: row.listing,
      cells: source.cells,
      links: Object.fromEntries([...(source.links ?? new Map()).entries()].map(([k, v]) => [String(k), v])),
      tooLong: source.tooLong,
      imageRefs: refsOf(row),
      problems: row.problems,
    }
  })
}

async function savedMappingOf(db: Db, userId: string): Promise<SavedMapping | undefined> {
  const [saved] = await db
    .select({ mapping: catalogueMappings.mapping })
    .from(catalogueMappings)
    .where(eq(catalogueMappings.userId, userId))
  return saved?.mapping
}

async function rememberMapping(db: Db, userId: string, headers: string[], mapping: ColumnMapping) {
  const saved = toSavedMapping(headers, mapping)
  await db
    .insert(catalogueMappings)
    .values({ userId, mapping: saved })
    .onConflictDoUpdate({ target: catalogueMappings.userId, set: { mapping: saved, updatedAt: new Date() } })
}

/**
 * Reads a product list into a draft batch: the header, every row with its text problems under
 * the suggested mapping (the user's last one where its headers are present). Whole-file
 * problems are CATALOGUE_* errors and store nothing.
 */
export async function importList(
  deps: CatalogueDeps,
  userId: string,
  /** The list's bytes, or the file it was received into (read on the list reader's thread). */
  file: { name: string; bytes: Buffer } | { name: string; path: string },
): Promise<CatalogueImportView> {
  await requirePlan(deps.db, userId, deps.now())
  const reader = deps.listReader ?? sharedListReader()
  const list = await reader.read('path' in file ? { path: file.path } : file.bytes, file.name, {
    savedMapping: await savedMappingOf(deps.db, userId),
  })
  const mapping = list.suggestedMapping
  const validated = validateMapped(list, mapping)
  const values = rowValues(list.rows, validated)
  const batch = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(catalogueBatches)
      .values({ userId, fileName: cleanFileName(file.name), headers: list.headers, mapping })
      .returning()
    if (!created) throw new Error('batch insert returned no row')
    for (let at = 0; at < values.length; at += insertChunk) {
      await tx
        .insert(catalogueRows)
        .values(values.slice(at, at + insertChunk).map((v) => ({ ...v, batchId: created.id })))
    }
    return created
  })
  return importView(batch, await rowsOf(deps.db, batch.id))
}

/** Validates the text under a mapping; a mapping without SKU or name is checked later, on change. */
function validateMapped(
  list: { headers: string[]; rows: ListRow[] },
  mapping: ColumnMapping,
): CatalogueRow[] {
  try {
    return validateRows(list, mapping, anyPhotoName).rows
  } catch (error) {
    // The suggested mapping lacks a required field (no header was recognised): every row waits
    // for the user's mapping, with the problem shown as the missing field.
    if (error instanceof AppError && error.code === 'VALIDATION_FAILED') {
      return list.rows.map((row) => ({
        sku: '',
        name: '',
        brand: '',
        category: '',
        color: '',
        material: '',
        description: '',
        line: row.line,
        listing: {},
        photos: [],
        imageUrls: [],
        problems: [{ line: row.line, code: mapping.sku === undefined ? 'skuEmpty' : 'nameEmpty' }],
        isValid: false,
      }))
    }
    throw error
  }
}

function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? 'list'
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what goes
  return base.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200) || 'list'
}

async function requirePlan(db: Db, userId: string, now: Date): Promise<SubscriptionRow> {
  const subscription = await getActiveSubscription(db, userId, now)
  if (!subscription) throw new AppError('NO_SUBSCRIPTION', 'No active plan')
  return subscription
}

async function requireDraft(db: Db, userId: string, batchId: string): Promise<CatalogueBatchRow> {
  const batch = await ownedBatch(db, userId, batchId)
  if (batch.status !== 'draft') throw new AppError('CATALOGUE_BATCH_STARTED', 'The batch has started')
  return batch
}

/**
 * Applies the user's mapping: every row checked again (text only), the mapping remembered for
 * the next import. Photos checked under the old mapping are dropped (their rows may name others).
 */
export async function updateMapping(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
  mapping: ColumnMapping,
): Promise<CatalogueImportView> {
  const batch = await requireDraft(deps.db, userId, batchId)
  const stored = await rowsOf(deps.db, batch.id)
  const list = { headers: batch.headers, rows: stored.map(listRowOf) }
  const validated = validateRows(list, mapping, anyPhotoName).rows
  const values = rowValues(list.rows, validated)
  const oldPhotos = stored.flatMap((row) => (row.inputAssetId ? [row.inputAssetId] : []))
  const updated = await deps.db.transaction(async (tx) => {
    await tx.delete(catalogueRows).where(eq(catalogueRows.batchId, batch.id))
    for (let at = 0; at < values.length; at += insertChunk) {
      await tx
        .insert(catalogueRows)
        .values(values.slice(at, at + insertChunk).map((v) => ({ ...v, batchId: batch.id })))
    }
    const [changed] = await tx
      .update(catalogueBatches)
      .set({ mapping, photosCheckedAt: null, zipPhotoCount: null })
      .where(eq(catalogueBatches.id, batch.id))
      .returning()
    return changed ?? batch
  })
  await rememberMapping(deps.db, userId, batch.headers, mapping)
  await deleteUnusedUploads(deps, userId, oldPhotos, deps.log)
  return importView(updated, await rowsOf(deps.db, batch.id))
}

// --- Import: the photos ------------------------------------------------------------------------

/** What a photo's failure is, as a row problem. */
function photoProblemOf(error: unknown): RowProblemCode | null {
  if (!(error instanceof AppError)) return null
  const code: ErrorCode = error.code
  if (code.startsWith('URL_')) return 'imageUnreachable'
  if (code === 'FILE_TYPE_INVALID' || code === 'IMAGE_UNREADABLE' || code === 'IMAGE_TOO_LARGE') {
    return 'imageNotAnImage'
  }
  if (code === 'FILE_TOO_LARGE') return 'photoTooLarge'
  return null
}

/** Runs `work` over `items`, at most `limit` at once. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++] as T
      await work(item)
    }
  })
  await Promise.all(lanes)
}

/**
 * Checks every row's photos under the batch's mapping against the ZIP at `zipPath` (or, with no
 * ZIP, the image addresses in the list), and stores each good row's first photo, checked and
 * cleaned like an upload (addresses fetched through the public-address guard). Rows whose photo
 * is missing, unreachable or not an image get that problem. The ZIP file is removed afterwards.
 */
export async function checkPhotos(
  deps: CatalogueDeps,
  userId: string,
  batchId: string,
  zip: { path: string } | null,
): Promise<CatalogueImportView> {
  try {
    const batch = await requireDraft(deps.db, userId, batchId)
    const subscription = await requirePlan(deps.db, userId, deps.now())
    const stored = await rowsOf(deps.db, batch.id)
    let photoZip: PhotoZip | null = null
    try {
      // The ZIP's directory is walked on the list reader's thread; photos are inflated here,
      // on zlib's thread pool, as rows need them.
      const reader = deps.listReader ?? sharedListReader()
      photoZip = zip ? photoZipFromIndex(zip.path, await reader.indexPhotoZip(zip.path)) : null
      const list = { headers: batch.headers, rows: stored.map(listRowOf) }
      const validated = validateRows(list, batch.mapping, photoZip)
      const stale = stored.flatMap((row) => (row.inputAssetId ? [row.inputAssetId] : []))
      const photoOf = new Map<number, string>()
      const extraProblems = new Map<number, RowProblem>()
      // One deadline for the whole step: 1,000 slow links 4 at a time would otherwise hold the
      // request for an hour. In-flight fetches are aborted at it; rows not reached are marked.
      const deadline = AbortSignal.timeout((deps.photoStepSeconds ?? defaultPhotoStepSeconds) * 1000)
      // Each distinct photo is stored once and shared by every row that names it: by address for
      // links, by content for ZIP entries (the same entry, or another entry with the same bytes).
      const once = new Map<string, Promise<AssetRow>>()
      const storeOnce = (key: string, store: () => Promise<AssetRow>): Promise<AssetRow> => {
        let stored = once.get(key)
        if (!stored) {
          stored = store()
          once.set(key, stored)
        }
        return stored
      }
      const storePhoto = (photo: PhotoRef): Promise<AssetRow> => {
        if (photo.kind === 'url') {
          return storeOnce(`url:${photo.url}`, () =>
            storeRemoteUpload(deps, userId, photo.url, subscription, { signal: deadline }),
          )
        }
        return storeOnce(`entry:${photo.entry.path}`, async () => {
          const bytes = await (photoZip as PhotoZip).readPhoto(photo.entry)
          // Web Crypto hashes on libuv's thread pool: a 10 MB photo never holds the event loop.
          const digest = Buffer.from(
            await crypto.subtle.digest(
              'SHA-256',
              new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength),
            ),
          ).toString('hex')
          return storeOnce(`sha256:${digest}`, () =>
            storeUpload(
              deps,
              userId,
              { bytes, name: photo.entry.path.split('/').pop() ?? 'photo' },
              subscription,
            ),
          )
        })
      }
      await eachLimited(
        validated.rows.filter((row) => row.isValid),
        photoConcurrency,
        async (row) => {
          const photo = row.photos[0] as PhotoRef
          const value = photo.kind === 'url' ? photo.url.slice(0, 200) : photo.reference.slice(0, 200)
          if (deadline.aborted) {
            extraProblems.set(row.line, { line: row.line, code: 'imageTimedOut', value })
            return
          }
          try {
            photoOf.set(row.line, (await storePhoto(photo)).id)
          } catch (error) {
            const code = deadline.aborted ? 'imageTimedOut' : photoProblemOf(error)
            if (!code) throw error
            extraProblems.set(row.line, { line: row.line, code, value })
          }
        },
      )
      const values = rowValues(list.rows, validated.rows)
      const updated = await deps.db.transaction(async (tx) => {
        await tx.delete(catalogueRows).where(eq(catalogueRows.batchId, batch.id))
        for (let at = 0; at < values.length; at += insertChunk) {
          await tx.insert(catalogueRows).values(
            values.slice(at, at + insertChunk).map((v) => {
              const extra = extraProblems.get(v.line)
              return {
                ...v,
                batchId: batch.id,
                problems: extra ? [...v.problems, extra] : v.problems,
                inputAssetId: photoOf.get(v.line) ?? null,
              }
            }),
          )
        }
        const [changed] = await tx
          .update(catalogueBatches)
          .set({ photosCheckedAt: deps.now(), zipPhotoCount: photoZip ? photoZip.entries.length : null })
          .where(eq(catalogueBatches.id, batch.id))
          .returning()
        return changed ?? batch
      })
      await deleteUnusedUploads(deps, userId, stale, deps.log)
      return importView(updated, await rowsOf(deps.db, batch.id))
    } finally {
      photoZip?.close()
    }
  } finally {
    if (zip) await rm(zip.path, { force: true })
  }
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

function quotaShort(quota: Awaited<ReturnType<typeof batchQuota>>): AppError {
  const details: QuotaShortDetails = { needed: quota.needed, available: quota.available, fits: quota.fits }
  return new AppError('CATALOGUE_QUOTA_SHORT', `Quota covers ${quota.fits} products`, details)
}

/** The text SEO copy is written from: the mapped fields a product has. */
function seoDetails(batch: CatalogueBatchRow, row: CatalogueRowRow): ProductDetails {
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
      { db: deps.db, now: deps.now, notifier: deps.generations.notifier },
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

/** Whether any of the batch's generations is still queued or running. */
function hasUnsettledJobs(batchId: string) {
  return sql`exists (select 1 from ${generations} g join ${catalogueRows} r on r.id = g.batch_row_id
    where r.batch_id = ${batchId} and g.status in ('queued', 'running'))`
}

/**
 * Marks a running batch finished once none of its generations is queued or running, and writes
 * its `batch.completed` webhook deliveries in the same transaction (so the event exists exactly
 * when the batch is finished). Called by the worker after each batch job ends and by
 * getBatchView; the guarded update makes whichever comes first the only one. Returns the batch
 * when this call finished it.
 */
export async function finishBatchIfSettled(
  deps: { db: Db; now: () => Date; notifier: Pick<Notifier, 'webhooksDue'> },
  batchId: string,
): Promise<CatalogueBatchRow | null> {
  // Most calls come while other jobs of the batch still run: a read, no transaction.
  const [open] = (
    (await deps.db.execute(sql`select ${hasUnsettledJobs(batchId)} as is_open`)) as unknown as {
      rows: { is_open: boolean }[]
    }
  ).rows
  if (open?.is_open) return null
  const now = deps.now()
  const outcome = await deps.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db
    const [finished] = await tx
      .update(catalogueBatches)
      .set({ status: 'finished', finishedAt: now })
      .where(
        and(
          eq(catalogueBatches.id, batchId),
          eq(catalogueBatches.status, 'running'),
          sql`not ${hasUnsettledJobs(batchId)}`,
        ),
      )
      .returning()
    if (!finished) return null
    // Each product's state as the batch view gives it (rowState), counted.
    const counted = (await tx.execute(sql`
      select count(*) filter (where state = 'done')::int as done,
        count(*) filter (where state = 'failed')::int as failed,
        count(*) filter (where state = 'canceled')::int as canceled
      from (
        select case when bool_or(g.status = 'failed') then 'failed'
          when bool_and(g.status = 'canceled') then 'canceled'
          when bool_or(g.status = 'canceled') then 'failed'
          else 'done' end as state
        from ${catalogueRows} r join ${generations} g on g.batch_row_id = r.id
        where r.batch_id = ${batchId}
        group by r.id
      ) products`)) as unknown as { rows: { done: number; failed: number; canceled: number }[] }
    const counts = counted.rows[0] ?? { done: 0, failed: 0, canceled: 0 }
    const events = await insertBatchCompletedEvent(tx, {
      userId: finished.userId,
      now,
      batch: {
        id: finished.id,
        status: 'finished',
        fileName: finished.fileName,
        createdAt: finished.createdAt.toISOString(),
        startedAt: finished.startedAt?.toISOString() ?? null,
        finishedAt: now.toISOString(),
        counts: {
          done: Number(counts.done),
          failed: Number(counts.failed),
          canceled: Number(counts.canceled),
        },
      },
    })
    return { finished, events }
  })
  if (!outcome) return null
  if (outcome.events > 0) deps.notifier.webhooksDue()
  return outcome.finished
}

/** The batch a catalogue row belongs to, then finishBatchIfSettled (the worker knows only the row). */
export async function finishBatchOfRow(
  deps: { db: Db; now: () => Date; notifier: Pick<Notifier, 'webhooksDue'> },
  batchRowId: string,
): Promise<CatalogueBatchRow | null> {
  const [row] = await deps.db
    .select({ batchId: catalogueRows.batchId })
    .from(catalogueRows)
    .where(eq(catalogueRows.id, batchRowId))
  return row ? finishBatchIfSettled(deps, row.batchId) : null
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

// --- Review before export ---------------------------------------------------------------------

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

/** The text of a mapped field of a row ('' when the field is not mapped). */
function cellOf(batch: CatalogueBatchRow, row: CatalogueRowRow, field: keyof ColumnMapping): string {
  const column = batch.mapping[field]
  return column === undefined ? '' : (row.cells[column] ?? '').trim()
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

/** Removes a draft (still a draft when deleted) and then its stored photos. */
async function removeDraft(
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

/** Deletes a draft with its stored photos; a started batch stays (its results are the user's). */
export async function deleteDraft(deps: CatalogueDeps, userId: string, batchId: string): Promise<void> {
  const batch = await requireDraft(deps.db, userId, batchId)
  await removeDraft(deps, batch)
}

// --- Export ------------------------------------------------------------------------------------

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
