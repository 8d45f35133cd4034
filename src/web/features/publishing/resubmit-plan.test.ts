import { describe, expect, it } from 'vitest'
import type { MarketplaceAttribute, PublicationItemView } from '#shared/contracts/publishing.ts'
import { attributesToAsk, isResubmittable, planResubmit } from './resubmit-plan.ts'

function item(
  status: PublicationItemView['status'],
  reasons: string[],
  problems: PublicationItemView['problems'] = [],
): PublicationItemView {
  return {
    id: 'i',
    barcode: 'B',
    title: 'T',
    status,
    problems,
    reasons,
    productUrl: null,
    video: null,
    generationId: null,
    catalogueRowId: null,
    updatedAt: '2026-11-29T11:06:00.000Z',
  }
}

const attribute = (id: string, name: string, isRequired: boolean): MarketplaceAttribute => ({
  id,
  name,
  isRequired,
  isMultiple: false,
  allowsCustom: false,
  values: [],
})

describe('planResubmit', () => {
  it('lists each fix Vitrin makes by itself once, and asks nothing for them', () => {
    const plan = planResubmit(
      [
        item('rejected', [
          'Görsel boyutu en az 1200x1800 piksel olmalıdır.',
          'Ürün başlığı en fazla 100 karakter olabilir',
        ]),
        item('rejected', ['Görsel indirilemedi: https://x.test/a.jpg']),
      ],
      'trendyol',
    )
    expect(plan).toEqual({
      automatic: ['re-export-images', 'fit-title'],
      needsAttributes: false,
      attributes: [],
      listingFields: [],
      hasKeyProblem: false,
      isStockCodeFixed: false,
      needsCategory: false,
      unfixable: 0,
    })
  })

  it('opens the attributes the reasons name, the listing fields they are about, and says the barcode stays', () => {
    const plan = planResubmit(
      [
        item('rejected', ['Zorunlu özellik eksik: Renk', 'Satış fiyatı liste fiyatından büyük olamaz']),
        item(
          'blocked',
          [],
          [
            { code: 'barcode-invalid', field: 'barcode' },
            { code: 'origin-missing', field: 'origin' },
          ],
        ),
        item('failed', ['Ürün sahte olarak değerlendirildi']),
      ],
      'hepsiburada',
    )
    expect(plan.needsAttributes).toBe(true)
    expect(plan.attributes).toEqual(['Renk'])
    expect(plan.listingFields).toEqual(['salePrice', 'listPrice', 'origin'])
    expect(plan.hasKeyProblem).toBe(true)
    expect(plan.unfixable).toBe(1)
  })

  it('opens the stock code on Trendyol, never on Hepsiburada, which knows a sent product by it', () => {
    const refused = [item('rejected', ['Stok kodu geçersiz'])]
    expect(planResubmit(refused, 'trendyol')).toMatchObject({
      listingFields: ['stockCode'],
      isStockCodeFixed: false,
    })
    expect(planResubmit(refused, 'hepsiburada')).toMatchObject({ listingFields: [], isStockCodeFixed: true })
  })

  it('promises only the checklist fixes a resubmission makes: the words, not a new white background', () => {
    const words = planResubmit(
      [
        item('rejected', [
          'Ürün Başlığı: Başlıkta yasaklı ya da tanıtım amaçlı ifadeler var (ör. "ücretsiz kargo").',
        ]),
      ],
      'trendyol',
    )
    expect(words).toMatchObject({ automatic: ['checker-fix'], unfixable: 0 })
    const background = planResubmit(
      [item('rejected', ['Görsel: Ürün görseli beyaz fonda değil.'])],
      'trendyol',
    )
    expect(background).toMatchObject({ automatic: [], unfixable: 1 })
  })

  it('asks for the category when a reason is the category', () => {
    expect(planResubmit([item('rejected', ['Kategori hatalı'])], 'trendyol').needsCategory).toBe(true)
  })
})

describe('attributesToAsk', () => {
  const attributes = [
    attribute('47', 'Renk', true),
    attribute('711', 'Parça Sayısı', true),
    attribute('12', 'Materyal', false),
  ]

  it('finds the named attributes whatever their case, by name or id', () => {
    expect(attributesToAsk(attributes, ['RENK', '12']).map((found) => found.id)).toEqual(['47', '12'])
    expect(attributesToAsk(attributes, ['parça sayısı']).map((found) => found.id)).toEqual(['711'])
  })

  it('falls back to the required attributes when the reasons name none the category has', () => {
    expect(attributesToAsk(attributes, ['Desen']).map((found) => found.id)).toEqual(['47', '711'])
    expect(attributesToAsk(attributes, []).map((found) => found.id)).toEqual(['47', '711'])
  })
})

describe('isResubmittable', () => {
  it('takes the refused and held-back products, never those live or on their way', () => {
    expect(
      (['blocked', 'queued', 'sent', 'pending', 'live', 'rejected', 'failed'] as const).filter((status) =>
        isResubmittable(item(status, [])),
      ),
    ).toEqual(['blocked', 'rejected', 'failed'])
  })
})
