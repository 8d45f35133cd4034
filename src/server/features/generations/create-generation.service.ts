import { and, eq } from 'drizzle-orm'
import type { z } from 'zod'
import type { Db } from '#server/db/client.ts'
import {
  type AssetRow,
  assets,
  providerKeys,
  type SubscriptionRow,
  userPreferences,
} from '#server/db/schema/index.ts'
import { quotaHoldFor, storageQuotaBytes } from '#server/features/quota/quota.service.ts'
import { acceptJob, admitJob, admitSeoJob, type JobRequest } from '#server/job-queue/accept-job.ts'
import { getActiveSubscription } from '#server/plans/live-plan.ts'
import { canWriteOffline } from '#server/providers/offline-studio/seo-writer/writer.ts'
import {
  type createGenerationRequestSchema,
  type createVideoRequestSchema,
  type GenerationMode,
  type GenerationTool,
  type GenerationView,
  generationModes,
} from '#shared/contracts/generations.ts'
import { AppError } from '#shared/errors.ts'
import { defaultRatioFor } from '#shared/marketplaces/default-ratio.ts'
import { type AspectRatio, videoRatioFor } from '#shared/scenes.ts'
import type { ProductDetails } from '#shared/seo.ts'
import { type GenerationDeps, getOwnedRow, presentRows } from './generations.service.ts'

// Starting a generation: who may queue what (rate limits, the user's own key, the quota with an
// auto top-up when it runs out), its inputs checked as the user's own, and the job accepted on
// the queue with its quota in one statement. Reading, saving, canceling and deleting a
// generation are generations.service.ts.

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
