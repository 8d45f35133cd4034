import { describe, expect, it } from 'vitest'
import { formatUsd } from '#shared/i18n/translate.ts'
import {
  getPlan,
  getTopUpPack,
  isPlanId,
  isTopUpPackId,
  type PlanId,
  planIds,
  plans,
  topUpPackFor,
  topUpPacks,
} from './plans.ts'

describe('plan catalogue', () => {
  it('is exactly Starter, Growth and Pro with their prices and quotas', () => {
    expect(
      plans.map(({ id, name, priceMonthlyUsd, imageQuota, videoQuota }) => ({
        id,
        name,
        priceMonthlyUsd,
        imageQuota,
        videoQuota,
      })),
    ).toEqual([
      { id: 'starter', name: 'Starter', priceMonthlyUsd: 99, imageQuota: 250, videoQuota: 10 },
      { id: 'growth', name: 'Growth', priceMonthlyUsd: 299, imageQuota: 1000, videoQuota: 30 },
      { id: 'pro', name: 'Pro', priceMonthlyUsd: 499, imageQuota: 2500, videoQuota: 60 },
    ])
  })

  it('marks Growth, and only Growth, as most popular', () => {
    expect(plans.filter((plan) => plan.isMostPopular).map((plan) => plan.id)).toEqual(['growth'])
  })

  it('gives unlimited SEO copy on every plan', () => {
    for (const plan of plans) {
      expect(plan.seoUnlimited).toBe(true)
      expect(plan.features).toContain('seoCopy')
    }
  })

  it('lists the same ids as planIds, in order', () => {
    expect(plans.map((plan) => plan.id)).toEqual([...planIds])
  })
})

describe('getPlan and isPlanId', () => {
  it('getPlan returns the plan by id', () => {
    expect(getPlan('growth').priceMonthlyUsd).toBe(299)
    expect(getPlan('pro').name).toBe('Pro')
  })

  it('getPlan throws for an id outside the catalogue', () => {
    expect(() => getPlan('enterprise' as PlanId)).toThrow(/unknown plan/)
  })

  it('isPlanId accepts only catalogue ids', () => {
    expect(isPlanId('starter')).toBe(true)
    expect(isPlanId('growth')).toBe(true)
    expect(isPlanId('Starter')).toBe(false)
    expect(isPlanId('free')).toBe(false)
    expect(isPlanId(undefined)).toBe(false)
    expect(isPlanId(1)).toBe(false)
  })
})

describe('top-up packs', () => {
  it('are +100 images for $29 and +10 videos for $39, one per resource', () => {
    expect(topUpPacks).toEqual([
      { id: 'images_100', resource: 'images', amount: 100, priceUsd: 29 },
      { id: 'videos_10', resource: 'videos', amount: 10, priceUsd: 39 },
    ])
    expect(topUpPackFor('images').id).toBe('images_100')
    expect(topUpPackFor('videos').id).toBe('videos_10')
    expect(getTopUpPack('videos_10').amount).toBe(10)
    expect(formatUsd('en', getTopUpPack('images_100').priceUsd)).toBe('$29')
  })

  it('recognises only their own ids', () => {
    expect(isTopUpPackId('images_100')).toBe(true)
    expect(isTopUpPackId('growth')).toBe(false)
    expect(isTopUpPackId(100)).toBe(false)
  })
})
