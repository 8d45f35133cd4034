import { z } from 'zod'

export const accessCodeLength = 6

/** Access codes: 6 letters or digits, case-insensitive (stored upper-case). */
export const accessCodeSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(new RegExp(`^[A-Z0-9]{${accessCodeLength}}$`))

export const redeemAccessCodeRequestSchema = z.object({ code: accessCodeSchema })
export type RedeemAccessCodeRequest = z.input<typeof redeemAccessCodeRequestSchema>

/**
 * `next` is followed only when it is a path on this site: one leading slash, no second slash
 * or backslash after it, no scheme, no control characters. Anything else falls back.
 */
export function safeNextPath(next: string | null | undefined, fallback = '/app'): string {
  if (!next) return fallback
  if (!next.startsWith('/')) return fallback
  if (next.startsWith('//') || next.startsWith('/\\')) return fallback
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return fallback
  try {
    const resolved = new URL(next, 'https://vitrin.invalid')
    if (resolved.origin !== 'https://vitrin.invalid') return fallback
    return resolved.pathname + resolved.search + resolved.hash
  } catch {
    return fallback
  }
}
