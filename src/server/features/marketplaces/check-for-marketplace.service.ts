import { inArray } from 'drizzle-orm'
import { type AssetRow, imageFacts } from '#server/db/schema/index.ts'
import { listOwnedRowsWithResults } from '#server/features/generations/generations.service.ts'
import type { Logger } from '#server/logger.ts'
import type {
  ImageSlot,
  MarketplaceCheckView,
  MarketplaceSummariesResponse,
  MarketplaceSummary,
} from '#shared/contracts/marketplaces.ts'
import { type CheckResult, checkCopy, checkImage, checkVideo } from '#shared/marketplaces/check.ts'
import type { ImageFacts, VideoFacts } from '#shared/marketplaces/facts.ts'
import { fitCopy } from '#shared/marketplaces/fit-copy.ts'
import type { MarketplaceId } from '#shared/marketplaces/ids.ts'
import { getProfile } from '#shared/marketplaces/profiles.ts'
import type { MarketplaceProfile } from '#shared/marketplaces/types.ts'
import {
  type MarketplaceDeps,
  profileFor,
  type ReadyResult,
  readyFrom,
  readyResult,
  videoTools,
} from './marketplaces.service.ts'
import { imageFactsOf } from './measure-facts.service.ts'
import { measureVideo } from './video.ts'

// A finished result checked against one profile's rules: the panel's check of one result
// (checkForMarketplace), and the library cards' counts for many (summariseForMarketplace), both
// from the same view of a measured result (checkedView). The facts come from
// measure-facts.service.ts; a check only applies rules to them.

function summarise(results: CheckResult[]): MarketplaceCheckView['summary'] {
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length
  return { pass: count('pass'), warn: count('warn'), fail: count('fail') }
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
