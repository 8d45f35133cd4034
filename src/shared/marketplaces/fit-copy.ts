import { clampAtWord } from '#shared/seo.ts'
import { codePointLength } from './text.ts'
import type { MarketplaceProfile } from './types.ts'

/**
 * Text cut to at most `max` characters (code points, as marketplaces count them), at a word
 * boundary when there is one. Text already within the limit comes back only trimmed: its line
 * breaks stay (a description may be laid out in lines).
 */
export function fitToLength(text: string, max: number): string {
  const trimmed = text.trim()
  if (codePointLength(trimmed) <= max) return trimmed
  // clampAtWord counts UTF-16 units, never fewer than code points, so its result fits too; a
  // hard cut may leave half of a surrogate pair at the end, which is dropped.
  return clampAtWord(trimmed, max).replace(/[\uD800-\uDBFF]$/, '')
}

/**
 * The copy fitted to a profile's title and description limits (the "Shorten title" fix). Where
 * the profile publishes no limit, the text is left as it is.
 */
export function fitCopy(
  profile: MarketplaceProfile,
  copy: { title: string; description: string },
): { title: string; description: string } {
  const titleMax = profile.copy.titleMax?.value
  const descriptionMax = profile.copy.descriptionMax?.value
  return {
    title: titleMax === undefined ? copy.title.trim() : fitToLength(copy.title, titleMax),
    description:
      descriptionMax === undefined ? copy.description.trim() : fitToLength(copy.description, descriptionMax),
  }
}
