import { catalogueLimits, productListExtensions } from '#shared/catalogue/limits.ts'
import type { ErrorCode } from '#shared/errors.ts'

export const listAccept = [
  ...productListExtensions,
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
].join(',')
export const photosAccept = '.zip,application/zip'

function hasExtension(file: File, extensions: readonly string[]): boolean {
  const name = file.name.toLowerCase()
  return extensions.some((extension) => name.endsWith(extension))
}

/**
 * The browser's check of a product list before sending: not empty, named like a list, within the
 * size limit. The server reads the bytes and has the last word.
 */
export function checkListFile(
  file: File,
): Extract<ErrorCode, 'CATALOGUE_FILE_EMPTY' | 'CATALOGUE_FILE_TYPE' | 'CATALOGUE_FILE_TOO_LARGE'> | null {
  if (file.size === 0) return 'CATALOGUE_FILE_EMPTY'
  if (!hasExtension(file, productListExtensions)) return 'CATALOGUE_FILE_TYPE'
  if (file.size > catalogueLimits.maxListFileBytes) return 'CATALOGUE_FILE_TOO_LARGE'
  return null
}

/** The same for the photo ZIP: named .zip, within the upload limit. */
export function checkPhotosFile(
  file: File,
): Extract<ErrorCode, 'CATALOGUE_ZIP_INVALID' | 'CATALOGUE_ZIP_TOO_LARGE'> | null {
  if (file.size === 0 || !hasExtension(file, ['.zip'])) return 'CATALOGUE_ZIP_INVALID'
  if (file.size > catalogueLimits.photoZip.maxFileBytes) return 'CATALOGUE_ZIP_TOO_LARGE'
  return null
}
