import type { AssetRow } from '#server/db/schema/index.ts'
import { AppError } from '#shared/errors.ts'
import { durationMargin, fillTolerance } from '#shared/marketplaces/check.ts'
import type { MarketplaceProfile } from '#shared/marketplaces/types.ts'
import { exportFileName } from './export-file-name.ts'
import {
  type MarketplaceDeps,
  productName,
  profileFor,
  readyResult,
  videoTools,
} from './marketplaces.service.ts'
import { inspect } from './measure-facts.service.ts'
import { renderForMarketplace } from './render-export.ts'
import { frameVideo, lengthenVideo } from './video.ts'

// A result re-made for a marketplace profile: the panel's export (one result) and the catalogue's
// preset export (a batch, one file at a time) both come through fileForMarketplace. The image's
// mask comes from the same measurement the check stores (measure-facts.service.ts inspect).

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
  const bytes = await deps.storage.get(ready.asset.storageKey)
  return exportFileFor(deps, profile, {
    kind: ready.kind,
    asset: ready.asset,
    bytes,
    skuOrName: productName(ready.context),
    n: input.n,
  })
}

/**
 * fileForMarketplace with its download name, `<sku or name>-<marketplace>-<n>.jpg` (or `.mp4`):
 * what the panel's export answers and the catalogue export writes for each file of a batch
 * with a preset (`n` counts the product's images, and its videos, from 1).
 */
export async function exportFileFor(
  deps: MarketplaceDeps,
  profile: MarketplaceProfile,
  input: {
    kind: 'image' | 'video'
    asset: Pick<AssetRow, 'id' | 'storageKey'>
    bytes: Buffer
    skuOrName: string
    n: number
  },
): Promise<MarketplaceExport> {
  const name = { skuOrName: input.skuOrName, marketplace: profile.id, n: input.n }
  const file = await fileForMarketplace(deps, profile, input)
  return file.kind === 'image'
    ? { bytes: file.bytes, mime: 'image/jpeg', fileName: exportFileName(name) }
    : { bytes: file.bytes, mime: 'video/mp4', fileName: exportFileName({ ...name, extension: 'mp4' }) }
}

/**
 * A profile with how one stored file is re-made for it (exportFileFor), in the shape the
 * catalogue's export takes for a batch's preset: it calls `render` for one file at a time.
 */
export function presetExporter(deps: MarketplaceDeps, profile: MarketplaceProfile) {
  return {
    profile,
    render: (
      file: { kind: 'image' | 'video'; assetId: string; storageKey: string },
      bytes: Buffer,
      name: { skuOrName: string; n: number },
    ) =>
      exportFileFor(deps, profile, {
        kind: file.kind,
        asset: { id: file.assetId, storageKey: file.storageKey },
        bytes,
        ...name,
      }),
  }
}

/**
 * The share of the frame an export's product is scaled to fill (on white, along its mask): the
 * profile's minimum fill (Amazon's main image: 85 %) plus the checker's tolerance, so the export
 * passes the rule however a mask's edge falls. None when the profile has no fill rule.
 */
export function exportFillShare(profile: MarketplaceProfile): number | undefined {
  const rule = profile.image.main?.minFillShare ?? profile.image.all.minFillShare
  return rule === undefined ? undefined : Math.min(0.95, rule.value + fillTolerance)
}

/**
 * A stored result's bytes re-made for a profile: an image rendered to its export target (on
 * pure white along the product's mask where the target is white, cropped so the product fills
 * the frame where the profile asks for a fill; the measurement that gives the
 * mask also stores the facts), a video lengthened past its floor when it has one (in a video
 * slot). The panel's export and the catalogue export (one file at a time) both come here.
 */
export async function fileForMarketplace(
  deps: MarketplaceDeps,
  profile: MarketplaceProfile,
  input: { kind: 'image' | 'video'; asset: Pick<AssetRow, 'id' | 'storageKey'>; bytes: Buffer },
): Promise<{ kind: 'image' | 'video'; bytes: Buffer }> {
  const { bytes } = input
  if (input.kind === 'image') {
    const target = profile.export
    const mask = target.background === 'white' ? (await inspect(deps, input.asset, bytes)).mask : null
    const fillShare = exportFillShare(profile)
    const rendered = await renderForMarketplace(
      bytes,
      {
        width: target.width,
        height: target.height,
        background: target.background,
        maxBytes: target.maxBytes,
        ...(fillShare === undefined ? {} : { fillShare }),
      },
      { mask },
    )
    return { kind: 'image', bytes: rendered.bytes }
  }
  // Framed in the slot's shape first (a 1:1 clip for a 16:9 rule gets bands that continue it,
  // never refused or stretched), then lengthened past a duration floor.
  const { ratios, minResolution, minSeconds } = profile.video
  const framed = await deps.videoSlots.run(() =>
    frameVideo(bytes, { ratios: ratios?.value, minResolution: minResolution?.value }, videoTools(deps)),
  )
  if (minSeconds === undefined) return { kind: 'video', bytes: framed.bytes }
  const lengthened = await deps.videoSlots.run(() =>
    lengthenVideo(
      framed.bytes,
      { minSeconds: minSeconds.value, marginSeconds: durationMargin },
      videoTools(deps),
    ),
  )
  return { kind: 'video', bytes: lengthened.bytes }
}
