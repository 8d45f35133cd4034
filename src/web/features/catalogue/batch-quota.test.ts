import { describe, expect, it } from 'vitest'
import type { UsageResponse } from '#shared/contracts/billing.ts'
import {
  initialOutputChoices,
  isShort,
  quotaLeft,
  quotaNeeded,
  quotaShortDetails,
  toBatchOutputs,
} from './batch-quota.ts'

const usage = {
  period: null,
  subscription: { planId: 'starter' },
  images: { used: 45, quota: 50 },
  videos: { used: 5, quota: 5 },
  credits: { images: 10, videos: 2 },
  seo: { unlimited: true },
  storage: { usedBytes: 0, quotaBytes: 0 },
} as unknown as UsageResponse

describe('batch quota', () => {
  it('needs one image per product for each image output and one video per product for video', () => {
    const choices = { ...initialOutputChoices, studio: true, fashion: true, video: true, seo: true }
    expect(quotaNeeded(choices, 40)).toEqual({ images: 80, videos: 40 })
    expect(quotaNeeded({ ...choices, studio: false, fashion: false, video: false }, 40)).toEqual({
      images: 0,
      videos: 0,
    })
  })

  it('counts what is left of the plan plus bought credits, and nothing for an own key or no plan', () => {
    const ready = { status: 'ready' as const, data: usage }
    expect(quotaLeft(ready, false)).toEqual({ kind: 'metered', left: { images: 15, videos: 2 } })
    expect(quotaLeft(ready, true)).toEqual({ kind: 'own-key' })
    expect(quotaLeft({ status: 'ready', data: { ...usage, subscription: null } }, false)).toEqual({
      kind: 'no-plan',
    })
    expect(quotaLeft({ status: 'loading' }, false)).toEqual({ kind: 'loading' })
    expect(isShort({ images: 16, videos: 0 }, { kind: 'metered', left: { images: 15, videos: 2 } })).toBe(
      true,
    )
    expect(isShort({ images: 15, videos: 2 }, { kind: 'metered', left: { images: 15, videos: 2 } })).toBe(
      false,
    )
  })

  it('sends only the outputs chosen, with trimmed prompts', () => {
    expect(
      toBatchOutputs({
        ...initialOutputChoices,
        studioPrompt: '  marble  ',
        video: true,
        videoPrompt: ' slow turn ',
        seo: false,
      }),
    ).toEqual({ studio: { prompt: 'marble', aspectRatio: '1:1' }, video: { prompt: 'slow turn' } })
  })

  it('reads complete quota-short details only', () => {
    const details = { needed: { images: 3, videos: 0 }, available: { images: 2, videos: 0 }, fits: 2 }
    expect(quotaShortDetails(details)).toEqual(details)
    expect(quotaShortDetails({ fits: 2 })).toBeNull()
    expect(quotaShortDetails(undefined)).toBeNull()
  })
})
