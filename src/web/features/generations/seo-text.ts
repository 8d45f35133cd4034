import type { SeoContent } from '#shared/seo.ts'

/** Features as the copy button copies them: a bulleted list, one per line. */
export function featuresAsText(features: SeoContent['features']): string {
  return features.map((feature) => `• ${feature}`).join('\n')
}

/** Keywords as the copy button copies them: comma-joined. */
export function keywordsAsText(keywords: SeoContent['keywords']): string {
  return keywords.join(', ')
}
