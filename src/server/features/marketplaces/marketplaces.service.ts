import type { Db } from '#server/db/client.ts'
import type { AssetRow, GenerationRow } from '#server/db/schema/index.ts'
import { getOwnedRowWithResult } from '#server/features/generations/generations.service.ts'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import { AppError } from '#shared/errors.ts'
import type { VideoFacts } from '#shared/marketplaces/facts.ts'
import { isMarketplaceId } from '#shared/marketplaces/ids.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import type { MarketplaceProfile } from '#shared/marketplaces/types.ts'
import type { ProductDetails } from '#shared/seo.ts'
import type { ImageInspection } from './measure-image.ts'
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
//
// Here: what the panel needs (the deps, a profile, a user's finished result) and its video tools.
// Measuring an image's facts is measure-facts.service.ts; checking a result against a profile,
// and the library's summaries, check-for-marketplace.service.ts.

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

export type ReadyResult =
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
export function readyFrom(row: GenerationRow, resultAsset: AssetRow | null): ReadyResult {
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

/**
 * The fidelity photo of a result (facts.productFidelity): a product edit's input photo; null for
 * fashion results, which show a garment on a model, not the photo's product.
 */
export function fidelityPhotoOf(row: Pick<GenerationRow, 'tool' | 'inputAssetId'>): string | null {
  return row.tool === 'product' ? row.inputAssetId : null
}

export function videoTools(deps: MarketplaceDeps): VideoTools {
  return { ffmpegPath: deps.ffmpegPath, ...(deps.tempDir ? { tempDir: deps.tempDir } : {}) }
}

export { VideoToolError } from './video.ts'

/** A video's facts (video.ts measureVideo) with ffprobe as the app is configured. */
export function measureVideoBytes(deps: MarketplaceDeps, bytes: Buffer): Promise<VideoFacts> {
  return measureVideo(bytes, videoTools(deps))
}

/** The product's name for file names: the generation's product name, else 'vitrin'. */
export function productName(context: ProductDetails): string {
  return context.name?.trim() || 'vitrin'
}
