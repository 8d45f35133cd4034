import { z } from 'zod'
import type { CheckResult } from '#shared/marketplaces/check.ts'
import type { ImageFacts, VideoFacts } from '#shared/marketplaces/facts.ts'
import { type MarketplaceId, marketplaceIds } from '#shared/marketplaces/ids.ts'

// The marketplace panel's API (src/server/features/marketplaces). Every answer's shape is here.
//
//   GET /api/generations/:id/marketplace/:profile?slot=main|additional  → MarketplaceCheckView
//   GET /api/generations/:id/marketplace/:profile/export?n=1             → the file: an image as the
//       profile's JPEG (<sku or name>-<marketplace>-<n>.jpg), a video lengthened past the profile's
//       floor when it has one (.mp4); 409 GENERATION_NOT_READY before the result exists
//   GET /api/preferences                                                 → PreferencesResponse
//   PATCH /api/preferences  UpdatePreferencesRequest                     → PreferencesResponse
//   GET /api/marketplace/summaries?profile=&ids=a,b,c                     → MarketplaceSummariesResponse
//       (the library cards' checklist summaries; at most maxSummaryIds ids)

export const imageSlots = ['main', 'additional'] as const
export type ImageSlot = (typeof imageSlots)[number]

export const marketplaceCheckQuerySchema = z.object({
  slot: z.enum(imageSlots).default('main'),
})

/** `n`: the image's place in the listing, from 1; it only names the file. */
export const marketplaceExportQuerySchema = z.object({
  n: z.coerce.number().int().min(1).max(99).default(1),
})

/** A result checked against one profile's rules. Exactly one of image, video, copy is set. */
export type MarketplaceCheckView = {
  profile: MarketplaceId
  generationId: string
  image: { slot: ImageSlot; facts: ImageFacts; results: CheckResult[] } | null
  video: { facts: VideoFacts; results: CheckResult[] } | null
  /** SEO copy: the checks, and the copy fitted to the profile's title and description limits. */
  copy: { results: CheckResult[]; fitted: { title: string; description: string } } | null
  /** Where the profile's file downloads (null for copy, which the panel copies as text). */
  exportUrl: string | null
  /** Counts over the results, for the panel's heading and the library card. */
  summary: { pass: number; warn: number; fail: number }
}

/** Results one summaries request may name: a library page. */
export const maxSummaryIds = 20

/**
 * The library cards' checklist summaries for one profile, at the main image slot (where the
 * panel starts). `ids`: generation ids separated by commas, each a UUID, no more than a page.
 */
export const marketplaceSummariesQuerySchema = z.object({
  profile: z.enum(marketplaceIds),
  ids: z
    .string()
    .transform((value) => [...new Set(value.split(',').map((id) => id.trim()))])
    .pipe(z.array(z.uuid()).min(1).max(maxSummaryIds)),
})
export type MarketplaceSummariesQuery = z.input<typeof marketplaceSummariesQuerySchema>

/**
 * One result's summary: `ready` with the counts `MarketplaceCheckView.summary` has for it;
 * `pending` while its image waits to be measured (ask again for it: each answer measures a few);
 * `unavailable` when its file could not be measured (the panel shows why).
 */
export type MarketplaceSummary =
  | { generationId: string; status: 'ready'; summary: MarketplaceCheckView['summary'] }
  | { generationId: string; status: 'pending' }
  | { generationId: string; status: 'unavailable' }

/**
 * Summaries in the order asked; ids that are not the user's own finished results (another's,
 * unknown, still running, failed) are absent, as a single check would answer 404 or 409.
 */
export type MarketplaceSummariesResponse = { profile: MarketplaceId; summaries: MarketplaceSummary[] }

export type PreferencesResponse = { marketplaceProfile: MarketplaceId | null }

export const updatePreferencesRequestSchema = z.object({
  marketplaceProfile: z.enum(marketplaceIds).nullable(),
})
export type UpdatePreferencesRequest = z.input<typeof updatePreferencesRequestSchema>
