import { rm } from 'node:fs/promises'
import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import type { AssetRow } from '#server/db/schema/index.ts'
import {
  catalogueBatches,
  catalogueMappings,
  catalogueRows,
  type SubscriptionRow,
} from '#server/db/schema/index.ts'
import {
  deleteUnusedUploads,
  storeRemoteUpload,
  storeUpload,
} from '#server/features/assets/assets.service.ts'
import { getActiveSubscription } from '#server/plans/live-plan.ts'
import { type ColumnMapping, toSavedMapping } from '#shared/catalogue/columns.ts'
import type { RowProblem, RowProblemCode } from '#shared/catalogue/row-problems.ts'
import type { CatalogueImportView } from '#shared/contracts/catalogue.ts'
import { AppError, type ErrorCode } from '#shared/errors.ts'
import { importView, listRowOf, requireDraft, rowsOf, savedMappingOf } from './batch-rows.ts'
import type { CatalogueDeps } from './catalogue.service.ts'
import { type PhotoFinder, type PhotoZip, photoZipFromIndex } from './import/photo-zip.ts'
import type { ListRow } from './import/read-product-list.ts'
import { type CatalogueRow, type PhotoRef, validateRows } from './import/validate-rows.ts'

// A catalogue's import: the seller's product list read (on a worker thread, within its budget),
// its columns mapped, then the photos its rows name fetched, unzipped or matched, each stored
// once. What comes after (start, progress, review, export) is catalogue.service.ts.

/** The photo step's deadline unless configured (CATALOGUE_PHOTO_STEP_SECONDS). */
const defaultPhotoStepSeconds = 90

/** Photos checked and stored at once while an import's photos step runs. */
const photoConcurrency = 4
/** Rows written per insert statement. */
const insertChunk = 250

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
  const list = await deps.listReader.read('path' in file ? { path: file.path } : file.bytes, file.name, {
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
      photoZip = zip ? photoZipFromIndex(zip.path, await deps.listReader.indexPhotoZip(zip.path)) : null
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
