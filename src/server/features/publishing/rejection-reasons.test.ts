import { describe, expect, it } from 'vitest'
import {
  classifyListingProblem,
  classifyReason,
  type Rejection,
  type RejectionCode,
} from '#shared/publishing/rejections.ts'
import {
  hepsiburadaBaseAttributes,
  hepsiburadaCategoryAttributes,
  hepsiburadaLockReasons,
} from '#tests/fakes/hepsiburada-catalog.ts'
import { hepsiburadaBlockMessage, hepsiburadaFailureMessages } from '#tests/fakes/hepsiburada-server.ts'
import {
  trendyolFailureReasons,
  trendyolReviewReasons,
  trendyolVideoErrors,
  trendyolVideoFailures,
} from '#tests/fakes/trendyol-server.ts'
import { listingProblemCodes } from './listing.ts'

// Every reason text the fake marketplaces can give, each with the code it must be shown as. The
// tables are keyed by the fakes' own exports, so a reason added to a fake without a line here
// fails the typecheck (the `satisfies`) and this test (the key comparison): no reason goes unmapped.

type TrendyolReason = keyof typeof trendyolFailureReasons
const url = 'https://media.example.com/p/a1b2c3/1.jpg'
const video = 'https://media.example.com/p/a1b2c3/urun-gorsel.mp4'

const trendyolCases = {
  barcodeMissing: [[], 'barcode-invalid'],
  barcodeTooLong: [['X'.repeat(41)], 'barcode-invalid'],
  barcodeCharacters: [['ABC/12'], 'barcode-invalid'],
  duplicateBarcode: [['VTR-1'], 'barcode-duplicate'],
  duplicateInRequest: [['VTR-1'], 'barcode-duplicate'],
  titleMissing: [[], 'title-missing'],
  titleTooLong: [[140], 'title-too-long'],
  productMainIdMissing: [[], 'stock-code-invalid'],
  productMainIdTooLong: [[], 'stock-code-invalid'],
  stockCodeMissing: [[], 'stock-code-invalid'],
  stockCodeTooLong: [[], 'stock-code-invalid'],
  descriptionMissing: [[], 'description-missing'],
  descriptionTooLong: [[30_500], 'description-too-long'],
  brandNotFound: [[999], 'brand-unknown'],
  categoryNotFound: [[999], 'category-unknown'],
  categoryNotLeaf: [[411], 'category-not-leaf'],
  quantityInvalid: [[], 'stock-invalid'],
  dimensionalWeightMissing: [[], 'desi-invalid'],
  priceMissing: [[], 'price-invalid'],
  priceRelation: [[], 'list-price-below-sale'],
  vatRate: [[18], 'vat-invalid'],
  originMissing: [[], 'origin-missing'],
  originInvalid: [['TUR'], 'origin-missing'],
  lotNumberInvalid: [[], 'lot-number-invalid'],
  imagesMissing: [[], 'images-missing'],
  imagesTooMany: [[9], 'images-too-many'],
  imageNotHttps: [[url.replace('https', 'http')], 'image-not-https'],
  imageUnreachable: [[url, 404], 'image-unreachable'],
  imageFormat: [[url], 'image-format'],
  imageSize: [[url, 1080, 1080, { width: 1200, height: 1800 }], 'image-size'],
  attributesMissing: [[], 'attribute-missing'],
  attributeRequired: [['Renk'], 'attribute-missing'],
  attributeUnknown: [[47], 'attribute-unknown'],
  attributeValueInvalid: [['Renk', 99], 'attribute-value-invalid'],
  attributeMultipleValues: [['Renk'], 'attribute-value-invalid'],
  colourTooLong: [[], 'attribute-value-invalid'],
  productNotFound: [['VTR-1'], 'not-on-marketplace'],
  productApproved: [['VTR-1'], 'already-approved'],
} satisfies { [K in TrendyolReason]: [Parameters<(typeof trendyolFailureReasons)[K]>, RejectionCode] }

const trendyolReviewCases = {
  imageBackground: 'image-background',
  imageOtherBrand: 'image-content',
  imageSize: 'image-size',
  wrongBrand: 'brand-unknown',
  brandAuthority: 'brand-authority',
  wrongCategory: 'wrong-category',
  wrongAttribute: 'attribute-value-invalid',
  forbiddenWords: 'forbidden-words',
  titleWrong: 'title-rejected',
  descriptionWrong: 'description-rejected',
  counterfeit: 'counterfeit',
  duplicate: 'duplicate-product',
} satisfies Record<keyof typeof trendyolReviewReasons, RejectionCode>

type HepsiburadaMessage = keyof typeof hepsiburadaFailureMessages

/** The import checks each base field by its id; the field each id is. */
const hepsiburadaFieldCodes: Record<string, RejectionCode> = {
  merchantSku: 'stock-code-invalid',
  Barcode: 'barcode-invalid',
  UrunAdi: 'title-missing',
  UrunAciklamasi: 'description-missing',
  Marka: 'brand-unknown',
  GarantiSuresi: 'warranty-missing',
  kg: 'desi-invalid',
  tax_vat_rate: 'vat-invalid',
  price: 'price-invalid',
  stock: 'stock-invalid',
  Image1: 'images-missing',
}

const categoryAttributes = [...hepsiburadaCategoryAttributes.values()].flatMap((entry) => [
  ...entry.attributes,
  ...entry.variantAttributes,
])

/** Every message each Hepsiburada function gives, over every field and attribute it is called with. */
const hepsiburadaCases: {
  [K in HepsiburadaMessage]: { text: string; code: RejectionCode; attribute?: string }[]
} = {
  fieldRequired: hepsiburadaBaseAttributes
    .filter((field) => field.mandatory)
    .map((field) => ({
      text: hepsiburadaFailureMessages.fieldRequired(field.id),
      code: hepsiburadaFieldCodes[field.id] ?? 'other',
    })),
  merchantMismatch: [{ text: hepsiburadaFailureMessages.merchantMismatch(), code: 'account-mismatch' }],
  categoryNotFound: [{ text: hepsiburadaFailureMessages.categoryNotFound(999), code: 'category-unknown' }],
  categoryNotLeaf: [{ text: hepsiburadaFailureMessages.categoryNotLeaf(60001), code: 'category-not-leaf' }],
  valueInvalid: [
    ...hepsiburadaBaseAttributes
      .filter((field) => field.values)
      .map((field) => ({
        text: hepsiburadaFailureMessages.valueInvalid(field.id, '18'),
        code: hepsiburadaFieldCodes[field.id] ?? 'other',
      })),
    ...categoryAttributes
      .filter((attribute) => attribute.values)
      .map((attribute) => ({
        text: hepsiburadaFailureMessages.valueInvalid(attribute.name, 'Mor ötesi'),
        code: 'attribute-value-invalid' as const,
        attribute: attribute.name,
      })),
  ],
  priceInvalid: [{ text: hepsiburadaFailureMessages.priceInvalid('12.5'), code: 'price-invalid' }],
  stockInvalid: [{ text: hepsiburadaFailureMessages.stockInvalid('-1'), code: 'stock-invalid' }],
  imageNotHttps: [
    {
      text: hepsiburadaFailureMessages.imageNotHttps('Image2', url.replace('https', 'http')),
      code: 'image-not-https',
    },
  ],
  imageUnreachable: [
    { text: hepsiburadaFailureMessages.imageUnreachable('Image1', url, 404), code: 'image-unreachable' },
    { text: hepsiburadaFailureMessages.imageUnreachable('Image1', url), code: 'image-unreachable' },
  ],
  imageFormat: [{ text: hepsiburadaFailureMessages.imageFormat('Image3', url), code: 'image-format' }],
  videoNotHttps: [
    {
      text: hepsiburadaFailureMessages.videoNotHttps(video.replace('https', 'http')),
      code: 'video-unreachable',
    },
  ],
  videoUnreachable: [
    { text: hepsiburadaFailureMessages.videoUnreachable(video, 404), code: 'video-unreachable' },
    { text: hepsiburadaFailureMessages.videoUnreachable(video), code: 'video-unreachable' },
  ],
  videoFormat: [{ text: hepsiburadaFailureMessages.videoFormat(video), code: 'video-format' }],
  missingInfo: categoryAttributes
    .filter((attribute) => attribute.mandatory)
    .map((attribute) => ({
      text: hepsiburadaFailureMessages.missingInfo(attribute.name),
      code: 'attribute-missing' as const,
      attribute: attribute.name,
    })),
}

const lockReasonCodes = {
  BannedProduct: 'banned-product',
  CatalogExchange: 'wrong-category',
  DuplicateProduct: 'duplicate-product',
  IncorrectProductEntry: 'incorrect-entry',
  MissingProductContent: 'missing-content',
  CounterfeitProduct: 'counterfeit',
  Regulative: 'regulatory',
  Assortment: 'variant-grouping',
  BarcodeError: 'barcode-invalid',
  BrandError: 'brand-unknown',
  ProductDescriptionError: 'description-rejected',
  ProductNameError: 'title-rejected',
  PersonalProductError: 'personalised-product',
  GroupingOptionError: 'variant-grouping',
  WrongCategoryError: 'wrong-category',
  UniversalProductError: 'universal-product',
  WrongProductAttribute: 'attribute-value-invalid',
  ImageError: 'image-rejected',
  Unknown: 'marketplace-standards',
} satisfies Record<keyof typeof hepsiburadaLockReasons, RejectionCode>

type Case = { marketplace: 'trendyol' | 'hepsiburada'; source: string; text: string; code: RejectionCode }

/** Every reason text the two fakes can give, with the code each must get. */
function everyFakeReason(): (Case & { attribute?: string })[] {
  const call = (name: TrendyolReason, args: unknown[]) =>
    (trendyolFailureReasons[name] as (...a: unknown[]) => string)(...args)
  return [
    ...Object.entries(trendyolCases).map(([name, [args, code]]) => ({
      marketplace: 'trendyol' as const,
      source: `trendyolFailureReasons.${name}`,
      text: call(name as TrendyolReason, args),
      code,
    })),
    ...Object.entries(trendyolReviewCases).map(([name, code]) => {
      const reason = trendyolReviewReasons[name as keyof typeof trendyolReviewReasons]
      // As the publisher stores it (channels.ts): "reason: detail".
      return {
        marketplace: 'trendyol' as const,
        source: `trendyolReviewReasons.${name}`,
        text: `${reason.rejectReason}: ${reason.rejectReasonDetail}`,
        code,
      }
    }),
    ...Object.entries(hepsiburadaCases).flatMap(([name, cases]) =>
      cases.map((entry) => ({
        marketplace: 'hepsiburada' as const,
        source: `hepsiburadaFailureMessages.${name}`,
        ...entry,
      })),
    ),
    ...Object.entries(lockReasonCodes).map(([reason, code]) => ({
      marketplace: 'hepsiburada' as const,
      source: `lock reason ${reason}`,
      text: hepsiburadaBlockMessage({ lockReason: reason as keyof typeof hepsiburadaLockReasons }),
      code,
    })),
  ]
}

describe('the fake marketplaces’ rejection reasons', () => {
  const cases = everyFakeReason()

  it('are listed for every reason each fake exports', () => {
    expect(Object.keys(trendyolCases).sort()).toEqual(Object.keys(trendyolFailureReasons).sort())
    expect(Object.keys(trendyolReviewCases).sort()).toEqual(Object.keys(trendyolReviewReasons).sort())
    expect(Object.keys(hepsiburadaCases).sort()).toEqual(Object.keys(hepsiburadaFailureMessages).sort())
    expect(Object.keys(lockReasonCodes).sort()).toEqual(Object.keys(hepsiburadaLockReasons).sort())
    // Each Hepsiburada field and attribute the import checks is among the cases.
    expect(cases.filter((c) => c.source === 'hepsiburadaFailureMessages.fieldRequired')).toHaveLength(
      hepsiburadaBaseAttributes.filter((field) => field.mandatory).length,
    )
  })

  it('each map to a shown reason, the code it stands for, with the marketplace’s words kept', () => {
    const got = cases.map(({ marketplace, source, text }) => {
      const rejection = classifyReason(marketplace, text)
      return { source, text, code: rejection.code, kept: rejection.text === text }
    })
    const want = cases.map(({ source, text, code }) => ({ source, text, code, kept: true }))
    expect(got).toEqual(want)
    expect(got.filter((entry) => entry.code === 'other')).toEqual([])
  })

  it('name the attribute a reason is about', () => {
    const named = cases.filter((c) => c.attribute !== undefined)
    expect(named.length).toBeGreaterThan(3)
    for (const { marketplace, text, attribute } of named) {
      expect(classifyReason(marketplace, text).attribute, text).toBe(attribute)
    }
    expect(classifyReason('trendyol', trendyolFailureReasons.attributeRequired('Malzeme'))).toMatchObject({
      code: 'attribute-missing',
      attribute: 'Malzeme',
      fix: 'attribute-form',
    })
    expect(
      classifyReason('trendyol', trendyolFailureReasons.attributeValueInvalid('Kapasite', 7)).attribute,
    ).toBe('Kapasite')
    const review = trendyolReviewReasons.wrongAttribute
    expect(classifyReason('trendyol', `${review.rejectReason}: ${review.rejectReasonDetail}`).attribute).toBe(
      'Renk',
    )
  })

  it('lead to at least five different one-click fixes', () => {
    const fixes = new Set(
      cases
        .map(({ marketplace, text }) => classifyReason(marketplace, text).fix)
        .filter((fix) => fix !== null),
    )
    expect([...fixes].sort()).toEqual(
      expect.arrayContaining(['attribute-form', 'checker-fix', 'fit-title', 're-export-images']),
    )
    expect(fixes.size).toBeGreaterThanOrEqual(5)
    // Most of the reasons a seller meets have one.
    const withFix = cases.filter(({ marketplace, text }) => classifyReason(marketplace, text).fix !== null)
    expect(withFix.length / cases.length).toBeGreaterThan(0.6)
  })

  it('read the fake Trendyol video service’s failures and refusals as video reasons', () => {
    expect(classifyReason('trendyol', trendyolVideoFailures.format).code).toBe('video-format')
    expect(classifyReason('trendyol', trendyolVideoFailures.download).code).toBe('video-unreachable')
    const refusals = Object.entries(trendyolVideoErrors).map(([name, [, message]]) => [
      name,
      classifyReason('trendyol', message).code,
    ])
    expect(refusals).toEqual(
      Object.keys(trendyolVideoErrors).map((name) => [
        name,
        name === 'urlInvalid' ? 'video-unreachable' : 'video-rejected',
      ]),
    )
  })

  it('send the issue’s named cases to their named fixes', () => {
    const size = trendyolFailureReasons.imageSize(url, 1080, 1080, { width: 1200, height: 1800 })
    expect(classifyReason('trendyol', size).fix).toBe('re-export-images')
    expect(classifyReason('trendyol', trendyolFailureReasons.titleTooLong(140)).fix).toBe('fit-title')
    expect(classifyReason('hepsiburada', hepsiburadaFailureMessages.missingInfo('Renk')).fix).toBe(
      'attribute-form',
    )
    const words = trendyolReviewReasons.forbiddenWords
    expect(classifyReason('trendyol', `${words.rejectReason}: ${words.rejectReasonDetail}`)).toMatchObject({
      fix: 'checker-fix',
      checkerAction: 'remove-promotional',
    })
  })
})

describe('listing problems', () => {
  it('each show as a rejection code, as a refused row would', () => {
    const shown: Record<string, Rejection> = Object.fromEntries(
      listingProblemCodes.map((code) => [code, classifyListingProblem({ code, field: 'x' })]),
    )
    expect(Object.entries(shown).filter(([, rejection]) => rejection.code === 'other')).toEqual([])
    // Alike on both sides: the image-address problem found here is the one a marketplace reports.
    expect(shown['image-not-https']?.code).toBe(
      classifyReason('trendyol', trendyolFailureReasons.imageNotHttps('http://x/1.jpg')).code,
    )
    expect(shown['origin-missing']?.code).toBe(
      classifyReason('trendyol', trendyolFailureReasons.originMissing()).code,
    )
  })

  it('name the attribute of an attribute problem', () => {
    expect(classifyListingProblem({ code: 'attribute-invalid', field: 'attributes.47' })).toMatchObject({
      code: 'attribute-value-invalid',
      attribute: '47',
      fix: 'attribute-form',
    })
  })
})
