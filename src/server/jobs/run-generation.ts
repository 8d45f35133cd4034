import { eq } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import {
  type AssetRow,
  assets,
  type GenerationResultRecord,
  type GenerationRow,
} from '#server/db/schema/index.ts'
import { storeAsset } from '#server/features/assets/assets.service.ts'
import {
  findProductMask,
  keepProductOnScene,
  uprightSize,
} from '#server/features/generations/keep-product.ts'
import type { Logger } from '#server/logger.ts'
import type { Providers } from '#server/providers/index.ts'
import type { ImageFile, ImageMime, ProviderCallContext, Started } from '#server/providers/types.ts'
import type { Segmenter } from '#server/segmentation/segmenter.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import { imageSize } from '#shared/scenes.ts'

export type { Providers }

export type RunDeps = {
  db: Db
  storage: ObjectStorage
  providers: Providers
  log: Logger
  /** Stores the provider's request id before waiting on it, so a restart can resume it. */
  rememberRequestId: (requestId: string) => Promise<void>
  /** Asset rows already read (the input photo's, with the claim), so they are not read again. */
  knownAssets?: AssetRow[]
  /** Told of each file the generation stored (its result). */
  onStored?: (asset: AssetRow) => void
  /** Finds the product for "keep my product exactly": the process's one segmentation model. */
  segmenter: Pick<Segmenter, 'segment'>
}

async function readImage(deps: RunDeps, assetId: string | null): Promise<ImageFile> {
  if (!assetId) throw new Error('generation has no input image')
  const known = deps.knownAssets?.find((asset) => asset.id === assetId)
  const [asset] = known ? [known] : await deps.db.select().from(assets).where(eq(assets.id, assetId))
  if (!asset) throw new Error(`input asset ${assetId} is gone`)
  return {
    bytes: await deps.storage.get(asset.storageKey),
    mime: asset.mime as ImageMime,
    sha256: asset.checksum,
  }
}

/** Waits for a queued provider request, or takes an immediate result. */
async function settle<T>(
  deps: RunDeps,
  row: GenerationRow,
  start: () => Promise<Started<T>>,
  resume: (requestId: string) => Promise<T>,
): Promise<T> {
  // After a restart the request may already be running at the provider: resume, never resubmit.
  if (row.providerRequestId) return resume(row.providerRequestId)
  const started = await start()
  if (started.kind === 'done') return started.result
  // Following the request starts at once, while its id is written down; the id is on record
  // before its result is used.
  const remembered = deps.rememberRequestId(started.requestId).then(
    () => null,
    (error: unknown) => error,
  )
  const result = await resume(started.requestId)
  const failure = await remembered
  if (failure) throw failure
  return result
}

function downloadName(row: GenerationRow, extension: string): string {
  const stamp = row.createdAt.toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-')
  return `vitrin-${row.tool}-${row.mode}-${row.aspectRatio.replace(':', 'x')}-${stamp}-${row.id.slice(0, 6)}.${extension}`
}

/**
 * Does the work of one generation and stores what it made (results are copied into our
 * storage; provider URLs expire). Returns the result record; throws on failure.
 */
export async function runGeneration(
  deps: RunDeps,
  row: GenerationRow,
  ctx: ProviderCallContext,
): Promise<GenerationResultRecord> {
  if (row.mode === 'seo') {
    const image = await readImage(deps, row.inputAssetId)
    const copy = await deps.providers.seo.writeSeo({ image, details: row.context }, ctx)
    return { type: 'seo', ...copy, provider: deps.providers.seo.name }
  }

  if (row.mode === 'image') {
    const image = await readImage(deps, row.inputAssetId)
    const reference = row.referenceAssetId ? await readImage(deps, row.referenceAssetId) : undefined
    const provider = deps.providers.image
    const segmenter = row.keepProduct && row.tool === 'product' ? deps.segmenter : null
    // The product is looked for while the provider works (the model runs on its own thread).
    const maskFound = segmenter ? findProductMask(image.bytes, segmenter) : null
    maskFound?.catch(() => undefined)
    const result = await settle(
      deps,
      row,
      () =>
        provider.startImageEdit(
          {
            tool: row.tool,
            image,
            reference,
            prompt: row.prompt,
            aspectRatio: row.aspectRatio,
            view: row.view,
          },
          ctx,
        ),
      (requestId) => provider.resumeImageEdit(requestId, ctx),
    )
    // The offline studio (which says where the photo went) composes at up to 2048 px, as large as
    // the product allows (decision 43): its placement is in its own result's pixels.
    const size = result.placement ? await uprightSize(result.image.bytes) : imageSize[row.aspectRatio]
    let output: ImageFile = result.image
    let productKept: boolean | undefined
    if (maskFound && segmenter) {
      // "Keep my product exactly": the original product over the scene. When the photo shows
      // no believable product the scene is kept as made, and the result says so (decision 25).
      const kept = await keepProductOnScene({
        original: image.bytes,
        scene: result.image.bytes,
        frame: size,
        placement: result.placement,
        mask: await maskFound,
        segmenter,
      })
      if (kept.isKept) output = { bytes: kept.bytes, mime: kept.mime }
      productKept = kept.isKept
      deps.log.info({ productKept }, 'keep my product exactly')
    }
    const stored = await storeAsset(deps, {
      userId: row.userId,
      kind: 'result',
      bytes: output.bytes,
      mime: output.mime,
      fileName: downloadName(
        row,
        output.mime === 'image/png' ? 'png' : output.mime === 'image/webp' ? 'webp' : 'jpg',
      ),
      width: size.width,
      height: size.height,
    })
    deps.onStored?.(stored)
    return {
      type: 'image',
      assetId: stored.id,
      description: result.description,
      promptUsed: result.promptUsed,
      provider: provider.name,
      ...(productKept === undefined ? {} : { productKept }),
    }
  }

  const image = await readImage(deps, row.inputAssetId)
  const provider = deps.providers.video
  const result = await settle(
    deps,
    row,
    () => provider.startVideo({ image, prompt: row.prompt, aspectRatio: row.aspectRatio }, ctx),
    (requestId) => provider.resumeVideo(requestId, ctx),
  )
  const stored = await storeAsset(deps, {
    userId: row.userId,
    kind: 'result',
    bytes: result.video.bytes,
    mime: 'video/mp4',
    fileName: downloadName(row, 'mp4'),
  })
  deps.onStored?.(stored)
  if (!row.inputAssetId) throw new Error('video without an input image')
  return {
    type: 'video',
    assetId: stored.id,
    posterAssetId: row.inputAssetId,
    promptUsed: result.promptUsed,
    provider: provider.name,
  }
}
