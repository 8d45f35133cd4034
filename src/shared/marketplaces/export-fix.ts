import type { FixAction } from './check.ts'
import type { MarketplaceProfile } from './types.ts'

/**
 * The fixes the profile's export carries out (it re-renders to the profile's size and
 * background, as a JPEG within the size limit in sRGB; on white it re-composes the product to
 * the profile's fill; a video is lengthened past the floor), so they lead to the download.
 * Other fixes are the seller's to make and are shown as advice.
 */
export function isExportFix(fix: FixAction, profile: MarketplaceProfile, kind: 'image' | 'video'): boolean {
  if (kind === 'video') return fix === 'lengthen-video'
  if (fix === 'white-background') return profile.export.background === 'white'
  if (fix === 'fill-frame') {
    const fill = profile.image.main?.minFillShare ?? profile.image.all.minFillShare
    return profile.export.background === 'white' && fill !== undefined
  }
  return fix === 'resize' || fix === 'compress' || fix === 'convert-jpeg' || fix === 'convert-srgb'
}
