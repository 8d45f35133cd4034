/**
 * One-click suggestions. Labels are i18n keys (`scenes.product.<id>`, `scenes.fashion.<id>`);
 * the prompt is the English text sent to the model and shown as "the prompt used".
 */
export const productScenes = [
  { id: 'white-studio', prompt: 'white studio background' },
  { id: 'marble', prompt: 'marble countertop' },
  { id: 'wood', prompt: 'wooden table surface' },
  { id: 'black-minimal', prompt: 'black minimal backdrop' },
  { id: 'outdoor', prompt: 'outdoor natural setting' },
  { id: 'velvet', prompt: 'luxury velvet background' },
  { id: 'glass-pedestal', prompt: 'glass pedestal' },
  { id: 'concrete', prompt: 'concrete wall' },
] as const

export type ProductSceneId = (typeof productScenes)[number]['id']

export const fashionStyles = [
  { id: 'editorial', prompt: 'high fashion editorial' },
  { id: 'street', prompt: 'street style photography' },
  { id: 'minimal-studio', prompt: 'minimalist studio' },
  { id: 'boutique', prompt: 'luxury boutique setting' },
  { id: 'runway', prompt: 'runway style' },
  { id: 'vintage', prompt: 'vintage fashion' },
  { id: 'casual', prompt: 'casual lifestyle' },
  { id: 'avant-garde', prompt: 'avant-garde fashion' },
] as const

export type FashionStyleId = (typeof fashionStyles)[number]['id']

/** Output ratios offered: 1:1 (Instagram post) and 9:16 (stories, Reels, TikTok). */
export const aspectRatios = ['1:1', '9:16'] as const
export type AspectRatio = (typeof aspectRatios)[number]

/** Pixel size of image results per ratio. */
export const imageSize: Record<AspectRatio, { width: number; height: number }> = {
  '1:1': { width: 1080, height: 1080 },
  '9:16': { width: 1080, height: 1920 },
}

/** Video results: 8 seconds, 720p, silent. */
export const videoSpec = { seconds: 8, height: 720 } as const
