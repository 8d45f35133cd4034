import { chipTextOf } from '#shared/scene-chip.ts'
import { fashionStyles, productScenes } from '#shared/scenes.ts'
import { useI18n } from '#web/lib/i18n.tsx'

/**
 * The one-click suggestions of a prompt field: the product scenes or the fashion styles, each
 * labelled in the page's language, with the chip text a click puts in the prompt.
 */
export function useSceneSuggestions(kind: 'product' | 'fashion') {
  const { t, locale } = useI18n()
  const labelled =
    kind === 'product'
      ? productScenes.map((scene) => ({ id: scene.id, label: t(`studio.scenes.product.${scene.id}`) }))
      : fashionStyles.map((style) => ({ id: style.id, label: t(`studio.scenes.fashion.${style.id}`) }))
  return labelled.map(({ id, label }) => ({ id, label, prompt: chipTextOf(label, locale) }))
}
