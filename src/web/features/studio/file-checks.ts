import type { ErrorCode } from '#shared/errors.ts'

/** The upload limit the server enforces (10 MB, counted in MiB as the server does). */
export const maxUploadBytes = 10 * 1024 * 1024
const acceptedTypes = ['image/png', 'image/jpeg', 'image/webp']
export const acceptAttribute = acceptedTypes.join(',')

/**
 * The browser-side check before any upload: PNG, JPEG or WebP, at most 10 MB.
 * The server checks the bytes again and has the last word.
 */
export function checkImageFile(
  file: File,
): Extract<ErrorCode, 'FILE_TYPE_INVALID' | 'FILE_TOO_LARGE'> | null {
  if (!file.type.startsWith('image/') || (file.type !== '' && !acceptedTypes.includes(file.type))) {
    return 'FILE_TYPE_INVALID'
  }
  if (file.size > maxUploadBytes) return 'FILE_TOO_LARGE'
  return null
}

/** "2.4" for 2.4 MB: sizes are shown in MB with one decimal, at least 0.1. */
export function sizeInMb(bytes: number): number {
  return Math.max(0.1, Math.round((bytes / (1024 * 1024)) * 10) / 10)
}
