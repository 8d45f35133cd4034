import { describe, expect, it } from 'vitest'
import { enMessages } from '#shared/i18n/locales/en/index.ts'
import { trMessages } from '#shared/i18n/locales/tr/index.ts'
import { lookupMessage, type Messages } from '#shared/i18n/translate.ts'
import {
  type CheckStatus,
  checkCopy,
  checkImage,
  checkVideo,
  copyRuleIds,
  type FixAction,
  imageRuleIds,
  videoRuleIds,
} from './check.ts'
import { isMarketplaceId, marketplaceIds } from './ids.ts'
import { notFoundInSpec, type RuleKey } from './not-found.ts'
import { getProfile, marketplaceProfiles } from './profiles.ts'
import type { MarketplaceProfile, PromoPhrase, RuleSource, SourceConfidence } from './types.ts'

const confidences: readonly SourceConfidence[] = ['official', 'official-copy', 'code', '3p']

/** Every rule of a profile as [key, rule], image rules of every slot included. */
function rulesOf(profile: MarketplaceProfile): [string, { value: unknown; source: unknown }][] {
  const groups: [string, object | undefined][] = [
    ['image', profile.image.all],
    ['image', profile.image.main],
    ['image', profile.image.additional],
    ['video', profile.video],
    ['copy', profile.copy],
  ]
  return groups.flatMap(([group, rules]) =>
    Object.entries(rules ?? {}).map(([key, rule]) => [
      `${group}.${key}`,
      rule as { value: unknown; source: unknown },
    ]),
  )
}

function isSource(source: unknown): source is RuleSource {
  const s = source as RuleSource
  return (
    typeof s?.url === 'string' &&
    /^https:\/\/[^\s]+$/.test(s.url) &&
    confidences.includes(s.confidence) &&
    /^\d{4}-\d{2}(-\d{2})?$/.test(s.date)
  )
}

function isVitrinChoice(source: unknown): boolean {
  const s = source as { vitrin?: unknown; note?: unknown }
  return s?.vitrin === true && typeof s.note === 'string' && s.note.length > 0
}

describe('marketplace profiles', () => {
  it('are one per id, in the id order, and found by id', () => {
    expect(marketplaceProfiles.map((p) => p.id)).toEqual([...marketplaceIds])
    for (const id of marketplaceIds) expect(getProfile(id).id).toBe(id)
    expect(isMarketplaceId('amazon-tr')).toBe(true)
    expect(isMarketplaceId('amazon')).toBe(false)
  })

  it('give every rule a source with url, confidence and date (Vitrin advice only where said so)', () => {
    const bad = marketplaceProfiles.flatMap((profile) =>
      rulesOf(profile).flatMap(([key, rule]) => {
        const ok = key === 'copy.brandInTitle' ? isVitrinChoice(rule.source) : isSource(rule.source)
        return ok ? [] : [`${profile.id} ${key}`]
      }),
    )
    expect(bad).toEqual([])
  })

  it('give every promotional phrase its own source or mark it as Vitrin’s list', () => {
    const phrases = marketplaceProfiles.flatMap(
      (p) => (p.copy.promotionalPhrases?.value ?? []) as PromoPhrase[],
    )
    expect(phrases.length).toBeGreaterThan(0)
    for (const phrase of phrases) {
      expect(isSource(phrase.source) || isVitrinChoice(phrase.source), phrase.text).toBe(true)
      expect(phrase.text).toBe(phrase.text.toLocaleLowerCase(phrase.lang === 'tr' ? 'tr-TR' : 'en-US'))
    }
    // Amazon's and Trendyol's own words are cited, not listed as ours.
    const cited = phrases.filter((p) => isSource(p.source)).map((p) => p.text)
    expect(cited).toEqual(
      expect.arrayContaining(['free shipping', '100% quality guaranteed', 'indirim', 'kampanya']),
    )
  })

  it('leave out every rule marketplaces.md marks NOT FOUND', () => {
    const present = (profile: MarketplaceProfile, key: RuleKey) => rulesOf(profile).some(([k]) => k === key)
    const invented = Object.entries(notFoundInSpec).flatMap(([id, keys]) => {
      if (!isMarketplaceId(id)) throw new Error(id)
      return keys.filter((key) => present(getProfile(id), key)).map((key) => `${id} ${key}`)
    })
    expect(invented).toEqual([])
    // The list is read as written: Trendyol's file size limit is unknown, so it must be absent.
    expect(notFoundInSpec.trendyol).toContain('image.maxBytes')
    expect(getProfile('trendyol').image.all.maxBytes).toBeUndefined()
  })

  it('keep the figures marketplaces.md gives', () => {
    const trendyol = getProfile('trendyol')
    expect(trendyol.image.all.exactSize?.value).toMatchObject({ width: 1200, height: 1800 })
    expect(trendyol.image.all.maxCount?.value).toBe(8)
    expect(trendyol.copy.titleMax?.value).toBe(100)
    expect(trendyol.video.minSeconds?.value).toBe(8)
    expect(trendyol.video.maxSeconds?.value).toBe(120)
    const amazon = getProfile('amazon-tr')
    expect(amazon.copy.titleMax?.value).toBe(200)
    expect(amazon.copy.titleForbiddenChars?.value).toEqual(['!', '$', '?', '_', '{', '}', '^', '¬', '¦'])
    expect(amazon.image.main?.minFillShare?.value).toBe(0.85)
    expect(getProfile('etsy').copy.titleOnceOnlyChars?.value).toEqual(['%', ':', '&', '+'])
    expect(getProfile('hepsiburada').image.all.maxCount?.value).toBe(10)
    expect(getProfile('shopify').export).toMatchObject({ width: 2048, height: 2048, choice: 'rule' })
  })

  it('export to a size that passes the profile’s own image rules, within its file limit', () => {
    for (const profile of marketplaceProfiles) {
      const target = profile.export
      const rendered = {
        width: target.width,
        height: target.height,
        bytes: target.maxBytes,
        format: 'jpeg' as const,
        colourSpace: 'srgb' as const,
        borderWhiteShare: 1,
        borderPureWhiteShare: 1,
        product: { fillShare: 0.9, areaShare: 0.5, touchesEdge: false },
        isGenerated: false,
        text: [],
      }
      const failing = checkImage(profile, rendered, 'main').filter(
        (r) => r.status === 'fail' || r.status === 'warn',
      )
      expect(failing, profile.id).toEqual([])
      const limit = profile.image.all.maxBytes?.value
      if (limit !== undefined) expect(target.maxBytes, profile.id).toBeLessThanOrEqual(limit)
      expect(target.maxBytesChoice === 'rule', profile.id).toBe(limit !== undefined)
      const whiteMain = profile.image.main?.pureWhiteBackground !== undefined
      expect(target.background === 'white', profile.id).toBe(whiteMain)
    }
  })
})

describe('marketplace wording', () => {
  const catalogues = { en: enMessages as unknown as Messages, tr: trMessages as unknown as Messages }

  function missing(keys: string[]): Record<string, string[]> {
    const gaps: Record<string, string[]> = {}
    for (const [locale, messages] of Object.entries(catalogues)) {
      const absent = keys.filter((key) => lookupMessage(messages, key) === undefined)
      if (absent.length > 0) gaps[locale] = absent
    }
    return gaps
  }

  it('names every profile, rule, status, fix and confidence in both languages', () => {
    const statuses = {
      pass: true,
      warn: true,
      fail: true,
      'not-published': true,
      'check-by-eye': true,
    } satisfies Record<CheckStatus, true>
    const fixes = {
      resize: true,
      'white-background': true,
      'fill-frame': true,
      'add-margin': true,
      compress: true,
      'convert-jpeg': true,
      'convert-srgb': true,
      'use-original-photo': true,
      'shorten-title': true,
      'shorten-description': true,
      'remove-characters': true,
      'fix-caps': true,
      'remove-promotional': true,
      'add-brand': true,
      'trim-tags': true,
      'lengthen-video': true,
      'shorten-video': true,
      'convert-video': true,
      'keep-product': true,
    } satisfies Record<FixAction, true>
    const keys = [
      ...marketplaceIds.map((id) => `marketplaces.profiles.${id}`),
      ...[...imageRuleIds, ...videoRuleIds, ...copyRuleIds].map((id) => `marketplaces.rules.${id}`),
      ...Object.keys(statuses).map((s) => `marketplaces.status.${s}`),
      ...Object.keys(fixes).map((f) => `marketplaces.fixes.${f}`),
      ...[...confidences, 'vitrin'].map((c) => `marketplaces.confidence.${c}`),
    ]
    expect(missing(keys)).toEqual({})
  })

  it('has every placeholder of a reason filled by the checker', () => {
    const facts = {
      width: 1199,
      height: 1800,
      bytes: 30_000_000,
      format: 'webp' as const,
      colourSpace: 'cmyk' as const,
      borderWhiteShare: 0.5,
      borderPureWhiteShare: 0.5,
      product: { fillShare: 0.5, areaShare: 0.3, touchesEdge: true },
      isGenerated: true,
      text: ['SALE'],
    }
    const results = marketplaceProfiles.flatMap((profile) => [
      ...checkImage(profile, facts, 'main'),
      ...checkImage(profile, { ...facts, width: 400, height: 300, product: null, text: null }, 'additional'),
      ...checkVideo(profile, {
        durationSeconds: 8,
        width: 720,
        height: 1280,
        bytes: 2e9,
        format: 'webm',
        hasAudio: false,
      }),
      ...checkCopy(profile, {
        title: 'KUPA KUPA kupa indirim!% %',
        description: '',
        features: [],
        keywords: ['a very long tag that is too long!'],
        brand: 'Vitra',
      }),
    ])
    for (const { reason } of results) {
      for (const messages of Object.values(catalogues)) {
        const template = lookupMessage(messages, reason.key)
        expect(template, reason.key).toBeDefined()
        const placeholders = [...(template ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '')
        for (const name of placeholders)
          expect(reason.values, `${reason.key} {{${name}}}`).toHaveProperty(name)
      }
    }
  })
})
