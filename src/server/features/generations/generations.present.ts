import type { AssetRow, GenerationResultRecord, GenerationRow } from '#server/db/schema/index.ts'
import type {
  GenerationAssetView,
  GenerationResultView,
  GenerationView,
} from '#shared/contracts/generations.ts'

/** The asset columns a generation's view shows of each of its files. */
export type PresentedAsset = Pick<AssetRow, 'id' | 'mime' | 'width' | 'height' | 'fileName'>

/** The generation columns its view is made of (presentGeneration and assetIdsOf read no others). */
export type PresentedGenerationRow = Pick<
  GenerationRow,
  | 'id'
  | 'tool'
  | 'mode'
  | 'aspectRatio'
  | 'prompt'
  | 'status'
  | 'queuePosition'
  | 'attempts'
  | 'errorCode'
  | 'provider'
  | 'usesOwnKey'
  | 'keepProduct'
  | 'view'
  | 'savedAt'
  | 'inputAssetId'
  | 'result'
  | 'sourceGenerationId'
  | 'createdAt'
  | 'startedAt'
  | 'finishedAt'
>

export function presentAssetView(asset: PresentedAsset): GenerationAssetView {
  const url = `/api/assets/${asset.id}/file`
  return {
    id: asset.id,
    url,
    downloadUrl: `${url}?download=1`,
    mime: asset.mime,
    width: asset.width,
    height: asset.height,
    fileName: asset.fileName,
  }
}

function presentResult(
  result: GenerationResultRecord | null,
  assetsById: Map<string, PresentedAsset>,
): GenerationResultView | null {
  if (!result) return null
  if (result.type === 'seo') {
    const { type, title, description, features, keywords, model, provider, colourFromPhoto } = result
    return {
      type,
      title,
      description,
      features,
      keywords,
      model,
      provider,
      ...(colourFromPhoto ? { colourFromPhoto } : {}),
    }
  }
  if (result.type === 'image') {
    const image = assetsById.get(result.assetId)
    if (!image) return null
    return {
      type: 'image',
      image: presentAssetView(image),
      description: result.description,
      promptUsed: result.promptUsed,
      provider: result.provider,
      ...(result.productKept === undefined ? {} : { productKept: result.productKept }),
    }
  }
  const video = assetsById.get(result.assetId)
  if (!video) return null
  const poster = assetsById.get(result.posterAssetId)
  return {
    type: 'video',
    video: presentAssetView(video),
    poster: poster ? presentAssetView(poster) : null,
    promptUsed: result.promptUsed,
    provider: result.provider,
  }
}

/** The asset ids a generation's view needs. */
export function assetIdsOf(row: Pick<GenerationRow, 'inputAssetId' | 'result'>): string[] {
  const ids = [row.inputAssetId]
  if (row.result?.type === 'image') ids.push(row.result.assetId)
  if (row.result?.type === 'video') ids.push(row.result.assetId, row.result.posterAssetId)
  return ids.filter((id): id is string => typeof id === 'string')
}

/** Rows never leave raw: only what the owner's screens need. */
export function presentGeneration(
  row: PresentedGenerationRow,
  assetsById: Map<string, PresentedAsset>,
): GenerationView {
  const input = row.inputAssetId ? assetsById.get(row.inputAssetId) : undefined
  return {
    id: row.id,
    tool: row.tool,
    mode: row.mode,
    aspectRatio: row.aspectRatio,
    prompt: row.prompt,
    status: row.status,
    queuePosition: row.status === 'queued' || row.status === 'running' ? row.queuePosition : null,
    // Back in the queue after a failed try: waiting for its retry, not for its first turn.
    isRetrying: row.status === 'queued' && row.attempts > 0,
    errorCode: row.errorCode,
    provider: row.provider,
    usesOwnKey: row.usesOwnKey,
    keepProduct: row.keepProduct,
    ...(row.tool === 'product' && row.mode === 'image' ? { view: row.view } : {}),
    isSaved: row.savedAt !== null,
    input: input ? presentAssetView(input) : null,
    result: row.status === 'succeeded' ? presentResult(row.result, assetsById) : null,
    sourceGenerationId: row.sourceGenerationId,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  }
}
