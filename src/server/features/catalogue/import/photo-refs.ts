import { catalogueLimits } from '#shared/catalogue/limits.ts'

/**
 * What a photo cell says: a file in the photo ZIP, an http(s) address to fetch, or an address we
 * will not fetch. Reachability and content are checked later, when the address is fetched.
 */
export type PhotoReference =
  | { kind: 'file'; name: string }
  | { kind: 'url'; url: string }
  | { kind: 'invalidUrl'; value: string }

/**
 * A cell may hold several photos: one per line, or separated by `|`, `;`, a comma followed by a
 * space, or a comma right before another http(s) address. A bare comma is not a separator, as
 * file names and image-CDN addresses (`w_500,h_500`) contain them.
 */
const separators = /\r?\n|\||;|,(?=\s)|,(?=\s*https?:\/\/)/i

export function splitPhotoCell(cell: string): string[] {
  return cell
    .split(separators)
    .map((part) => part.trim())
    .filter((part) => part !== '')
}

/** A scheme of two letters or more ("C:\photos\a.jpg" is a Windows path, not a URL). */
const schemePattern = /^([a-z][a-z0-9+.-]+):/i

export function classifyReference(
  value: string,
  maxUrlChars = catalogueLimits.maxImageUrlChars,
): PhotoReference {
  const scheme = schemePattern.exec(value)?.[1]?.toLowerCase()
  if (scheme === undefined) {
    // An address without its scheme, or one relative to the page's scheme: a link, not a file.
    if (/^(?:www\.|\/\/)/i.test(value)) return { kind: 'invalidUrl', value }
    return { kind: 'file', name: value }
  }
  if (scheme !== 'http' && scheme !== 'https') return { kind: 'invalidUrl', value }
  if (value.length > maxUrlChars) return { kind: 'invalidUrl', value }
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return { kind: 'invalidUrl', value }
  }
  // A login in the address would be sent to whoever answers; the fetch refuses it too.
  if (url.hostname === '' || url.username !== '' || url.password !== '') return { kind: 'invalidUrl', value }
  return { kind: 'url', url: url.href }
}

/**
 * The references of one photo column of a row. An XLSX hyperlink to an http(s) address wins over
 * the text shown ("Görsel 1" linking to the photo); a link to a local file (Excel's
 * `file:///C:/…`) does not, the text (usually the file name) does.
 */
export function photoReferencesOf(cell: string, link: string | undefined): PhotoReference[] {
  if (link && /^https?:\/\//i.test(link.trim())) return [classifyReference(link.trim())]
  return splitPhotoCell(cell).map((part) => classifyReference(part))
}
