import { describe, expect, it } from 'vitest'
import { chipPrompt, englishPromptFor } from './scene-prompts.ts'
import { fashionStyles, productScenes } from './scenes.ts'

describe('suggestion chips in the seller’s language', () => {
  it('write the scene in Turkish for a Turkish seller, and the English prompt for an English one', () => {
    expect(chipPrompt('product', 'marble', 'tr')).toBe('mermer tezgâh')
    expect(chipPrompt('fashion', 'street', 'tr')).toBe('sokak stili fotoğrafçılığı')
    for (const scene of productScenes) expect(chipPrompt('product', scene.id, 'en')).toBe(scene.prompt)
    for (const style of fashionStyles) expect(chipPrompt('fashion', style.id, 'en')).toBe(style.prompt)
  })

  it('give the model the English prompt of the chip, whatever its language or casing', () => {
    for (const scene of productScenes) {
      expect(englishPromptFor(chipPrompt('product', scene.id, 'tr'))).toBe(scene.prompt)
      expect(englishPromptFor(chipPrompt('product', scene.id, 'en'))).toBe(scene.prompt)
    }
    for (const style of fashionStyles)
      expect(englishPromptFor(chipPrompt('fashion', style.id, 'tr'))).toBe(style.prompt)
    expect(englishPromptFor('  Mermer  Tezgah ')).toBe('marble countertop')
    // The seller's own words are theirs: sent as written.
    expect(englishPromptFor('mermer tezgâh üzerinde, sabah ışığı')).toBe(
      'mermer tezgâh üzerinde, sabah ışığı',
    )
  })
})
