import { safeNamePart } from '#shared/file-names.ts'

/** Characters kept of the SKU or name; the whole name then stays far below 255 bytes. */
export const maxProductNameChars = 80
/** What names the file when the SKU or name leaves nothing usable (empty, only dots or spaces). */
const fallbackName = 'product'

/**
 * `<sku or name>-<marketplace>-<n>.jpg`, each part made safe for a file name (src/shared/file-names.ts:
 * no separators, controls, hidden or Windows-reserved names). `n` counts a listing's images from 1.
 * A video export takes the same name with `extension: 'mp4'`.
 */
export function exportFileName(input: {
  skuOrName: string
  marketplace: string
  n: number
  extension?: 'jpg' | 'mp4'
}): string {
  if (!Number.isInteger(input.n) || input.n < 1) throw new Error(`invalid image number ${input.n}`)
  const name = safeNamePart(input.skuOrName, maxProductNameChars) || fallbackName
  const marketplace = safeNamePart(input.marketplace.replace(/\s+/g, '-'), 40) || 'marketplace'
  return `${name}-${marketplace}-${input.n}.${input.extension ?? 'jpg'}`
}
