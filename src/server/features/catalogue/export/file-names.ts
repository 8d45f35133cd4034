/**
 * Names inside an export ZIP. A SKU is whatever the seller's list says, so before it names a
 * folder it loses everything that could leave the folder, hide the file, trip Windows or spoof
 * the name on screen; two SKUs that end up alike (or alike but for case, on Windows and macOS)
 * get `-2`, `-3` … so no product's files land in another's folder.
 */

/** Characters of a folder name before its uniqueness suffix; with `-video.mp4` it stays far below 255 bytes. */
export const maxFolderNameChars = 60

// C0/C1 controls, and the bidirectional controls that can make `gpj.exe` read as `exe.jpg`.
const controlCharacters = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu
// Separators and what Windows refuses in a name.
const unsafeCharacters = /[/\\:*?"<>|]/g
// Names Windows keeps for devices, with or without an extension (`CON`, `nul.txt`, `COM¹`).
const windowsDeviceName = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i
// Formula starters (the name is a cell in the listing) and `-` (a shell would read an option).
const riskyFirstCharacter = /^[=+\-@]/

/** Leading dots hide a file on Unix; Windows drops trailing dots and spaces. */
function trimEdges(name: string): string {
  return name.replace(/^[.\s]+/u, '').replace(/[.\s]+$/u, '')
}

/** A safe folder name for a SKU, not yet made unique; `line-<n>` when nothing usable is left. */
export function safeFolderName(sku: string, line: number): string {
  let name = trimEdges(
    sku
      .normalize('NFC')
      .replace(controlCharacters, '_')
      .replace(unsafeCharacters, '_')
      .replace(/\.{2,}/g, '_'),
  )
  // Cut by code points, so a Turkish letter or an emoji is never split in half.
  name = trimEdges(Array.from(name).slice(0, maxFolderNameChars).join(''))
  if (riskyFirstCharacter.test(name) || windowsDeviceName.test(name)) name = `_${name}`
  return name === '' ? `line-${line}` : name
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
