// A baseline JPEG's metadata removed without touching its pixels: the file is rewritten from its
// marker segments (ITU-T T.81 Annex B), keeping only what decoding needs. Used by
// image-intake.ts for photos that need no pixel work; anything unusual answers null, and the
// photo is then decoded and re-encoded instead.

const SOI = Buffer.from([0xff, 0xd8])
const EOI = Buffer.from([0xff, 0xd9])

/** Markers of segments decoding needs, kept as they are: DQT, DHT, DRI. */
const tableMarkers = new Set([0xdb, 0xc4, 0xdd])
/** Baseline and extended sequential Huffman frames: one scan holds the whole image. */
const sequentialFrames = new Set([0xc0, 0xc1])

function startsWith(body: Buffer, text: string): boolean {
  return body.length >= text.length && body.toString('latin1', 0, text.length) === text
}

/**
 * Whether an application segment is kept: a JFIF header without a thumbnail (its 14 bytes say
 * density only; a thumbnail could show the photo before it was cropped), an ICC colour profile
 * (the colours mean nothing without it), Adobe's colour-transform flag. Every other APPn (EXIF
 * with GPS and camera serials in APP1, XMP, MPF's secondary images in APP2, IPTC in APP13)
 * is dropped.
 */
function isKeptApplicationSegment(marker: number, body: Buffer): boolean {
  if (marker === 0xe0)
    return startsWith(body, 'JFIF\0') && body.length === 14 && body[12] === 0 && body[13] === 0
  if (marker === 0xe2) return startsWith(body, 'ICC_PROFILE\0')
  if (marker === 0xee) return startsWith(body, 'Adobe')
  return false
}

/**
 * The JPEG without its metadata: SOI, the kept application segments, the tables, the frame, its
 * one scan and EOI; comments, other application segments and anything after EOI are left out.
 * Null unless the file is a single-scan sequential JPEG whose segments are all well formed and
 * whose scan ends in EOI (so a truncated file is never answered: without EOI, the decoder
 * reports the file as cut short, and the caller's full decode refuses it).
 */
export function stripJpegMetadata(bytes: Buffer): Buffer | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null
  const kept: Buffer[] = [SOI]
  let frame: Buffer | null = null
  const quantTables = new Set<number>()
  let at = 2
  for (;;) {
    if (bytes[at] !== 0xff) return null
    // Any number of 0xFF fill bytes may precede a marker.
    while (bytes[at + 1] === 0xff) at++
    if (at + 4 > bytes.length) return null
    const marker = bytes[at + 1] as number
    const length = bytes.readUInt16BE(at + 2)
    const end = at + 2 + length
    if (length < 2 || end > bytes.length) return null
    const body = bytes.subarray(at + 4, end)
    if (marker >= 0xe0 && marker <= 0xef) {
      if (isKeptApplicationSegment(marker, body)) kept.push(bytes.subarray(at, end))
    } else if (marker === 0xfe) {
      // A comment: dropped.
    } else if (tableMarkers.has(marker)) {
      if (marker === 0xdb && !addQuantTables(body, quantTables)) return null
      kept.push(bytes.subarray(at, end))
    } else if (sequentialFrames.has(marker)) {
      if (frame) return null
      frame = body
      kept.push(bytes.subarray(at, end))
    } else if (marker === 0xda) {
      // The decoder stops on a component whose quantisation table was never defined; the header
      // read (sharp's metadata) checks the rest of the frame and scan headers.
      if (!frame || !frameQuantTables(frame)?.every((id) => quantTables.has(id))) return null
      const scanEnd = endOfScan(bytes, end)
      // The scan must be followed by EOI: another marker (a second scan, DNL) is left to the decoder.
      if (scanEnd === null || bytes[scanEnd + 1] !== 0xd9) return null
      kept.push(bytes.subarray(at, scanEnd), EOI)
      return Buffer.concat(kept)
    } else {
      // Progressive, lossless or arithmetic frames, reserved markers, a stray SOI or RSTn.
      return null
    }
    at = end
  }
}

/** Adds the ids a DQT segment defines; false when it is malformed. */
function addQuantTables(body: Buffer, ids: Set<number>): boolean {
  let at = 0
  while (at < body.length) {
    const precisionAndId = body[at] as number
    const id = precisionAndId & 0x0f
    if (id > 3) return false
    ids.add(id)
    at += 1 + (precisionAndId >> 4 === 0 ? 64 : 128)
  }
  return at === body.length
}

/** The quantisation table ids a frame header's components use; null when it is malformed. */
function frameQuantTables(frame: Buffer): number[] | null {
  const count = frame[5] ?? 0
  if (count === 0 || frame.length !== 6 + 3 * count) return null
  return Array.from({ length: count }, (_, index) => frame[6 + 3 * index + 2] as number)
}

/**
 * Where the entropy-coded data starting at `from` ends: the offset of the first marker that is
 * neither a stuffed 0xFF00, a restart marker nor a fill byte. Null when the data runs out first.
 */
function endOfScan(bytes: Buffer, from: number): number | null {
  let at = from
  for (;;) {
    at = bytes.indexOf(0xff, at)
    if (at < 0 || at + 1 >= bytes.length) return null
    const next = bytes[at + 1] as number
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) at += 2
    else if (next === 0xff) at += 1
    else return at
  }
}
