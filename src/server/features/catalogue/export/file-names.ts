/**
 * Names inside an export ZIP. A SKU is whatever the seller's list says, so before it names a
 * folder it loses everything that could leave the folder, hide the file, trip Windows or spoof
 * the name on screen; two SKUs that end up alike (or alike but for case, on Windows and macOS)
 * get `-2`, `-3` … so no product's files land in another's folder. The sanitising itself is
 * shared with the marketplace export (src/shared/file-names.ts).
 */

import { safeNamePart } from '#shared/file-names.ts'

/** Characters of a folder name before its uniqueness suffix; with `-video.mp4` it stays far below 255 bytes. */
export const maxFolderNameChars = 60

/** A safe folder name for a SKU, not yet made unique; `line-<n>` when nothing usable is left. */
export function safeFolderName(sku: string, line: number): string {
  return safeNamePart(sku, maxFolderNameChars) || `line-${line}`
}

/** Hands out folder names, each one once (compared without case, as Windows and macOS do). */
export function createFolderNames(): { take(sku: string, line: number): string } {
  const taken = new Set<string>()
  return {
    take(sku, line) {
      const base = safeFolderName(sku, line)
      let name = base
      for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`
      taken.add(name.toLowerCase())
      return name
    },
  }
}

const extensions: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
}

/** The file name ending for a stored file's type; `bin` for a type we do not know. */
export function extensionFor(mime: string): string {
  return extensions[mime.toLowerCase().split(';')[0]?.trim() ?? ''] ?? 'bin'
}
