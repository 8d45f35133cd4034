import { banks, type CategoryId, categoryIds } from './categories.ts'
import { fold } from './text.ts'

// Which of the writer's categories a product belongs to: first from the seller's category (its
// path steps from the most specific, "Ev & Yaşam > Mutfak > Fincan" → "Fincan" → mutfak), else
// from the product kinds in its name, the longest match winning ("oyuncak bebek" is a toy,
// "bebek arabası" a baby product) and, between equals, the later one (Turkish puts the head noun
// last). Nothing recognised: the neutral bank.

/** "Ev & Yaşam > Mutfak > Fincan" → ["Ev & Yaşam", "Mutfak", "Fincan"]. */
export function pathSteps(category: string | undefined): string[] {
  if (!category) return []
  return category
    .split(/\s*(?:>|›|»|\/|\||\\)\s*/)
    .map((step) => step.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
}

/** "Anne & Bebek", "anne ve bebek", "Anne-Bebek" all read "anne bebek". */
export function normalise(text: string): string {
  return fold(text)
    .replace(/[&+\-–,]/g, ' ')
    .replace(/\bve\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

// Suffixes a short pattern may carry and still be the same word ("mat" in "matı", not "matkap").
const shortSuffix = /^(?:|ı|i|u|ü|sı|si|su|sü|lar|ler|ları|leri|lı|li|lu|lü|a|e|ya|ye|yı|yi|yu|yü)$/

// The banks' patterns, normalised once.
const patternsByCategory = categoryIds.map((id) => ({
  id,
  kinds: banks[id].kinds.map(normalise),
  pathWords: banks[id].pathWords.map(normalise),
}))

export type KindMatch = {
  category: CategoryId
  start: number
  end: number
  length: number
  multiWord: boolean
}

/** The best product-kind match in a text, with where it stands (to the end of its last word). */
export function matchKind(text: string, withPathWords = false): KindMatch | undefined {
  const folded = normalise(text)
  let best: KindMatch | undefined
  for (const { id, kinds, pathWords } of patternsByCategory) {
    for (const pattern of withPathWords ? [...kinds, ...pathWords] : kinds) {
      let from = 0
      for (;;) {
        const at = folded.indexOf(pattern, from)
        if (at < 0) break
        from = at + 1
        if (at > 0 && folded[at - 1] !== ' ') continue
        const wordEnd = folded.indexOf(' ', at + pattern.length)
        const end = wordEnd < 0 ? folded.length : wordEnd
        const rest = folded.slice(at + pattern.length, end)
        if (pattern.length <= 4 && !shortSuffix.test(rest)) continue
        if (rest.length > 5) continue
        const isBetter =
          !best || pattern.length > best.length || (pattern.length === best.length && at > best.start)
        if (isBetter)
          best = { category: id, start: at, end, length: pattern.length, multiWord: pattern.includes(' ') }
      }
    }
  }
  return best
}

/** The category from the seller's category path (most specific step first), else from the name. */
export function detectCategory(details: { name?: string; category?: string }): CategoryId {
  const steps = pathSteps(details.category)
  for (const step of [...steps].reverse()) {
    const match = matchKind(step, true)
    if (match) return match.category
  }
  const fromName = details.name ? matchKind(details.name) : undefined
  return fromName?.category ?? 'genel'
}
