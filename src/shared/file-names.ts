/**
 * A seller's text (a SKU, a product name) made safe to stand in a file or folder name: everything
 * that could leave the folder, hide the file, trip Windows or spoof the name on screen is
 * replaced or dropped. Shared by the catalogue's export ZIP (its folder names) and the marketplace
 * export (its file names), and isomorphic so the web app can show the name a download will have.
 */

// C0/C1 controls, and the bidirectional controls that can make `gpj.exe` read as `exe.jpg`.
const controlCharacters = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu
// Separators and what Windows refuses in a name.
const unsafeCharacters = /[/\\:*?"<>|]/g
// Names Windows keeps for devices, with or without an extension (`CON`, `nul.txt`, `COM¹`).
const windowsDeviceName = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i
// Formula starters (the name is a cell in a listing) and `-` (a shell would read an option).
const riskyFirstCharacter = /^[=+\-@]/

/** Leading dots hide a file on Unix; Windows drops trailing dots and spaces. */
function trimEdges(name: string): string {
  return name.replace(/^[.\s]+/u, '').replace(/[.\s]+$/u, '')
}

/**
 * `text` as a safe name part of at most `maxChars` characters (code points, so a Turkish letter
 * or an emoji is never split in half); '' when nothing usable is left, for the caller's fallback.
 */
export function safeNamePart(text: string, maxChars: number): string {
  let name = trimEdges(
    text
      .normalize('NFC')
      .replace(controlCharacters, '_')
      .replace(unsafeCharacters, '_')
      .replace(/\.{2,}/g, '_'),
  )
  name = trimEdges(Array.from(name).slice(0, maxChars).join(''))
  if (riskyFirstCharacter.test(name) || windowsDeviceName.test(name)) name = `_${name}`
  return name
}
