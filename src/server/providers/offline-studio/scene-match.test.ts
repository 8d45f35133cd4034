import { describe, expect, it } from 'vitest'
import { fashionStyles, productScenes } from '#shared/scenes.ts'
import { foldText, matchCameraMove, matchFashionStyle, matchProductScene } from './scene-match.ts'

describe('product scene matching', () => {
  it.each(productScenes.map((scene) => [scene.prompt, scene.id]))(
    'the suggestion "%s" picks %s',
    (prompt, id) => {
      expect(matchProductScene(prompt)).toBe(id)
    },
  )

  it.each([
    ['on a marble kitchen counter', 'marble'],
    ['mermer tezgah üzerinde', 'marble'],
    ['mermerde, yumuşak ışık', 'marble'],
    ['rustic wooden table', 'wood'],
    ['ahşap masa üstünde', 'wood'],
    ['ahsap masada', 'wood'],
    ['eski bir tahta üzerinde', 'wood'],
    ['dark velvet cloth', 'velvet'],
    ['kadife kumaş üzerinde lüks', 'velvet'],
    ['pure black background', 'black-minimal'],
    ['siyah arka plan', 'black-minimal'],
    ['SİYAH ZEMİN', 'black-minimal'],
    ['outdoor in a garden', 'outdoor'],
    ['doğada, çimenlerin üstünde', 'outdoor'],
    ['açık havada güneşli bir gün', 'outdoor'],
    ['on a glass stand', 'glass-pedestal'],
    ['cam kaide üzerinde', 'glass-pedestal'],
    ['camda ürün', 'glass-pedestal'],
    ['raw concrete wall', 'concrete'],
    ['beton duvar önünde', 'concrete'],
    ['clean white background', 'white-studio'],
    ['beyaz stüdyo', 'white-studio'],
    ['minimal white', 'white-studio'],
  ] as const)('"%s" picks %s', (prompt, id) => {
    expect(matchProductScene(prompt)).toBe(id)
  })

  it('does not find a scene inside unrelated words', () => {
    // "cam" is glass in Turkish, but not inside "camera"; "table" not inside "tablet".
    expect(matchProductScene('camera on a tablet')).toBe('neutral-studio')
  })

  it('falls back to the neutral studio for anything else, and to the white studio when empty', () => {
    expect(matchProductScene('a spaceship made of cheese')).toBe('neutral-studio')
    expect(matchProductScene('uzay gemisi')).toBe('neutral-studio')
    expect(matchProductScene('   ')).toBe('white-studio')
  })
})

describe('fashion style matching', () => {
  it.each(fashionStyles.map((style) => [style.prompt, style.id]))(
    'the suggestion "%s" picks %s',
    (prompt, id) => {
      expect(matchFashionStyle(prompt)).toBe(id)
    },
  )

  it.each([
    ['sokak modası', 'street'],
    ['butik mağaza', 'boutique'],
    ['podyumda defile', 'runway'],
    ['retro, nostaljik hava', 'vintage'],
    ['günlük rahat kombin', 'casual'],
    ['avangart', 'avant-garde'],
    ['editoryal çekim', 'editorial'],
    ['sade stüdyo', 'minimal-studio'],
    ['something else', 'minimal-studio'],
  ] as const)('"%s" picks %s', (prompt, id) => {
    expect(matchFashionStyle(prompt)).toBe(id)
  })
})

describe('camera move matching', () => {
  it.each([
    ['', 'push-in'],
    ['slow 360 rotation', 'push-in'],
    ['zoom out slowly', 'pull-out'],
    ['yavaşça uzaklaş', 'pull-out'],
    ['pan to the left', 'pan-left'],
    ['sola doğru kaydır', 'pan-left'],
    ['pan right', 'pan-right'],
    ['sağa doğru', 'pan-right'],
  ] as const)('"%s" is a %s', (prompt, move) => {
    expect(matchCameraMove(prompt)).toBe(move)
  })
})

describe('folding text', () => {
  it('lower-cases with Turkish rules and drops the marks', () => {
    expect(foldText('AÇIK HAVA İÇİN Şık Ğ Ü Ö')).toBe('acik hava icin sik g u o')
  })
})
