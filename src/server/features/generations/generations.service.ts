import { and, desc, eq, getTableColumns, inArray, isNotNull, lt, or, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Config } from '#server/config.ts'
import type { Db } from '#server/db/client.ts'
import { assets, generations, providerKeys } from '#server/db/schema/index.ts'
import { getActiveSubscription, type SubscriptionRow } from '#server/features/billing/subscription.service.ts'
import {
  quotaExceeded,
  quotaHoldFor,
  releaseQuotaCtes,
  reservationCtes,
} from '#server/features/quota/quota.service.ts'
import {
  storageQuotaBytes,
  storageQuotaExceeded,
  storageUsedSql,
} from '#server/features/quota/storage-quota.ts'
import type { Notifier } from '#server/jobs/notifier.ts'
import type { RateLimiter, RateLimitRule } from '#server/rate-limit/rate-limiter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import {
  type createGenerationRequestSchema,
  type createVideoRequestSchema,
  type GenerationListResponse,
  type GenerationMode,
  type GenerationView,
  generationModes,
  isTerminalStatus,
  type listGenerationsQuerySchema,
} from '#shared/contracts/generations.ts'
import { AppError } from '#shared/errors.ts'
import { assetIdsOf, presentGeneration } from './generations.present.ts'

/** SEO copy is unlimited, but not unthrottled: 30 per user per 10 minutes. */
export const seoRateLimit: RateLimitRule = { name: 'seo', limit: 30, windowSeconds: 600 }

export type GenerationDeps = {
  db: Db
  storage: ObjectStorage
  rateLimiter: RateLimiter
  notifier: Notifier
  providers: Config['providers']
  limits: Pick<Config['limits'], 'generationsPerMinute' | 'generationsPerMinutePerClient'>
  /** Generations one user may have queued or running; more are refused with QUEUE_FULL. */
  maxQueuedPerUser: number
  now: () => Date
}

/** Per-minute limits on starting generations of every kind: per account, and per client address. */
export function generationRateLimits(limits: GenerationDeps['limits']): {
  perAccount: RateLimitRule
  perClient: RateLimitRule
} {
  return {
    perAccount: { name: 'generation', limit: limits.generationsPerMinute, windowSeconds: 60 },
    perClient: { name: 'generation-ip', limit: limits.generationsPerMinutePerClient, windowSeconds: 60 },
  }
}

/** Counts one attempt to start a generation; RATE_LIMITED past either per-minute limit. */
export async function admitGeneration(deps: GenerationDeps, userId: string, clientIp: string): Promise<void> {
  const rules = generationRateLimits(deps.limits)
  await deps.rateLimiter.consumeAll([
    [rules.perAccount, userId],
    [rules.perClient, clientIp],
  ])
}

export type GenerationRow = typeof generations.$inferSelect

function providerFor(deps: GenerationDeps, mode: GenerationMode): string {
  return mode === 'image'
    ? deps.providers.image
    : mode === 'video'
      ? deps.providers.video
      : deps.providers.seo
}

/** Whether this job runs on the user's own fal key (their BYO setting is on and a key is saved). */
async function usesOwnKey(
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

/** A generations row as a raw statement returned it (database names and values), typed. */
function rowFromDriver(raw: Record<string, unknown>): GenerationRow {
  return Object.fromEntries(
    Object.entries(getTableColumns(generations)).map(([key, column]) => {
      const value = raw[column.name]
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)]
    }),
  ) as GenerationRow
}

async function loadAssets(db: Db, ids: string[]) {
  if (ids.length === 0) return new Map<string, typeof assets.$inferSelect>()
  const rows = await db.select().from(assets).where(inArray(assets.id, ids))
  return new Map(rows.map((row) => [row.id, row]))
}

export type AssetRow = typeof assets.$inferSelect

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
 * answering. The quota hold and the row are written together, or neither is.
 */
async function enqueue(
  deps: GenerationDeps,
  userId: string,
  values: Omit<typeof generations.$inferInsert, 'userId' | 'provider' | 'quotaReservationId' | 'usesOwnKey'>,
  knownAssets: AssetRow[] = [],
  /** The active subscription, when the caller has already started reading it. */
  subscriptionRead?: Promise<SubscriptionRow | null>,
): Promise<GenerationView> {
  const mode = values.mode
  if (mode === 'seo') await deps.rateLimiter.consume(seoRateLimit, userId)
  // Read once, for the plan check, the own-key check and the quota. Every mode needs a plan or
  // trial (SEO too: with SEO_PROVIDER=openai each job is a paid model call).
  const subscription = await (subscriptionRead ?? getActiveSubscription(deps.db, userId, deps.now()))
  if (!subscription) throw new AppError('NO_SUBSCRIPTION', 'No active plan')
  const isOwnKey = await usesOwnKey(deps, userId, mode, subscription)
  const row = {
    ...values,
    userId,
    provider: providerFor(deps, mode),
    usesOwnKey: isOwnKey,
  } satisfies typeof generations.$inferInsert
  const resource = mode === 'image' ? 'images' : 'videos'
  // Images and videos on the server's key hold a unit of quota; SEO and own-key jobs hold none.
  const hold =
    mode === 'seo' || isOwnKey
      ? null
      : await quotaHoldFor(deps.db, userId, resource, deps.now(), subscription)
  // The queue and storage checks, the quota hold and the row in one statement (no transaction
  // kept open across round trips): with the user's queue full, their storage full (the result
  // would be stored; one result may go past it), or the quota used up, nothing is written.
  const hasRoom = sql`(select count(*) from ${generations} active
    where active.user_id = ${userId} and active.status in ('queued', 'running')) < ${deps.maxQueuedPerUser}`
  const hasStorage = sql`${storageUsedSql(userId)} < ${storageQuotaBytes(subscription)}`
  const result = (await deps.db.execute(sql`
    with room as (select ${hasRoom} as is_open, ${hasStorage} as has_storage),
    ${hold ? sql`${reservationCtes(hold, sql`(select is_open and has_storage from room)`)},` : sql``}
    inserted as (
      insert into ${generations} (
        user_id, tool, mode, aspect_ratio, prompt, context, input_asset_id, reference_asset_id,
        source_generation_id, provider, uses_own_key, quota_reservation_id
      )
      select ${row.userId}, ${row.tool}, ${row.mode}, ${row.aspectRatio}, ${row.prompt ?? ''},
        ${JSON.stringify(row.context ?? {})}::jsonb, ${row.inputAssetId ?? null},
        ${row.referenceAssetId ?? null}, ${row.sourceGenerationId ?? null}, ${row.provider},
        ${isOwnKey}, ${hold ? sql`reserved.id from reserved` : sql`null where (select is_open and has_storage from room)`}
      returning *
    )
    select room.is_open as queue_open, room.has_storage, inserted.* from room left join inserted on true
  `)) as unknown as { rows: Record<string, unknown>[] }
  const [raw] = result.rows
  if (!raw?.queue_open) {
    throw new AppError('QUEUE_FULL', `At most ${deps.maxQueuedPerUser} generations may wait at once`)
  }
  if (!raw.has_storage) throw storageQuotaExceeded()
  if (raw.id === null || raw.id === undefined) {
    if (hold) throw quotaExceeded(resource)
    throw new Error('generation insert returned no row')
  }
  // The row as inserted (a read afterwards could already see the worker's claim).
  const created = rowFromDriver(raw)
  deps.notifier.workAvailable()
  const [view] = await presentRows(deps.db, [created], new Map(knownAssets.map((asset) => [asset.id, asset])))
  if (!view) throw new Error('generation could not be presented')
  return view
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
  const referenceAssetId = input.tool === 'fashion' ? input.referenceAssetId : undefined
  // The plan is read while the inputs are checked (independent reads, sent together).
  const subscriptionRead = getActiveSubscription(deps.db, userId, deps.now())
  subscriptionRead.catch(() => undefined)
  const inputsRead = Promise.all([
    requireOwnedAsset(deps.db, userId, input.imageAssetId),
    referenceAssetId ? requireOwnedAsset(deps.db, userId, referenceAssetId) : null,
  ])
  inputsRead.catch(() => undefined)
  // The reads go out beside the admission's count, and a refused admission still answers first.
  await admission
  const [inputAsset] = await inputsRead
  return enqueue(
    deps,
    userId,
    {
      tool: input.tool,
      mode,
      aspectRatio: input.aspectRatio ?? (input.tool === 'fashion' ? '9:16' : '1:1'),
      prompt: input.prompt,
      context: Object.fromEntries(
        Object.entries(input.details ?? {}).filter(([, v]) => typeof v === 'string' && v !== ''),
      ) as Record<string, string>,
      inputAssetId: input.imageAssetId,
      referenceAssetId: referenceAssetId ?? null,
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
    aspectRatio: input.aspectRatio ?? source.aspectRatio,
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

export async function getGeneration(
  deps: GenerationDeps,
  userId: string,
  id: string,
): Promise<GenerationView> {
  const [view] = await presentRows(deps.db, [await getOwnedRow(deps.db, userId, id)])
  if (!view) throw new AppError('NOT_FOUND', 'No such generation')
  return view
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
  // A queued one: canceled, and its quota given back, in one statement.
  const canceled = deps.db.$with('canceled').as(
    deps.db
      .update(generations)
      .set({
        status: 'canceled',
        errorCode: 'GENERATION_CANCELED',
        finishedAt: deps.now(),
        lockedBy: null,
        leaseUntil: null,
      })
      .where(and(eq(generations.id, id), eq(generations.status, 'queued')))
      .returning(),
  )
  const [canceledNow] = await deps.db
    .with(
      canceled,
      ...releaseQuotaCtes(deps.db, sql`(select ${canceled.quotaReservationId} from ${canceled})`, deps.now()),
    )
    .select({ id: canceled.id })
    .from(canceled)
  // A running one: flagged; its worker stops it and gives the quota back.
  if (!canceledNow) {
    await deps.db
      .update(generations)
      .set({ cancelRequested: true })
      .where(and(eq(generations.id, id), eq(generations.status, 'running')))
  }
  deps.notifier.generationChanged(id)
  if (!canceledNow) deps.notifier.workAvailable()
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
