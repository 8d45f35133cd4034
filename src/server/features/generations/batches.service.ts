import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { type AssetRow, type GenerationRow, generations } from '#server/db/schema/index.ts'
import {
  availableUnits,
  type QuotaHold,
  quotaHoldFor,
  storageQuotaBytes,
} from '#server/features/quota/quota.service.ts'
import {
  acceptBatchJobs,
  type BatchAcceptance,
  type BatchJobRequest,
  cancelBatchJobs,
  detachSettledRowJobs,
  retryBatchJobs,
} from '#server/job-queue/batch-jobs.ts'
import { getActiveSubscription } from '#server/plans/live-plan.ts'
import type { BatchOutputView } from '#shared/contracts/catalogue.ts'
import type { GenerationAssetView, GenerationMode } from '#shared/contracts/generations.ts'
import { AppError } from '#shared/errors.ts'
import { type AspectRatio, videoRatioFor } from '#shared/scenes.ts'
import type { ProductDetails } from '#shared/seo.ts'
import { providerFor, usesOwnKey } from './create-generation.service.ts'
import { presentAssetView } from './generations.present.ts'
import { type GenerationDeps, loadAssets } from './generations.service.ts'

// The catalogue's batches as jobs: what a product of a batch makes, the quota a batch takes,
// queueing it, and a row's or a batch's regenerate, cancel and retry; and a batch's results read
// back. The catalogue (features/catalogue) calls these; the jobs themselves are generations.

/** What a batch makes per product (the batch's outputs, as stored). */
export type BatchOutputPlan = {
  studio?: { prompt: string; aspectRatio: AspectRatio } | undefined
  fashion?: { aspectRatio: AspectRatio } | undefined
  video?: { prompt: string } | undefined
  seo?: boolean | undefined
}

/** A product of a batch: its row, its photo, and the text fields SEO copy is written from. */
export type BatchProduct = { batchRowId: string; inputAssetId: string; details: ProductDetails }

/** Units of quota one product takes with these outputs. */
export function unitsPerProduct(outputs: BatchOutputPlan): { images: number; videos: number } {
  return {
    images: (outputs.studio ? 1 : 0) + (outputs.fashion ? 1 : 0),
    videos: outputs.video ? 1 : 0,
  }
}

/** The jobs of one product, in output order; the video is made from the first image when there is one. */
function productJobs(
  userId: string,
  product: BatchProduct,
  outputs: BatchOutputPlan,
  provider: (mode: GenerationMode) => { name: string; usesOwnKey: boolean },
): BatchJobRequest[] {
  const jobs: BatchJobRequest[] = []
  const base = { userId, batchRowId: product.batchRowId, inputAssetId: product.inputAssetId }
  const job = (mode: GenerationMode, values: Partial<BatchJobRequest> & Pick<BatchJobRequest, 'tool'>) => {
    const { name, usesOwnKey } = provider(mode)
    const resource = mode === 'seo' || usesOwnKey ? null : mode === 'image' ? 'images' : 'videos'
    const made: BatchJobRequest = {
      ...base,
      id: crypto.randomUUID(),
      mode,
      aspectRatio: '1:1',
      prompt: '',
      context: {},
      provider: name,
      usesOwnKey,
      resource,
      ...values,
    }
    jobs.push(made)
    return made
  }
  const firstImage = outputs.studio
    ? job('image', {
        tool: 'product',
        prompt: outputs.studio.prompt,
        aspectRatio: outputs.studio.aspectRatio,
      })
    : null
  const fashion = outputs.fashion
    ? job('image', { tool: 'fashion', aspectRatio: outputs.fashion.aspectRatio })
    : null
  const source = firstImage ?? fashion
  if (outputs.video) {
    job('video', {
      tool: source?.tool ?? 'product',
      prompt: outputs.video.prompt,
      aspectRatio: source ? videoRatioFor(source.aspectRatio) : '9:16',
      // Made from the first image once it has succeeded (the claim takes its result as input).
      ...(source ? { inputAssetId: null, sourceGenerationId: source.id } : {}),
    })
  }
  if (outputs.seo) job('seo', { tool: 'product', context: product.details })
  return jobs
}

/** The quota holds a batch needs, and how many of its products the quota left now covers. */
export async function batchQuota(
  deps: GenerationDeps,
  userId: string,
  outputs: BatchOutputPlan,
  productCount: number,
): Promise<{
  holds: Partial<Record<'images' | 'videos', QuotaHold>>
  needed: { images: number; videos: number }
  available: { images: number; videos: number }
  fits: number
}> {
  const subscription = await getActiveSubscription(deps.db, userId, deps.now())
  if (!subscription) throw new AppError('NO_SUBSCRIPTION', 'No active plan')
  const per = unitsPerProduct(outputs)
  const holds: Partial<Record<'images' | 'videos', QuotaHold>> = {}
  const available = { images: Number.POSITIVE_INFINITY, videos: Number.POSITIVE_INFINITY }
  for (const resource of ['images', 'videos'] as const) {
    const mode = resource === 'images' ? 'image' : 'video'
    if (per[resource] === 0 || (await usesOwnKey(deps, userId, mode, subscription))) continue
    const hold = await quotaHoldFor(deps.db, userId, resource, deps.now(), subscription).catch(() => null)
    available[resource] = hold ? await availableUnits(deps.db, hold) : 0
    if (hold) holds[resource] = hold
  }
  const fitsFor = (resource: 'images' | 'videos') =>
    per[resource] === 0 || !Number.isFinite(available[resource])
      ? productCount
      : Math.floor(available[resource] / per[resource])
  return {
    holds,
    needed: { images: per.images * productCount, videos: per.videos * productCount },
    available: {
      images: Number.isFinite(available.images) ? available.images : -1,
      videos: Number.isFinite(available.videos) ? available.videos : -1,
    },
    fits: Math.min(productCount, fitsFor('images'), fitsFor('videos')),
  }
}

/**
 * Queues every output of every product of a batch at once, with the quota for all of them
 * (all or nothing), and runs `within` in the same transaction (the batch's own state).
 */
export async function queueBatch(
  deps: GenerationDeps,
  userId: string,
  input: {
    products: BatchProduct[]
    outputs: BatchOutputPlan
    holds: Partial<Record<'images' | 'videos', QuotaHold>>
    within?: (tx: Db) => Promise<void>
  },
): Promise<BatchAcceptance> {
  const subscription = await getActiveSubscription(deps.db, userId, deps.now())
  if (!subscription) throw new AppError('NO_SUBSCRIPTION', 'No active plan')
  const ownKey = {
    image: await usesOwnKey(deps, userId, 'image', subscription),
    video: await usesOwnKey(deps, userId, 'video', subscription),
    seo: false,
  }
  const provider = (mode: GenerationMode) => ({ name: providerFor(deps, mode), usesOwnKey: ownKey[mode] })
  const jobs = input.products.flatMap((product) => productJobs(userId, product, input.outputs, provider))
  return acceptBatchJobs(deps, {
    userId,
    jobs,
    holds: input.holds,
    storageQuotaBytes: storageQuotaBytes(subscription),
    within: input.within,
  })
}

/**
 * Makes one product of a batch again: its outputs (all the batch's, or only the SEO copy) queued
 * as new jobs with their quota, like a start (SEO holds none). Its earlier failed or canceled
 * outputs of those kinds leave the batch (a retry would otherwise run them too); finished ones
 * stay until the new ones replace them (batchOutputs shows the newest of each kind).
 */
export async function regenerateBatchRow(
  deps: GenerationDeps,
  userId: string,
  input: {
    product: BatchProduct
    outputs: BatchOutputPlan
    holds: Partial<Record<'images' | 'videos', QuotaHold>>
    within?: (tx: Db) => Promise<void>
  },
): Promise<BatchAcceptance> {
  const modes: GenerationMode[] = [
    ...(input.outputs.studio || input.outputs.fashion ? (['image'] as const) : []),
    ...(input.outputs.video ? (['video'] as const) : []),
    ...(input.outputs.seo ? (['seo'] as const) : []),
  ]
  return queueBatch(deps, userId, {
    products: [input.product],
    outputs: input.outputs,
    holds: input.holds,
    within: async (tx) => {
      await detachSettledRowJobs(tx, input.product.batchRowId, modes)
      await input.within?.(tx)
    },
  })
}

/** Cancels what of a batch has not finished (queued at once, running when their workers stop). */
export function cancelBatch(deps: GenerationDeps, batchId: string): Promise<number> {
  return cancelBatchJobs(deps, batchId, deps.now())
}

/** Queues a batch's failed jobs again with new quota, all or nothing. */
export async function retryBatch(
  deps: GenerationDeps,
  batchId: string,
  holds: Partial<Record<'images' | 'videos', QuotaHold>>,
): Promise<BatchAcceptance & { retried?: number }> {
  return retryBatchJobs(deps, { batchId, holds, now: deps.now() })
}

/** A batch's output order: studio image, fashion image, video, SEO copy (all made at once). */
function outputRank(row: GenerationRow): number {
  if (row.mode === 'image') return row.tool === 'product' ? 0 : 1
  return row.mode === 'video' ? 2 : 3
}

function byOutputOrder(a: GenerationRow, b: GenerationRow): number {
  return outputRank(a) - outputRank(b)
}

/**
 * A row's outputs with only the newest of each kind (tool and mode), in output order: a product
 * made again (regenerateBatchRow) keeps its earlier outputs until the new ones replace them.
 */
function newestPerOutput(rows: GenerationRow[]): GenerationRow[] {
  const newest = new Map<string, GenerationRow>()
  for (const row of rows) {
    const key = `${row.batchRowId}:${row.tool}:${row.mode}`
    const kept = newest.get(key)
    if (!kept || row.createdAt.getTime() > kept.createdAt.getTime()) newest.set(key, row)
  }
  return [...newest.values()].sort(byOutputOrder)
}

/** The outputs of a batch's rows, by row, in output order, with the pictures they show. */
export async function batchOutputs(
  db: Db,
  batchRowIds: string[],
  photoAssetIds: string[],
): Promise<{ byRow: Map<string, BatchOutputView[]>; photos: Map<string, GenerationAssetView> }> {
  const rows =
    batchRowIds.length === 0
      ? []
      : await db
          .select()
          .from(generations)
          .where(inArray(generations.batchRowId, batchRowIds))
          .then(newestPerOutput)
  const pictureOf = (row: GenerationRow): string | null =>
    row.result?.type === 'image'
      ? row.result.assetId
      : row.result?.type === 'video'
        ? row.result.posterAssetId
        : null
  const assetRows = await loadAssets(db, [
    ...new Set([...photoAssetIds, ...rows.flatMap((row) => pictureOf(row) ?? [])]),
  ])
  const view = (id: string | null) => {
    const asset = id ? assetRows.get(id) : undefined
    return asset ? presentAssetView(asset) : null
  }
  const byRow = new Map<string, BatchOutputView[]>()
  for (const row of rows) {
    if (!row.batchRowId) continue
    const list = byRow.get(row.batchRowId) ?? []
    list.push({
      generationId: row.id,
      tool: row.tool,
      mode: row.mode,
      status: row.status,
      errorCode: row.errorCode,
      thumbnail: view(pictureOf(row)),
    })
    byRow.set(row.batchRowId, list)
  }
  const photos = new Map<string, GenerationAssetView>()
  for (const id of photoAssetIds) {
    const photo = view(id)
    if (photo) photos.set(id, photo)
  }
  return { byRow, photos }
}

/** A batch's finished results for its export: per row, its result rows in output order. */
export async function batchResults(
  db: Db,
  batchRowIds: string[],
): Promise<{ byRow: Map<string, GenerationRow[]>; assets: Map<string, AssetRow> }> {
  const rows =
    batchRowIds.length === 0
      ? []
      : await db
          .select()
          .from(generations)
          .where(and(inArray(generations.batchRowId, batchRowIds), eq(generations.status, 'succeeded')))
          .then(newestPerOutput)
  const byRow = new Map<string, GenerationRow[]>()
  for (const row of rows) {
    if (!row.batchRowId) continue
    byRow.set(row.batchRowId, [...(byRow.get(row.batchRowId) ?? []), row])
  }
  const assetRows = await loadAssets(db, [
    ...new Set(rows.flatMap((row) => (row.result && 'assetId' in row.result ? [row.result.assetId] : []))),
  ])
  return { byRow, assets: assetRows }
}
