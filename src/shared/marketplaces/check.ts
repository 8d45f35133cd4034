import type { TKey } from '#shared/i18n/messages.ts'
import type { CopyFacts, ImageFacts, VideoFacts } from './facts.ts'
import {
  capitalisedTerms,
  codePointLength,
  containsPhrase,
  escapeRegExp,
  foldText,
  stopWords,
  wordsOf,
} from './text.ts'
import {
  type CopyRules,
  type ImageRules,
  type MarketplaceProfile,
  mebibyte,
  megabyte,
  type Ratio,
  type RuleSource,
  type Sourced,
  type VitrinChoice,
} from './types.ts'

/**
 * The pre-publish checker: pure functions from measured facts (facts.ts) and a profile's rules
 * to one result per rule. A rule the marketplace does not publish comes back `not-published`,
 * never judged against an invented value.
 *
 * Severity follows the source: a rule read from the marketplace's own text (`official`,
 * `official-copy`) fails; one from code or a third party (`code`, `3p`) and Vitrin's own advice
 * only warn, because the marketplace itself may not enforce it.
 */

export type CheckStatus = 'pass' | 'warn' | 'fail' | 'not-published' | 'check-by-eye'

/** What an export can do about a result; labels are `marketplaces.fixes.<action>`. */
export type FixAction =
  | 'resize'
  | 'white-background'
  | 'fill-frame'
  | 'add-margin'
  | 'compress'
  | 'convert-jpeg'
  | 'convert-srgb'
  | 'use-original-photo'
  | 'shorten-title'
  | 'shorten-description'
  | 'remove-characters'
  | 'fix-caps'
  | 'remove-promotional'
  | 'add-brand'
  | 'trim-tags'
  | 'lengthen-video'
  | 'shorten-video'
  | 'convert-video'
  | 'keep-product'

export const imageRuleIds = [
  'image.size',
  'image.ratio',
  'image.fileSize',
  'image.format',
  'image.colourSpace',
  'image.background',
  'image.fill',
  'image.cutOff',
  'image.realPhoto',
  'image.text',
  'image.count',
  'image.fidelity',
] as const
export const videoRuleIds = [
  'video.duration',
  'video.fileSize',
  'video.format',
  'video.resolution',
  'video.ratio',
] as const
export const copyRuleIds = [
  'copy.titleLength',
  'copy.descriptionLength',
  'copy.titleCharacters',
  'copy.titleOnceOnly',
  'copy.allCaps',
  'copy.promotional',
  'copy.repeatedWords',
  'copy.brand',
  'copy.tags',
  'copy.tagCharacters',
] as const

/** Each id is also the label key `marketplaces.rules.<id>`. */
export type RuleId =
  | (typeof imageRuleIds)[number]
  | (typeof videoRuleIds)[number]
  | (typeof copyRuleIds)[number]

type ReasonKey = Extract<TKey, `marketplaces.reasons.${string}`>
type ReasonCode = ReasonKey extends `marketplaces.reasons.${infer Code}` ? Code : never

export type CheckResult = {
  ruleId: RuleId
  status: CheckStatus
  /** A one-line reason: an i18n key and its placeholder values. */
  reason: { key: ReasonKey; values: Record<string, string | number> }
  fix?: FixAction
  /** Where the rule comes from; null when it is not published. */
  source: RuleSource | VitrinChoice | null
}

/** Ratios within 1 % of each other count as the same (1199×1800 is still 2:3; its size is not). */
export const ratioTolerance = 0.01
/**
 * Pure white share of the border band: at least `pass` passes; at least `warn` warns (a few
 * stray pixels: shadows at the frame, edge artefacts); below it fails.
 */
export const backgroundThresholds = { pass: 0.98, warn: 0.9 } as const
/** A fill share this close under the minimum warns instead of failing: a mask's edge is a few pixels off. */
export const fillTolerance = 0.03
/** A video this close above a minimum (or below a maximum) warns: players and marketplaces round lengths. */
export const durationMargin = 0.2

function severity(source: RuleSource | VitrinChoice): 'fail' | 'warn' {
  if ('vitrin' in source) return 'warn'
  return source.confidence === 'official' || source.confidence === 'official-copy' ? 'fail' : 'warn'
}

function result(
  ruleId: RuleId,
  status: CheckStatus,
  code: ReasonCode,
  values: Record<string, string | number>,
  source: RuleSource | VitrinChoice | null,
  fix?: FixAction,
): CheckResult {
  const reason = { key: `marketplaces.reasons.${code}` as ReasonKey, values }
  return fix === undefined ? { ruleId, status, reason, source } : { ruleId, status, reason, fix, source }
}

function notPublished(ruleId: RuleId): CheckResult {
  return result(ruleId, 'not-published', 'notPublished', {}, null)
}

/** Pass, or the rule's severity with a fix. */
function judged(
  ruleId: RuleId,
  ok: boolean,
  rule: { source: RuleSource | VitrinChoice },
  codes: { pass: ReasonCode; fail: ReasonCode },
  values: Record<string, string | number>,
  fix?: FixAction,
): CheckResult {
  return ok
    ? result(ruleId, 'pass', codes.pass, values, rule.source)
    : result(ruleId, severity(rule.source), codes.fail, values, rule.source, fix)
}

function ratioText(ratio: Ratio): string {
  // 191:100 reads better as 1.91:1.
  const decimal = ratio.height === 100 && ratio.width > 100 && ratio.width % 100 !== 0
  return decimal ? `${ratio.width / 100}:1` : `${ratio.width}:${ratio.height}`
}

/** Pixel counts as written, without a thousands separator ("1200×1800", not "1,200×1,800"). */
function px(value: number): string {
  return String(value)
}

function sameRatio(width: number, height: number, ratio: Ratio): boolean {
  return Math.abs(width / height / (ratio.width / ratio.height) - 1) <= ratioTolerance
}

/**
 * Megabytes in the unit the limit was given in (n11 counts KB of 1024 bytes): to one decimal,
 * and to two below 1 MB, never 0 for a file that has bytes (a small JPEG is 0.05 MB, not "0 MB").
 */
export function inMegabytes(bytes: number, limit: number): number {
  const unit = limit % mebibyte === 0 ? mebibyte : megabyte
  const value = bytes / unit
  if (value >= 1 || bytes === 0) return Math.round(value * 10) / 10
  return Math.max(0.01, Math.round(value * 100) / 100)
}

function percent(share: number): number {
  return Math.round(share * 100)
}

function listText(items: readonly string[]): string {
  return items.join(', ')
}

const formatNames: Record<string, string> = {
  jpeg: 'JPEG',
  png: 'PNG',
  webp: 'WebP',
  gif: 'GIF',
  tiff: 'TIFF',
  heic: 'HEIC',
}
const colourSpaceNames: Record<string, string> = { srgb: 'sRGB', cmyk: 'CMYK' }

function fileSizeResult(ruleId: RuleId, bytes: number, rule: Sourced<number> | undefined): CheckResult {
  if (!rule) return notPublished(ruleId)
  const values = { size: inMegabytes(bytes, rule.value), max: inMegabytes(rule.value, rule.value) }
  return judged(
    ruleId,
    bytes <= rule.value,
    rule,
    { pass: 'fileSizeFits', fail: 'fileTooLarge' },
    values,
    'compress',
  )
}

/** The rules for one image slot: every image's rules with the slot's own on top. */
export function imageRulesFor(profile: MarketplaceProfile, slot: 'main' | 'additional'): ImageRules {
  return { ...profile.image.all, ...(profile.image[slot] ?? {}) }
}

function checkSize(rules: ImageRules, facts: ImageFacts): CheckResult {
  const { width, height } = facts
  const exact = rules.exactSize
  if (exact) {
    const ok = width === exact.value.width && height === exact.value.height
    const values = {
      width: px(width),
      height: px(height),
      requiredWidth: px(exact.value.width),
      requiredHeight: px(exact.value.height),
    }
    return judged('image.size', ok, exact, { pass: 'sizeExact', fail: 'sizeNotExact' }, values, 'resize')
  }
  const { minLongSide: min, recommendedMinLongSide: zoom, maxSide: max } = rules
  if (!min && !zoom && !max) return notPublished('image.size')
  const longSide = Math.max(width, height)
  if (min && longSide < min.value) {
    return result(
      'image.size',
      severity(min.source),
      'sizeTooSmall',
      { side: px(longSide), min: px(min.value) },
      min.source,
      'resize',
    )
  }
  if (max && Math.max(width, height) > max.value) {
    return result(
      'image.size',
      severity(max.source),
      'sizeTooLarge',
      { side: px(longSide), max: px(max.value) },
      max.source,
      'resize',
    )
  }
  if (zoom && longSide < zoom.value) {
    // Below the size the marketplace works best from, but accepted: a warning whatever the source.
    return result(
      'image.size',
      'warn',
      'sizeBelowZoom',
      { side: px(longSide), min: px(zoom.value) },
      zoom.source,
      'resize',
    )
  }
  // A pass names the limits it was held to: the zoom size (which is above the floor) and the ceiling.
  const floor = zoom ?? min
  const source = (floor ?? max)?.source ?? null
  const values = { width: px(width), height: px(height), side: px(longSide) }
  if (floor && max) {
    const limits = { ...values, min: px(floor.value), max: px(max.value) }
    return result('image.size', 'pass', 'sizeFitsRange', limits, source)
  }
  if (floor) return result('image.size', 'pass', 'sizeFitsMin', { ...values, min: px(floor.value) }, source)
  return result('image.size', 'pass', 'sizeFitsMax', { ...values, max: px(max?.value ?? longSide) }, source)
}

function checkRatio(rules: ImageRules, facts: ImageFacts): CheckResult {
  const { width, height } = facts
  const exact = rules.exactSize
  const ratios: Sourced<Ratio[]> | undefined = exact
    ? { value: [{ width: exact.value.width, height: exact.value.height }], source: exact.source }
    : rules.ratios
  if (ratios) {
    const expected = ratios.value.map((ratio) => ratioText(reduce(ratio))).join(' / ')
    const ok = ratios.value.some((ratio) => sameRatio(width, height, ratio))
    return judged(
      'image.ratio',
      ok,
      ratios,
      { pass: 'ratioFits', fail: 'ratioWrong' },
      { width: px(width), height: px(height), expected },
      'resize',
    )
  }
  const range = rules.ratioRange
  if (!range) return notPublished('image.ratio')
  const actual = width / height
  const min = range.value.min.width / range.value.min.height
  const max = range.value.max.width / range.value.max.height
  const ok = actual >= min * (1 - ratioTolerance) && actual <= max * (1 + ratioTolerance)
  const values = {
    width: px(width),
    height: px(height),
    min: ratioText(range.value.min),
    max: ratioText(range.value.max),
  }
  return judged('image.ratio', ok, range, { pass: 'ratioInRange', fail: 'ratioOutOfRange' }, values, 'resize')
}

function reduce(ratio: Ratio): Ratio {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b))
  const d = gcd(ratio.width, ratio.height)
  return { width: ratio.width / d, height: ratio.height / d }
}

function checkFormat(rules: ImageRules, facts: ImageFacts): CheckResult {
  const rule = rules.formats
  if (!rule) return notPublished('image.format')
  const values = {
    format: formatNames[facts.format] ?? '?',
    allowed: listText(rule.value.map((format) => formatNames[format] ?? format)),
  }
  const fix = rule.value.includes('jpeg') ? 'convert-jpeg' : undefined
  return judged(
    'image.format',
    rule.value.includes(facts.format),
    rule,
    { pass: 'formatFits', fail: 'formatWrong' },
    values,
    fix,
  )
}

function checkColourSpace(rules: ImageRules, facts: ImageFacts): CheckResult {
  const rule = rules.colourSpaces
  if (!rule) return notPublished('image.colourSpace')
  const allowed = listText(rule.value.map((space) => colourSpaceNames[space] ?? space))
  const name = colourSpaceNames[facts.colourSpace]
  const ok = rule.value.includes(facts.colourSpace)
  const fix = rule.value.includes('srgb') ? 'convert-srgb' : undefined
  if (name === undefined && !ok) {
    return result(
      'image.colourSpace',
      severity(rule.source),
      'colourSpaceOther',
      { allowed },
      rule.source,
      fix,
    )
  }
  const values = { space: name ?? '?', allowed }
  return judged(
    'image.colourSpace',
    ok,
    rule,
    { pass: 'colourSpaceFits', fail: 'colourSpaceWrong' },
    values,
    fix,
  )
}

function checkBackground(rules: ImageRules, facts: ImageFacts): CheckResult {
  const rule = rules.pureWhiteBackground
  if (!rule) return notPublished('image.background')
  const pure = facts.borderPureWhiteShare
  const values = { share: percent(pure), min: percent(backgroundThresholds.pass) }
  if (pure >= backgroundThresholds.pass)
    return result('image.background', 'pass', 'backgroundWhite', values, rule.source)
  if (pure >= backgroundThresholds.warn) {
    return result(
      'image.background',
      'warn',
      'backgroundNearlyWhite',
      values,
      rule.source,
      'white-background',
    )
  }
  // Looks white to the eye (each channel ≥ 250) but is not RGB 255: the case sellers miss.
  const code =
    facts.borderWhiteShare >= backgroundThresholds.pass ? 'backgroundOffWhite' : 'backgroundNotWhite'
  return result('image.background', severity(rule.source), code, values, rule.source, 'white-background')
}

function checkFill(rules: ImageRules, facts: ImageFacts): CheckResult {
  const rule = rules.minFillShare
  if (!rule) return notPublished('image.fill')
  if (!facts.product) return result('image.fill', 'check-by-eye', 'productUnknown', {}, rule.source)
  const share = facts.product.fillShare
  const values = { share: percent(share), min: percent(rule.value) }
  if (share >= rule.value) return result('image.fill', 'pass', 'fillFits', values, rule.source)
  const status = share >= rule.value - fillTolerance ? 'warn' : severity(rule.source)
  return result('image.fill', status, 'fillTooSmall', values, rule.source, 'fill-frame')
}

function checkCutOff(rules: ImageRules, facts: ImageFacts): CheckResult {
  const rule = rules.notCutOff
  if (!rule) return notPublished('image.cutOff')
  if (!facts.product) return result('image.cutOff', 'check-by-eye', 'productUnknown', {}, rule.source)
  const ok = !facts.product.touchesEdge
  return judged('image.cutOff', ok, rule, { pass: 'productInside', fail: 'productCutOff' }, {}, 'add-margin')
}

function checkRealPhoto(rules: ImageRules, facts: ImageFacts): CheckResult {
  const rule = rules.realPhoto
  if (!rule) return notPublished('image.realPhoto')
  if (!facts.isGenerated) return result('image.realPhoto', 'pass', 'realPhoto', {}, rule.source)
  // The seller's own photo of the product, measured as kept (product fidelity), cut out onto pure
  // white: what every seller does to a real photo for a main image, not a scene that was made.
  const isOwnProductOnWhite =
    facts.productFidelity?.changed === false && facts.borderPureWhiteShare >= backgroundThresholds.pass
  if (isOwnProductOnWhite) {
    return result('image.realPhoto', 'pass', 'ownProductOnWhite', {}, rule.source)
  }
  if (rule.value === 'required-unless-personalised') {
    return result(
      'image.realPhoto',
      'warn',
      'generatedScenePersonalised',
      {},
      rule.source,
      'use-original-photo',
    )
  }
  return result(
    'image.realPhoto',
    severity(rule.source),
    'generatedScene',
    {},
    rule.source,
    'use-original-photo',
  )
}

function checkText(rules: ImageRules, facts: ImageFacts): CheckResult {
  const rule = rules.noText
  if (!rule) return notPublished('image.text')
  if (facts.text === null) return result('image.text', 'check-by-eye', 'textUnread', {}, rule.source)
  if (facts.text.length === 0) return result('image.text', 'pass', 'noTextFound', {}, rule.source)
  // OCR cannot tell a watermark from the product's own printed label, which the rules allow.
  const words = listText(facts.text.slice(0, 5))
  const code = rule.value === 'off-product' ? 'textFound' : 'textFoundWatermark'
  return result('image.text', 'warn', code, { words }, rule.source)
}

/**
 * "The product in an AI edit is still the seller's": no marketplace publishes it as a rule, but a
 * listing must show the item that is sold, and an edit can change its label, logo, shape or
 * colour. Vitrin's own check, so it warns at most.
 */
export const productFidelityAdvice: VitrinChoice = {
  vitrin: true,
  note: "Vitrin check: the result's product compared with the seller's photo; no marketplace publishes it as a rule",
}

/**
 * The product-fidelity check (facts.productFidelity): absent (null) where it does not apply, that
 * is on the seller's own photo, or when it was not measured (no original photo to compare with).
 * The keep-product option ("Keep my product exactly") lays the original product back over the
 * scene, so it is the fix.
 */
function checkFidelity(facts: ImageFacts): CheckResult | null {
  const fidelity = facts.productFidelity
  if (!facts.isGenerated || fidelity === undefined) return null
  const source = productFidelityAdvice
  if (fidelity === null) return result('image.fidelity', 'check-by-eye', 'fidelityUnknown', {}, source)
  if (!fidelity.changed) return result('image.fidelity', 'pass', 'productKept', {}, source)
  return result('image.fidelity', 'warn', 'productChanged', {}, source, 'keep-product')
}

/**
 * Checks one image for one slot of a listing (`main`: the first image). Always answers for size,
 * ratio, file size, format, colour space, background, fill, cut-off, real photo and text; and for
 * product fidelity when the image is an edit measured against the seller's photo.
 */
export function checkImage(
  profile: MarketplaceProfile,
  facts: ImageFacts,
  slot: 'main' | 'additional',
): CheckResult[] {
  const rules = imageRulesFor(profile, slot)
  const fidelity = checkFidelity(facts)
  const results = [
    checkSize(rules, facts),
    checkRatio(rules, facts),
    fileSizeResult('image.fileSize', facts.bytes, rules.maxBytes),
    checkFormat(rules, facts),
    checkColourSpace(rules, facts),
    checkBackground(rules, facts),
    checkFill(rules, facts),
    checkCutOff(rules, facts),
    checkRealPhoto(rules, facts),
    checkText(rules, facts),
  ]
  return fidelity ? [...results, fidelity] : results
}

/** Checks how many images a listing carries. */
export function checkImageCount(profile: MarketplaceProfile, count: number): CheckResult {
  const rule = profile.image.all.maxCount
  if (!rule) return notPublished('image.count')
  const values = { count, max: rule.value }
  return judged(
    'image.count',
    count <= rule.value,
    rule,
    { pass: 'countFits', fail: 'tooManyImages' },
    values,
  )
}

function seconds(value: number): number {
  return Math.round(value * 10) / 10
}

function checkDuration(profile: MarketplaceProfile, facts: VideoFacts): CheckResult {
  const { minSeconds: min, maxSeconds: max } = profile.video
  if (!min && !max) return notPublished('video.duration')
  const length = facts.durationSeconds
  const values = { seconds: seconds(length), min: min?.value ?? 0, max: max?.value ?? 0 }
  if (min && length < min.value) {
    return result(
      'video.duration',
      severity(min.source),
      'durationTooShort',
      values,
      min.source,
      'lengthen-video',
    )
  }
  if (max && length > max.value) {
    return result(
      'video.duration',
      severity(max.source),
      'durationTooLong',
      values,
      max.source,
      'shorten-video',
    )
  }
  if (min && length < min.value + durationMargin) {
    return result('video.duration', 'warn', 'durationAtMinimum', values, min.source, 'lengthen-video')
  }
  if (max && length > max.value - durationMargin) {
    return result('video.duration', 'warn', 'durationAtMaximum', values, max.source, 'shorten-video')
  }
  const source = (min ?? max)?.source ?? null
  const code = min && max ? 'durationFits' : min ? 'durationFitsMin' : 'durationFitsMax'
  return result('video.duration', 'pass', code, values, source)
}

function checkVideoFormat(profile: MarketplaceProfile, facts: VideoFacts): CheckResult {
  const rule = profile.video.formats
  if (!rule) return notPublished('video.format')
  const format = facts.format.toLowerCase()
  const values = { format: format.toUpperCase(), allowed: listText(rule.value.map((f) => f.toUpperCase())) }
  const ok = rule.value.includes(format)
  return judged(
    'video.format',
    ok,
    rule,
    { pass: 'formatFits', fail: 'formatWrong' },
    values,
    'convert-video',
  )
}

function checkResolution(profile: MarketplaceProfile, facts: VideoFacts): CheckResult {
  const { minResolution: min, maxResolution: max } = profile.video
  if (!min && !max) return notPublished('video.resolution')
  const long = Math.max(facts.width, facts.height)
  const short = Math.min(facts.width, facts.height)
  const values = { width: px(facts.width), height: px(facts.height) }
  if (
    min &&
    (long < Math.max(min.value.width, min.value.height) ||
      short < Math.min(min.value.width, min.value.height))
  ) {
    const needed = { ...values, minWidth: px(min.value.width), minHeight: px(min.value.height) }
    return result('video.resolution', severity(min.source), 'resolutionTooLow', needed, min.source)
  }
  if (
    max &&
    (long > Math.max(max.value.width, max.value.height) ||
      short > Math.min(max.value.width, max.value.height))
  ) {
    const allowed = { ...values, maxWidth: px(max.value.width), maxHeight: px(max.value.height) }
    return result(
      'video.resolution',
      severity(max.source),
      'resolutionTooHigh',
      allowed,
      max.source,
      'convert-video',
    )
  }
  const limits = {
    ...values,
    ...(min ? { minWidth: px(min.value.width), minHeight: px(min.value.height) } : {}),
    ...(max ? { maxWidth: px(max.value.width), maxHeight: px(max.value.height) } : {}),
  }
  const code = min && max ? 'resolutionFits' : min ? 'resolutionFitsMin' : 'resolutionFitsMax'
  return result('video.resolution', 'pass', code, limits, (min ?? max)?.source ?? null)
}

function checkVideoRatio(profile: MarketplaceProfile, facts: VideoFacts): CheckResult {
  const rule = profile.video.ratios
  if (!rule) return notPublished('video.ratio')
  const expected = rule.value.map((ratio) => ratioText(ratio)).join(' / ')
  const ok = rule.value.some((ratio) => sameRatio(facts.width, facts.height, ratio))
  const values = { width: px(facts.width), height: px(facts.height), expected }
  return judged('video.ratio', ok, rule, { pass: 'ratioFits', fail: 'ratioWrong' }, values)
}

/** Checks a video: its real duration (with a margin over a minimum), file size, format, resolution and ratio. */
export function checkVideo(profile: MarketplaceProfile, facts: VideoFacts): CheckResult[] {
  return [
    checkDuration(profile, facts),
    fileSizeResult('video.fileSize', facts.bytes, profile.video.maxBytes),
    checkVideoFormat(profile, facts),
    checkResolution(profile, facts),
    checkVideoRatio(profile, facts),
  ]
}

function checkTitleLength(rules: CopyRules, title: string): CheckResult {
  const { titleMin: min, titleMax: max, titleAdvisedMax: advised } = rules
  if (!min && !max && !advised) return notPublished('copy.titleLength')
  const length = codePointLength(title.trim())
  if (max && length > max.value) {
    return result(
      'copy.titleLength',
      severity(max.source),
      'titleTooLong',
      { length, max: max.value },
      max.source,
      'shorten-title',
    )
  }
  if (min && length < min.value) {
    return result(
      'copy.titleLength',
      severity(min.source),
      'titleTooShort',
      { length, min: min.value },
      min.source,
    )
  }
  if (advised && length > advised.value) {
    return result(
      'copy.titleLength',
      'warn',
      'titleLongerThanAdvised',
      { length, max: advised.value },
      advised.source,
      'shorten-title',
    )
  }
  // A pass names its limits ("Title: 53 of 200 characters"), so the seller learns the rule.
  const source = (max ?? min ?? advised)?.source ?? null
  const limit = max ?? advised
  if (limit && min) {
    return result(
      'copy.titleLength',
      'pass',
      'titleLengthInRange',
      { length, min: min.value, max: limit.value },
      source,
    )
  }
  if (max) return result('copy.titleLength', 'pass', 'titleLengthFits', { length, max: max.value }, source)
  if (advised)
    return result('copy.titleLength', 'pass', 'titleWithinAdvised', { length, max: advised.value }, source)
  return result('copy.titleLength', 'pass', 'titleLengthAtLeast', { length, min: min?.value ?? 0 }, source)
}

function checkDescriptionLength(rules: CopyRules, description: string): CheckResult {
  const { descriptionRequired: required, descriptionMax: max } = rules
  if (!required && !max) return notPublished('copy.descriptionLength')
  const length = codePointLength(description.trim())
  if (required && length === 0) {
    return result(
      'copy.descriptionLength',
      severity(required.source),
      'descriptionMissing',
      {},
      required.source,
    )
  }
  if (max && length > max.value) {
    const values = { length, max: max.value }
    return result(
      'copy.descriptionLength',
      severity(max.source),
      'descriptionTooLong',
      values,
      max.source,
      'shorten-description',
    )
  }
  if (max)
    return result('copy.descriptionLength', 'pass', 'descriptionFits', { length, max: max.value }, max.source)
  return result('copy.descriptionLength', 'pass', 'descriptionPresent', { length }, required?.source ?? null)
}

function distinct(items: Iterable<string>): string[] {
  return [...new Set(items)]
}

function checkTitleCharacters(rules: CopyRules, title: string): CheckResult {
  const { titleForbiddenChars: forbidden, titleAllowedChars: allowed } = rules
  if (!forbidden && !allowed) return notPublished('copy.titleCharacters')
  const chars = [...title]
  if (forbidden) {
    const found = distinct(chars.filter((char) => forbidden.value.includes(char)))
    if (found.length > 0) {
      const values = { chars: found.join(' ') }
      return result(
        'copy.titleCharacters',
        severity(forbidden.source),
        'charactersForbidden',
        values,
        forbidden.source,
        'remove-characters',
      )
    }
  }
  if (allowed) {
    const pattern = new RegExp(`^[${allowed.value}]$`, 'u')
    const found = distinct(chars.filter((char) => !pattern.test(char)))
    if (found.length > 0) {
      const values = { chars: found.join(' ') }
      return result(
        'copy.titleCharacters',
        severity(allowed.source),
        'charactersNotAllowed',
        values,
        allowed.source,
        'remove-characters',
      )
    }
  }
  if (forbidden) {
    const values = { chars: forbidden.value.join(' ') }
    return result('copy.titleCharacters', 'pass', 'charactersFit', values, forbidden.source)
  }
  return result('copy.titleCharacters', 'pass', 'charactersInSet', {}, allowed?.source ?? null)
}

function checkOnceOnly(rule: Sourced<string[]>, title: string): CheckResult {
  const chars = [...title]
  const repeated = rule.value.filter((char) => chars.filter((c) => c === char).length > 1)
  const values = { chars: (repeated.length > 0 ? repeated : rule.value).join(' ') }
  const codes = { pass: 'onceOnlyFits', fail: 'onceOnlyRepeated' } as const
  return judged('copy.titleOnceOnly', repeated.length === 0, rule, codes, values, 'remove-characters')
}

/** Words of four letters or more written in capitals only; numbers, known acronyms and the brand's own words aside. */
export function findCapsWords(title: string, brand: string | null): string[] {
  const brandWords = new Set(wordsOf(brand ?? '').map(foldText))
  return distinct(
    wordsOf(title).filter((word) => {
      if (/\p{N}/u.test(word)) return false
      const letters = word.match(/\p{L}/gu) ?? []
      if (letters.length <= 3) return false
      const folded = foldText(word)
      if (capitalisedTerms.has(folded) || brandWords.has(folded)) return false
      return word === word.toLocaleUpperCase('tr-TR') && word !== word.toLocaleLowerCase('tr-TR')
    }),
  )
}

function checkAllCaps(rules: CopyRules, copy: CopyFacts): CheckResult {
  const rule = rules.noAllCaps
  if (!rule) return notPublished('copy.allCaps')
  const words = findCapsWords(copy.title, copy.brand)
  if (words.length === 0) return result('copy.allCaps', 'pass', 'noCapsWords', {}, rule.source)
  // An acronym we do not know looks the same as shouting, so this only warns.
  return result('copy.allCaps', 'warn', 'capsWords', { words: listText(words) }, rule.source, 'fix-caps')
}

function checkPromotional(rules: CopyRules, title: string): CheckResult {
  const rule = rules.promotionalPhrases
  if (!rule) return notPublished('copy.promotional')
  const found = rule.value.filter((phrase) => containsPhrase(title, phrase.text, phrase.lang === 'en'))
  const values = { phrases: listText(found.map((phrase) => `“${phrase.text}”`)) }
  const codes = { pass: 'noPromotional', fail: 'promotional' } as const
  return judged('copy.promotional', found.length === 0, rule, codes, values, 'remove-promotional')
}

/** Words (stop words, numbers and single letters aside) used more than `max` times, compared folded. */
export function findRepeatedWords(title: string, max: number): string[] {
  const counts = new Map<string, { word: string; count: number }>()
  for (const word of wordsOf(title)) {
    const folded = foldText(word)
    if (codePointLength(folded) <= 1 || /^\p{N}+$/u.test(folded) || stopWords.has(folded)) continue
    const entry = counts.get(folded) ?? { word: word.toLocaleLowerCase('tr-TR'), count: 0 }
    entry.count += 1
    counts.set(folded, entry)
  }
  return [...counts.values()].filter((entry) => entry.count > max).map((entry) => entry.word)
}

function checkRepeatedWords(rules: CopyRules, title: string): CheckResult {
  const rule = rules.maxWordRepeats
  if (!rule) return notPublished('copy.repeatedWords')
  const words = findRepeatedWords(title, rule.value)
  const values = { words: listText(words), max: rule.value }
  const codes = { pass: 'noRepeatedWords', fail: 'repeatedWords' } as const
  return judged('copy.repeatedWords', words.length === 0, rule, codes, values)
}

function checkBrand(rules: CopyRules, copy: CopyFacts): CheckResult {
  const rule = rules.brandInTitle
  if (!rule) return notPublished('copy.brand')
  const brand = copy.brand?.trim() ?? ''
  if (brand === '') return result('copy.brand', 'check-by-eye', 'brandUnknown', {}, rule.source)
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{M}\\p{N}])${escapeRegExp(foldText(brand))}(?![\\p{L}\\p{M}\\p{N}])`,
    'u',
  )
  const ok = pattern.test(foldText(copy.title))
  return judged(
    'copy.brand',
    ok,
    rule,
    { pass: 'brandInTitle', fail: 'brandMissing' },
    { brand },
    'add-brand',
  )
}

function checkTags(rule: NonNullable<CopyRules['tags']>, tags: readonly string[]): CheckResult {
  const { maxCount, maxLength } = rule.value
  if (tags.length > maxCount) {
    const values = { count: tags.length, max: maxCount }
    return result('copy.tags', severity(rule.source), 'tooManyTags', values, rule.source, 'trim-tags')
  }
  const long = tags.filter((tag) => codePointLength(tag) > maxLength)
  if (long.length > 0) {
    const values = { tags: listText(long), max: maxLength }
    return result('copy.tags', severity(rule.source), 'tagsTooLong', values, rule.source, 'trim-tags')
  }
  const values = { count: tags.length, max: maxCount, maxLength }
  return result('copy.tags', 'pass', 'tagsFit', values, rule.source)
}

function checkTagCharacters(rule: Sourced<string>, tags: readonly string[]): CheckResult {
  const pattern = new RegExp(`^[${rule.value}]$`, 'u')
  const found = distinct(tags.flatMap((tag) => [...tag].filter((char) => !pattern.test(char))))
  const codes = { pass: 'tagCharactersFit', fail: 'tagCharactersNotAllowed' } as const
  return judged(
    'copy.tagCharacters',
    found.length === 0,
    rule,
    codes,
    { chars: found.join(' ') },
    'remove-characters',
  )
}

/**
 * Checks a listing's copy. Always answers for title and description length, title characters,
 * ALL CAPS, promotional wording, repeated words and the brand; once-only characters and tags
 * only where the profile has such a rule (Etsy).
 */
export function checkCopy(profile: MarketplaceProfile, copy: CopyFacts): CheckResult[] {
  const rules = profile.copy
  const results = [
    checkTitleLength(rules, copy.title),
    checkDescriptionLength(rules, copy.description),
    checkTitleCharacters(rules, copy.title),
  ]
  if (rules.titleOnceOnlyChars) results.push(checkOnceOnly(rules.titleOnceOnlyChars, copy.title))
  results.push(
    checkAllCaps(rules, copy),
    checkPromotional(rules, copy.title),
    checkRepeatedWords(rules, copy.title),
    checkBrand(rules, copy),
  )
  if (rules.tags) results.push(checkTags(rules.tags, copy.keywords))
  if (rules.tagAllowedChars) results.push(checkTagCharacters(rules.tagAllowedChars, copy.keywords))
  return results
}
