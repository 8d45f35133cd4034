import type { UsageResponse } from '#shared/contracts/billing.ts'
import type { QuotaShortDetails, StartBatchRequest } from '#shared/contracts/catalogue.ts'
import type { AspectRatio } from '#shared/scenes.ts'
import type { ResourceState } from '#web/lib/use-resource.ts'

/** What the outputs step's form holds; `toBatchOutputs` turns it into the request. */
export type OutputChoices = {
  studio: boolean
  studioPrompt: string
  studioRatio: AspectRatio
  fashion: boolean
  fashionRatio: AspectRatio
  video: boolean
  videoPrompt: string
  seo: boolean
}

export const initialOutputChoices: OutputChoices = {
  studio: true,
  studioPrompt: '',
  studioRatio: '1:1',
  fashion: false,
  fashionRatio: '9:16',
  video: false,
  videoPrompt: '',
  seo: true,
}

export function toBatchOutputs(choices: OutputChoices): StartBatchRequest['outputs'] {
  return {
    ...(choices.studio
      ? { studio: { prompt: choices.studioPrompt.trim(), aspectRatio: choices.studioRatio } }
      : {}),
    ...(choices.fashion ? { fashion: { aspectRatio: choices.fashionRatio } } : {}),
    ...(choices.video ? { video: { prompt: choices.videoPrompt.trim() } } : {}),
    ...(choices.seo ? { seo: true } : {}),
  }
}

export type QuotaAmounts = { images: number; videos: number }

/** Images and videos a batch takes: one per product for each image output, one for the video. */
export function quotaNeeded(choices: OutputChoices, products: number): QuotaAmounts {
  const imageOutputs = (choices.studio ? 1 : 0) + (choices.fashion ? 1 : 0)
  return { images: products * imageOutputs, videos: choices.video ? products : 0 }
}

export type QuotaLeft =
  | { kind: 'loading' }
  | { kind: 'no-plan' }
  | { kind: 'own-key' }
  | { kind: 'metered'; left: QuotaAmounts }

/**
 * What is left this period, plan quota plus bought credits, from /api/usage; a user's own fal key
 * takes images and videos off the quota. The server checks again when the batch starts.
 */
export function quotaLeft(usage: ResourceState<UsageResponse>, hasOwnKey: boolean): QuotaLeft {
  if (usage.status !== 'ready') return { kind: 'loading' }
  if (!usage.data.subscription) return { kind: 'no-plan' }
  if (hasOwnKey) return { kind: 'own-key' }
  const { images, videos, credits } = usage.data
  return {
    kind: 'metered',
    left: {
      images: Math.max(0, images.quota - images.used) + credits.images,
      videos: Math.max(0, videos.quota - videos.used) + credits.videos,
    },
  }
}

export function isShort(needed: QuotaAmounts, left: QuotaLeft): boolean {
  return left.kind === 'metered' && (needed.images > left.left.images || needed.videos > left.left.videos)
}

function isAmounts(value: unknown): value is QuotaAmounts {
  const amounts = value as Partial<QuotaAmounts> | null
  return typeof amounts?.images === 'number' && typeof amounts.videos === 'number'
}

/** The details of a CATALOGUE_QUOTA_SHORT answer, when they are complete. */
export function quotaShortDetails(details: unknown): QuotaShortDetails | null {
  const value = details as Partial<QuotaShortDetails> | null | undefined
  if (!value || typeof value.fits !== 'number' || !isAmounts(value.needed) || !isAmounts(value.available)) {
    return null
  }
  return { fits: value.fits, needed: value.needed, available: value.available }
}
