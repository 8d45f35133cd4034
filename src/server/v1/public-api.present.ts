import type { AssetView } from '#shared/contracts/assets.ts'
import type { BatchSummary, BatchView } from '#shared/contracts/catalogue.ts'
import type { GenerationAssetView, GenerationView } from '#shared/contracts/generations.ts'
import type {
  PublicAsset,
  PublicBatch,
  PublicBatchSummary,
  PublicGeneration,
} from '#shared/contracts/public-api.ts'
import { parseOfflineNote } from '#shared/offline-note.ts'

// The web app's views, turned into the public /v1 shapes (src/shared/contracts/public-api.ts):
// the same services answer both, and only the fields an integration needs leave, with every
// link pointing to a /v1 route (the web views' links are cookie-only /api routes).

export function resultUrlOf(generationId: string): string {
  return `/v1/generations/${generationId}/result`
}

export function toPublicAsset(view: AssetView): PublicAsset {
  const { id, kind, mime, bytes, width, height, fileName, createdAt } = view
  return { id, kind, mime, bytes, width, height, fileName, createdAt }
}

function resultFile(generationId: string, file: GenerationAssetView) {
  return {
    url: resultUrlOf(generationId),
    mime: file.mime,
    width: file.width,
    height: file.height,
    fileName: file.fileName,
  }
}

function toPublicResult(view: GenerationView): PublicGeneration['result'] {
  const { result } = view
  if (!result) return null
  if (result.type === 'image') {
    const note = parseOfflineNote(result.description)
    return {
      type: 'image',
      file: resultFile(view.id, result.image),
      productKept: result.productKept ?? null,
      sceneView: note?.subject === 'product' ? (note.view ?? null) : null,
    }
  }
  if (result.type === 'video') return { type: 'video', file: resultFile(view.id, result.video) }
  const { title, description, features, keywords } = result
  return {
    type: 'seo',
    title,
    description,
    features,
    keywords,
    colourFromPhoto: result.colourFromPhoto ?? null,
  }
}

export function toPublicGeneration(view: GenerationView): PublicGeneration {
  return {
    id: view.id,
    tool: view.tool,
    mode: view.mode,
    aspectRatio: view.aspectRatio,
    prompt: view.prompt,
    status: view.status,
    queuePosition: view.queuePosition,
    isRetrying: view.isRetrying,
    errorCode: view.errorCode,
    keepProduct: view.keepProduct ?? false,
    view: view.view ?? 'auto',
    usesOwnKey: view.usesOwnKey,
    inputAssetId: view.input?.id ?? null,
    sourceGenerationId: view.sourceGenerationId,
    result: toPublicResult(view),
    createdAt: view.createdAt,
    startedAt: view.startedAt,
    finishedAt: view.finishedAt,
  }
}

export function toPublicBatchSummary(summary: BatchSummary): PublicBatchSummary {
  const { id, status, fileName, rowCount, productCount, presetId, createdAt, startedAt, finishedAt } = summary
  return { id, status, fileName, rowCount, productCount, presetId, createdAt, startedAt, finishedAt }
}

export function toPublicBatch(view: BatchView): PublicBatch {
  return {
    ...toPublicBatchSummary(view.batch),
    counts: view.counts,
    etaSeconds: view.etaSeconds,
    rows: view.rows.map((row) => ({
      id: row.id,
      line: row.line,
      sku: row.sku,
      name: row.name,
      state: row.state,
      photoAssetId: row.photo?.id ?? null,
      outputs: row.outputs.map((output) => ({
        generationId: output.generationId,
        tool: output.tool,
        mode: output.mode,
        status: output.status,
        errorCode: output.errorCode,
        resultUrl: output.status === 'succeeded' ? resultUrlOf(output.generationId) : null,
      })),
    })),
  }
}
