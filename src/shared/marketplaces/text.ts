/**
 * Text helpers for the copy checks: characters as marketplaces count them, words, and a folding
 * that compares Turkish and English text alike.
 */

/** Length in Unicode code points (what "100 characters" means: "ğ" or an emoji is one). */
export function codePointLength(text: string): number {
  return [...text].length
}

/**
 * Lower-cases with Turkish rules (I → ı, İ → i), then folds dotless ı into i, so "FREE SHIPPING"
 * (which Turkish lower-casing turns into "free shıpping") and "ÜCRETSİZ KARGO" both match their
 * phrase. The cost, "ı" and "i" comparing equal, does not matter for the words we look for.
 */
export function foldText(text: string): string {
  return text.normalize('NFC').toLocaleLowerCase('tr-TR').replace(/ı/g, 'i')
}

/** The words of a text: runs of letters (with their marks) and digits. */
export function wordsOf(text: string): string[] {
  return text.normalize('NFC').match(/[\p{L}\p{M}\p{N}]+/gu) ?? []
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * Whether `phrase` occurs in `text` starting at a word start. `wholeWord` also requires a word
 * end; without it a Turkish stem matches its suffixed forms ("indirim" in "indirimli").
 */
export function containsPhrase(text: string, phrase: string, wholeWord: boolean): boolean {
  const tail = wholeWord ? '(?![\\p{L}\\p{M}\\p{N}])' : ''
  const pattern = new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${escapeRegExp(foldText(phrase))}${tail}`, 'u')
  return pattern.test(foldText(text))
}

/**
 * Small words a title repeats by nature (Amazon's repetition rule excepts prepositions, articles
 * and conjunctions); compared folded.
 */
export const stopWords: ReadonlySet<string> = new Set(
  [
    // Turkish conjunctions, postpositions and the article-like "bir".
    've',
    'veya',
    'ya',
    'da',
    'de',
    'ile',
    'için',
    'gibi',
    'kadar',
    'göre',
    'ama',
    'fakat',
    'ki',
    'bir',
    // English articles, conjunctions and prepositions.
    'a',
    'an',
    'the',
    'and',
    'or',
    'but',
    'nor',
    'for',
    'with',
    'without',
    'of',
    'in',
    'on',
    'at',
    'to',
    'by',
    'from',
    'into',
    'per',
  ].map(foldText),
)

/**
 * Acronyms and units of four letters or more that are written in capitals by nature (shorter
 * words are never taken for shouting); compared folded.
 */
export const capitalisedTerms: ReadonlySet<string> = new Set(
  [
    'HDMI',
    'OLED',
    'QLED',
    'AMOLED',
    'HEPA',
    'SATA',
    'NVME',
    'IPTV',
    'WIFI',
    'ISBN',
    'AISI',
    'DSLR',
    'RGBW',
  ].map(foldText),
)
