import { clampAtWord, type ProductDetails, type SeoContent, seoLimits } from './seo.ts'

// The seller's facts against a piece of copy: every fact the seller gave appears unchanged where
// it belongs, and nothing contradicts one. One check for every writer (the offline writer, a
// language model's answer, a seller's own edit), so "the seller's facts win" means one thing.

const locale = 'tr-TR'

/**
 * Colour words a listing may use, in the forms Turkish sellers and shoppers write them. Words
 * that are also materials or product kinds ("altın", "gümüş", "krem") are left out: a "krem" is
 * a cream, an "altın kolye" is gold, and neither contradicts a colour.
 */
export const colourWords = [
  'siyah',
  'beyaz',
  'gri',
  'kırmızı',
  'bordo',
  'pembe',
  'turuncu',
  'kahverengi',
  'bej',
  'sarı',
  'haki',
  'yeşil',
  'turkuaz',
  'mavi',
  'lacivert',
  'mor',
  'lila',
  'ekru',
  'füme',
  'antrasit',
  'vizon',
  'hardal',
  'mercan',
  'pudra',
] as const

/** Phrases that sell instead of describing; a listing's copy never carries them. */
export const promotionalPhrases = [
  'hemen',
  'sepete ekle',
  'kaçırma',
  'indirim',
  'kampanya',
  'ücretsiz kargo',
  'bedava',
  'en uygun fiyat',
  'uygun fiyat',
  'stoklarla sınırlı',
  'fırsat',
  'son şans',
  'acele',
] as const

export type FactName = 'name' | 'brand' | 'color' | 'material' | 'description' | 'features'

export type FactViolation =
  | { fact: FactName; kind: 'missing'; expected: string }
  | { fact: 'color'; kind: 'contradicted'; expected: string; found: string }

const fold = (text: string) => text.toLocaleLowerCase(locale).replace(/\s+/g, ' ').trim()

function contains(haystack: string, needle: string): boolean {
  return fold(haystack).includes(fold(needle))
}

/** Letters-only words of a text, lower-cased with Turkish rules. */
export function wordsOf(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
}

/** Colour words in a text, suffixed forms included ("kırmızısı" is "kırmızı"). */
export function colourWordsIn(text: string): string[] {
  const found = new Set<string>()
  for (const word of wordsOf(text)) {
    for (const colour of colourWords) if (word.startsWith(colour)) found.add(colour)
  }
  return [...found]
}

/** A name's part before its first comma or semicolon: "Fincan Takımı, 2 Kişilik" → "Fincan Takımı". */
export function nameCore(name: string): string {
  return (name.split(/[,;]/)[0] ?? name).replace(/\s+/g, ' ').trim()
}

/**
 * The lead of the seller's own description that the meta description keeps word for word: its
 * first sentence, cut at a word boundary to leave room for nothing but itself if it is long.
 */
export function descriptionLead(description: string): string {
  const text = description.replace(/\s+/g, ' ').trim()
  const sentence = /^.+?[.!?](?=\s|$)/u.exec(text)?.[0] ?? text
  return clampAtWord(sentence, seoLimits.descriptionMax)
}

const given = (text: string | undefined) => {
  const value = text?.replace(/\s+/g, ' ').trim()
  return value ? value : undefined
}

/**
 * Where the copy breaks the seller's facts; empty when every given fact is kept. A fact is kept
 * when it appears (case aside) where it belongs: the name in the title (as much of it as the
 * title can hold), the brand in the title or the features, colour and material in the title or
 * the features, the seller's features among the features, and the lead of the seller's
 * description in the meta description. A colour is contradicted when the copy names a colour
 * the seller's own words do not.
 */
export function factViolations(content: SeoContent, details: ProductDetails): FactViolation[] {
  const violations: FactViolation[] = []
  const titleAndFeatures = [content.title, ...content.features].join('\n')
  const name = given(details.name)
  if (name) {
    const expected = clampAtWord(nameCore(name), seoLimits.titleMax)
    if (!contains(content.title, expected)) violations.push({ fact: 'name', kind: 'missing', expected })
  }
  const brand = given(details.brand)
  if (brand && !contains(titleAndFeatures, brand)) {
    violations.push({ fact: 'brand', kind: 'missing', expected: brand })
  }
  const material = given(details.material)
  if (material && !contains(titleAndFeatures, material)) {
    violations.push({ fact: 'material', kind: 'missing', expected: material })
  }
  for (const feature of details.features ?? []) {
    const expected = given(feature)
    if (expected && !content.features.some((line) => contains(line, expected))) {
      violations.push({ fact: 'features', kind: 'missing', expected })
    }
  }
  const description = given(details.description)
  if (description) {
    const expected = descriptionLead(description)
    if (!contains(content.description, expected)) {
      violations.push({ fact: 'description', kind: 'missing', expected })
    }
  }
  const colour = given(details.color)
  if (colour) {
    if (!contains(titleAndFeatures, colour))
      violations.push({ fact: 'color', kind: 'missing', expected: colour })
    // The seller's own words may name colours ("beyaz çizgili lacivert gömlek"): those are theirs.
    const sellersWords = [colour, name, description, material, brand, ...(details.features ?? [])]
      .filter((text): text is string => Boolean(text))
      .join(' ')
    const allowed = new Set(colourWordsIn(sellersWords))
    const copy = [content.title, content.description, ...content.features, ...content.keywords].join('\n')
    for (const found of colourWordsIn(copy)) {
      if (!allowed.has(found))
        violations.push({ fact: 'color', kind: 'contradicted', expected: colour, found })
    }
  }
  return violations
}

/** Promotional phrases in a text ("Hemen sepete ekleyin!" has two). */
export function promotionalPhrasesIn(text: string): string[] {
  const folded = ` ${wordsOf(text).join(' ')} `
  return promotionalPhrases.filter((phrase) => folded.includes(` ${phrase}`))
}

/**
 * The text with its promotional phrases taken out (the checker's "remove promotional words" fix),
 * each as promotionalPhrasesIn finds it: from a word's start, its last word with any suffix
 * ("İndirimli", "Hemen sepete ekleyin"). The spaces and punctuation left around a removed phrase
 * are tidied; line breaks stay.
 */
export function withoutPromotionalPhrases(text: string): string {
  const found = promotionalPhrasesIn(text).map((phrase) => phrase.split(' '))
  if (found.length === 0) return text
  const words = [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    folded: match[0].toLocaleLowerCase(locale),
  }))
  const cuts: { start: number; end: number }[] = []
  for (let index = 0; index < words.length; index += 1) {
    const phrase = found.find((parts) =>
      parts.every((part, offset) => {
        const word = words[index + offset]?.folded
        return offset === parts.length - 1 ? word?.startsWith(part) : word === part
      }),
    )
    if (!phrase) continue
    const last = words[index + phrase.length - 1]
    const first = words[index]
    if (first && last) cuts.push({ start: first.start, end: last.end })
    index += phrase.length - 1
  }
  let result = text
  for (const cut of cuts.reverse()) result = result.slice(0, cut.start) + result.slice(cut.end)
  return result
    .split('\n')
    .map((line) =>
      line
        .replace(/[ \t]+([,.;:!?])/g, '$1')
        .replace(/([,;:!?.-])(?:[ \t]*[,;:!?.-])+/g, '$1')
        .replace(/[ \t]{2,}/g, ' ')
        .replace(/^[ \t,;:!?-]+|[ \t,;:-]+$/g, ''),
    )
    .join('\n')
    .trim()
}

/**
 * What makes a keyword unusable in a marketplace's keyword field: a comma or semicolon (the
 * field's separator), a category path ("mutfak > fincan"), or a promotional phrase.
 */
export function keywordProblems(keyword: string): ('separator' | 'path' | 'promotional')[] {
  const problems: ('separator' | 'path' | 'promotional')[] = []
  if (/[,;]/.test(keyword)) problems.push('separator')
  if (/[>›»|/]/.test(keyword)) problems.push('path')
  if (promotionalPhrasesIn(keyword).length > 0) problems.push('promotional')
  return problems
}
