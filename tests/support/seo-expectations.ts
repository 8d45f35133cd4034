import { expect } from 'vitest'
import { normalizeSeoContent, type SeoContent, seoLimits } from '#shared/seo.ts'

/** Copy within every limit of shared/seo.ts, with ten distinct keywords, and already normal. */
export function expectWithinLimits(content: SeoContent) {
  const lower = (text: string) => text.toLocaleLowerCase('tr-TR')
  expect(content.title.length).toBeGreaterThan(0)
  expect(content.title.length).toBeLessThanOrEqual(seoLimits.titleMax)
  expect(content.description.length).toBeGreaterThan(0)
  expect(content.description.length).toBeLessThanOrEqual(seoLimits.descriptionMax)
  expect(content.features.length).toBeGreaterThanOrEqual(seoLimits.featuresMin)
  expect(content.features.length).toBeLessThanOrEqual(seoLimits.featuresMax)
  expect(content.keywords).toHaveLength(seoLimits.keywords)
  expect(new Set(content.keywords.map(lower)).size).toBe(seoLimits.keywords)
  // Already normal: the shared normaliser accepts it and changes nothing.
  expect(normalizeSeoContent(content)).toEqual(content)
}
