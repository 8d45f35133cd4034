import type { CachedMarketplaceCategory } from '#server/db/schema/index.ts'
import { foldHeader } from '#shared/catalogue/columns.ts'

// Finding a marketplace category from a few Turkish words, typed the way sellers type them: with or
// without Turkish letters ("fincan takimi"), in capitals ("FİNCAN TAKIMI"), in any order ("takımı
// fincan"), or cut short ("finc tak"). Names are folded as catalogue headers are (ı/İ → i, marks
// dropped, lower case), so each query word must begin a word somewhere in the category's path.
// Turkish adds its possessive and plural to the noun ("Fincan Takımı", "Fincan Takımları"), so a
// word that does not begin a path word as typed is tried again without those endings.

/** A category with its path's words folded once, for searching many times. */
export type IndexedCategory = {
  category: CachedMarketplaceCategory
  /**
   * Each path level's folded words as " word word", the category's own name last: a query word
   * begins a word there when " " + it occurs in the text (one native search, no word lists).
   */
  levels: string[]
}

export function indexCategories(categories: CachedMarketplaceCategory[]): IndexedCategory[] {
  const folded = new Map<string, string>()
  const foldedOf = (name: string) => {
    let text = folded.get(name)
    if (text === undefined) {
      text = ` ${foldHeader(name)}`
      folded.set(name, text)
    }
    return text
  }
  // Path names repeat across thousands of categories: each is folded once, and the texts shared.
  return categories.map((category) => ({ category, levels: category.path.map(foldedOf) }))
}

/** Possessive and plural endings, folded (ı → i, ü → u), longest first. */
const endings = ['lari', 'leri', 'lar', 'ler', 'si', 'su', 'i', 'u']

/** A folded word without its Turkish possessive or plural ending; the word itself when none comes off. */
export function turkishStem(word: string): string {
  for (const ending of endings) {
    if (word.endsWith(ending) && word.length - ending.length >= 3) return word.slice(0, -ending.length)
  }
  return word
}

/** One collator for every sort: localeCompare with a locale builds one per call. */
const byTurkish = new Intl.Collator('tr')

type Match = { level: number; isExact: boolean }

/** Where a query word begins a path word: the deepest level, preferring an exact beginning there. */
function matchOf(levels: string[], word: string, stem: string): Match | null {
  for (let level = levels.length - 1; level >= 0; level--) {
    const text = levels[level] ?? ''
    if (text.includes(word)) return { level, isExact: true }
    if (stem !== word && text.includes(stem)) return { level, isExact: false }
  }
  return null
}

/**
 * The categories every query word finds, best first: categories that take products (leaves),
 * then more words matching the category's own name (not a parent's), then words matching as typed
 * (not only without their endings), then shorter paths, then by path.
 */
export function searchCategories(
  index: IndexedCategory[],
  query: string,
  limit: number,
): CachedMarketplaceCategory[] {
  const words = [...new Set(foldHeader(query).split(' ').filter(Boolean))].slice(0, 8)
  if (words.length === 0) return []
  // With the space before them, `includes` finds only a word's beginning.
  const stems = words.map((word) => ` ${turkishStem(word)}`)
  const spaced = words.map((word) => ` ${word}`)
  const found: { category: CachedMarketplaceCategory; own: number; exact: number; sortKey: string }[] = []
  for (const entry of index) {
    const last = entry.levels.length - 1
    let own = 0
    let exact = 0
    let isMatch = true
    for (let i = 0; i < words.length; i++) {
      const match = matchOf(entry.levels, spaced[i] ?? ' ', stems[i] ?? ' ')
      if (!match) {
        isMatch = false
        break
      }
      if (match.level === last) own++
      if (match.isExact) exact++
    }
    if (isMatch) {
      found.push({ category: entry.category, own, exact, sortKey: entry.category.path.join(' > ') })
    }
  }
  found.sort(
    (a, b) =>
      Number(b.category.isLeaf) - Number(a.category.isLeaf) ||
      b.own - a.own ||
      b.exact - a.exact ||
      a.category.path.length - b.category.path.length ||
      byTurkish.compare(a.sortKey, b.sortKey),
  )
  return found.slice(0, limit).map((f) => f.category)
}
