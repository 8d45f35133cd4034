import { and, desc, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { z } from 'zod'
import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import { preparedPerDatabase } from '#server/db/prepared.ts'
import {
  type AssetRow,
  assets,
  type GenerationRow,
  generations,
  providerKeys,
  type SubscriptionRow,
  userPreferences,
} from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import { quotaHoldFor, storageQuotaBytes } from '#server/features/quota/quota.service.ts'
import {
  type AdmissionLimits,
  acceptJob,
  admitJob,
  admitSeoJob,
  cancelJob,
  type JobRequest,
} from '#server/job-queue/job-queue.ts'
import type { JobOutcomes, QuotaHold } from '#server/job-queue/outcomes.ts'
import { getActiveSubscription } from '#server/plans/live-plan.ts'
import { canWriteOffline } from '#server/providers/offline-studio/seo-writer/writer.ts'
import type { RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import {
  type createGenerationRequestSchema,
  type createVideoRequestSchema,
  type GenerationListResponse,
  type GenerationMode,
  type GenerationTool,
  type GenerationView,
  generationModes,
  isTerminalStatus,
  type listGenerationsQuerySchema,
} from '#shared/contracts/generations.ts'
import { AppError } from '#shared/errors.ts'
import { defaultRatioFor } from '#shared/marketplaces/default-ratio.ts'
import { type AspectRatio, videoRatioFor } from '#shared/scenes.ts'
import type { ProductDetails } from '#shared/seo.ts'
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

function isQuotaRefusal(error: unknown): boolean {
  return (
    error instanceof AppError &&
    (error.code === 'QUOTA_EXCEEDED_IMAGES' || error.code === 'QUOTA_EXCEEDED_VIDEOS')
  )
}

/** Counts one attempt to start a generation; RATE_LIMITED past either per-minute limit. */
export function admitGeneration(deps: GenerationDeps, userId: string, clientIp: string): Promise<void> {
  return admitJob(deps.rateLimiter, deps.limits, userId, clientIp)
}

export function providerFor(deps: GenerationDeps, mode: GenerationMode): string {
  return mode === 'image'
    ? deps.providers.image
    : mode === 'video'
      ? deps.providers.video
      : deps.providers.seo
}

/** Whether this job runs on the user's own fal key (their BYO setting is on and a key is saved). */
export async function usesOwnKey(
  deps: GenerationDeps,
  userId: string,
  mode: GenerationMode,
  subscription: SubscriptionRow | null,
): Promise<boolean> {
  if (mode === 'seo' || providerFor(deps, mode) !== 'fal' || !subscription?.byoApiEnabled) return false
  const [key] = await deps.db
    .select({ id: providerKeys.id })
    .from(providerKeys)
    .where(and(eq(providerKeys.userId, userId), eq(providerKeys.provider, 'fal')))
  return key !== undefined
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

async function requireOwnedAsset(db: Db, userId: string, id: string): Promise<AssetRow> {
  const [row] = await db
    .select()
    .from(assets)
    .where(and(eq(assets.id, id), eq(assets.userId, userId)))
  if (!row) throw new AppError('NOT_FOUND', 'No such asset', { fields: { imageAssetId: 'invalid' } })
  return row
}

/**
 * Accepts a generation: checks the inputs belong to the user, holds quota (image quota for
 * images, video quota for videos; SEO is rate-limited instead), and queues the job, all before
 * answering. The quota hold and the row are written together, or neither is (job-queue.ts).
 */
async function enqueue(
  deps: GenerationDeps,
  userId: string,
  values: Omit<JobRequest, 'userId' | 'provider' | 'usesOwnKey'>,
  knownAssets: AssetRow[] = [],
  /** The active subscription, when the caller has already started reading it. */
  subscriptionRead?: Promise<SubscriptionRow | null>,
): Promise<GenerationView> {
  const mode = values.mode
  if (mode === 'seo') await admitSeoJob(deps.rateLimiter, userId)
  // Read once, for the plan check, the own-key check and the quota. Every mode needs a plan or
  // trial (SEO too: with SEO_PROVIDER=openai each job is a paid model call).
  const subscription = await (subscriptionRead ?? getActiveSubscription(deps.db, userId, deps.now()))
  if (!subscription) throw new AppError('NO_SUBSCRIPTION', 'No active plan')
  // The offline writer cannot see what the photo shows: without a name or a category it would
  // invent a product ("Renkli Ürün"), so it asks for the name before anything is queued.
  const { name, category } = values.context ?? {}
  if (mode === 'seo' && deps.providers.seo === 'offline' && !canWriteOffline({ name, category })) {
    throw new AppError('SEO_NEEDS_PRODUCT_NAME', 'Offline SEO copy needs the product name or its category')
  }
  const isOwnKey = await usesOwnKey(deps, userId, mode, subscription)
  const resource = mode === 'image' ? 'images' : 'videos'
  // Images and videos on the server's key hold a unit of quota; SEO and own-key jobs hold none.
  const hold =
    mode === 'seo' || isOwnKey
      ? null
      : await quotaHoldFor(deps.db, userId, resource, deps.now(), subscription)
  const job = { ...values, userId, provider: providerFor(deps, mode), usesOwnKey: isOwnKey }
  const limits = {
    hold,
    storageQuotaBytes: storageQuotaBytes(subscription),
    maxQueuedPerUser: deps.maxQueuedPerUser,
  }
  const created = await acceptWithAutoTopUp(deps, job, limits, subscription.autoTopupEnabled)
  const [view] = await presentRows(deps.db, [created], new Map(knownAssets.map((asset) => [asset.id, asset])))
  if (!view) throw new Error('generation could not be presented')
  return view
}

/** How often one request goes back to auto top-up after losing the new credits to others. */
const maxTopUpRounds = 10

/**
 * Accepts the job; after a quota refusal (only then: the normal accept stays one statement),
 * auto top-up makes sure a pack is bought for the shortage and the accept is tried again. Under
 * a burst, the credits that landed may be taken by other requests first: this request then
 * meets the next shortage, which auto top-up charges or refuses with its own reason (cap
 * reached, card failed), so the refusal says why.
 */
async function acceptWithAutoTopUp(
  deps: GenerationDeps,
  job: Parameters<typeof acceptJob>[1],
  limits: Parameters<typeof acceptJob>[2],
  isAutoTopUpEnabled: boolean,
): Promise<Awaited<ReturnType<typeof acceptJob>>> {
  for (let round = 0; ; round++) {
    try {
      return await acceptJob(deps, job, limits)
    } catch (error) {
      const { hold } = limits
      if (!hold || !deps.topUp || !isQuotaRefusal(error) || round >= maxTopUpRounds) throw error
      const isToppedUp = await deps.topUp({ hold, isEnabled: isAutoTopUpEnabled })
      if (!isToppedUp) throw error
    }
  }
}

/**
 * The ratio a generation asked without one is made at: the main-image shape of the seller's
 * marketplace (user_preferences; Trendyol 2:3, Amazon and Hepsiburada 1:1), else 1:1 for products
 * and 9:16 for fashion.
 */
export async function preferredRatio(db: Db, userId: string, tool: GenerationTool): Promise<AspectRatio> {
  const [row] = await db
    .select({ profile: userPreferences.marketplaceProfile })
    .from(userPreferences)
    .where(eq(userPreferences.userId, userId))
  return defaultRatioFor(row?.profile, tool)
}

/**
 * The details the seller filled in, kept as the job's SEO context: blank fields dropped, key
 * features kept as a list (blank lines dropped), so every fact reaches the writer as typed.
 */
export function givenDetails(details: ProductDetails | undefined): ProductDetails {
  const given: ProductDetails = {}
  for (const [field, value] of Object.entries(details ?? {}) as [keyof ProductDetails, unknown][]) {
    if (field === 'features') {
      const features = Array.isArray(value)
        ? value.filter((line): line is string => typeof line === 'string' && line.trim() !== '')
        : []
      if (features.length > 0) given.features = features
    } else if (typeof value === 'string' && value !== '') given[field] = value
  }
  return given
}

export async function createGeneration(
  deps: GenerationDeps,
  userId: string,
  input: z.output<typeof createGenerationRequestSchema>,
  /** The per-minute admission (admitGeneration), started by the caller; its refusal comes first. */
  admission: Promise<void> = Promise.resolve(),
): Promise<GenerationView> {
  const mode = input.mode as GenerationMode
  if (!(generationModes as readonly string[]).includes(input.mode)) {
    throw new AppError('INVALID_GENERATION_MODE', 'Invalid generation mode', { fields: { mode: 'invalid' } })
  }
  // Only a product photo's edit has a product and a scene to lay it on; elsewhere the option
  // would be silently meaningless, so it is refused instead.
  if (input.keepProduct && !(input.tool === 'product' && mode === 'image')) {
    throw new AppError('VALIDATION_FAILED', 'keepProduct is for product image edits only', {
      fields: { keepProduct: 'invalid' },
    })
  }
  const referenceAssetId = input.tool === 'fashion' ? input.referenceAssetId : undefined
  // The plan is read while the inputs are checked (independent reads, sent together).
  const subscriptionRead = getActiveSubscription(deps.db, userId, deps.now())
  subscriptionRead.catch(() => undefined)
  const inputsRead = Promise.all([
    requireOwnedAsset(deps.db, userId, input.imageAssetId),
    referenceAssetId ? requireOwnedAsset(deps.db, userId, referenceAssetId) : null,
  ])
  inputsRead.catch(() => undefined)
  // No ratio asked: the seller's marketplace's main-image shape, read beside the inputs.
  const ratioRead = input.aspectRatio
    ? Promise.resolve(input.aspectRatio)
    : preferredRatio(deps.db, userId, input.tool)
  ratioRead.catch(() => undefined)
  // The reads go out beside the admission's count, and a refused admission still answers first.
  await admission
  const [inputAsset] = await inputsRead
  const ratio = await ratioRead
  return enqueue(
    deps,
    userId,
    {
      tool: input.tool,
      mode,
      aspectRatio: mode === 'video' ? videoRatioFor(ratio) : ratio,
      prompt: input.prompt,
      context: givenDetails(input.details),
      inputAssetId: input.imageAssetId,
      referenceAssetId: referenceAssetId ?? null,
      keepProduct: input.keepProduct,
      // Only a product image has a scene to see from one side or the other.
      view: input.tool === 'product' && mode === 'image' ? input.view : 'auto',
    },
    [inputAsset],
    subscriptionRead,
  )
}

/** A video from a finished image result, with its own prompt. */
export async function createVideoFromImage(
  deps: GenerationDeps,
  userId: string,
  sourceId: string,
  input: z.output<typeof createVideoRequestSchema>,
): Promise<GenerationView> {
  const source = await getOwnedRow(deps.db, userId, sourceId)
  if (source.mode !== 'image')
    throw new AppError('VALIDATION_FAILED', 'Only an image result can become a video')
  if (source.status !== 'succeeded' || source.result?.type !== 'image') {
    throw new AppError('GENERATION_NOT_READY', 'The image is not ready yet')
  }
  return enqueue(deps, userId, {
    tool: source.tool,
    mode: 'video',
    aspectRatio: videoRatioFor(input.aspectRatio ?? source.aspectRatio),
    prompt: input.prompt,
    context: {},
    inputAssetId: source.result.assetId,
    sourceGenerationId: source.id,
  })
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
