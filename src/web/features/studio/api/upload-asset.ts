import type { AssetResponse, AssetView } from '#shared/contracts/assets.ts'
import { apiRequest } from '#web/lib/api-client.ts'

/**
 * Sends one photo to POST /api/assets. The server decides by content whether it is an image
 * and answers with a translated code when it is not (it may disagree with the browser's check).
 */
export async function uploadAsset(file: File, signal?: AbortSignal): Promise<AssetView> {
  const form = new FormData()
  form.append('file', file, file.name)
  const answer = await apiRequest<AssetResponse>('/api/assets', {
    body: form,
    signal,
    fallbackCode: 'FILE_TYPE_INVALID',
  })
  return answer.asset
}
