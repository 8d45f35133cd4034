// Turkish noun suffixes by the rules a reader hears: vowel harmony (2-way: a/e, 4-way: ı/i/u/ü),
// buffer consonants (y, n, s), the voiceless-consonant d/t of -da/-dan, and the softening of a
// final p/ç/t/k before a vowel (kitap → kitabı). Loanwords that break harmony (saat → saati),
// words that do not soften (sepet → sepeti, top → topu), proper nouns and brands (Nike'ı,
// iPhone'u: an apostrophe, read as they are said), acronyms and numbers (USB'yi, 2'yi), and
// compound nouns that already carry a possessive (fincan takımı → fincan takımını) are covered.
// No node imports: the web app may use it too.

const locale = 'tr-TR'

export type TurkishCase =
  | 'accusative'
  | 'dative'
  | 'locative'
  | 'ablative'
  | 'genitive'
  | 'plural'
  | 'possessive'
  | 'with'

export type InflectOptions = {
  /** A brand or other proper noun: the suffix follows an apostrophe and the word never softens. */
  properNoun?: boolean
  /**
   * The last word already carries the 3rd person possessive of a compound noun ("fincan takımı",
   * "masa örtüsü"), so case suffixes take the buffer n (takımını, örtüsüne).
   */
  compound?: boolean
}

const frontVowels = 'eiöü'
const vowels = 'aeıioöuüâîû'
const roundedVowels = 'ouöü'
const voiceless = 'fstkçşhp'

/** Loanwords whose suffixes take front vowels although their last vowel is back. */
const frontLoanwords = new Set([
  'saat',
  'kalp',
  'alkol',
  'gol',
  'rol',
  'petrol',
  'kontrol',
  'sembol',
  'hal',
  'dikkat',
  'harf',
  'hayal',
  'kabul',
  'metal',
  'kristal',
  'mineral',
  'santral',
  'ihtimal',
  'protokol',
  'vakit',
  'hakikat',
  'seyahat',
  'idrak',
  'istiklal',
  'meal',
  'emsal',
])

/** Words of one syllable that do soften (most do not: top → topu, saç → saçı). */
const softeningMonosyllables = new Set([
  'renk',
  'kalp',
  'kap',
  'dip',
  'uç',
  'taç',
  'güç',
  'grup',
  'cilt',
  'tat',
  'yurt',
  'kurt',
  'dert',
  'dört',
  'denk',
  'ahenk',
  'çok',
  'gök',
])

/** Words of more than one syllable that keep a final p/ç/k (the default softens them). */
const hardPolysyllables = new Set([
  'hukuk',
  'ittifak',
  'iştirak',
  'tahakkuk',
  'laptop',
  'teleskop',
  'kamp',
  'tank',
  'link',
  'blok',
  'şok',
  'stok',
  'frak',
  'fotoşop',
  'workshop',
])

/** Words of more than one syllable ending in t that soften (most keep it: sepet → sepeti). */
const softeningT = new Set(['kanat', 'kağıt', 'kilit', 'umut', 'yoğurt', 'armut', 'dört', 'kurt'])

/** How brands and loans are said, where spelling misleads harmony: "Nike" is said "nayk". */
const spokenForms: Record<string, string> = {
  nike: 'nayk',
  iphone: 'ayfon',
  ipad: 'aypad',
  apple: 'epıl',
  google: 'gugıl',
  converse: 'konvörs',
  'the north face': 'feys',
  face: 'feys',
  youtube: 'yutub',
  xbox: 'ekboks',
  playstation: 'pleysteyşın',
  office: 'ofis',
  galaxy: 'gelaksi',
}

/** Letters as said in Turkish, for acronyms ("USB" ends in "be": USB'yi). */
const letterNames: Record<string, string> = {
  a: 'a',
  b: 'be',
  c: 'ce',
  ç: 'çe',
  d: 'de',
  e: 'e',
  f: 'fe',
  g: 'ge',
  ğ: 'ge',
  h: 'he',
  ı: 'ı',
  i: 'i',
  j: 'je',
  k: 'ke',
  l: 'le',
  m: 'me',
  n: 'ne',
  o: 'o',
  ö: 'ö',
  p: 'pe',
  r: 're',
  s: 'se',
  ş: 'şe',
  t: 'te',
  u: 'u',
  ü: 'ü',
  v: 've',
  w: 've',
  x: 'iks',
  y: 'ye',
  z: 'ze',
  q: 'ku',
}

/** Digits as said, for "2'yi", "3'ü", "10'u". */
const digitNames = ['sıfır', 'bir', 'iki', 'üç', 'dört', 'beş', 'altı', 'yedi', 'sekiz', 'dokuz']

const lower = (text: string) => text.toLocaleLowerCase(locale)

function isVowel(char: string | undefined): boolean {
  return char !== undefined && vowels.includes(char)
}

function countVowels(word: string): number {
  let count = 0
  for (const char of word) if (isVowel(char)) count++
  return count
}

/** How a word is said, for choosing its suffixes (not written anywhere). */
function spokenForm(word: string): string {
  const folded = lower(word)
  const known = spokenForms[folded]
  if (known) return known
  if (/\d$/.test(word)) {
    // "10" is said "on", "100" "yüz": only the last non-zero group matters for the ending.
    if (/000$/.test(word)) return 'bin'
    if (/00$/.test(word)) return 'yüz'
    if (/0$/.test(word)) {
      const tens = ['', 'on', 'yirmi', 'otuz', 'kırk', 'elli', 'altmış', 'yetmiş', 'seksen', 'doksan']
      return tens[Number(word.at(-2) ?? '1')] || 'on'
    }
    return digitNames[Number(word.at(-1))] ?? 'bir'
  }
  // An acronym of up to three letters ("USB", "PU") or with no vowel is said letter by letter;
  // a longer one with vowels ("IKEA") is said as a word.
  const letters = word.replace(/[^\p{L}]/gu, '')
  const isAcronym = letters.length >= 2 && letters === letters.toLocaleUpperCase(locale)
  if (isAcronym && (letters.length <= 3 || countVowels(lower(letters)) === 0)) {
    return letterNames[lower(letters.at(-1) ?? 'e')] ?? 'e'
  }
  // A foreign word written with a silent final e after a consonant ("Converse") is left to the map.
  return lower(letters || word)
}

function lastVowel(spoken: string): string {
  for (let i = spoken.length - 1; i >= 0; i--) {
    const char = spoken[i]
    if (char && isVowel(char)) return char.replace('â', 'a').replace('î', 'i').replace('û', 'u')
  }
  return 'e'
}

function isFront(spoken: string): boolean {
  return frontLoanwords.has(spoken) || frontVowels.includes(lastVowel(spoken))
}

/** a or e, as the last vowel asks. */
function twoWay(spoken: string): 'a' | 'e' {
  return isFront(spoken) ? 'e' : 'a'
}

/** ı, i, u or ü, as the last vowel asks. */
function fourWay(spoken: string): 'ı' | 'i' | 'u' | 'ü' {
  const front = isFront(spoken)
  const rounded = roundedVowels.includes(lastVowel(spoken))
  if (front) return rounded ? 'ü' : 'i'
  return rounded ? 'u' : 'ı'
}

/** The word with a softened final consonant, when a vowel-initial suffix follows. */
export function softened(word: string): string {
  const folded = lower(word)
  const last = folded.at(-1)
  if (!last || !'pçtk'.includes(last)) return word
  const syllables = countVowels(folded)
  if (syllables === 0) return word
  const shouldSoften =
    syllables === 1
      ? softeningMonosyllables.has(folded)
      : last === 't'
        ? softeningT.has(folded)
        : !hardPolysyllables.has(folded)
  if (!shouldSoften) return word
  const before = folded.at(-2)
  const soft = last === 'p' ? 'b' : last === 'ç' ? 'c' : last === 't' ? 'd' : before === 'n' ? 'g' : 'ğ'
  const isUpper = word.at(-1) !== word.at(-1)?.toLocaleLowerCase(locale)
  return word.slice(0, -1) + (isUpper ? soft.toLocaleUpperCase(locale) : soft)
}

/** The base of a compound's head: "takımı" → "takım", "örtüsü" → "örtü", "bardağı" → "bardak". */
function possessiveBase(word: string): string {
  const folded = lower(word)
  if (/[aeıioöuü]s[ıiuü]$/.test(folded)) return word.slice(0, -2)
  const stem = word.slice(0, -1)
  const end = lower(stem).at(-1)
  if (end === 'ğ') return `${stem.slice(0, -1)}k`
  if (end === 'b') return `${stem.slice(0, -1)}p`
  if (end === 'c') return `${stem.slice(0, -1)}ç`
  if (end === 'g' && lower(stem).at(-2) === 'n') return `${stem.slice(0, -1)}k`
  if (end === 'd' && softeningT.has(`${lower(stem).slice(0, -1)}t`)) return `${stem.slice(0, -1)}t`
  return stem
}

/**
 * One word (or the last word of a phrase) with a case suffix: kitap → kitabı, saat → saati,
 * çanta → çantaya, Nike → Nike'ı, fincan takımı → fincan takımını (compound).
 */
export function inflect(phrase: string, grammaticalCase: TurkishCase, options: InflectOptions = {}): string {
  const text = phrase.trim()
  const spaceAt = text.lastIndexOf(' ')
  const head = text.slice(0, spaceAt + 1)
  const word = text.slice(spaceAt + 1)
  if (!word) return text
  const isProper = options.properNoun === true
  const isNumber = /\d$/.test(word)
  const spoken = spokenForm(word)
  const endsInVowel = isVowel(spoken.at(-1))
  const apostrophe = isProper || isNumber || (spoken !== lower(word) && !/^\p{Ll}+$/u.test(word)) ? "'" : ''
  const ends = (suffix: string) => `${head}${word}${apostrophe}${suffix}`
  const softenedEnds = (suffix: string) =>
    `${head}${apostrophe ? word : softened(word)}${apostrophe}${suffix}`

  if (options.compound && !apostrophe) {
    // The head already ends in the possessive ı/i/u/ü: cases take the buffer n.
    const a = twoWay(spoken)
    const i = fourWay(spoken)
    switch (grammaticalCase) {
      case 'accusative':
        return ends(`n${i}`)
      case 'dative':
        return ends(`n${a}`)
      case 'locative':
        return ends(`nd${a}`)
      case 'ablative':
        return ends(`nd${a}n`)
      case 'genitive':
        return ends(`n${i}n`)
      case 'with':
        return ends(`yl${a}`)
      case 'possessive':
        return text
      case 'plural': {
        const base = possessiveBase(word)
        const baseSpoken = lower(base)
        const plural = `${base}l${twoWay(baseSpoken)}r`
        return `${head}${plural}${fourWay(plural)}`
      }
    }
  }

  const a = twoWay(spoken)
  const i = fourWay(spoken)
  const last = spoken.at(-1) ?? ''
  const d = voiceless.includes(last) ? 't' : 'd'
  // "su" keeps an old y: suyu, suyun.
  const isSu = lower(word) === 'su'
  switch (grammaticalCase) {
    case 'plural':
      return ends(`l${a}r`)
    case 'accusative':
      return endsInVowel ? ends(`y${i}`) : softenedEnds(i)
    case 'dative':
      return endsInVowel ? ends(`y${a}`) : softenedEnds(a)
    case 'locative':
      return ends(`${d}${a}`)
    case 'ablative':
      return ends(`${d}${a}n`)
    case 'genitive':
      if (isSu) return ends(`y${i}n`)
      return endsInVowel ? ends(`n${i}n`) : softenedEnds(`${i}n`)
    case 'possessive':
      if (isSu) return ends(`y${i}`)
      return endsInVowel ? ends(`s${i}`) : softenedEnds(i)
    case 'with':
      return endsInVowel ? ends(`yl${a}`) : ends(`l${a}`)
  }
}
