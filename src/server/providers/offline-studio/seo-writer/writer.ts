import {
  clampAtWord,
  normalizeSeoContent,
  type ProductDetails,
  type SeoContent,
  seoLimits,
} from '#shared/seo.ts'
import { colourWordsIn, descriptionLead, nameCore, promotionalPhrasesIn } from '#shared/seo-facts.ts'
import { inflect, type TurkishCase } from '#shared/turkish/morphology.ts'
import { banks, type CategoryBank, type CategoryId } from './categories.ts'
import { detectCategory, matchKind, normalise, pathSteps } from './detect.ts'
import {
  clean,
  fold,
  hashOf,
  includesText,
  isCompound,
  isPossessiveForm,
  lowerTr,
  rotated,
  softLower,
  titleCase,
  upperFirst,
  withoutMeasure,
} from './text.ts'

// The offline Turkish SEO writer. The seller's facts are fixed and come first: the name (its part
// before a comma) leads the title, the brand, colour and material stay as typed in the title or
// the features, the seller's features open the feature list unchanged, and the lead of the
// seller's description opens the meta description unchanged. The rest comes from the phrase bank
// of the product's category, in an order chosen per product (a hash of name, category and brand),
// so a catalogue does not repeat itself and the same product always reads the same. The photo's
// colour is used only when the seller named none, and is then reported back as a guess.

export type OfflineSeo = {
  content: SeoContent
  /** The writer's category for the product. */
  category: CategoryId
  /** The photo's colour, when the copy names it because the seller gave none: a guess to confirm. */
  colourFromPhoto?: string
}

/** With neither a name nor a category the copy could only invent what the product is. */
export class ProductNameNeededError extends Error {
  constructor() {
    super('offline SEO copy needs the product name or its category')
    this.name = 'ProductNameNeededError'
  }
}

/** Whether the offline writer has something to say what the product is: a name or a category. */
export function canWriteOffline(details: ProductDetails): boolean {
  const says = (text: string | undefined) => text !== undefined && /[\p{L}\p{N}]/u.test(text)
  return says(details.name) || pathSteps(details.category).some(says)
}

/** A material the prose can put a suffix on: a noun ("porselen", "%100 pamuk"), not "pamuklu". */
function suffixableMaterial(material: string | undefined): string | undefined {
  if (!material || material.length > 30 || /[,;/()+&]/.test(material)) return undefined
  const last = fold(material).split(' ').at(-1) ?? ''
  if (!/^\p{L}+$/u.test(last) || /(?:lı|li|lu|lü|sız|siz|suz|süz)$/.test(last)) return undefined
  return softLower(material)
}

/** The short case names the banks use. */
const caseNames: Record<string, TurkishCase> = {
  acc: 'accusative',
  dat: 'dative',
  loc: 'locative',
  abl: 'ablative',
  gen: 'genitive',
  ile: 'with',
}

const placeholder = /\{(Ad|ad|malzeme)(?::(\w+))?\}/g

/** A bank sentence with the product's words put in, or undefined when it needs a missing word. */
export function render(template: string, words: { ad: string; malzeme?: string }): string | undefined {
  let isMissing = false
  const text = template.replace(placeholder, (_, slot: string, grammaticalCase?: string) => {
    const value = slot === 'malzeme' ? words.malzeme : words.ad
    if (!value) {
      isMissing = true
      return ''
    }
    const turkishCase = grammaticalCase ? caseNames[grammaticalCase] : undefined
    const inflected = turkishCase ? inflect(value, turkishCase, { compound: isCompound(value) }) : value
    return slot === 'Ad' ? capitalised(inflected) : inflected
  })
  return isMissing ? undefined : capitalised(text)
}

/** A sentence with a capital, unless its first word has capitals of its own ("iPhone"). */
function capitalised(sentence: string): string {
  const first = sentence.split(' ')[0] ?? ''
  return first === lowerTr(first) ? upperFirst(sentence) : sentence
}

/** The first candidate within `max` characters, or the last one cut at a word boundary. */
function firstFitting(candidates: string[], max: number): string {
  for (const candidate of candidates) if (candidate.length <= max) return candidate
  return clampAtWord(candidates[candidates.length - 1] ?? '', max)
}

const spaced = (...parts: (string | undefined | false)[]) => parts.filter(Boolean).join(' ')

/** Turkish listing copy within every limit of shared/seo.ts, keeping every fact the seller gave. */
export function writeOfflineSeo(details: ProductDetails, photoColour?: string): OfflineSeo {
  if (!canWriteOffline(details)) throw new ProductNameNeededError()
  const name = clean(details.name)
  const steps = pathSteps(details.category)
  const brand = clean(details.brand)
  const material = clean(details.material)
  const sellerColour = clean(details.color)
  const sellerFeatures = (details.features ?? []).map(clean).filter((f): f is string => Boolean(f))
  const sellerDescription = clean(details.description)
  const category = detectCategory({ name, category: details.category })
  const bank = banks[category]
  const hash = hashOf(fold(`${name ?? ''}|${details.category ?? ''}|${brand ?? ''}`))
  const pick = (salt: number) => hashOf(`${hash}:${salt}`)

  // What the product is: the name's core, else the category's most specific step (or, when that
  // step only names the category, the category's own word for its products).
  const core = name ? nameCore(name) : undefined
  const lastStep = steps.at(-1)
  const stepIsKind = lastStep ? matchKind(lastStep) !== undefined : false
  const subject = core ?? (lastStep && (stepIsKind || category === 'genel') ? lastStep : bank.noun)
  // In running text a category's word is an ordinary noun ("bakım ürünü"); a name stays as typed.
  const prose = withoutMeasure(core ?? softLower(subject))
  const rest = name ? clean(name.slice(core?.length ?? 0).replace(/^[\s,;]+/, '')) : undefined
  const extras = rest && rest.length <= 24 && !/[,;]/.test(rest) ? rest : undefined

  // The photo's colour only where the seller named none, in any of their words.
  const sellersWords = [name, sellerDescription, material, brand, ...sellerFeatures].filter(Boolean).join(' ')
  const photo = !sellerColour && colourWordsIn(sellersWords).length === 0 ? clean(photoColour) : undefined
  const colour = sellerColour ?? photo

  // Title: brand, the product, its key attributes (size or count, colour, material).
  const coreTitle = titleCase(subject)
  const brandPart = brand && !includesText(subject, brand) ? brand : undefined
  const extrasPart = extras && !includesText(coreTitle, extras) ? titleCase(extras) : undefined
  const colourPart = colour && !includesText(subject, colour) ? titleCase(colour) : undefined
  // "Hakiki Deri" adds little to "Deri Sırt Çantası": the features say it in full ("Malzeme: …").
  const sharesMaterial = (material ?? '')
    .split(' ')
    .some((word) => word.length >= 3 && includesText(subject, word))
  const materialPart = material && material.length <= 24 && !sharesMaterial ? titleCase(material) : undefined
  const title = firstFitting(
    [
      spaced(brandPart, coreTitle, extrasPart, colourPart, materialPart),
      spaced(brandPart, coreTitle, extrasPart, colourPart),
      spaced(brandPart, coreTitle, colourPart),
      spaced(brandPart, coreTitle),
      spaced(coreTitle, colourPart),
      coreTitle,
    ],
    seoLimits.titleMax,
  )
  const colourFromPhoto = photo && includesText(title, photo) ? photo : undefined

  const description = buildDescription(bank, {
    ad: prose,
    malzeme: suffixableMaterial(material),
    lead: sellerDescription ? descriptionLead(sellerDescription) : undefined,
    pick,
  })
  const features = buildFeatures(bank, { title, brand, colour: sellerColour, material, sellerFeatures, pick })
  const keywords = buildKeywords(bank, {
    core,
    subject,
    brand,
    material,
    colour: sellerColour ?? colourFromPhoto,
    extras,
    lastStep,
    pick,
  })

  const content = normalizeSeoContent({ title, description, features, keywords })
  // The banks always give enough to stay valid; a null here is a bug, not bad input.
  if (!content) throw new Error('offline SEO copy broke its own limits')
  return colourFromPhoto ? { content, category, colourFromPhoto } : { content, category }
}

type Pick = (salt: number) => number

function buildDescription(
  bank: CategoryBank,
  { ad, malzeme, lead, pick }: { ad: string; malzeme?: string; lead?: string; pick: Pick },
): string {
  const max = seoLimits.descriptionMax
  let description: string
  if (lead) {
    description = lead
  } else {
    const openers = rotated(bank.openers, pick(1))
      .map((template) => render(template, { ad, malzeme }))
      .filter((sentence): sentence is string => sentence !== undefined)
    const fitting = openers.find((sentence) => sentence.length <= max)
    description = fitting ?? ''
  }
  let added = 0
  for (const closer of rotated(bank.closers, pick(2))) {
    if (added === 2) break
    const next = description ? `${description} ${closer}` : closer
    if (next.length <= max) {
      description = next
      added++
    }
  }
  return description || clampAtWord(bank.closers[0] ?? ad, max)
}

function buildFeatures(
  bank: CategoryBank,
  {
    title,
    brand,
    colour,
    material,
    sellerFeatures,
    pick,
  }: {
    title: string
    brand?: string
    colour?: string
    material?: string
    sellerFeatures: string[]
    pick: Pick
  },
): string[] {
  const line = (label: string, value: string) => `${label}: ${value}`
  const facts = [
    brand && !includesText(title, brand) ? line('Marka', brand) : undefined,
    colour ? line('Renk', upperFirst(colour)) : undefined,
    material ? line('Malzeme', upperFirst(material)) : undefined,
  ].filter((f): f is string => Boolean(f))
  const lines = [...sellerFeatures]
  const room = seoLimits.featuresMax - lines.length
  if (facts.length <= room) lines.push(...facts)
  else {
    // Six features of the seller's own: only the facts the title lacks are added, on one line
    // (or after their last line when there is no room at all).
    const needed = facts.filter((f) => !includesText(title, f.slice(f.indexOf(':') + 2)))
    if (needed.length <= room) lines.push(...needed)
    else if (room > 0) lines.push(needed.join(' · '))
    else if (needed.length > 0) lines[lines.length - 1] = `${lines.at(-1)} · ${needed.join(' · ')}`
  }
  const target = 5
  for (const feature of rotated(bank.features, pick(3))) {
    if (lines.length >= target) break
    if (!lines.some((l) => fold(l) === fold(feature))) lines.push(feature)
  }
  return lines.slice(0, seoLimits.featuresMax)
}

const keywordMax = 50

function buildKeywords(
  bank: CategoryBank,
  {
    core,
    subject,
    brand,
    material,
    colour,
    extras,
    lastStep,
    pick,
  }: {
    core?: string
    subject: string
    brand?: string
    material?: string
    colour?: string
    extras?: string
    lastStep?: string
    pick: Pick
  },
): string[] {
  // The product's kind, as a shopper types it: the matched kind in the name to the end of its
  // word ("koşu ayakkabısı"), else the name's last two words, without the brand.
  const foldedSubject = withoutMeasure(
    normalise(subject)
      .replace(/[>›»|/\\;]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  )
  const kindMatch = matchKind(foldedSubject)
  const brandWords = new Set(brand ? fold(brand).split(' ') : [])
  const subjectWords = foldedSubject.split(' ').filter((w) => !brandWords.has(w))
  // The matched kind and the words after it ("ahşap oyuncak roket" → "oyuncak roket"), at most three.
  // A compound's head needs the word before it: "plaj çantası", not "çantası".
  const kindStart = kindMatch ? foldedSubject.slice(0, kindMatch.start).split(' ').length - 1 : 0
  const allWords = foldedSubject.split(' ')
  const firstKindWord = allWords[kindStart] ?? ''
  const from =
    kindMatch && kindStart > 0 && isPossessiveForm(firstKindWord) && !kindMatch.multiWord
      ? kindStart - 1
      : kindStart
  const kindWords = kindMatch
    ? allWords.slice(from).filter((w) => !brandWords.has(w))
    : subjectWords.slice(-2)
  const kind =
    (kindWords.length > 0 ? kindWords : subjectWords).slice(0, 3).join(' ').trim() || fold(bank.noun)
  const shortFact = (text: string | undefined) =>
    text && text.length <= 24 && !/[,;>›»|/]/.test(text) ? fold(text) : undefined
  const withKind = (prefix: string | undefined) => (prefix ? `${prefix} ${kind}` : undefined)
  const colourWord = shortFact(colour)
  const fromFacts = [
    core ? fold(core) : undefined,
    kind,
    withKind(colourWord),
    withKind(shortFact(material)),
    withKind(shortFact(extras)),
    withKind(shortFact(brand)),
    shortFact(brand),
    lastStep ? shortFact(lastStep) : undefined,
  ]
  const sellersPhrases = new Set(fromFacts)
  const fromPatterns = (patterns: string[], salt: number) =>
    rotated(patterns, pick(salt)).map((pattern) => pattern.replace('{tür}', kind))
  const candidates = [
    ...fromFacts,
    ...fromPatterns(bank.kindKeywords, 4),
    ...rotated(bank.keywords, pick(5)),
    ...fromPatterns(banks.genel.kindKeywords, 6),
    // A kind of odd words may leave too few: the category's own word never does.
    ...banks.genel.kindKeywords.map((pattern) => pattern.replace('{tür}', fold(bank.noun))),
  ]
  const seen = new Set<string>()
  const keywords: string[] = []
  for (const candidate of candidates) {
    if (!candidate) continue
    const keyword = clampAtWord(candidate.replace(/\s+/g, ' ').trim(), keywordMax)
    const words = keyword.split(' ')
    if (!keyword || /[,;>›»|/\\]/.test(keyword) || new Set(words).size !== words.length) continue
    if (seen.has(keyword)) continue
    // The banks' phrases are kept clean by their test; only the seller's words need the check.
    if (sellersPhrases.has(candidate) && promotionalPhrasesIn(keyword).length > 0) continue
    seen.add(keyword)
    keywords.push(keyword)
    if (keywords.length === seoLimits.keywords) break
  }
  return keywords
}
