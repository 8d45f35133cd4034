import { describe, expect, it } from 'vitest'
import { enMessages } from '#shared/i18n/locales/en/index.ts'
import { trMessages } from '#shared/i18n/locales/tr/index.ts'
import { translate } from '#shared/i18n/translate.ts'
import {
  type CheckResult,
  checkCopy,
  checkImage,
  checkImageCount,
  checkVideo,
  inMegabytes,
  type RuleId,
} from './check.ts'
import type { CopyFacts, ImageFacts, VideoFacts } from './facts.ts'
import { getProfile, marketplaceProfiles } from './profiles.ts'

const trendyol = getProfile('trendyol')
const amazon = getProfile('amazon-tr')
const etsy = getProfile('etsy')

/** A clean Amazon main image: a real photo, 2000×2000 JPEG on pure white, product filling 90 %. */
function image(overrides: Partial<ImageFacts> = {}): ImageFacts {
  return {
    width: 2000,
    height: 2000,
    bytes: 800_000,
    format: 'jpeg',
    colourSpace: 'srgb',
    borderWhiteShare: 1,
    borderPureWhiteShare: 1,
    product: { fillShare: 0.9, areaShare: 0.6, touchesEdge: false },
    isGenerated: false,
    text: [],
    ...overrides,
  }
}

function video(overrides: Partial<VideoFacts> = {}): VideoFacts {
  return {
    durationSeconds: 10,
    width: 720,
    height: 1280,
    bytes: 4_000_000,
    format: 'mp4',
    hasAudio: false,
    ...overrides,
  }
}

function copy(overrides: Partial<CopyFacts> = {}): CopyFacts {
  return {
    title: 'Vitra Seramik Kupa 350 ml Mat Beyaz',
    description: 'El yapımı seramik kupa, bulaşık makinesinde yıkanabilir.',
    features: [],
    keywords: [],
    brand: 'Vitra',
    ...overrides,
  }
}

function find(results: CheckResult[], ruleId: RuleId): CheckResult {
  const found = results.find((r) => r.ruleId === ruleId)
  if (!found) throw new Error(`no result for ${ruleId}`)
  return found
}

describe('checkImage', () => {
  it('passes a clean Amazon main image on every published rule', () => {
    const results = checkImage(amazon, image(), 'main')
    const judged = results.filter((r) => r.status !== 'not-published')
    expect(judged.map((r) => [r.ruleId, r.status])).toEqual([
      ['image.size', 'pass'],
      ['image.fileSize', 'pass'],
      ['image.format', 'pass'],
      ['image.colourSpace', 'pass'],
      ['image.background', 'pass'],
      ['image.fill', 'pass'],
      ['image.cutOff', 'pass'],
      ['image.realPhoto', 'pass'],
      ['image.text', 'pass'],
    ])
    // Amazon publishes no ratio rule (square is only a third-party hint).
    expect(find(results, 'image.ratio').status).toBe('not-published')
  })

  it('fails an off-white border on Amazon, saying it looks white but is not RGB 255', () => {
    const result = find(
      checkImage(amazon, image({ borderWhiteShare: 1, borderPureWhiteShare: 0.2 }), 'main'),
      'image.background',
    )
    expect(result).toMatchObject({
      status: 'fail',
      fix: 'white-background',
      reason: { key: 'marketplaces.reasons.backgroundOffWhite', values: { share: 20 } },
    })
  })

  it('grades background purity at the stated thresholds (≥ 98 % pass, ≥ 90 % warn, else fail)', () => {
    const status = (pure: number, near = pure) =>
      find(
        checkImage(amazon, image({ borderPureWhiteShare: pure, borderWhiteShare: near }), 'main'),
        'image.background',
      ).status
    expect(status(0.98)).toBe('pass')
    expect(status(0.97)).toBe('warn')
    expect(status(0.9)).toBe('warn')
    expect(status(0.89)).toBe('fail')
    const grey = find(
      checkImage(amazon, image({ borderPureWhiteShare: 0, borderWhiteShare: 0 }), 'main'),
      'image.background',
    )
    expect(grey.reason.key).toBe('marketplaces.reasons.backgroundNotWhite')
  })

  it('does not ask additional Amazon images for a white background', () => {
    const result = find(
      checkImage(amazon, image({ borderPureWhiteShare: 0 }), 'additional'),
      'image.background',
    )
    expect(result.status).toBe('not-published')
  })

  it('fails a product filling 60 % where Amazon asks for 85 %, and warns just under it', () => {
    const small = find(
      checkImage(amazon, image({ product: { fillShare: 0.6, areaShare: 0.3, touchesEdge: false } }), 'main'),
      'image.fill',
    )
    expect(small).toMatchObject({
      status: 'fail',
      fix: 'fill-frame',
      reason: { key: 'marketplaces.reasons.fillTooSmall', values: { share: 60, min: 85 } },
    })
    const near = find(
      checkImage(amazon, image({ product: { fillShare: 0.83, areaShare: 0.5, touchesEdge: false } }), 'main'),
      'image.fill',
    )
    expect(near.status).toBe('warn')
  })

  it('fails a product touching the edge, and leaves fill and cut-off to the eye without a mask', () => {
    const cut = checkImage(
      amazon,
      image({ product: { fillShare: 1, areaShare: 0.9, touchesEdge: true } }),
      'main',
    )
    expect(find(cut, 'image.cutOff')).toMatchObject({ status: 'fail', fix: 'add-margin' })
    const unknown = checkImage(amazon, image({ product: null }), 'main')
    expect(find(unknown, 'image.fill').status).toBe('check-by-eye')
    expect(find(unknown, 'image.cutOff').status).toBe('check-by-eye')
  })

  it('fails a 1199-px side on Trendyol (exactly 1200×1800) and passes 1200×1800', () => {
    const short = checkImage(trendyol, image({ width: 1199, height: 1800 }), 'main')
    expect(find(short, 'image.size')).toMatchObject({
      status: 'fail',
      fix: 'resize',
      reason: {
        key: 'marketplaces.reasons.sizeNotExact',
        values: { width: '1199', height: '1800', requiredWidth: '1200', requiredHeight: '1800' },
      },
    })
    // Within the 1 % ratio tolerance: only the size is wrong.
    expect(find(short, 'image.ratio').status).toBe('pass')
    const exact = checkImage(trendyol, image({ width: 1200, height: 1800 }), 'main')
    expect(find(exact, 'image.size').status).toBe('pass')
    const square = checkImage(trendyol, image({ width: 1080, height: 1080 }), 'main')
    expect(find(square, 'image.ratio')).toMatchObject({
      status: 'fail',
      reason: { values: { expected: '2:3' } },
    })
  })

  it('fails a 499-px image on Amazon and warns below the 1000-px zoom size', () => {
    expect(find(checkImage(amazon, image({ width: 499, height: 400 }), 'main'), 'image.size').status).toBe(
      'fail',
    )
    expect(find(checkImage(amazon, image({ width: 999, height: 999 }), 'main'), 'image.size')).toMatchObject({
      status: 'warn',
      reason: { key: 'marketplaces.reasons.sizeBelowZoom' },
    })
    expect(find(checkImage(amazon, image({ width: 1000, height: 800 }), 'main'), 'image.size').status).toBe(
      'pass',
    )
  })

  it('fails an AI scene as the Amazon main image and on Etsy, but only warns on Etsy additional images', () => {
    const generated = image({ isGenerated: true })
    expect(find(checkImage(amazon, generated, 'main'), 'image.realPhoto')).toMatchObject({
      status: 'fail',
      fix: 'use-original-photo',
      reason: { key: 'marketplaces.reasons.generatedScene' },
    })
    expect(find(checkImage(etsy, generated, 'main'), 'image.realPhoto').status).toBe('fail')
    expect(find(checkImage(etsy, generated, 'additional'), 'image.realPhoto').status).toBe('warn')
    expect(find(checkImage(trendyol, generated, 'main'), 'image.realPhoto').status).toBe('not-published')
  })

  it("passes the seller's own product, kept pixel for pixel, cut out onto pure white as a real photo", () => {
    const kept = { structure: 0.95, colourDelta: 1.4, shape: 0.99, changed: false }
    const onWhite = image({ isGenerated: true, productFidelity: kept, borderPureWhiteShare: 1 })
    for (const profile of [amazon, etsy]) {
      expect(find(checkImage(profile, onWhite, 'main'), 'image.realPhoto')).toMatchObject({
        status: 'pass',
        reason: { key: 'marketplaces.reasons.ownProductOnWhite' },
      })
    }
    // A changed product, an unmeasured one, or a made scene behind it is still no real photo.
    for (const facts of [
      image({ isGenerated: true, productFidelity: { ...kept, changed: true }, borderPureWhiteShare: 1 }),
      image({ isGenerated: true, borderPureWhiteShare: 1 }),
      image({ isGenerated: true, productFidelity: null, borderPureWhiteShare: 1 }),
      image({ isGenerated: true, productFidelity: kept, borderPureWhiteShare: 0.4 }),
    ]) {
      expect(find(checkImage(amazon, facts, 'main'), 'image.realPhoto').status).toBe('fail')
    }
  })

  it('reports text as check-by-eye when OCR could not run, and warns on text found', () => {
    expect(find(checkImage(amazon, image({ text: null }), 'main'), 'image.text').status).toBe('check-by-eye')
    expect(find(checkImage(amazon, image({ text: ['SALE', '50%'] }), 'main'), 'image.text')).toMatchObject({
      status: 'warn',
      reason: { key: 'marketplaces.reasons.textFound', values: { words: 'SALE, 50%' } },
    })
    expect(find(checkImage(amazon, image({ text: ['SALE'] }), 'additional'), 'image.text').reason.key).toBe(
      'marketplaces.reasons.textFoundWatermark',
    )
  })

  it('fails a file over n11’s 10 MB (10,240 KB) and passes one just under it', () => {
    const n11 = getProfile('n11')
    expect(
      find(checkImage(n11, image({ bytes: 10 * 1024 * 1024 + 1 }), 'main'), 'image.fileSize'),
    ).toMatchObject({
      status: 'fail',
      fix: 'compress',
      reason: { values: { max: 10 } },
    })
    expect(find(checkImage(n11, image({ bytes: 10 * 1024 * 1024 }), 'main'), 'image.fileSize').status).toBe(
      'pass',
    )
  })

  it('says the size of a small file in hundredths of a MB, never "0 MB"', () => {
    const values = (bytes: number) =>
      find(checkImage(amazon, image({ bytes }), 'main'), 'image.fileSize').reason.values
    expect(values(48_000)).toMatchObject({ size: 0.05 })
    expect(values(2_000)).toMatchObject({ size: 0.01 })
    expect(values(2_345_678)).toMatchObject({ size: 2.3 })
    expect(inMegabytes(0, 10_000_000)).toBe(0)
  })

  it('fails a format the marketplace does not list and a WebP on Amazon, and only warns on third-party limits', () => {
    expect(find(checkImage(amazon, image({ format: 'webp' }), 'main'), 'image.format')).toMatchObject({
      status: 'fail',
      fix: 'convert-jpeg',
    })
    // Amazon's 10 MB comes from third-party guides: a warning, not a failure.
    expect(find(checkImage(amazon, image({ bytes: 11_000_000 }), 'main'), 'image.fileSize').status).toBe(
      'warn',
    )
    expect(
      find(checkImage(amazon, image({ colourSpace: 'grey' }), 'main'), 'image.colourSpace'),
    ).toMatchObject({
      status: 'warn',
      reason: { key: 'marketplaces.reasons.colourSpaceOther' },
    })
  })

  it('checks Shopify’s ratio range and largest side', () => {
    const shopify = getProfile('shopify')
    expect(find(checkImage(shopify, image({ width: 4473, height: 100 }), 'main'), 'image.size').status).toBe(
      'fail',
    )
    expect(find(checkImage(shopify, image({ width: 4000, height: 30 }), 'main'), 'image.ratio').status).toBe(
      'fail',
    )
    expect(
      find(checkImage(shopify, image({ width: 2048, height: 2048 }), 'main'), 'image.ratio').status,
    ).toBe('pass')
  })

  it('counts images against the marketplace’s maximum', () => {
    expect(checkImageCount(trendyol, 8).status).toBe('pass')
    expect(checkImageCount(trendyol, 9)).toMatchObject({
      status: 'fail',
      reason: { values: { count: 9, max: 8 } },
    })
    expect(checkImageCount(getProfile('ciceksepeti'), 30).status).toBe('not-published')
  })
})

describe('checkVideo', () => {
  it('fails a 7.9 s video under Trendyol’s 8 s floor', () => {
    expect(find(checkVideo(trendyol, video({ durationSeconds: 7.9 })), 'video.duration')).toMatchObject({
      status: 'fail',
      fix: 'lengthen-video',
      reason: { key: 'marketplaces.reasons.durationTooShort', values: { seconds: 7.9, min: 8 } },
    })
  })

  it('warns on an 8.0 s video, exactly on the floor, and passes one past the margin', () => {
    expect(find(checkVideo(trendyol, video({ durationSeconds: 8.0 })), 'video.duration')).toMatchObject({
      status: 'warn',
      fix: 'lengthen-video',
      reason: { key: 'marketplaces.reasons.durationAtMinimum' },
    })
    expect(find(checkVideo(trendyol, video({ durationSeconds: 8.2 })), 'video.duration').status).toBe('pass')
    expect(find(checkVideo(trendyol, video({ durationSeconds: 120.5 })), 'video.duration')).toMatchObject({
      status: 'fail',
      fix: 'shorten-video',
    })
  })

  it('checks format and size on Trendyol and reports its unpublished resolution and ratio', () => {
    const results = checkVideo(trendyol, video({ format: 'webm', bytes: 600_000_000 }))
    expect(find(results, 'video.format').status).toBe('fail')
    expect(find(results, 'video.fileSize').status).toBe('fail')
    expect(find(results, 'video.resolution').status).toBe('not-published')
    expect(find(results, 'video.ratio').status).toBe('not-published')
  })

  it('warns that a 9:16 720p video misses Amazon’s third-party 16:9 and 1280×720 hints', () => {
    const results = checkVideo(amazon, video())
    expect(find(results, 'video.ratio').status).toBe('warn')
    expect(find(results, 'video.resolution').status).toBe('pass')
    expect(find(checkVideo(amazon, video({ width: 640, height: 360 })), 'video.resolution').status).toBe(
      'warn',
    )
    expect(find(results, 'video.duration').status).toBe('not-published')
  })
})

describe('checkCopy', () => {
  it('fails a 101-character Trendyol title and passes 100, counting code points', () => {
    const long = find(checkCopy(trendyol, copy({ title: 'ğ'.repeat(101) })), 'copy.titleLength')
    expect(long).toMatchObject({
      status: 'fail',
      fix: 'shorten-title',
      reason: { key: 'marketplaces.reasons.titleTooLong', values: { length: 101, max: 100 } },
    })
    // 100 emoji are 200 UTF-16 units but 100 characters.
    expect(find(checkCopy(trendyol, copy({ title: '🙂'.repeat(100) })), 'copy.titleLength').status).toBe(
      'pass',
    )
  })

  it('fails a missing description on Trendyol, where it is required', () => {
    expect(find(checkCopy(trendyol, copy({ description: '  ' })), 'copy.descriptionLength').status).toBe(
      'fail',
    )
  })

  it('fails a title with ! on Amazon and names the character', () => {
    const result = find(checkCopy(amazon, copy({ title: 'Vitra Seramik Kupa!' })), 'copy.titleCharacters')
    expect(result).toMatchObject({
      status: 'fail',
      fix: 'remove-characters',
      reason: { key: 'marketplaces.reasons.charactersForbidden', values: { chars: '!' } },
    })
    expect(find(checkCopy(amazon, copy()), 'copy.titleCharacters').status).toBe('pass')
  })

  it('warns on an ALL-CAPS word, with Turkish casing, but not on short words, numbers, acronyms or the brand', () => {
    const caps = find(checkCopy(amazon, copy({ title: 'Vitra KIRMIZI Seramik Kupa' })), 'copy.allCaps')
    expect(caps).toMatchObject({ status: 'warn', fix: 'fix-caps', reason: { values: { words: 'KIRMIZI' } } })
    const dotted = find(checkCopy(amazon, copy({ title: 'Vitra İNCE Kupa' })), 'copy.allCaps')
    expect(dotted.reason.values).toEqual({ words: 'İNCE' })
    const fine = find(
      checkCopy(amazon, copy({ title: 'VITRA Kupa 350 ML USB HDMI Kablo 4K XPRO2000', brand: 'VITRA' })),
      'copy.allCaps',
    )
    expect(fine.status).toBe('pass')
  })

  it('fails a promotional word in Turkish on Amazon, suffixed or in capitals', () => {
    const result = find(
      checkCopy(amazon, copy({ title: 'Vitra Seramik Kupa İndirimli' })),
      'copy.promotional',
    )
    expect(result).toMatchObject({
      status: 'fail',
      fix: 'remove-promotional',
      reason: { values: { phrases: '“indirim”' } },
    })
    const shipping = find(checkCopy(amazon, copy({ title: 'Vitra Kupa ÜCRETSİZ KARGO' })), 'copy.promotional')
    expect(shipping.status).toBe('fail')
    const english = find(checkCopy(amazon, copy({ title: 'Vitra Mug FREE SHIPPING' })), 'copy.promotional')
    expect(english.reason.values).toEqual({ phrases: '“free shipping”' })
    expect(find(checkCopy(amazon, copy()), 'copy.promotional').status).toBe('pass')
  })

  it('warns on a word repeated more than twice on Amazon (a third-party rule), stop words aside', () => {
    const repeated = find(
      checkCopy(amazon, copy({ title: 'Vitra Kupa Seramik Kupa Çay Kupa' })),
      'copy.repeatedWords',
    )
    expect(repeated).toMatchObject({ status: 'warn', reason: { values: { words: 'kupa', max: 2 } } })
    const stop = find(
      checkCopy(amazon, copy({ title: 'Vitra Kupa ve Tabak ve Kase ve Bardak' })),
      'copy.repeatedWords',
    )
    expect(stop.status).toBe('pass')
  })

  it('warns when the known brand is missing from the title, and leaves an unknown brand to the eye', () => {
    const missing = find(checkCopy(trendyol, copy({ brand: 'Paşabahçe' })), 'copy.brand')
    expect(missing).toMatchObject({
      status: 'warn',
      fix: 'add-brand',
      source: { vitrin: true },
      reason: { values: { brand: 'Paşabahçe' } },
    })
    expect(
      find(checkCopy(trendyol, copy({ title: 'PAŞABAHÇE Bardak', brand: 'Paşabahçe' })), 'copy.brand').status,
    ).toBe('pass')
    expect(find(checkCopy(trendyol, copy({ brand: null })), 'copy.brand').status).toBe('check-by-eye')
  })

  it('fails Etsy’s % twice and passes it once', () => {
    const twice = find(
      checkCopy(etsy, copy({ title: '100% Cotton Tote, 50% Off Pattern' })),
      'copy.titleOnceOnly',
    )
    expect(twice).toMatchObject({ status: 'fail', reason: { values: { chars: '%' } } })
    expect(find(checkCopy(etsy, copy({ title: '100% Cotton Tote' })), 'copy.titleOnceOnly').status).toBe(
      'pass',
    )
  })

  it('fails characters outside Etsy’s allowed set and checks its tags', () => {
    expect(find(checkCopy(etsy, copy({ title: 'Cotton Tote ★' })), 'copy.titleCharacters')).toMatchObject({
      status: 'fail',
      reason: { key: 'marketplaces.reasons.charactersNotAllowed', values: { chars: '★' } },
    })
    expect(
      find(checkCopy(etsy, copy({ title: 'Cotton Tote™ – Blue, 40×30 cm' })), 'copy.titleCharacters').status,
    ).toBe('pass')
    const tags = Array.from({ length: 14 }, (_, i) => `tag ${i}`)
    expect(find(checkCopy(etsy, copy({ keywords: tags })), 'copy.tags').status).toBe('warn')
    expect(
      find(checkCopy(etsy, copy({ keywords: ['a very long tag indeed over'] })), 'copy.tags').status,
    ).toBe('warn')
    expect(find(checkCopy(etsy, copy({ keywords: ['tote!'] })), 'copy.tagCharacters').status).toBe('fail')
  })

  it('warns on a title over Amazon’s advised 80 characters and fails one over 200', () => {
    expect(
      find(checkCopy(amazon, copy({ title: `Vitra ${'a'.repeat(80)}` })), 'copy.titleLength').status,
    ).toBe('warn')
    expect(
      find(checkCopy(amazon, copy({ title: `Vitra ${'a'.repeat(200)}` })), 'copy.titleLength').status,
    ).toBe('fail')
  })

  it('only warns on n11’s title lengths, which come from code and a third party', () => {
    const n11 = getProfile('n11')
    expect(find(checkCopy(n11, copy({ title: 'Vitra Kupa' })), 'copy.titleLength')).toMatchObject({
      status: 'warn',
      reason: { key: 'marketplaces.reasons.titleTooShort' },
    })
    expect(find(checkCopy(n11, copy({ title: `Vitra ${'a'.repeat(70)}` })), 'copy.titleLength').status).toBe(
      'warn',
    )
  })
})

describe('rules a marketplace does not publish', () => {
  it('come back as not-published, with no source, for everything the checker always looks at', () => {
    const ciceksepeti = getProfile('ciceksepeti')
    const results = [
      ...checkImage(ciceksepeti, image({ isGenerated: true, borderPureWhiteShare: 0 }), 'main'),
      ...checkVideo(ciceksepeti, video({ durationSeconds: 1 })),
      ...checkCopy(ciceksepeti, copy({ title: 'KIRMIZI KUPA!!! indirim' })),
    ]
    const notPublished = results.filter((r) => r.ruleId !== 'copy.brand')
    expect(notPublished.length).toBe(10 + 5 + 6)
    for (const r of notPublished) {
      expect(r).toEqual({
        ruleId: r.ruleId,
        status: 'not-published',
        reason: { key: 'marketplaces.reasons.notPublished', values: {} },
        source: null,
      })
    }
  })

  it('are not checked against invented values on Trendyol (file size, format, background)', () => {
    const results = checkImage(
      trendyol,
      image({ width: 1200, height: 1800, bytes: 50_000_000, format: 'webp' }),
      'main',
    )
    expect(find(results, 'image.fileSize').status).toBe('not-published')
    expect(find(results, 'image.format').status).toBe('not-published')
    expect(find(results, 'image.background').status).toBe('not-published')
    const copyResults = checkCopy(trendyol, copy({ title: 'Vitra KUPA indirim!' }))
    expect(find(copyResults, 'copy.promotional').status).toBe('not-published')
    expect(find(copyResults, 'copy.allCaps').status).toBe('not-published')
    expect(find(copyResults, 'copy.titleCharacters').status).toBe('not-published')
  })
})

describe('checkImage: product fidelity (Vitrin check)', () => {
  const kept = { structure: 0.95, colourDelta: 1.4, shape: 0.99, changed: false }
  const fidelityOf = (facts: Partial<ImageFacts>) =>
    checkImage(trendyol, image({ isGenerated: true, ...facts }), 'main').find(
      (r) => r.ruleId === 'image.fidelity',
    )

  it('passes a generated image whose product matches the photo, as Vitrin advice', () => {
    expect(fidelityOf({ productFidelity: kept })).toMatchObject({
      status: 'pass',
      reason: { key: 'marketplaces.reasons.productKept' },
      source: { vitrin: true },
    })
  })

  it('warns (never fails) when the product changed, with the keep-product fix', () => {
    const result = fidelityOf({ productFidelity: { ...kept, structure: 0.2, changed: true } })
    expect(result).toMatchObject({
      status: 'warn',
      fix: 'keep-product',
      reason: { key: 'marketplaces.reasons.productChanged' },
    })
  })

  it('asks for a look by eye when the product could not be outlined', () => {
    expect(fidelityOf({ productFidelity: null })?.status).toBe('check-by-eye')
  })

  it('leaves the rule out for the seller’s own photo and when there was nothing to compare with', () => {
    expect(fidelityOf({})).toBeUndefined()
    const photo = checkImage(trendyol, image({ isGenerated: false, productFidelity: kept }), 'main')
    expect(photo.find((r) => r.ruleId === 'image.fidelity')).toBeUndefined()
  })
})

describe('reasons name their limit, passing or not', () => {
  const en = (result: CheckResult) => translate(enMessages, 'en', result.reason.key, result.reason.values)
  const tr = (result: CheckResult) => translate(trMessages, 'tr', result.reason.key, result.reason.values)

  it('says "Title: 53 of 200 characters" for a 53-character title on Amazon', () => {
    const title = 'Vitra El Yapımı Seramik Kupa 350 ml Mat Beyaz Kahve'.padEnd(53, 'x')
    const result = find(checkCopy(amazon, copy({ title })), 'copy.titleLength')
    expect(result.status).toBe('pass')
    expect(en(result)).toBe('Title: 53 of 200 characters.')
    expect(tr(result)).toBe('Başlık: 53 / 200 karakter.')
  })

  it("names every profile's published limit in the passing text of titles, descriptions, sizes and videos", () => {
    for (const profile of marketplaceProfiles) {
      const { copy: rules, video: videoRules } = profile
      const title = find(checkCopy(profile, copy()), 'copy.titleLength')
      const titleLimit = rules.titleMax ?? rules.titleAdvisedMax ?? rules.titleMin
      if (titleLimit) {
        expect(title.status, profile.id).toBe('pass')
        expect(en(title), profile.id).toContain(String(titleLimit.value))
      }
      const description = find(checkCopy(profile, copy()), 'copy.descriptionLength')
      if (rules.descriptionMax) {
        expect(en(description), profile.id).toContain(rules.descriptionMax.value.toLocaleString('en-US'))
      }
      const fitting = {
        durationSeconds: Math.max((videoRules.minSeconds?.value ?? 0) + 1, 10),
        width: Math.max(videoRules.minResolution?.value.width ?? 0, 1080),
        height: Math.max(videoRules.minResolution?.value.height ?? 0, 1920),
      }
      const results = checkVideo(profile, video(fitting))
      const duration = find(results, 'video.duration')
      if (videoRules.minSeconds || videoRules.maxSeconds) expect(duration.status, profile.id).toBe('pass')
      for (const limit of [videoRules.minSeconds, videoRules.maxSeconds]) {
        if (limit) expect(en(duration), profile.id).toContain(limit.value.toLocaleString('en-US'))
      }
      const resolution = find(results, 'video.resolution')
      for (const limit of [videoRules.minResolution, videoRules.maxResolution]) {
        if (limit) expect(en(resolution), profile.id).toContain(`${limit.value.width}×${limit.value.height}`)
      }
      for (const result of [title, description, duration, resolution]) {
        expect(en(result), `${profile.id} ${result.ruleId}`).not.toContain('{{')
        expect(tr(result), `${profile.id} ${result.ruleId}`).not.toContain('{{')
      }
    }
  })

  it('names the size floor and ceiling and the pure-white share a passing Amazon image was held to', () => {
    const results = checkImage(amazon, image(), 'main')
    const size = find(results, 'image.size')
    expect(size.status).toBe('pass')
    expect(en(size)).toBe('2000×2000 px: the longest side is 2000 px, within 1000–10000 px.')
    const background = find(results, 'image.background')
    expect(background.status).toBe('pass')
    expect(en(background)).toBe('100% of the border is pure white (RGB 255); at least 98% is needed.')
    expect(
      en(find(checkImage(amazon, image({ borderPureWhiteShare: 0.5 }), 'main'), 'image.background')),
    ).toContain('at least 98%')
  })

  it("names Etsy's tag count and length, and Amazon's forbidden characters, when they pass", () => {
    const tags = find(checkCopy(etsy, copy({ keywords: ['kupa', 'seramik'] })), 'copy.tags')
    expect(en(tags)).toBe('2 of 13 tags, each at most 20 characters.')
    const characters = find(checkCopy(amazon, copy()), 'copy.titleCharacters')
    expect(characters.status).toBe('pass')
    expect(en(characters)).toContain('! $ ?')
  })
})
