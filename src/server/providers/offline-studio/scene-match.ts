import { englishPromptFor } from '#shared/scene-prompts.ts'
import { type FashionStyleId, fashionStyles, type ProductSceneId, productScenes } from '#shared/scenes.ts'

// Picks a scene, style or camera move from free text in English or Turkish. Matching runs on
// text folded to plain ASCII letters (ş→s, ı→i, …), so "ahsap" typed on an English keyboard
// finds the same scene as "ahşap". Stems match with any suffix ("mermerde", "kadifeli")
// unless they are short enough to hide inside other words ("cam" vs "camera"), where the
// Turkish suffixes are listed.

/** A product scene, or the neutral studio used when nothing in the prompt names one. */
export type StudioSceneId = ProductSceneId | 'neutral-studio'

/** A fashion style, or the backdrop made from the user's reference photo. */
export type FashionBackdropId = FashionStyleId | 'reference'

export type CameraMove = 'push-in' | 'pull-out' | 'pan-left' | 'pan-right'

/** One keyword: a regex source over folded text, and how strongly it points at its target. */
type Keyword = { pattern: string; weight: number }

/** Any ending: for stems long enough not to occur inside unrelated words. */
const stem = (text: string, weight = 2): Keyword => ({ pattern: `${text}\\p{L}*`, weight })
/** Whole word only, with an optional list of endings. */
const word = (text: string, weight = 2, endings: string[] = []): Keyword => ({
  pattern: endings.length > 0 ? `${text}(?:${endings.join('|')})?` : text,
  weight,
})

const turkishCaseEndings = ['a', 'e', 'da', 'de', 'dan', 'den', 'ta', 'te', 'i', 'in', 'li', 'lu', 'ya', 'yi']

const productKeywords: Record<ProductSceneId, Keyword[]> = {
  'white-studio': [stem('white'), stem('beyaz'), stem('studio', 1), stem('studyo', 1), word('plain', 1)],
  marble: [stem('marble'), stem('mermer'), stem('granit'), stem('countertop', 1), stem('tezgah', 1)],
  wood: [
    stem('wood'),
    stem('timber'),
    stem('oak'),
    stem('walnut'),
    stem('ahsap'),
    stem('tahta'),
    stem('ceviz'),
    word('mese', 2, turkishCaseEndings),
    word('table', 1, ['s']),
    word('masa', 1, turkishCaseEndings),
  ],
  'black-minimal': [
    stem('black'),
    stem('siyah'),
    word('dark', 1),
    stem('karanlik'),
    word('koyu', 1),
    stem('minimal', 1),
    word('noir', 2),
  ],
  outdoor: [
    stem('outdoor'),
    stem('outside'),
    stem('nature'),
    word('natural', 1),
    stem('garden'),
    stem('grass'),
    stem('forest'),
    word('park', 2, turkishCaseEndings),
    word('sky', 1),
    stem('doga'),
    { pattern: 'acik\\s+hava\\p{L}*', weight: 2 },
    { pattern: 'dis\\s+mekan\\p{L}*', weight: 2 },
    stem('bahce'),
    stem('cimen'),
    stem('orman'),
    stem('gokyuzu', 1),
  ],
  velvet: [stem('velvet'), stem('kadife'), stem('luxur', 1), word('luks', 1), stem('saten', 1)],
  'glass-pedestal': [
    stem('glass'),
    word('cam', 2, ['a', 'da', 'dan', 'i', 'in', 'li']),
    stem('pedestal'),
    stem('kaide'),
    stem('podium'),
    stem('podyum', 1),
    stem('crystal', 1),
    stem('kristal', 1),
    word('stand', 1, ['s']),
  ],
  concrete: [
    stem('concrete'),
    stem('beton'),
    stem('cement'),
    stem('cimento'),
    stem('industrial', 1),
    stem('endustriyel', 1),
    word('wall', 1, ['s']),
    stem('duvar', 1),
  ],
}

const fashionKeywords: Record<FashionStyleId, Keyword[]> = {
  editorial: [
    stem('editorial'),
    stem('editoryal'),
    stem('magazine'),
    stem('dergi'),
    word('vogue', 2),
    { pattern: 'high\\s+fashion', weight: 2 },
    { pattern: 'yuksek\\s+moda', weight: 2 },
  ],
  street: [stem('street'), stem('sokak'), stem('urban'), stem('kentsel'), stem('sehir', 1), word('city', 1)],
  'minimal-studio': [
    stem('minimal'),
    stem('studio', 1),
    stem('studyo', 1),
    word('sade', 1),
    word('plain', 1),
  ],
  boutique: [
    stem('boutique'),
    stem('butik'),
    stem('luxur', 1),
    word('luks', 1),
    stem('magaza'),
    word('shop', 1),
    word('store', 1),
  ],
  runway: [
    stem('runway'),
    stem('catwalk'),
    stem('defile'),
    stem('podyum'),
    word('pist', 2, turkishCaseEndings),
  ],
  vintage: [
    stem('vintage'),
    stem('retro'),
    stem('nostalj'),
    word('eski', 1),
    stem('klasik', 1),
    stem('classic', 1),
  ],
  casual: [
    stem('casual'),
    stem('gunluk'),
    stem('lifestyle'),
    stem('yasam', 1),
    word('rahat', 1),
    stem('everyday'),
  ],
  'avant-garde': [
    { pattern: 'avant[\\s-]*garde', weight: 3 },
    stem('avangar'),
    stem('deneysel'),
    stem('experimental'),
    stem('artistic', 1),
    stem('sanatsal', 1),
  ],
}

const cameraKeywords: Record<Exclude<CameraMove, 'push-in'>, Keyword[]> = {
  'pull-out': [
    { pattern: 'zoom\\s*out', weight: 3 },
    { pattern: 'pull\\s*(?:back|out)', weight: 3 },
    stem('uzaklas'),
    stem('geri\\s+cekil'),
  ],
  'pan-left': [{ pattern: '(?:pan|move|slide)\\s+(?:to\\s+the\\s+)?left', weight: 3 }, word('sola', 2)],
  'pan-right': [{ pattern: '(?:pan|move|slide)\\s+(?:to\\s+the\\s+)?right', weight: 3 }, word('saga', 2)],
}

/** Lower-cases with Turkish rules, then folds Turkish letters and accents to ASCII. */
export function foldText(text: string): string {
  return text
    .toLocaleLowerCase('tr-TR')
    .replace(/ı/g, 'i')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[’'`]/g, '')
}

type Compiled<T extends string> = { id: T; pattern: RegExp; weight: number }[]

function compile<T extends string>(table: Record<T, Keyword[]>): Compiled<T> {
  return (Object.entries(table) as [T, Keyword[]][]).flatMap(([id, keywords]) =>
    keywords.map((keyword) => ({
      id,
      weight: keyword.weight,
      // Word boundaries by letter class, since \b knows nothing of non-ASCII letters.
      pattern: new RegExp(`(?<!\\p{L})${keyword.pattern}(?!\\p{L})`, 'gu'),
    })),
  )
}

const productTable = compile(productKeywords)
const fashionTable = compile(fashionKeywords)
const cameraTable = compile(cameraKeywords)

/**
 * The best-matching id: the highest total keyword weight wins; a tie goes to the id named
 * first in the text. Null when nothing matches.
 */
function bestMatch<T extends string>(text: string, table: Compiled<T>): T | null {
  const folded = foldText(text)
  const scores = new Map<T, { weight: number; first: number }>()
  for (const entry of table) {
    for (const match of folded.matchAll(entry.pattern)) {
      const current = scores.get(entry.id) ?? { weight: 0, first: Number.POSITIVE_INFINITY }
      current.weight += entry.weight
      current.first = Math.min(current.first, match.index)
      scores.set(entry.id, current)
    }
  }
  let best: T | null = null
  let bestScore = { weight: 0, first: Number.POSITIVE_INFINITY }
  for (const [id, score] of scores) {
    if (
      score.weight > bestScore.weight ||
      (score.weight === bestScore.weight && score.first < bestScore.first)
    ) {
      best = id
      bestScore = score
    }
  }
  return best
}

/** The product scene a prompt asks for; an empty prompt gets the white studio, anything unknown the neutral one. */
export function matchProductScene(prompt: string): StudioSceneId {
  if (prompt.trim() === '') return 'white-studio'
  return bestMatch(englishPromptFor(prompt), productTable) ?? 'neutral-studio'
}

/** The fashion style a prompt asks for; anything unknown gets the minimalist studio. */
export function matchFashionStyle(prompt: string): FashionStyleId {
  return bestMatch(englishPromptFor(prompt), fashionTable) ?? 'minimal-studio'
}

/** The camera move a video prompt asks for; anything else gets the slow push-in. */
export function matchCameraMove(prompt: string): CameraMove {
  return bestMatch(prompt, cameraTable) ?? 'push-in'
}

/** The English prompt of a scene, as the suggestions send it ("marble countertop"). */
export function productScenePrompt(scene: StudioSceneId): string {
  return productScenes.find((s) => s.id === scene)?.prompt ?? 'neutral studio background'
}

export function fashionStylePrompt(style: FashionStyleId): string {
  return fashionStyles.find((s) => s.id === style)?.prompt ?? 'minimalist studio'
}
