import { describe, expect, it } from 'vitest'
import { getPlan, isPlanId, type PlanId, planIds, plans } from './plans.ts'

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
