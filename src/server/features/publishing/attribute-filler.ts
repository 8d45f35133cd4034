import { foldHeader, type TextField } from '#shared/catalogue/columns.ts'
import type {
  FilledAttribute,
  FillSource,
  MarketplaceAttribute,
  MarketplaceAttributeValue,
} from '#shared/contracts/publishing.ts'
import type { ProductDetails, SeoContent } from '#shared/seo.ts'
import { colourWordsIn } from '#shared/seo-facts.ts'
import { chooseColourValue, knownColourName, type ProductColour } from './product-colour.ts'

// A category's attributes filled from what Vitrin already knows about a product (issue 30): the
// seller's catalogue row, the details they typed, the SEO copy and the photo's colour. The
// seller's facts come first and are never contradicted: a colour the seller named is theirs even
// when the photo looks otherwise, and a stated value the marketplace does not allow is asked
// for, not swapped for a near one. A value is only filled when its source names exactly one
// allowed value; a typed (custom) value only where the attribute takes one.

/** A catalogue row as the filler reads it. */
export type CatalogueFacts = {
  /** The row's mapped fields (columns.ts): `color`, `material` and `brand` are the seller's facts. */
  fields?: Partial<Record<TextField, string>>
  /**
   * Every cell of the row by its column's header: a column named like an attribute ("Yaş Grubu"
   * in a seller's marketplace template) fills that attribute.
   */
  columns?: Readonly<Record<string, string>>
}

/**
 * A vision model choosing among allowed values for the attributes nothing else filled, the
 * photo already bound (attribute-vision.ts). It answers allowed value ids; anything else is
 * dropped. It never throws: a failure answers nothing, and the attributes are asked.
 */
export type VisionChooser = (
  attributes: readonly MarketplaceAttribute[],
) => Promise<readonly { attributeId: string; valueIds: readonly string[] }[]>

export type FillInput = {
  attributes: readonly MarketplaceAttribute[]
  details?: ProductDetails
  copy?: SeoContent | null
  catalogue?: CatalogueFacts
  /** The product's colours from its photo and mask (product-colour.ts); null when unknown. */
  photoColour?: ProductColour | null
  vision?: VisionChooser
}

/** `missing`: the required attributes nothing could fill, to be asked of the seller. */
export type AttributeFill = { filled: FilledAttribute[]; missing: MarketplaceAttribute[] }

const colourNames = new Set(['renk', 'renk kodu', 'ana renk', 'urun rengi', 'color', 'colour'])
const materialNames = new Set(['materyal', 'malzeme', 'kumas', 'material', 'urun materyali'])
const brandNames = new Set(['marka', 'brand'])

type AttributeKind = 'colour' | 'material' | 'brand' | 'other'

/** What an attribute is about, by its Turkish-folded name. */
export function attributeKind(attribute: Pick<MarketplaceAttribute, 'name'>): AttributeKind {
  const name = foldHeader(attribute.name)
  if (colourNames.has(name)) return 'colour'
  if (materialNames.has(name)) return 'material'
  if (brandNames.has(name)) return 'brand'
  return 'other'
}

/**
 * A value as a pattern over folded text: its words whole, the last one also with a Turkish
 * suffix when it is long enough to carry one safely ("pamuklu" is "pamuk", "s" is not "su").
 */
function valuePattern(value: string): RegExp | null {
  const folded = foldHeader(value)
  if (folded === '') return null
  const last = folded.split(' ').at(-1) ?? ''
  const escaped = folded.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(?:^| )${escaped}${last.length >= 4 ? '[a-z]*' : ''}(?= |$)`)
}

/**
 * The allowed values a text names. A value inside a longer one that is also named gives way to
 * it ("kemik porselen" names Kemik Porselen, not Porselen as well). `loose`: values a free text
 * names by chance are left out (a single letter; a bare number, which could count anything).
 */
function valuesNamedIn(
  text: string,
  values: readonly MarketplaceAttributeValue[],
  isLoose = false,
): MarketplaceAttributeValue[] {
  const folded = foldHeader(text)
  if (folded === '') return []
  const exact = values.filter((value) => foldHeader(value.name) === folded)
  if (exact.length > 0) return exact.slice(0, 1)
  const named = values.filter((value) => {
    const name = foldHeader(value.name)
    if (isLoose && (name.length < 2 || !/[a-z]/.test(name))) return false
    return valuePattern(value.name)?.test(folded) ?? false
  })
  return named.filter(
    (value) =>
      !named.some(
        (other) => other !== value && (valuePattern(value.name)?.test(foldHeader(other.name)) ?? false),
      ),
  )
}

const given = (text: string | undefined) => {
  const value = text?.replace(/\s+/g, ' ').trim()
  return value ? value : undefined
}

type Stated = { text: string; source: FillSource }

/** What the seller stated for an attribute: its own catalogue column, else the matching fact. */
function statedFor(attribute: MarketplaceAttribute, input: FillInput): Stated | undefined {
  const name = foldHeader(attribute.name)
  for (const [header, cell] of Object.entries(input.catalogue?.columns ?? {})) {
    const text = given(cell)
    if (text && foldHeader(header) === name) return { text, source: 'catalogue' }
  }
  const kind = attributeKind(attribute)
  if (kind === 'other') return undefined
  const field = kind === 'colour' ? 'color' : kind
  const fromDetails = given(input.details?.[field])
  if (fromDetails) return { text: fromDetails, source: 'details' }
  const fromCatalogue = given(input.catalogue?.fields?.[field])
  if (fromCatalogue) return { text: fromCatalogue, source: 'catalogue' }
  return undefined
}

const fill = (
  attribute: MarketplaceAttribute,
  values: readonly MarketplaceAttributeValue[],
  source: FillSource,
): FilledAttribute[] =>
  (attribute.isMultiple ? values : values.slice(0, 1)).map((value) => ({
    attributeId: attribute.id,
    valueId: value.id,
    value: value.name,
    source,
  }))

const custom = (attribute: MarketplaceAttribute, text: string, source: FillSource): FilledAttribute[] => [
  { attributeId: attribute.id, valueId: null, value: text, source },
]

const isManyColourValue = (value: MarketplaceAttributeValue) => knownColourName(value.name)?.kind === 'many'

/**
 * A stated value: the allowed value(s) it names; a colour naming several allowed colours is
 * "Çok Renkli" where the attribute takes one value, or the photo's pick among them; typed as it
 * is where the attribute takes custom values. Empty when the statement cannot be kept: it is
 * asked, never replaced by a guess.
 */
function fillStated(attribute: MarketplaceAttribute, stated: Stated, input: FillInput): FilledAttribute[] {
  const isColour = attributeKind(attribute) === 'colour'
  let named = valuesNamedIn(stated.text, attribute.values)
  if (named.length === 0 && isColour) {
    // Another name for the same colour ("kahve" for Kahverengi, "navy" for Lacivert).
    const colour = knownColourName(stated.text)
    named = colour ? attribute.values.filter((value) => knownColourName(value.name) === colour) : []
  }
  if (named.length === 1 || (named.length > 1 && attribute.isMultiple))
    return fill(attribute, named, stated.source)
  if (named.length > 1 && isColour) {
    const many = attribute.values.find(isManyColourValue)
    if (many) return fill(attribute, [many], stated.source)
    const photo = input.photoColour && chooseColourValue(input.photoColour, attribute.values, named)
    return photo ? fill(attribute, [photo.value], 'photo') : []
  }
  if (named.length === 0 && attribute.allowsCustom) return custom(attribute, stated.text, stated.source)
  return []
}

/** The seller's own texts (not the copy, which may have taken its colour from the photo). */
function sellersTexts(input: FillInput): { text: string; source: FillSource }[] {
  const details = input.details ?? {}
  const fields = input.catalogue?.fields ?? {}
  return [
    ...[details.name, details.description, ...(details.features ?? [])].map((text) => ({
      text: text ?? '',
      source: 'details' as const,
    })),
    ...[fields.name, fields.description].map((text) => ({ text: text ?? '', source: 'catalogue' as const })),
  ].filter((entry) => entry.text.trim() !== '')
}

/**
 * A colour the seller did not state: the colours their own words name ("siyah deri çanta")
 * bound the photo's choice, so the photo never contradicts them; one named colour stands alone
 * without a photo. Otherwise the photo's colour among all the allowed ones.
 */
function fillUnstatedColour(attribute: MarketplaceAttribute, input: FillInput): FilledAttribute[] {
  const named = new Map<MarketplaceAttributeValue, FillSource>()
  for (const { text, source } of sellersTexts(input)) {
    for (const word of colourWordsIn(text)) {
      const colour = knownColourName(word)
      for (const value of attribute.values) {
        const same =
          foldHeader(value.name) === foldHeader(word) ||
          (colour !== undefined && knownColourName(value.name) === colour)
        if (same && !named.has(value)) named.set(value, source)
      }
    }
  }
  const among = [...named.keys()]
  if (input.photoColour) {
    const choice = chooseColourValue(
      input.photoColour,
      attribute.values,
      among.length > 0 ? among : undefined,
    )
    if (choice) return fill(attribute, [choice.value], 'photo')
  }
  const [only] = among
  if (only && among.length === 1) return fill(attribute, [only], named.get(only) ?? 'details')
  return []
}

/** Exactly one allowed value named across the texts, from the first text that names it. */
function fillFromTexts(attribute: MarketplaceAttribute, input: FillInput): FilledAttribute[] {
  const copy = input.copy
  const texts = [
    ...sellersTexts(input),
    ...(copy ? [copy.title, copy.description, ...copy.features] : []).map((text) => ({
      text,
      source: 'copy' as const,
    })),
  ]
  const named = new Map<MarketplaceAttributeValue, FillSource>()
  for (const { text, source } of texts) {
    for (const value of valuesNamedIn(text, attribute.values, true))
      if (!named.has(value)) named.set(value, source)
  }
  if (named.size !== 1) return []
  const [[value, source]] = [...named] as [[MarketplaceAttributeValue, FillSource]]
  return fill(attribute, [value], source)
}

function fillOne(attribute: MarketplaceAttribute, input: FillInput): FilledAttribute[] {
  const stated = statedFor(attribute, input)
  // A stated value is the seller's: kept, or asked for; nothing else overrides it.
  if (stated) return fillStated(attribute, stated, input)
  switch (attributeKind(attribute)) {
    case 'colour':
      return fillUnstatedColour(attribute, input)
    case 'brand':
      return []
    default:
      return fillFromTexts(attribute, input)
  }
}

/** Fills the vision model's answers in, keeping only allowed values (one where one is taken). */
async function fillByVision(
  chooser: VisionChooser,
  open: readonly MarketplaceAttribute[],
): Promise<FilledAttribute[]> {
  const answers = await chooser(open)
  return open.flatMap((attribute) => {
    const answer = answers.find((entry) => entry.attributeId === attribute.id)
    const chosen = attribute.values.filter((value) => answer?.valueIds.includes(value.id))
    return fill(attribute, chosen, 'vision')
  })
}

/**
 * The attributes of a category filled from what is known of a product, each value with its
 * source; the required ones nothing could fill are `missing`. A vision chooser, when given, is
 * asked only about the attributes with allowed values that nothing else filled.
 */
export async function fillAttributes(input: FillInput): Promise<AttributeFill> {
  const filled = input.attributes.flatMap((attribute) => fillOne(attribute, input))
  const isFilled = (attribute: MarketplaceAttribute) =>
    filled.some((value) => value.attributeId === attribute.id)
  if (input.vision) {
    const open = input.attributes.filter((attribute) => !isFilled(attribute) && attribute.values.length > 0)
    if (open.length > 0) filled.push(...(await fillByVision(input.vision, open)))
  }
  const missing = input.attributes.filter((attribute) => attribute.isRequired && !isFilled(attribute))
  return { filled, missing }
}

/** What to ask the seller about a batch: once for the batch, and row by row for the rest. */
export type BatchQuestions = {
  /** Required attributes lacked by more than one row (or by every row): one answer serves them all. */
  forBatch: MarketplaceAttribute[]
  /** The other missing required attributes of each row (rows by their index; none when empty). */
  perRow: { row: number; attributes: MarketplaceAttribute[] }[]
}

/**
 * The required attributes a batch still lacks, grouped so the seller answers each once. An
 * attribute lacked by more than one row is asked for the batch, its answer used for every row
 * lacking it (rows that have their own value keep it): asking only what every row lacks would
 * make a seller type the same answer into 49 rows because one row had it. An attribute only one
 * row lacks is that row's, as is any attribute of a one-row batch's only row — except that the
 * only row of a batch is every row, so its questions are the batch's too. An attribute is the
 * same one in two rows when its id is.
 */
export function askOnce(rows: readonly AttributeFill[]): BatchQuestions {
  const required = rows.map((row) => row.missing.filter((attribute) => attribute.isRequired))
  const lacking = new Map<string, { attribute: MarketplaceAttribute; rows: number }>()
  for (const missing of required) {
    for (const attribute of missing) {
      const seen = lacking.get(attribute.id)
      lacking.set(attribute.id, { attribute: seen?.attribute ?? attribute, rows: (seen?.rows ?? 0) + 1 })
    }
  }
  const forBatch = [...lacking.values()]
    .filter((entry) => entry.rows > 1 || entry.rows === rows.length)
    .map((entry) => entry.attribute)
  const perRow = required.flatMap((missing, row) => {
    const attributes = missing.filter((attribute) => !forBatch.some((other) => other.id === attribute.id))
    return attributes.length > 0 ? [{ row, attributes }] : []
  })
  return { forBatch, perRow }
}
