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

/**
 * Output ratios offered: 1:1 (Instagram post, Amazon, Hepsiburada), 2:3 (Trendyol's 1200×1800
 * main image) and 9:16 (stories, Reels, TikTok).
 */
export const aspectRatios = ['1:1', '2:3', '9:16'] as const
export type AspectRatio = (typeof aspectRatios)[number]

/** Pixel size of image results per ratio (2:3 at Trendyol's own 1200×1800). */
export const imageSize: Record<AspectRatio, { width: number; height: number }> = {
  '1:1': { width: 1080, height: 1080 },
  '2:3': { width: 1200, height: 1800 },
  '9:16': { width: 1080, height: 1920 },
}

/**
 * Video ratios: 1:1 and 9:16 only. Veo takes 16:9 and 9:16 alone, no marketplace publishes a 2:3
 * video rule (Trendyol's video resolution and ratio are not published), and 9:16 is the portrait
 * shape every video surface plays full-screen; so a video asked at 2:3 (or made from a 2:3 image)
 * is made 9:16, portrait staying portrait.
 */
export const videoAspectRatios = ['1:1', '9:16'] as const
export type VideoAspectRatio = (typeof videoAspectRatios)[number]

export function videoRatioFor(ratio: AspectRatio): VideoAspectRatio {
  return ratio === '1:1' ? '1:1' : '9:16'
}

/** Video results: 8 seconds, 720p, silent. */
export const videoSpec = { seconds: 8, height: 720 } as const

/**
 * How a product scene is seen: `top` is the surface seen from above (the whole frame is the
 * surface, no horizon), `front` the surface and the wall behind it (decision 42).
 */
export const sceneViews = ['top', 'front'] as const
export type SceneView = (typeof sceneViews)[number]

/** What the seller may ask for: a view, or `auto` (the one that matches the photo's own camera). */
export const viewChoices = ['auto', ...sceneViews] as const
export type ViewChoice = (typeof viewChoices)[number]
