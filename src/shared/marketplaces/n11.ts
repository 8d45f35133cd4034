import { brandInTitleAdvice } from './brand-advice.ts'
import { type MarketplaceProfile, mebibyte, type RuleSource } from './types.ts'

// n11 (marketplaces.md §3). Not found, so absent: image pixel size, ratio, background, count and
// formats; the REST title maximum; a description maximum; every video rule.

const restUpload: RuleSource = {
  url: 'https://magazadestek.n11.com/satis-surecleri/restapi-urun-yukleme-10393',
  confidence: 'official',
  // The page shows no date; read by about October 2026.
  date: '2026-10',
}

export const n11: MarketplaceProfile = {
  id: 'n11',
  image: {
    // "max 10 MB (10,240 KB)": KB of 1024 bytes.
    all: { maxBytes: { value: 10 * mebibyte, source: restUpload } },
  },
  video: {},
  copy: {
    titleMin: {
      value: 15,
      source: {
        url: 'https://developer.n11.com/documentation/bilgilendirme/api-hata-mesajlari-ve-aciklamalari/',
        confidence: '3p',
        date: '2026-10',
        note: "n11's API error list, as summarised in loncadev/lonca's research notes (not read directly)",
      },
    },
    titleMax: {
      value: 65,
      source: {
        url: 'https://github.com/yakupbaser/n11-client/blob/HEAD/src/services/types/product.js',
        confidence: 'code',
        date: '2026-10',
        note: 'Legacy SOAP API (product writes closed 2025-01-25); the REST maximum is not published',
      },
    },
    brandInTitle: brandInTitleAdvice,
  },
  // No size is published: the same square as the other profiles without one (see hepsiburada.ts).
  // The file limit is n11's.
  export: {
    width: 1500,
    height: 1500,
    background: 'extend',
    maxBytes: 10 * mebibyte,
    choice: 'vitrin-default',
    maxBytesChoice: 'rule',
  },
}
