import { eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { type AssetRow, type GenerationRow, imageFacts } from '#server/db/schema/index.ts'
import {
  getOwnedRowWithResult,
  listOwnedRowsWithResults,
} from '#server/features/generations/generations.service.ts'
import type { Logger } from '#server/logger.ts'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import { setNewest } from '#shared/bounded-map.ts'
import type {
  ImageSlot,
  MarketplaceCheckView,
  MarketplaceSummariesResponse,
  MarketplaceSummary,
} from '#shared/contracts/marketplaces.ts'
import { AppError } from '#shared/errors.ts'
import { type CheckResult, checkCopy, checkImage, checkVideo } from '#shared/marketplaces/check.ts'
import type { ImageFacts, VideoFacts } from '#shared/marketplaces/facts.ts'
import { fitCopy } from '#shared/marketplaces/fit-copy.ts'
import { isMarketplaceId, type MarketplaceId } from '#shared/marketplaces/ids.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import type { MarketplaceProfile } from '#shared/marketplaces/types.ts'
import type { ProductDetails } from '#shared/seo.ts'
import { productFidelityOf } from './fidelity-facts.ts'
import { type ImageInspection, inspectImage } from './measure-image.ts'
import type { TextReader } from './read-text.ts'
import { createSlots, type Slots } from './slots.ts'
import { measureVideo, type VideoTools } from './video.ts'

// The marketplace panel (src/shared/contracts/marketplaces.ts): a user's own finished result
// checked against one profile's rules (its export for the profile is marketplace-export.service.ts). Measuring an image runs the
// separation model and OCR, so its facts are stored once per file (image_facts): the worker's
// facts measurer (jobs/facts-measurer.ts, measureResultFacts) measures each new image result after
// its job has settled, and a check then applies rules only. A result the measurer has not reached
// yet is measured on its first check, once. The model's own queue lets one photo through at a
// time, and exports that re-encode video take a slot of their own.

export type MarketplaceDeps = {
  db: Db
  storage: ObjectStorage
  /** Finds the product for the fill and cut-off rules: the process's shared segmenter. */
  segmenter: Pick<Segmenter, 'segment'>
  /**
   * Reads text on images for the text rule (AppDeps.textReader), alongside each measurement;
   * absent or null: no OCR, and that rule reads "check by eye".
   */
  textReader?: TextReader | null
  /** config.providers.ffmpegPath; ffprobe is taken from beside it. */
  ffmpegPath: string
  /** Where ffmpeg's working folders go (the system temp folder by default). */
  tempDir?: string
  /** Measurements under way or just made, shared by requests (createInspections). */
  inspections: Inspections
  /** ffmpeg runs that re-encode a video for an export, at most a few at once per process. */
  videoSlots: Slots
}

/**
 * Image measurements of this process, by asset id: one in flight per file however many requests
 * ask, and the last few kept with their masks, so a check followed by an export to a white
 * background segments the image once. Facts outlive them in image_facts.
 */
export type Inspections = Map<string, Promise<ImageInspection>>

/** Measurements kept in memory: a 640-px mask is about 400 KB. */
export const keptInspections = 16
/** Video re-encodes at once per process (each takes a core or two for a few seconds). */
export const videoExportsAtOnce = 2

export function createInspections(): Inspections {
  return new Map()
}

export function createVideoSlots(): Slots {
  return createSlots(videoExportsAtOnce)
}

/** The profile for an id from the path; NOT_FOUND for an id that names none (like an unknown generation). */
export function profileFor(id: string): MarketplaceProfile {
  if (!isMarketplaceId(id)) throw new AppError('NOT_FOUND', 'No such marketplace profile')
  return getProfile(id)
}

type ReadyResult =
  | {
      kind: 'image'
      asset: AssetRow
      context: ProductDetails
      /** The seller's photo the product fidelity is measured against: a product edit's input, if still there. */
      originalAssetId: string | null
    }
  | { kind: 'video'; asset: AssetRow; context: ProductDetails }
  | {
      kind: 'seo'
      copy: { title: string; description: string; features: string[]; keywords: string[] }
      context: ProductDetails
    }

/** The user's own finished result; NOT_FOUND for another's, GENERATION_NOT_READY until it has succeeded. */
export async function readyResult(
  deps: MarketplaceDeps,
  userId: string,
  generationId: string,
): Promise<ReadyResult> {
  const { row, resultAsset } = await getOwnedRowWithResult(deps.db, userId, generationId)
  return readyFrom(row, resultAsset)
}

/** An owned row as a finished result, or the error a check of it answers with. */
function readyFrom(row: GenerationRow, resultAsset: AssetRow | null): ReadyResult {
  const result = row.result
  if (row.status !== 'succeeded' || !result) {
    throw new AppError('GENERATION_NOT_READY', 'The result is not ready')
  }
  if (result.type === 'seo') {
    const { title, description, features, keywords } = result
    return { kind: 'seo', copy: { title, description, features, keywords }, context: row.context }
  }
  if (!resultAsset) throw new AppError('NOT_FOUND', 'The result file is gone')
  const originalAssetId = fidelityPhotoOf(row)
  return result.type === 'image'
    ? { kind: 'image', asset: resultAsset, context: row.context, originalAssetId }
    : { kind: 'video', asset: resultAsset, context: row.context }
}

/** What measuring an image's facts needs: the worker's facts measurer has it as well as the routes. */
export type FactDeps = Pick<MarketplaceDeps, 'db' | 'storage' | 'segmenter' | 'textReader' | 'inspections'>

/**
 * The fidelity photo of a result (facts.productFidelity): a product edit's input photo; null for
 * fashion results, which show a garment on a model, not the photo's product.
 */
export function fidelityPhotoOf(row: Pick<GenerationRow, 'tool' | 'inputAssetId'>): string | null {
  return row.tool === 'product' ? row.inputAssetId : null
}

/**
 * Measures a new image result's facts as its first check would (size, background, the product's
 * fill, the text on it and, with `originalAssetId`, the product's fidelity to the seller's photo)
 * and stores them in image_facts, keeping the first when two processes measure at once. Joins a
 * measurement of the same file under way in this process (a check opened meanwhile joins this
 * one). For the worker's facts measurer, after the job that made the result has settled.
 */
export async function measureResultFacts(
  deps: FactDeps,
  asset: Pick<AssetRow, 'id' | 'storageKey'>,
  originalAssetId: string | null,
): Promise<ImageFacts> {
  return (await inspect(deps, asset, undefined, originalAssetId)).facts
}

/**
 * The image's measurement: the one under way or kept, else a new one (stored in image_facts,
 * keeping the first when two processes measure at once). `bytes` when the caller has read them;
 * `originalAssetId` to measure the product's fidelity to the seller's photo as well.
 */
export function inspect(
  deps: FactDeps,
  asset: Pick<AssetRow, 'id' | 'storageKey'>,
  bytes?: Buffer,
  originalAssetId?: string | null,
): Promise<ImageInspection> {
  const known = deps.inspections.get(asset.id)
  if (known) return known
  const measuring = (async () => {
    const resultBytes = bytes ?? (await deps.storage.get(asset.storageKey))
    // Every result asset is made by a provider (an AI edit or the offline studio's composite).
    const reader = deps.textReader
    const inspection = await inspectImage(resultBytes, {
      isGenerated: true,
      segmenter: deps.segmenter,
      ...(reader ? { readText: (image: Buffer) => reader.read(image) } : {}),
    })
    const productFidelity = originalAssetId
      ? await productFidelityOf(deps, originalAssetId, { bytes: resultBytes, mask: inspection.mask })
      : undefined
    const facts: ImageFacts =
      productFidelity === undefined ? inspection.facts : { ...inspection.facts, productFidelity }
    await deps.db.insert(imageFacts).values({ assetId: asset.id, facts }).onConflictDoNothing()
    return { ...inspection, facts }
  })()
  setNewest(deps.inspections, asset.id, measuring, keptInspections)
  measuring.catch(() => deps.inspections.delete(asset.id))
  return measuring
}

/**
 * The image's facts (measuredImageFacts), with the text on it. Facts without text (`text: null`:
 * stored before OCR existed, or while it could not run) get it read now, OCR alone, and the
 * stored row gains it, so older rows need no migration.
 */
async function imageFactsOf(
  deps: MarketplaceDeps,
  asset: AssetRow,
  originalAssetId: string | null,
): Promise<ImageFacts> {
  const facts = await measuredImageFacts(deps, asset, originalAssetId)
  return facts.text === null && deps.textReader ? withText(deps, deps.textReader, asset, facts) : facts
}

/** Text reads of stored facts under way, by asset id: one per file however many requests ask. */
const textReads = new Map<string, Promise<ImageFacts>>()

/** `facts` with the image's text read and stored (only the row's text key changes); unchanged when OCR cannot run. */
function withText(
  deps: MarketplaceDeps,
  reader: TextReader,
  asset: Pick<AssetRow, 'id' | 'storageKey'>,
  facts: ImageFacts,
): Promise<ImageFacts> {
  const known = textReads.get(asset.id)
  if (known) return known
  const reading = (async () => {
    const text = await reader.read(await deps.storage.get(asset.storageKey))
    if (text === null) return facts
    await deps.db
      .update(imageFacts)
      .set({ facts: sql`jsonb_set(${imageFacts.facts}, '{text}', ${JSON.stringify(text)}::jsonb)` })
      .where(eq(imageFacts.assetId, asset.id))
    return { ...facts, text }
  })()
  textReads.set(asset.id, reading)
  void reading.finally(() => textReads.delete(asset.id)).catch(() => {})
  return reading
}

/**
 * The image's facts: stored, or measured now (once). Facts stored without the product's fidelity
 * (before the check existed, or by an export or a library summary, which do not ask for it) get
 * it measured once and added to the stored row.
 */
async function measuredImageFacts(
  deps: MarketplaceDeps,
  asset: AssetRow,
  originalAssetId: string | null,
): Promise<ImageFacts> {
  const [stored] = await deps.db
    .select({ facts: imageFacts.facts })
    .from(imageFacts)
    .where(eq(imageFacts.assetId, asset.id))
  if (!stored) return (await inspect(deps, asset, undefined, originalAssetId)).facts
  if (!originalAssetId || stored.facts.productFidelity !== undefined) return stored.facts
  // The result's mask: the kept inspection's, or a fresh one (its insert finds the row and does nothing).
  const bytes = await deps.storage.get(asset.storageKey)
  const { mask } = await inspect(deps, asset, bytes)
  const productFidelity = await productFidelityOf(deps, originalAssetId, { bytes, mask })
  if (productFidelity === undefined) return stored.facts
  const facts = { ...stored.facts, productFidelity }
  await deps.db.update(imageFacts).set({ facts }).where(eq(imageFacts.assetId, asset.id))
  return facts
}

export function videoTools(deps: MarketplaceDeps): VideoTools {
  return { ffmpegPath: deps.ffmpegPath, ...(deps.tempDir ? { tempDir: deps.tempDir } : {}) }
}

export { VideoToolError } from './video.ts'

/** A video's facts (video.ts measureVideo) with ffprobe as the app is configured. */
export function measureVideoBytes(deps: MarketplaceDeps, bytes: Buffer): Promise<VideoFacts> {
  return measureVideo(bytes, videoTools(deps))
}

function summarise(results: CheckResult[]): MarketplaceCheckView['summary'] {
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length
  return { pass: count('pass'), warn: count('warn'), fail: count('fail') }
}

/** The product's name for file names: the generation's product name, else 'vitrin'. */
export function productName(context: ProductDetails): string {
  return context.name?.trim() || 'vitrin'
}

function exportUrl(generationId: string, profile: MarketplaceProfile): string {
  return `/api/generations/${generationId}/marketplace/${profile.id}/export?n=1`
}

/** A ready result with what its rules are judged on. */
type Measured =
  | { kind: 'image'; facts: ImageFacts }
  | { kind: 'video'; facts: VideoFacts }
  | { kind: 'seo'; copy: Extract<ReadyResult, { kind: 'seo' }>['copy']; brand: string | null }

function measuredCopy(ready: Extract<ReadyResult, { kind: 'seo' }>): Measured {
  return { kind: 'seo', copy: ready.copy, brand: ready.context.brand?.trim() || null }
}

/** A video's facts: probed with ffprobe every time (cheap next to segmenting; nothing stores them). */
async function measuredVideo(deps: MarketplaceDeps, asset: AssetRow): Promise<Measured> {
  return {
    kind: 'video',
    facts: await measureVideo(await deps.storage.get(asset.storageKey), videoTools(deps)),
  }
}

/** The panel's view of a measured result: what the check and the library card's summary both come from. */
function checkedView(
  profile: MarketplaceProfile,
  generationId: string,
  slot: ImageSlot,
  measured: Measured,
): MarketplaceCheckView {
  const base = { profile: profile.id, generationId, image: null, video: null, copy: null }
  if (measured.kind === 'image') {
    const { facts } = measured
    const results = checkImage(profile, facts, slot)
    return {
      ...base,
      image: { slot, facts, results },
      exportUrl: exportUrl(generationId, profile),
      summary: summarise(results),
    }
  }
  if (measured.kind === 'video') {
    const { facts } = measured
    const results = checkVideo(profile, facts)
    return {
      ...base,
      video: { facts, results },
      exportUrl: exportUrl(generationId, profile),
      summary: summarise(results),
    }
  }
  const results = checkCopy(profile, { ...measured.copy, brand: measured.brand })
  return {
    ...base,
    copy: { results, fitted: fitCopy(profile, measured.copy) },
    exportUrl: null,
    summary: summarise(results),
  }
}

/** A result checked against one profile's rules (GET /api/generations/:id/marketplace/:profile). */
export async function checkForMarketplace(
  deps: MarketplaceDeps,
  userId: string,
  input: { generationId: string; profile: string; slot: ImageSlot },
): Promise<MarketplaceCheckView> {
  const profile = profileFor(input.profile)
  const ready = await readyResult(deps, userId, input.generationId)
  const measured =
    ready.kind === 'image'
      ? { kind: 'image' as const, facts: await imageFactsOf(deps, ready.asset, ready.originalAssetId) }
      : ready.kind === 'video'
        ? await measuredVideo(deps, ready.asset)
        : measuredCopy(ready)
  return checkedView(profile, input.generationId, input.slot, measured)
}

/**
 * Work one summaries request may do beyond reading stored facts, one piece at a time: images
 * segmented (up to seconds each the first time) and videos probed (an ffprobe run over the
 * file). Whatever is left over comes back `pending`, and the web asks again for those, so one
 * request never holds the model for a whole page.
 */
export const summaryWork = { images: 1, videos: 4 } as const

/**
 * The library cards' checklist summaries (GET /api/marketplace/summaries): for each of the
 * user's own finished results among `ids`, the counts checkForMarketplace gives at the main
 * slot. Copy and stored image facts cost nothing; new measurements are bounded by summaryWork.
 * A file that cannot be measured is `unavailable` (logged), not a failure of the whole page.
 */
export async function summariseForMarketplace(
  deps: MarketplaceDeps,
  userId: string,
  input: { profile: MarketplaceId; ids: string[]; log?: Pick<Logger, 'warn'> },
): Promise<MarketplaceSummariesResponse> {
  const profile = getProfile(input.profile)
  const owned = await listOwnedRowsWithResults(deps.db, userId, input.ids)
  const ready: { generationId: string; result: ReadyResult }[] = []
  for (const generationId of input.ids) {
    const found = owned.get(generationId)
    if (!found) continue
    try {
      ready.push({ generationId, result: readyFrom(found.row, found.resultAsset) })
    } catch {
      // Not finished, or its file is gone: a single check answers 409 or 404, so it is absent.
    }
  }
  const imageAssetIds = ready.flatMap(({ result }) => (result.kind === 'image' ? [result.asset.id] : []))
  const stored = new Map(
    imageAssetIds.length === 0
      ? []
      : (
          await deps.db
            .select({ assetId: imageFacts.assetId, facts: imageFacts.facts })
            .from(imageFacts)
            .where(inArray(imageFacts.assetId, imageAssetIds))
        ).map((row) => [row.assetId, row.facts]),
  )
  const left = { ...summaryWork }
  const summaries: MarketplaceSummary[] = []
  for (const { generationId, result } of ready) {
    let measured: Measured | null = null
    try {
      if (result.kind === 'seo') measured = measuredCopy(result)
      else if (result.kind === 'image') {
        const facts = stored.get(result.asset.id)
        // Stored facts still without the product's fidelity get it as a check would (the same
        // counts as the panel), which costs a measurement like a new image.
        const isComplete =
          facts !== undefined && (result.originalAssetId === null || facts.productFidelity !== undefined)
        if (facts && isComplete) measured = { kind: 'image', facts }
        else if (left.images > 0) {
          left.images -= 1
          measured = {
            kind: 'image',
            facts: await imageFactsOf(deps, result.asset, result.originalAssetId),
          }
        }
      } else if (left.videos > 0) {
        left.videos -= 1
        measured = await measuredVideo(deps, result.asset)
      }
    } catch (error) {
      input.log?.warn({ err: error, generationId }, 'marketplace summary: the result could not be measured')
      summaries.push({ generationId, status: 'unavailable' })
      continue
    }
    summaries.push(
      measured
        ? {
            generationId,
            status: 'ready',
            summary: checkedView(profile, generationId, 'main', measured).summary,
          }
        : { generationId, status: 'pending' },
    )
  }
  return { profile: profile.id, summaries }
}
