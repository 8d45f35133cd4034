/**
 * What a list file is, by its first bytes (never by its name: a sheet saved as .csv, or a photo
 * renamed to one, is common).
 */
export type ListFileKind = 'zip' | 'text' | 'binary'

/** Formats worth naming; anything else binary has zero bytes or control codes, caught below. */
const binarySignatures: readonly (readonly number[])[] = [
  [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], // OLE2: Excel 97–2003 .xls, old .doc
  [0x25, 0x50, 0x44, 0x46], // %PDF
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF
  [0x1f, 0x8b], // gzip
  [0x52, 0x61, 0x72, 0x21], // RAR
  [0x37, 0x7a, 0xbc, 0xaf], // 7z
]

const sampleBytes = 64 * 1024

export function sniffListFile(bytes: Buffer): ListFileKind {
  // Local file header, or the end record of an empty archive.
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return 'zip'
  if (binarySignatures.some((signature) => startsWith(bytes, signature))) return 'binary'
  // UTF-16 with a BOM is text full of zero bytes.
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) return 'text'
  const sample = bytes.subarray(0, sampleBytes)
  let controls = 0
  for (const byte of sample) {
    if (byte === 0) return 'binary'
    // Tab, line feed, form feed, carriage return and DOS's end-of-file mark occur in real text.
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1a) {
      controls += 1
    }
  }
  return controls > sample.length / 100 ? 'binary' : 'text'
}

function startsWith(bytes: Buffer, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, index) => bytes[index] === byte)
}
