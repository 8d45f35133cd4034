import { useCallback, useEffect, useRef, useState } from 'react'
import type { AssetView } from '#shared/contracts/assets.ts'
import type { ErrorCode } from '#shared/errors.ts'
import { ApiError } from '#web/lib/api-client.ts'
import { uploadAsset } from '../api/upload-asset.ts'
import { checkImageFile } from '../file-checks.ts'

export type PhotoState =
  | { status: 'empty'; error: ErrorCode | 'NETWORK' | null }
  | { status: 'uploading'; file: File; previewUrl: string }
  | { status: 'ready'; file: File; previewUrl: string; asset: AssetView }
  | { status: 'failed'; file: File; previewUrl: string; error: ErrorCode | 'NETWORK' }

/**
 * One chosen photo: checked in the browser first (type, size), then uploaded at once so
 * Generate can start without waiting. The preview is a local object URL, revoked when replaced.
 */
export function usePhotoUpload() {
  const [state, setState] = useState<PhotoState>({ status: 'empty', error: null })
  const controller = useRef<AbortController | null>(null)
  const previewRef = useRef<string | null>(null)

  const revokePreview = useCallback(() => {
    if (previewRef.current) URL.revokeObjectURL(previewRef.current)
    previewRef.current = null
  }, [])

  useEffect(
    () => () => {
      controller.current?.abort()
      revokePreview()
    },
    [revokePreview],
  )

  const choose = useCallback(
    (file: File) => {
      controller.current?.abort()
      const problem = checkImageFile(file)
      if (problem) {
        // A rejected choice clears the previous photo: what is shown is always what would be sent.
        revokePreview()
        setState({ status: 'empty', error: problem })
        return
      }
      revokePreview()
      const previewUrl = URL.createObjectURL(file)
      previewRef.current = previewUrl
      const request = new AbortController()
      controller.current = request
      setState({ status: 'uploading', file, previewUrl })
      uploadAsset(file, request.signal).then(
        (asset) => {
          if (!request.signal.aborted) setState({ status: 'ready', file, previewUrl, asset })
        },
        (error: unknown) => {
          if (request.signal.aborted) return
          const code = error instanceof ApiError ? error.code : 'NETWORK'
          setState({ status: 'failed', file, previewUrl, error: code })
        },
      )
    },
    [revokePreview],
  )

  const clear = useCallback(() => {
    controller.current?.abort()
    revokePreview()
    setState({ status: 'empty', error: null })
  }, [revokePreview])

  return { state, choose, clear }
}
