import { describe, expect, it } from 'vitest'
import { defaultRatioFor, mainImageRatio } from './default-ratio.ts'
import { marketplaceIds } from './ids.ts'
import { getProfile } from './profiles.ts'

describe('mainImageRatio', () => {
  it('starts Trendyol at 2:3 (its 1200×1800) and every other profile at 1:1', () => {
    const ratios = Object.fromEntries(marketplaceIds.map((id) => [id, mainImageRatio(getProfile(id))]))
    expect(ratios).toEqual({
      trendyol: '2:3',
      hepsiburada: '1:1',
      n11: '1:1',
      'amazon-tr': '1:1',
      ciceksepeti: '1:1',
      etsy: '1:1',
      shopify: '1:1',
      instagram: '1:1',
    })
  })

  it('falls back to the tool’s own default without a (known) marketplace', () => {
    expect(defaultRatioFor(null, 'product')).toBe('1:1')
    expect(defaultRatioFor(null, 'fashion')).toBe('9:16')
    expect(defaultRatioFor('retired-market', 'fashion')).toBe('9:16')
    expect(defaultRatioFor('trendyol', 'fashion')).toBe('2:3')
  })
})
