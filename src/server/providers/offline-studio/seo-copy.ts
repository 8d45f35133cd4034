import {
  clampAtWord,
  normalizeSeoContent,
  type ProductDetails,
  type SeoContent,
  seoLimits,
} from '#shared/seo.ts'
import type { TurkishColour } from './dominant-colour.ts'

// Turkish listing copy from what the seller typed and the product's colour, with no model:
// templates chosen so the seller's words never need a suffix (Turkish suffixes follow vowel
// harmony, which a template cannot know for an arbitrary word), and built from the richest
// form down until every limit holds. Nothing is claimed that the seller did not say (no
// prices, discounts or delivery promises).

const locale = 'tr-TR'

/** Trims and collapses spaces; empty becomes undefined. */
function clean(text: string | undefined): string | undefined {
  const value = text?.replace(/\s+/g, ' ').trim()
  return value ? value : undefined
}

/** Upper-cases the first letter with Turkish rules (i → İ). */
export function upperFirst(text: string): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1)
}

/**
 * Title case for listing titles: words typed all in lower case get a capital (Turkish rules:
 * "iğne" → "İğne"); words with capitals of their own ("iPhone", "LC Waikiki") stay as typed.
 */
export function titleCase(text: string): string {
  return text
    .split(' ')
    .map((word) => (word === word.toLocaleLowerCase(locale) ? upperFirst(word) : word))
    .join(' ')
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
      const isCapitalised =
        rest === rest.toLocaleLowerCase(locale) && word.charAt(0) !== word.charAt(0).toLocaleLowerCase(locale)
      return isCapitalised ? word.charAt(0).toLocaleLowerCase(locale) + rest : word
    })
    .join(' ')
}

function includesWord(haystack: string | undefined, needle: string | undefined): boolean {
  if (!haystack || !needle) return false
  return haystack.toLocaleLowerCase(locale).includes(needle.toLocaleLowerCase(locale))
}

const spaced = (...parts: (string | undefined | false)[]) => parts.filter(Boolean).join(' ')

/** The first candidate within `max` characters, or the last one cut at a word boundary. */
function firstFitting(candidates: string[], max: number): string {
  for (const candidate of candidates) if (candidate.length <= max) return candidate
  return clampAtWord(candidates[candidates.length - 1] ?? '', max)
}

/** Turkish SEO copy within every limit of shared/seo.ts, deterministic for the same input. */
export function writeSeoCopy(details: ProductDetails, colour: TurkishColour): SeoContent {
  const name = clean(details.name)
  // A catalogue's category is often a path ("Mutfak > Fincan"): its last step is the product's kind.
  const category = clean(lastPathStep(details.category))
  const brand = clean(details.brand)
  const material = clean(details.material)
  const colourTitle = upperFirst(colour)
  // Say each thing once: "Siyah Tişört" needs no second "siyah", "Nike Air" no second "Nike".
  const hasColour = includesWord(name, colour)
  const hasBrand = includesWord(name, brand)
  // "hakiki deri" adds nothing to "Deri Sırt Çantası": any shared word counts as said.
  const hasMaterial = (material ?? '').split(' ').some((word) => word.length >= 3 && includesWord(name, word))
  const noun = name ?? category
  const nounTitle = noun ? titleCase(noun) : 'Ürün'

  const brandPart = !hasBrand ? brand : undefined
  // With no noun to describe, the colour carries the title: "Kırmızı Renkli Ürün".
  const colourPart = hasColour ? undefined : noun ? colourTitle : `${colourTitle} Renkli`
  const materialPart = material && !hasMaterial && material.length <= 24 ? titleCase(material) : undefined
  const title = firstFitting(
    [
      spaced(brandPart, colourPart, materialPart, nounTitle),
      spaced(brandPart, colourPart, nounTitle),
      spaced(colourPart, nounTitle),
      nounTitle,
    ],
    seoLimits.titleMax,
  )

  const description = buildDescription({
    name,
    category,
    brand: brandPart,
    material,
    colour: hasColour ? undefined : colour,
  })
  const features = buildFeatures({ category, brand, material, colourTitle })
  const keywords = buildKeywords({ name, category, brand, material, colour })

  const content = normalizeSeoContent({ title, description, features, keywords })
  // The templates always produce valid copy; a null here is a bug, not bad input.
  if (!content) throw new Error('offline SEO copy broke its own limits')
  return content
}

type Parts = { name?: string; category?: string; brand?: string; material?: string; colour?: string }

/** "Ev & Yaşam > Mutfak > Fincan" → "Fincan"; a category without a path is returned as it is. */
export function lastPathStep(category: string | undefined): string | undefined {
  if (category === undefined) return undefined
  const steps = category
    .split(/\s*(?:>|›|»|\/|\|)\s*/)
    .map((step) => step.trim())
    .filter(Boolean)
  return steps.at(-1) ?? category
}

function buildDescription({ name, category, brand, material, colour }: Parts): string {
  const signed = brand ? `${brand} imzalı` : undefined
  const materialText = material ? softLower(material) : undefined
  const described = spaced(colour && `${colour} renkli`, 'bu', category ? softLower(category) : 'ürün')
  // From the richest subject to the barest, so a long name still leaves a whole sentence.
  const subjects = name
    ? [spaced(signed, colour, name), spaced(colour, name), name]
    : [spaced(signed, described), described]
  const predicates = [
    materialText ? `${materialText} malzemesiyle şık ve kullanışlı bir tasarım sunar.` : undefined,
    'şık ve kullanışlı tasarımıyla öne çıkar.',
  ].filter((p): p is string => Boolean(p))
  const openings = subjects.flatMap((subject) =>
    predicates.map((predicate) => upperFirst(`${subject}, ${predicate}`)),
  )
  const opening = firstFitting(openings, seoLimits.descriptionMax)

  const extras = [
    name && category ? `${upperFirst(softLower(category))} arayanlar için güzel bir seçenek.` : undefined,
    'Günlük kullanımda ve özel günlerde rahatlıkla tercih edebilirsiniz.',
  ]
  let description = opening
  for (const extra of extras) {
    if (extra && description.length + 1 + extra.length <= seoLimits.descriptionMax) description += ` ${extra}`
  }
  return description
}

function buildFeatures({
  category,
  brand,
  material,
  colourTitle,
}: Parts & { colourTitle: string }): string[] {
  const line = (text: string) => clampAtWord(text, 100)
  const known = [
    `Renk: ${colourTitle}`,
    material && line(`Malzeme: ${upperFirst(material)}`),
    brand && line(`Marka: ${brand}`),
    category && line(`Kategori: ${upperFirst(category)}`),
  ].filter((f): f is string => Boolean(f))
  const general = ['Şık ve modern tasarım', 'Günlük kullanıma uygun', 'Hediye için de güzel bir seçenek']
  return [...known, ...general].slice(0, seoLimits.featuresMax)
}

function buildKeywords({ name, category, brand, material, colour }: Parts & { colour: string }): string[] {
  // A keyword is one search phrase: a keyword field is comma-separated, so a name such as
  // "Fincan Takımı, 2 Kişilik" gives "fincan takımı", never a phrase that splits the field.
  const firstPart = (text: string | undefined) => text?.split(/[,;]/)[0]?.trim() || undefined
  const phrase = (text: string | undefined) => {
    const first = firstPart(text)
    return first ? clampAtWord(softLower(first), 50) : undefined
  }
  const nameCore = firstPart(name)
  const nameWords = nameCore ? nameCore.split(' ') : []
  // In Turkish the head noun comes last: "Deri Sırt Çantası" is a kind of "sırt çantası".
  const head = nameWords.length > 2 ? nameWords.slice(-2).join(' ') : undefined
  const thing = firstPart(category) ?? head ?? nameCore
  const candidates = [
    phrase(name),
    phrase(name && !includesWord(name, colour) ? `${colour} ${name}` : undefined),
    phrase(head),
    firstPart(brand) ? clampAtWord(firstPart(brand) ?? '', 50) : undefined,
    brand && thing ? clampAtWord(`${firstPart(brand) ?? brand} ${softLower(thing)}`, 50) : undefined,
    phrase(category),
    phrase(category ? `${colour} ${category}` : undefined),
    phrase(material),
    phrase(material && thing ? `${material} ${thing}` : undefined),
    phrase(category ? `${category} modelleri` : undefined),
    phrase(thing ? `şık ${thing}` : undefined),
    `${colour} renk`,
    `${colour} ürünler`,
    'şık tasarım',
    'modern tasarım',
    'günlük kullanım',
    'hediye fikirleri',
    'online alışveriş',
    'kaliteli ürün',
    'trend ürünler',
    'özel tasarım',
  ]
  const seen = new Set<string>()
  const keywords: string[] = []
  for (const candidate of candidates) {
    if (!candidate || /[,;]/.test(candidate)) continue
    const key = candidate.toLocaleLowerCase(locale)
    if (seen.has(key)) continue
    seen.add(key)
    keywords.push(candidate)
  }
  return keywords.slice(0, seoLimits.keywords)
}
