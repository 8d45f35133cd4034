import { type PublicRequestDeps, publicRequest } from '#server/net/public-request.ts'
import { AppError } from '#shared/errors.ts'
import { maxUploadBytes, type NormalizedImage, normalizeUploadedImage } from './image-intake.ts'

/**
 * A product photo from a link the user gave, checked and cleaned exactly like an upload. The
 * fetch goes through the guard in src/server/net (public addresses only, redirects checked, 15 s
 * and 10 MB by default); a link that answers without a 2xx is URL_BAD_STATUS, and bytes that are
 * no PNG, JPEG or WEBP are FILE_TYPE_INVALID, as for an upload.
 */
export async function fetchRemoteImage(
  deps: PublicRequestDeps,
  url: string,
  options: { timeoutMs?: number; maxBytes?: number; signal?: AbortSignal } = {},
): Promise<NormalizedImage> {
  const response = await publicRequest(deps, {
    method: 'GET',
    url,
    headers: { accept: 'image/png, image/jpeg, image/webp' },
    timeoutMs: options.timeoutMs,
    maxBytes: Math.min(options.maxBytes ?? maxUploadBytes, maxUploadBytes),
    signal: options.signal,
  })
  if (response.status < 200 || response.status > 299) {
    deps.log?.warn(
      { status: response.status, origin: new URL(response.url).origin },
      'remote image answered without success',
    )
    throw new AppError('URL_BAD_STATUS', 'The link did not answer with the file')
  }
  return normalizeUploadedImage(response.body)
}
