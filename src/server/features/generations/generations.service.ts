import { and, desc, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { z } from 'zod'
import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import { preparedPerDatabase } from '#server/db/prepared.ts'
import { type AssetRow, assets, type GenerationRow, generations } from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import type { AdmissionLimits } from '#server/job-queue/accept-job.ts'
import type { JobOutcomes, QuotaHold } from '#server/job-queue/outcomes.ts'
import { cancelJob } from '#server/job-queue/settle-job.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import {
  type GenerationListResponse,
  type GenerationView,
  isTerminalStatus,
  type listGenerationsQuerySchema,
} from '#shared/contracts/generations.ts'
import { AppError } from '#shared/errors.ts'
import { assetIdsOf, type PresentedAsset, presentGeneration } from './generations.present.ts'

export type GenerationDeps = {
  db: Db
  storage: ObjectStorage
  rateLimiter: RateLimiter
  notifier: Notifier
  /** What the features do when a job is accepted and settles (registered at composition). */
  outcomes: JobOutcomes
  providers: Config['providers']
  limits: AdmissionLimits
  /** Generations one user may have queued or running; more are refused with QUEUE_FULL. */
  maxQueuedPerUser: number
  now: () => Date
  /**
   * Auto top-up after a quota refusal (billing's topUpForShortage, given at composition): true
   * when a pack was bought for the shortage. Without it, a used-up quota is simply refused.
   */
  topUp?: ((shortage: { hold: QuotaHold; isEnabled: boolean }) => Promise<boolean>) | undefined
}

export async function loadAssets(db: Db, ids: string[]) {
  if (ids.length === 0) return new Map<string, AssetRow>()
  const rows = await db.select().from(assets).where(inArray(assets.id, ids))
  return new Map(rows.map((row) => [row.id, row]))
}

/**
 * Presents rows, reading the assets they show except those already in `assetCache`; the ones
 * read are added to it (asset rows never change, so a caller may keep the cache across calls).
 */
export async function presentRows(
  db: Db,
  rows: GenerationRow[],
  assetCache: Map<string, AssetRow> = new Map(),
): Promise<GenerationView[]> {
  const missing = [...new Set(rows.flatMap(assetIdsOf))].filter((id) => !assetCache.has(id))
  for (const [id, asset] of await loadAssets(db, missing)) assetCache.set(id, asset)
  return rows.map((row) => presentGeneration(row, assetCache))
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Matches the user's own generation only; null for an id that cannot be one. */
function ownedBy(userId: string, id: string) {
  return uuidPattern.test(id) ? and(eq(generations.id, id), eq(generations.userId, userId)) : null
}

/** The user's own generation row, or null (also for someone else's). */
export async function findOwnedRow(db: Db, userId: string, id: string): Promise<GenerationRow | null> {
  const owned = ownedBy(userId, id)
  if (!owned) return null
  const [row] = await db.select().from(generations).where(owned)
  return row ?? null
}

/**
 * The user's own generation row with its input photo's row (null when it has none or it is
 * gone), in one read; NOT_FOUND for a missing one or someone else's.
 */
export async function getOwnedRowWithInput(
  db: Db,
  userId: string,
  id: string,
): Promise<{ row: GenerationRow; input: AssetRow | null }> {
  const owned = ownedBy(userId, id)
  const [found] = owned
    ? await db
        .select()
        .from(generations)
        .leftJoin(assets, eq(assets.id, generations.inputAssetId))
        .where(owned)
    : []
  if (!found) throw new AppError('NOT_FOUND', 'No such generation')
  return { row: found.generations, input: found.assets }
}

/** The user's own generation row, or NOT_FOUND (also for someone else's). */
export async function getOwnedRow(db: Db, userId: string, id: string): Promise<GenerationRow> {
  const row = await findOwnedRow(db, userId, id)
  if (!row) throw new AppError('NOT_FOUND', 'No such generation')
  return row
}

/**
 * The user's own generation row with the row of the file it made (an image or video result;
 * null for SEO copy, an unfinished generation, or a file that is gone); NOT_FOUND for a missing
 * generation or someone else's. For features that read a result's bytes (marketplaces).
 */
export async function getOwnedRowWithResult(
  db: Db,
  userId: string,
  id: string,
): Promise<{ row: GenerationRow; resultAsset: AssetRow | null }> {
  const found = (await listOwnedRowsWithResults(db, userId, [id])).get(id)
  if (!found) throw new AppError('NOT_FOUND', 'No such generation')
  return found
}

/**
 * The user's own rows by id, each with its result file (an image's or video's), in two reads
 * however many ids (the library cards' marketplace summaries); others', unknown and malformed
 * ids are simply absent, and a file row that is not the user's own counts as gone.
 */
export async function listOwnedRowsWithResults(
  db: Db,
  userId: string,
  ids: string[],
): Promise<Map<string, { row: GenerationRow; resultAsset: AssetRow | null }>> {
  const wanted = ids.filter((id) => uuidPattern.test(id))
  const rows =
    wanted.length === 0
      ? []
      : await db
          .select()
          .from(generations)
          .where(and(inArray(generations.id, wanted), eq(generations.userId, userId)))
  const assetIds = rows.flatMap((row) =>
    row.result?.type === 'image' || row.result?.type === 'video' ? [row.result.assetId] : [],
  )
  const files = await loadAssets(db, assetIds)
  const found = new Map<string, { row: GenerationRow; resultAsset: AssetRow | null }>()
  for (const row of rows) {
    const assetId = row.result?.type === 'image' || row.result?.type === 'video' ? row.result.assetId : null
    const asset = assetId ? files.get(assetId) : undefined
    // As getOwnedRowWithResult: a file row that is not the user's own counts as gone.
    found.set(row.id, { row, resultAsset: asset && asset.userId === userId ? asset : null })
  }
  return found
}

const inputFile = alias(assets, 'input_file')
const resultFile = alias(assets, 'result_file')
const posterFile = alias(assets, 'poster_file')

/**
 * A generation's view in one statement, prepared once per database (the status read that
 * integrations poll, GET /v1/generations/{id}, and the studio's): the columns presentGeneration
 * reads, with its input, result and poster files joined by id as presentRows would read them.
 * The result's file ids live in the `result` JSON, so they are joined by its fields (`->>` in
 * SQL: drizzle has no JSON operators).
 */
function prepareGenerationView(db: Db) {
  return db
    .select({
      row: {
        id: generations.id,
        tool: generations.tool,
        mode: generations.mode,
        aspectRatio: generations.aspectRatio,
        prompt: generations.prompt,
        status: generations.status,
        queuePosition: generations.queuePosition,
        attempts: generations.attempts,
        errorCode: generations.errorCode,
        provider: generations.provider,
        usesOwnKey: generations.usesOwnKey,
        keepProduct: generations.keepProduct,
        view: generations.view,
        savedAt: generations.savedAt,
        inputAssetId: generations.inputAssetId,
        result: generations.result,
        sourceGenerationId: generations.sourceGenerationId,
        createdAt: generations.createdAt,
        startedAt: generations.startedAt,
        finishedAt: generations.finishedAt,
      },
      input: {
        id: inputFile.id,
        mime: inputFile.mime,
        width: inputFile.width,
        height: inputFile.height,
        fileName: inputFile.fileName,
      },
      resultFile: {
        id: resultFile.id,
        mime: resultFile.mime,
        width: resultFile.width,
        height: resultFile.height,
        fileName: resultFile.fileName,
      },
      poster: {
        id: posterFile.id,
        mime: posterFile.mime,
        width: posterFile.width,
        height: posterFile.height,
        fileName: posterFile.fileName,
      },
    })
    .from(generations)
    .leftJoin(inputFile, eq(inputFile.id, generations.inputAssetId))
    .leftJoin(resultFile, eq(resultFile.id, sql`(${generations.result} ->> 'assetId')::uuid`))
    .leftJoin(posterFile, eq(posterFile.id, sql`(${generations.result} ->> 'posterAssetId')::uuid`))
    .where(and(eq(generations.id, sql.placeholder('id')), eq(generations.userId, sql.placeholder('userId'))))
    .prepare('generation_view')
}

const generationView = preparedPerDatabase(prepareGenerationView)

/**
 * The user's own generation as the web app and /v1 show it; NOT_FOUND for a missing one or
 * someone else's.
 */
export async function getGeneration(
  deps: GenerationDeps,
  userId: string,
  id: string,
): Promise<GenerationView> {
  const [found] = uuidPattern.test(id) ? await generationView(deps.db).execute({ id, userId }) : []
  if (!found) throw new AppError('NOT_FOUND', 'No such generation')
  const files = new Map<string, PresentedAsset>()
  for (const file of [found.input, found.resultFile, found.poster]) if (file) files.set(file.id, file)
  return presentGeneration(found.row, files)
}

type Cursor = { createdAt: string; id: string }
const encodeCursor = (row: GenerationRow) =>
  Buffer.from(
    JSON.stringify({ createdAt: row.createdAt.toISOString(), id: row.id } satisfies Cursor),
  ).toString('base64url')
function decodeCursor(value: string): Cursor {
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Cursor
    if (
      typeof parsed.createdAt !== 'string' ||
      !uuidPattern.test(parsed.id) ||
      Number.isNaN(Date.parse(parsed.createdAt))
    )
      throw new Error()
    return parsed
  } catch {
    throw new AppError('VALIDATION_FAILED', 'Bad cursor', { fields: { cursor: 'invalid' } })
  }
}

/** The user's generations, newest first, in pages. */
export async function listGenerations(
  deps: GenerationDeps,
  userId: string,
  query: z.output<typeof listGenerationsQuerySchema>,
): Promise<GenerationListResponse> {
  const cursor = query.cursor ? decodeCursor(query.cursor) : null
  const cursorDate = cursor ? new Date(cursor.createdAt) : null
  const rows = await deps.db
    .select()
    .from(generations)
    .where(
      and(
        eq(generations.userId, userId),
        query.mode ? eq(generations.mode, query.mode) : undefined,
        query.tool ? eq(generations.tool, query.tool) : undefined,
        query.status ? eq(generations.status, query.status) : undefined,
        query.saved ? isNotNull(generations.savedAt) : undefined,
        cursor && cursorDate
          ? or(
              lt(generations.createdAt, cursorDate),
              and(eq(generations.createdAt, cursorDate), lt(generations.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(generations.createdAt), desc(generations.id))
    .limit(query.limit + 1)
  const page = rows.slice(0, query.limit)
  const last = page.at(-1)
  return {
    items: await presentRows(deps.db, page),
    nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null,
  }
}

export async function setSaved(
  deps: GenerationDeps,
  userId: string,
  id: string,
  isSaved: boolean,
): Promise<GenerationView> {
  await getOwnedRow(deps.db, userId, id)
  await deps.db
    .update(generations)
    .set({ savedAt: isSaved ? deps.now() : null })
    .where(and(eq(generations.id, id), eq(generations.userId, userId)))
  return getGeneration(deps, userId, id)
}

/**
 * Cancels a generation. A queued one stops at once and its quota comes back; a running one is
 * flagged, and its worker stops it and gives the quota back.
 */
export async function cancelGeneration(
  deps: GenerationDeps,
  userId: string,
  id: string,
): Promise<GenerationView> {
  const row = await getOwnedRow(deps.db, userId, id)
  if (isTerminalStatus(row.status)) return getGeneration(deps, userId, id)
  await cancelJob(deps, { id, userId }, deps.now)
  return getGeneration(deps, userId, id)
}

/**
 * Deletes a finished generation and the result files only it uses. A running one must be
 * canceled first. Uploads stay (another generation may use them).
 */
export async function deleteGeneration(deps: GenerationDeps, userId: string, id: string): Promise<void> {
  const row = await getOwnedRow(deps.db, userId, id)
  if (!isTerminalStatus(row.status)) throw new AppError('GENERATION_NOT_READY', 'Cancel it first')
  const resultAssetId =
    row.result?.type === 'image' || row.result?.type === 'video' ? row.result.assetId : null
  // A video made from this image still shows it as its poster; then the image file stays.
  const [dependent] = resultAssetId
    ? await deps.db
        .select({ id: generations.id })
        .from(generations)
        .where(and(eq(generations.userId, userId), eq(generations.inputAssetId, resultAssetId)))
        .limit(1)
    : []
  await deps.db.delete(generations).where(eq(generations.id, id))
  if (resultAssetId && !dependent) {
    const [asset] = await deps.db.delete(assets).where(eq(assets.id, resultAssetId)).returning()
    if (asset) await deps.storage.delete(asset.storageKey).catch(() => undefined)
  }
}
