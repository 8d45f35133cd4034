// Just enough of an ICC profile (ICC.1:2010, also v2) to tell sRGB from other RGB spaces: the
// header's colour space, the description, and the red, green and blue primaries. sharp reports
// an RGB file tagged Display P3 or Adobe RGB as 'srgb' (its channel layout), so the profile has
// to be read to know whether the numbers mean sRGB colours.

type Tag = { offset: number; size: number }

function tags(icc: Uint8Array): Map<string, Tag> {
  const view = new DataView(icc.buffer, icc.byteOffset, icc.byteLength)
  const found = new Map<string, Tag>()
  if (icc.byteLength < 132) return found
  const count = view.getUint32(128)
  for (let i = 0; i < count; i++) {
    const at = 132 + i * 12
    if (at + 12 > icc.byteLength) break
    const offset = view.getUint32(at + 4)
    const size = view.getUint32(at + 8)
    if (offset + size > icc.byteLength) continue
    found.set(latin1(icc, at, at + 4), { offset, size })
  }
  return found
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, Math.min(to, bytes.byteLength)))
}

/** The profile's description ('desc' tag: v2 text or v4 multi-language, first record), or null. */
export function profileDescription(icc: Uint8Array): string | null {
  const desc = tags(icc).get('desc')
  if (!desc) return null
  const view = new DataView(icc.buffer, icc.byteOffset, icc.byteLength)
  const type = latin1(icc, desc.offset, desc.offset + 4)
  if (type === 'desc' && desc.size >= 12) {
    const length = view.getUint32(desc.offset + 8)
    return latin1(icc, desc.offset + 12, desc.offset + 12 + length).replace(/\0+$/, '')
  }
  if (type === 'mluc' && desc.size >= 28) {
    const length = view.getUint32(desc.offset + 20)
    const start = desc.offset + view.getUint32(desc.offset + 24)
    let text = ''
    for (let i = start; i + 1 < Math.min(start + length, icc.byteLength); i += 2) {
      text += String.fromCharCode(view.getUint16(i))
    }
    return text.replace(/\0+$/, '')
  }
  return null
}

/** sRGB's primaries as an ICC profile stores them (D50-adapted XYZ, ICC.1 Annex F / IEC 61966-2-1). */
const srgbPrimaries = {
  rXYZ: [0.4361, 0.2225, 0.0139],
  gXYZ: [0.3851, 0.7169, 0.0971],
  bXYZ: [0.1431, 0.0606, 0.7141],
} as const

function primary(icc: Uint8Array, tag: Tag | undefined): number[] | null {
  if (!tag || tag.size < 20 || latin1(icc, tag.offset, tag.offset + 4) !== 'XYZ ') return null
  const view = new DataView(icc.buffer, icc.byteOffset, icc.byteLength)
  // s15Fixed16Number: a signed 32-bit integer over 65536.
  return [0, 1, 2].map((i) => view.getInt32(tag.offset + 8 + i * 4) / 65536)
}

/**
 * Whether an embedded profile describes sRGB: an RGB profile whose primaries are sRGB's (to three
 * decimals; profiles round them differently), or, for one without primaries, whose description
 * names sRGB.
 */
export function isSrgbProfile(icc: Uint8Array): boolean {
  if (icc.byteLength < 132 || latin1(icc, 16, 20) !== 'RGB ') return false
  const found = tags(icc)
  const measured = (['rXYZ', 'gXYZ', 'bXYZ'] as const).map((name) => primary(icc, found.get(name)))
  if (measured.every((xyz) => xyz !== null)) {
    return (['rXYZ', 'gXYZ', 'bXYZ'] as const).every((name, i) =>
      srgbPrimaries[name].every((value, c) => Math.abs(value - (measured[i]?.[c] ?? 0)) < 0.003),
    )
  }
  return /\bsRGB\b/i.test(profileDescription(icc) ?? '')
}
