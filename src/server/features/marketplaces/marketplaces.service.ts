import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { type AssetRow, imageFacts, userPreferences } from '#server/db/schema/index.ts'
import { getOwnedRowWithResult } from '#server/features/generations/generations.service.ts'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type {
  ImageSlot,
  MarketplaceCheckView,
  PreferencesResponse,
  UpdatePreferencesRequest,
} from '#shared/contracts/marketplaces.ts'
import { AppError } from '#shared/errors.ts'
import {
  type CheckResult,
  checkCopy,
  checkImage,
  checkVideo,
  durationMargin,
} from '#shared/marketplaces/check.ts'
import type { ImageFacts } from '#shared/marketplaces/facts.ts'
import { fitCopy } from '#shared/marketplaces/fit-copy.ts'
import { getProfile, isMarketplaceId } from '#shared/marketplaces/profiles.ts'
import type { MarketplaceProfile } from '#shared/marketplaces/types.ts'
import { exportFileName } from './export-file-name.ts'
import { type ImageInspection, inspectImage } from './measure-image.ts'
import { renderForMarketplace } from './render-export.ts'
import { createSlots, type Slots } from './slots.ts'
import { lengthenVideo, measureVideo, type VideoTools } from './video.ts'

// The marketplace panel (src/shared/contracts/marketplaces.ts): a user's own finished result
// checked against one profile's rules, and exported for it. Measuring an image runs the
// separation model, so its facts are stored once per file (image_facts) and reused; the model's
// own queue lets one photo through at a time, and exports that re-encode video take a slot of
// their own.

export type MarketplaceDeps = {
  db: Db
  storage: ObjectStorage
  /** Finds the product for the fill and cut-off rules: the process's shared segmenter. */
  segmenter: Pick<Segmenter, 'segment'>
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
function profileFor(id: string): MarketplaceProfile {
  if (!isMarketplaceId(id)) throw new AppError('NOT_FOUND', 'No such marketplace profile')
  return getProfile(id)
}

type ReadyResult =
  | { kind: 'image'; asset: AssetRow; context: Record<string, string> }
  | { kind: 'video'; asset: AssetRow; context: Record<string, string> }
  | {
      kind: 'seo'
      copy: { title: string; description: string; features: string[]; keywords: string[] }
      context: Record<string, string>
    }

/** The user's own finished result; NOT_FOUND for another's, GENERATION_NOT_READY until it has succeeded. */
async function readyResult(
  deps: MarketplaceDeps,
  userId: string,
  generationId: string,
): Promise<ReadyResult> {
  const { row, resultAsset } = await getOwnedRowWithResult(deps.db, userId, generationId)
  const result = row.result
  if (row.status !== 'succeeded' || !result) {
    throw new AppError('GENERATION_NOT_READY', 'The result is not ready')
  }
  if (result.type === 'seo') {
    const { title, description, features, keywords } = result
    return { kind: 'seo', copy: { title, description, features, keywords }, context: row.context }
  }
  if (!resultAsset) throw new AppError('NOT_FOUND', 'The result file is gone')
  return result.type === 'image'
    ? { kind: 'image', asset: resultAsset, context: row.context }
    : { kind: 'video', asset: resultAsset, context: row.context }
}

/**
 * The image's measurement: the one under way or kept, else a new one (stored in image_facts,
 * keeping the first when two processes measure at once). `bytes` when the caller has read them.
 */
function inspect(deps: MarketplaceDeps, asset: AssetRow, bytes?: Buffer): Promise<ImageInspection> {
  const known = deps.inspections.get(asset.id)
  if (known) return known
  const measuring = (async () => {
    // Every result asset is made by a provider (an AI edit or the offline studio's composite).
    const inspection = await inspectImage(bytes ?? (await deps.storage.get(asset.storageKey)), {
      isGenerated: true,
      segmenter: deps.segmenter,
    })
    await deps.db
      .insert(imageFacts)
      .values({ assetId: asset.id, facts: inspection.facts })
      .onConflictDoNothing()
    return inspection
  })()
  deps.inspections.set(asset.id, measuring)
  measuring.catch(() => deps.inspections.delete(asset.id))
  while (deps.inspections.size > keptInspections) {
    const oldest = deps.inspections.keys().next().value
    if (oldest === undefined) break
    deps.inspections.delete(oldest)
  }
  return measuring
}

/** The image's facts: stored, or measured now (once). */
async function imageFactsOf(deps: MarketplaceDeps, asset: AssetRow): Promise<ImageFacts> {
  const [stored] = await deps.db
    .select({ facts: imageFacts.facts })
    .from(imageFacts)
    .where(eq(imageFacts.assetId, asset.id))
  if (stored) return stored.facts
  return (await inspect(deps, asset)).facts
}

function videoTools(deps: MarketplaceDeps): VideoTools {
  return { ffmpegPath: deps.ffmpegPath, ...(deps.tempDir ? { tempDir: deps.tempDir } : {}) }
}

function summarise(results: CheckResult[]): MarketplaceCheckView['summary'] {
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length
  return { pass: count('pass'), warn: count('warn'), fail: count('fail') }
}

/** The product's name for file names: the generation's product name, else 'vitrin'. */
function productName(context: Record<string, string>): string {
  return context.name?.trim() || 'vitrin'
}

function exportUrl(generationId: string, profile: MarketplaceProfile): string {
  return `/api/generations/${generationId}/marketplace/${profile.id}/export?n=1`
}

/** A result checked against one profile's rules (GET /api/generations/:id/marketplace/:profile). */
export async function checkForMarketplace(
  deps: MarketplaceDeps,
  userId: string,
  input: { generationId: string; profile: string; slot: ImageSlot },
): Promise<MarketplaceCheckView> {
  const profile = profileFor(input.profile)
  const ready = await readyResult(deps, userId, input.generationId)
  const base = { profile: profile.id, generationId: input.generationId, image: null, video: null, copy: null }
  if (ready.kind === 'image') {
    const facts = await imageFactsOf(deps, ready.asset)
    const results = checkImage(profile, facts, input.slot)
    return {
      ...base,
      image: { slot: input.slot, facts, results },
      exportUrl: exportUrl(input.generationId, profile),
      summary: summarise(results),
    }
  }
  if (ready.kind === 'video') {
    const facts = await measureVideo(await deps.storage.get(ready.asset.storageKey), videoTools(deps))
    const results = checkVideo(profile, facts)
    return {
      ...base,
      video: { facts, results },
      exportUrl: exportUrl(input.generationId, profile),
      summary: summarise(results),
    }
  }
  const results = checkCopy(profile, { ...ready.copy, brand: ready.context.brand?.trim() || null })
  return {
    ...base,
    copy: { results, fitted: fitCopy(profile, ready.copy) },
    exportUrl: null,
    summary: summarise(results),
  }
}

export type MarketplaceExport = { bytes: Buffer; mime: 'image/jpeg' | 'video/mp4'; fileName: string }

/**
 * A result's file for a profile (GET …/export): an image re-rendered to the profile's target
 * (on pure white along the product's mask where the target is white), a video lengthened past
 * the profile's floor when it has one. SEO copy has no file: VALIDATION_FAILED.
 */
export async function exportForMarketplace(
  deps: MarketplaceDeps,
  userId: string,
  input: { generationId: string; profile: string; n: number },
): Promise<MarketplaceExport> {
  const profile = profileFor(input.profile)
  const ready = await readyResult(deps, userId, input.generationId)
  if (ready.kind === 'seo') throw new AppError('VALIDATION_FAILED', 'SEO copy has no file to export')
  const name = { skuOrName: productName(ready.context), marketplace: profile.id, n: input.n }
  const bytes = await deps.storage.get(ready.asset.storageKey)
  if (ready.kind === 'image') {
    const target = profile.export
    // The mask only matters on white; the measurement that gives it also stores the facts.
    const mask = target.background === 'white' ? (await inspect(deps, ready.asset, bytes)).mask : null
    const rendered = await renderForMarketplace(
      bytes,
      {
        width: target.width,
        height: target.height,
        background: target.background,
        maxBytes: target.maxBytes,
      },
      { mask },
    )
    return { bytes: rendered.bytes, mime: 'image/jpeg', fileName: exportFileName(name) }
  }
  const minSeconds = profile.video.minSeconds?.value
  const video =
    minSeconds === undefined
      ? bytes
      : (
          await deps.videoSlots.run(() =>
            lengthenVideo(bytes, { minSeconds, marginSeconds: durationMargin }, videoTools(deps)),
          )
        ).bytes
  return { bytes: video, mime: 'video/mp4', fileName: exportFileName({ ...name, extension: 'mp4' }) }
}

export async function getPreferences(db: Db, userId: string): Promise<PreferencesResponse> {
  const [row] = await db
    .select({ marketplaceProfile: userPreferences.marketplaceProfile })
    .from(userPreferences)
    .where(eq(userPreferences.userId, userId))
  const profile = row?.marketplaceProfile ?? null
  // A profile id stored by an older version and since retired reads as no choice.
  return { marketplaceProfile: profile !== null && isMarketplaceId(profile) ? profile : null }
}

export async function updatePreferences(
  db: Db,
  userId: string,
  input: UpdatePreferencesRequest,
): Promise<PreferencesResponse> {
  await db
    .insert(userPreferences)
    .values({ userId, marketplaceProfile: input.marketplaceProfile })
    .onConflictDoUpdate({
      target: userPreferences.userId,
      set: { marketplaceProfile: input.marketplaceProfile, updatedAt: new Date() },
    })
  return getPreferences(db, userId)
}
