import { type AspectRatio, aspectRatios, imageSize } from '#shared/scenes.ts'
import { imageRulesFor } from './check.ts'
import { isMarketplaceId } from './ids.ts'
import { getProfile } from './profiles.ts'
import type { MarketplaceProfile, Ratio } from './types.ts'

/**
 * The output ratio a seller's marketplace starts every default from: its main image's published
 * shape when Vitrin offers it (Trendyol's 1200×1800 is 2:3), else 1:1. Only published rules
 * count (an exact size or a list of ratios); a marketplace that publishes none (Hepsiburada, n11,
 * Çiçeksepeti) or whose shapes Vitrin does not offer gets the square. Amazon publishes no ratio
 * and its main image is square in practice: 1:1.
 */
export function mainImageRatio(profile: MarketplaceProfile): AspectRatio {
  const rules = imageRulesFor(profile, 'main')
  const published: Ratio[] = rules.exactSize
    ? [{ width: rules.exactSize.value.width, height: rules.exactSize.value.height }]
    : (rules.ratios?.value ?? [])
  for (const shape of published) {
    const offered = aspectRatios.find((ratio) => {
      const size = imageSize[ratio]
      return Math.abs(size.width / size.height / (shape.width / shape.height) - 1) < 0.01
    })
    if (offered) return offered
  }
  return '1:1'
}

/**
 * The ratio a new result starts at: the seller's marketplace's main-image shape (mainImageRatio)
 * when one is chosen, else the tool's own default (1:1 for products, 9:16 for fashion).
 */
export function defaultRatioFor(
  marketplaceProfile: string | null | undefined,
  tool: 'product' | 'fashion',
): AspectRatio {
  if (marketplaceProfile && isMarketplaceId(marketplaceProfile)) {
    return mainImageRatio(getProfile(marketplaceProfile))
  }
  return tool === 'fashion' ? '9:16' : '1:1'
}
