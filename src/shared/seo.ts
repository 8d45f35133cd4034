import { z } from 'zod'
import { safeText, withoutUnsafeText } from './validation.ts'

/** Limits of the Turkish SEO copy. */
export const seoLimits = {
  titleMax: 60,
  descriptionMax: 160,
  featuresMin: 4,
  featuresMax: 6,
  keywords: 10,
} as const

export const seoContentSchema = z.object({
  title: z.string().min(1).max(seoLimits.titleMax),
  description: z.string().min(1).max(seoLimits.descriptionMax),
  features: z.array(z.string().min(1)).min(seoLimits.featuresMin).max(seoLimits.featuresMax),
  keywords: z.array(z.string().min(1)).length(seoLimits.keywords),
})
export type SeoContent = z.infer<typeof seoContentSchema>

/**
 * Optional product details the seller types. They are facts, not hints: the copy keeps each one
 * unchanged and never contradicts it (seo-facts.ts checks that). `color` is named `color` as the
 * catalogue's column is; `features` are the seller's own key features, one line each.
 */
export const productDetailsSchema = z.object({
  name: safeText().trim().max(120).optional(),
  category: safeText().trim().max(80).optional(),
  brand: safeText().trim().max(80).optional(),
  material: safeText().trim().max(80).optional(),
  color: safeText().trim().max(40).optional(),
  description: safeText().trim().max(1000).optional(),
  features: z.array(safeText().trim().min(1).max(100)).max(seoLimits.featuresMax).optional(),
})
export type ProductDetails = z.infer<typeof productDetailsSchema>

/** Shortens text to at most `max` characters, at a word boundary when there is one. */
export function clampAtWord(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim()
  if (clean.length <= max) return clean
  const cut = clean.slice(0, max + 1)
  const lastSpace = cut.lastIndexOf(' ')
  const shortened = lastSpace > max * 0.5 ? cut.slice(0, lastSpace) : clean.slice(0, max)
  return shortened.replace(/[\s,;:–-]+$/, '')
}

/**
 * Brings model output within the limits: title and description cut at a word boundary,
 * features trimmed to at most six, keywords made distinct (case-insensitively, Turkish rules)
 * and cut to ten. Returns null when it cannot be made valid (e.g. fewer than four features
 * or ten distinct keywords), so the caller can retry or fail clearly.
 */
export function normalizeSeoContent(raw: unknown): SeoContent | null {
  if (raw === null || typeof raw !== 'object') return null
  const value = raw as Record<string, unknown>
  const text = (v: unknown) => (typeof v === 'string' ? withoutUnsafeText(v).replace(/\s+/g, ' ').trim() : '')
  const list = (v: unknown) => (Array.isArray(v) ? v.map(text).filter((s) => s.length > 0) : [])
  const title = clampAtWord(text(value.title), seoLimits.titleMax)
  const description = clampAtWord(text(value.description ?? value.metaDescription), seoLimits.descriptionMax)
  const features = list(value.features).slice(0, seoLimits.featuresMax)
  const seen = new Set<string>()
  const keywords: string[] = []
  for (const keyword of list(value.keywords)) {
    const key = keyword.toLocaleLowerCase('tr-TR')
    if (seen.has(key)) continue
    seen.add(key)
    keywords.push(keyword)
  }
  const candidate = { title, description, features, keywords: keywords.slice(0, seoLimits.keywords) }
  const parsed = seoContentSchema.safeParse(candidate)
  return parsed.success ? parsed.data : null
}
