import chardet from 'chardet'
import iconv from 'iconv-lite'

export type ListEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1254'

export type DecodedText = {
  text: string
  encoding: ListEncoding
  /** How the encoding was chosen: a byte-order mark, the bytes being valid UTF-8, or the fallback. */
  decidedBy: 'bom' | 'valid-utf8' | 'fallback'
  /** chardet's guess, for logs only: it never decides (it reads Turkish ANSI as Latin-1 or Romanian). */
  hint: string | null
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * Decodes a CSV the way Turkish sellers' files come: a BOM decides (UTF-8, or UTF-16 as Excel's
 * "Unicode text" writes it); else bytes that are valid UTF-8 are UTF-8; else Windows-1254, which
 * Turkish Excel's "CSV (delimited)" writes. The rule cannot produce mojibake for Turkish: Windows-1254
 * text with any of İ ş ğ ı Ş Ğ ü ö ç is never valid UTF-8 (those are lone bytes ≥ 0x80, and a
 * UTF-8 sequence needs a lead byte followed by continuation bytes, which Turkish words do not
 * form), and UTF-8 text is never read as Windows-1254. Guessers (chardet) score such short texts
 * as ISO-8859-1 or -2 as often as not, so chardet is only asked for a hint.
 */
export function decodeListText(bytes: Buffer): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: lenientUtf8(bytes.subarray(3)), encoding: 'utf-8', decidedBy: 'bom', hint: null }
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return {
      text: iconv.decode(bytes.subarray(2), 'utf-16le'),
      encoding: 'utf-16le',
      decidedBy: 'bom',
      hint: null,
    }
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return {
      text: iconv.decode(bytes.subarray(2), 'utf-16be'),
      encoding: 'utf-16be',
      decidedBy: 'bom',
      hint: null,
    }
  }
  try {
    return { text: strictUtf8.decode(bytes), encoding: 'utf-8', decidedBy: 'valid-utf8', hint: null }
  } catch {
    return {
      text: iconv.decode(bytes, 'windows-1254'),
      encoding: 'windows-1254',
      decidedBy: 'fallback',
      hint: chardet.detect(bytes.subarray(0, 64 * 1024)),
    }
  }
}

/** After a UTF-8 BOM a stray bad byte becomes U+FFFD rather than failing the whole file. */
function lenientUtf8(bytes: Buffer): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)
}
