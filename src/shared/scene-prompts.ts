import { enMessages } from '#shared/i18n/locales/en/index.ts'
import { trMessages } from '#shared/i18n/locales/tr/index.ts'
import type { Locale } from '#shared/i18n/locales.ts'
import { chipTextOf } from './scene-chip.ts'
import { type FashionStyleId, fashionStyles, type ProductSceneId, productScenes } from './scenes.ts'

/**
 * A one-click suggestion writes its prompt in the seller's language ("mermer tezgâh" for a
 * Turkish seller), since the prompt box is theirs to read and edit; the AI model gets the
 * English prompt of the same scene (#shared/scenes.ts), which is what it was written for.
 */

const messages = { en: enMessages, tr: trMessages } as const

/** What a suggestion chip writes into the prompt box: its label, in lower case, in the seller's language. */
export function chipPrompt(
  tool: 'product' | 'fashion',
  id: ProductSceneId | FashionStyleId,
  locale: Locale,
): string {
  const labels = messages[locale].studio.scenes[tool] as Record<string, string>
  return chipTextOf(labels[id] ?? id, locale)
}

const normalise = (text: string) =>
  text.replace(/\s+/g, ' ').trim().toLocaleLowerCase('tr-TR').replace(/â/g, 'a')

/** Every chip's text in every language → its scene's English prompt. */
const chipTexts = new Map<string, string>()
for (const locale of ['en', 'tr'] as const) {
  for (const scene of productScenes)
    chipTexts.set(normalise(chipPrompt('product', scene.id, locale)), scene.prompt)
  for (const style of fashionStyles)
    chipTexts.set(normalise(chipPrompt('fashion', style.id, locale)), style.prompt)
}

/** The English prompt for a suggestion chip's text in any language; anything else as it was. */
export function englishPromptFor(text: string): string {
  return chipTexts.get(normalise(text)) ?? text
}
