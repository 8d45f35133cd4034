import type { AspectRatio } from '#shared/scenes.ts'
import type { useI18n } from '#web/lib/i18n.tsx'

/**
 * The offered output ratios as choices for a ChoiceGroup: 1:1 (Instagram post, Amazon,
 * Hepsiburada), 2:3 (Trendyol's 1200×1800) and 9:16 (stories, TikTok).
 */
export function ratioChoices(
  t: ReturnType<typeof useI18n>['t'],
): { value: AspectRatio; label: string; hint: string }[] {
  return [
    { value: '1:1', label: t('studio.ratio.square'), hint: t('studio.ratio.squareHint') },
    { value: '2:3', label: t('studio.ratio.tall'), hint: t('studio.ratio.tallHint') },
    { value: '9:16', label: t('studio.ratio.portrait'), hint: t('studio.ratio.portraitHint') },
  ]
}
