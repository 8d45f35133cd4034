import { describe, expect, it } from 'vitest'
import { translateIn } from '#shared/i18n/locales/all.ts'
import {
  classifyListingProblem,
  classifyReason,
  publishFixes,
  publishFixMessageKeys,
  rejectionCheckerActions,
  rejectionCodes,
  rejectionFixes,
  rejectionMessageKey,
} from './rejections.ts'

// The reasons the fake marketplaces give are checked one by one in the server's
// publishing/rejection-reasons.test.ts; here, how the classifier reads words it has not seen.

describe('classifyReason', () => {
  it('reads a reason alike in any case, with or without Turkish letters, and however spaced', () => {
    const reason = 'Görsel boyutu 1200x1800 olmalıdır (gönderilen: 1080x1080)'
    const variants = [
      reason,
      reason.toLocaleUpperCase('tr'),
      reason.toUpperCase(),
      reason.toLocaleLowerCase('tr'),
      'Gorsel boyutu 1200x1800 olmalidir (gonderilen: 1080x1080)',
      'GÖRSEL   BOYUTU\t1200 x 1800 OLMALIDIR',
    ]
    expect(variants.map((text) => classifyReason('trendyol', text).code)).toEqual(
      variants.map(() => 'image-size'),
    )
    // Dotted and dotless i alike: "BAŞLIK" / "başlık" / "BASLIK".
    for (const text of [
      'ÜRÜN BAŞLIĞI EN FAZLA 100 KARAKTER OLABİLİR',
      'urun basligi en fazla 100 karakter olabilir',
    ]) {
      expect(classifyReason('trendyol', text)).toMatchObject({ code: 'title-too-long', fix: 'fit-title' })
    }
  })

  it('recognises a reason worded differently from the ones it was made with', () => {
    const cases: [string, string][] = [
      ['Ürün görselleri 1200x1800 piksel olmalıdır.', 'image-size'],
      ["Görsel URL'ine erişilemiyor.", 'image-unreachable'],
      ['Ürün fotoğrafı beyaz arka planlı olmalıdır.', 'image-background'],
      ['Görselde yazı ve filigran bulunmaktadır.', 'image-content'],
      ['Başlık 100 karakteri aşmamalıdır.', 'title-too-long'],
      ['Ürün adı boş olamaz.', 'title-missing'],
      ['Zorunlu özellik girilmemiş: Renk', 'attribute-missing'],
      ['Barkod numarası başka bir ürününüzde kullanılmaktadır.', 'barcode-duplicate'],
      ['Marka bilgisi hatalı.', 'brand-unknown'],
      ['KDV oranı geçersiz.', 'vat-invalid'],
      ['Başlıkta reklam içerikli ifadeler yer alamaz.', 'forbidden-words'],
      ['Ürün yanlış kategoriye açılmış.', 'wrong-category'],
    ]
    expect(cases.map(([text]) => [text, classifyReason('hepsiburada', text).code])).toEqual(cases)
    expect(classifyReason('trendyol', 'Zorunlu özellik girilmemiş: Renk').attribute).toBe('Renk')
  })

  it('does not read words in an address or a barcode as the reason', () => {
    const unreachable = classifyReason(
      'trendyol',
      'Görsel indirilemedi (HTTP 404): https://cdn.example.com/baslik-en-fazla/marka-logo.jpg',
    )
    expect(unreachable.code).toBe('image-unreachable')
    expect(
      classifyReason('trendyol', 'Bu barkod ile kayıtlı bir ürününüz bulunmaktadır: KATEGORI-1').code,
    ).toBe('barcode-duplicate')
  })

  it('knows Hepsiburada’s lock reasons by their names as well as their labels', () => {
    expect(classifyReason('hepsiburada', 'ImageError').code).toBe('image-rejected')
    expect(classifyReason('hepsiburada', 'Görsel Problemi').code).toBe('image-rejected')
    expect(classifyReason('hepsiburada', 'lockReason: WrongCategoryError').fix).toBe('choose-category')
  })

  it('keeps anything it does not recognise as `other`, with the marketplace’s words and no fix', () => {
    for (const text of ['Beklenmeyen bir hata oluştu, lütfen daha sonra tekrar deneyin.', '', 'E-1042']) {
      expect(classifyReason('trendyol', text)).toEqual({ code: 'other', fix: null, text })
    }
  })

  it('names the checklist fix a checker fix runs', () => {
    expect(classifyReason('trendyol', 'Görsel: Ürün görseli beyaz fonda değil.')).toEqual({
      code: 'image-background',
      fix: 'checker-fix',
      checkerAction: 'white-background',
      text: 'Görsel: Ürün görseli beyaz fonda değil.',
    })
    for (const [code, fix] of Object.entries(rejectionFixes)) {
      const hasAction = rejectionCheckerActions[code as keyof typeof rejectionCheckerActions] !== undefined
      expect(hasAction, code).toBe(fix === 'checker-fix')
    }
  })
})

describe('classifyListingProblem', () => {
  it('shows a problem found before sending as the code a marketplace’s refusal gets', () => {
    expect(classifyListingProblem({ code: 'key-duplicate', field: 'barcode' })).toEqual({
      code: 'barcode-duplicate',
      fix: 'edit-listing',
      text: 'barcode',
    })
    expect(classifyListingProblem({ code: 'something-new', field: 'x' }).code).toBe('other')
  })
})

describe('rejection texts', () => {
  it('explain every code in both languages, each in its own words', () => {
    for (const code of rejectionCodes) {
      const en = translateIn('en', rejectionMessageKey(code))
      const tr = translateIn('tr', rejectionMessageKey(code))
      expect(en, code).not.toBe(rejectionMessageKey(code))
      expect(tr, code).not.toBe(en)
    }
  })

  it('label and explain every fix in both languages', () => {
    for (const fix of publishFixes) {
      const keys = publishFixMessageKeys(fix)
      for (const key of [keys.label, keys.does]) {
        expect(translateIn('en', key), key).not.toBe(key)
        expect(translateIn('tr', key), key).not.toBe(translateIn('en', key))
      }
    }
  })
})
