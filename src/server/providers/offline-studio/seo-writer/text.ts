// Turkish casing and small text helpers of the offline writer.

/** Trims and collapses spaces; empty becomes undefined. */
export function clean(text: string | undefined): string | undefined {
  const value = text?.replace(/\s+/g, ' ').trim()
  return value ? value : undefined
}

/**
 * Lower case with Turkish rules (I → ı, İ → i). The same as toLocaleLowerCase('tr-TR') for
 * the letters a listing holds, without the locale lookup that made it the writer's slowest step.
 */
export function lowerTr(text: string): string {
  return text.replace(/I/g, 'ı').replace(/İ/g, 'i').toLowerCase()
}

/** Upper case with Turkish rules (i → İ, ı → I). */
export function upperTr(text: string): string {
  return text.replace(/i/g, 'İ').replace(/ı/g, 'I').toUpperCase()
}

/** Upper-cases the first letter with Turkish rules (i → İ). */
export function upperFirst(text: string): string {
  return upperTr(text.charAt(0)) + text.slice(1)
}

/**
 * Title case for listing titles: words typed all in lower case get a capital (Turkish rules:
 * "iğne" → "İğne"); words with capitals of their own ("iPhone", "LC Waikiki") stay as typed.
 */
export function titleCase(text: string): string {
  return text
    .split(' ')
    .map((word) => (word === lowerTr(word) && !unit.test(word) ? upperFirst(word) : word))
    .join(' ')
}

/** Units stay in lower case in a title: "50 ml", "90x90 cm". */
const unit = /^(?:mm|cm|m|ml|cl|lt|l|gr|g|kg|mah|w|v|gb|tb)$/

/** A name without its trailing sizes and counts: "Yoga Matı 6 mm" → "Yoga Matı". */
export function withoutMeasure(text: string): string {
  const words = text.split(' ')
  while (words.length > 1) {
    const last = fold(words.at(-1) ?? '')
    if (/\d/.test(last) || unit.test(last)) words.pop()
    else break
  }
  return words.join(' ')
}

// Nouns that end in ı/i/u/ü of their own (not a compound's possessive): "halı" takes "halıyı".
const plainVowelNouns = new Set([
  'halı',
  'kapı',
  'kutu',
  'ütü',
  'tepsi',
  'sürahi',
  'kedi',
  'köprü',
  'kuzu',
  'ayı',
  'tilki',
  'atkı',
  'askı',
  'çatı',
  'mini',
  'midi',
  'maxi',
  'deri',
  'koli',
  'jüri',
  'taksi',
  'safari',
  'kivi',
  'örtü',
  'hindi',
  'saksı',
  'silgi',
  'bitki',
  'örgü',
])

/** Whether a word has the shape of a compound's possessive head: "takımı", "örtüsü", "çantası". */
export function isPossessiveForm(word: string): boolean {
  const last = fold(word)
  if (plainVowelNouns.has(last)) return false
  return /[aeıioöuü]s[ıiuü]$/.test(last) || /[^aeıioöuü][ıiuü]$/.test(last)
}

/** Whether a phrase ends in a compound noun's possessive: "Fincan Takımı", "Masa Örtüsü". */
export function isCompound(phrase: string): boolean {
  const words = fold(phrase).split(' ')
  return words.length >= 2 && isPossessiveForm(words.at(-1) ?? '')
}

/**
 * Lower case for running text: only capitalised ordinary words ("Pamuk" → "pamuk") lose their
 * capital; acronyms and brands ("PU", "iPhone") keep theirs, so "IKEA" never becomes "ıkea".
 */
export function softLower(text: string): string {
  return text
    .split(' ')
    .map((word) => {
      const rest = word.slice(1)
      const isCapitalised = rest === lowerTr(rest) && word.charAt(0) !== lowerTr(word.charAt(0))
      return isCapitalised ? lowerTr(word.charAt(0)) + rest : word
    })
    .join(' ')
}

/** Lower case with Turkish rules and single spaces, for matching. */
export function fold(text: string): string {
  return lowerTr(text).replace(/\s+/g, ' ').trim()
}

/** Whether `needle` appears in `haystack`, case aside. */
export function includesText(haystack: string | undefined, needle: string | undefined): boolean {
  if (!haystack || !needle) return false
  return fold(haystack).includes(fold(needle))
}

/** A stable 32-bit hash (FNV-1a): the same product always gets the same phrasing. */
export function hashOf(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

/** The list turned to start at `start` (modulo its length): a per-product order of a bank. */
export function rotated<T>(list: readonly T[], start: number): T[] {
  if (list.length === 0) return []
  const at = start % list.length
  return [...list.slice(at), ...list.slice(0, at)]
}
