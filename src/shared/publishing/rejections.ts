import { foldHeader } from '#shared/catalogue/columns.ts'
import type { IntegrationMarketplace } from '#shared/contracts/integrations.ts'
import type { TKey } from '#shared/i18n/messages.ts'
import type { FixAction } from '#shared/marketplaces/check.ts'

// Why a marketplace refused a product, in the seller's language, and what Vitrin can do about it.
// The marketplaces answer in their own Turkish words (Trendyol's failureReasons and reviewers'
// rejectReasonDetails, Hepsiburada's import messages and rejectReasonsMessages) and publish no
// catalogue of them, so a reason is recognised by the words it is about (görsel, başlık, barkod …)
// and what it says of them (eksik, en fazla, geçersiz …), folded so that case and Turkish letters do
// not matter; never by whole sentences, which the marketplaces may word differently tomorrow. What
// is not recognised is `other`, and the marketplace's own words are always kept beside the code.

export const rejectionCodes = [
  'image-size',
  'image-unreachable',
  'image-not-https',
  'image-format',
  'images-missing',
  'images-too-many',
  'image-background',
  'image-content',
  'image-rejected',
  'title-missing',
  'title-too-long',
  'title-rejected',
  'description-missing',
  'description-too-long',
  'description-rejected',
  'forbidden-words',
  'banned-product',
  'brand-unknown',
  'brand-authority',
  'counterfeit',
  'category-unknown',
  'category-not-leaf',
  'wrong-category',
  'attribute-missing',
  'attribute-value-invalid',
  'attribute-unknown',
  'barcode-invalid',
  'barcode-duplicate',
  'stock-code-invalid',
  'price-invalid',
  'list-price-below-sale',
  'stock-invalid',
  'vat-invalid',
  'desi-invalid',
  'origin-missing',
  'warranty-missing',
  /** An image fails the pre-publish checklist on a rule its export does not fix (blocked here only). */
  'checker-failed',
  /** The marketplace could not fetch the listing's video, or not over HTTPS. */
  'video-unreachable',
  'video-format',
  'video-rejected',
  'lot-number-invalid',
  'duplicate-product',
  'missing-content',
  'incorrect-entry',
  'regulatory',
  'variant-grouping',
  'personalised-product',
  'universal-product',
  'marketplace-standards',
  'not-on-marketplace',
  'already-approved',
  'account-mismatch',
  'other',
] as const
export type RejectionCode = (typeof rejectionCodes)[number]

/**
 * What Vitrin can do for the seller in one click: render the images again in the marketplace
 * preset's size (and publish them at their public HTTPS address), fit the title or description to
 * the marketplace's limit, open the attribute form at that attribute, run the pre-publish
 * checker's own fix (`checkerAction`), pick the category or brand again, or open the listing's
 * fields (barcode, price, stock, VAT, desi, origin …).
 */
export const publishFixes = [
  're-export-images',
  'fit-title',
  'fit-description',
  'attribute-form',
  'checker-fix',
  'choose-category',
  'choose-brand',
  'edit-listing',
] as const
export type PublishFix = (typeof publishFixes)[number]

/** Each code's fix; null where only the seller (or the marketplace's support) can act. */
export const rejectionFixes: Record<RejectionCode, PublishFix | null> = {
  'image-size': 're-export-images',
  'image-unreachable': 're-export-images',
  'image-not-https': 're-export-images',
  'image-format': 're-export-images',
  'images-missing': 're-export-images',
  'images-too-many': 're-export-images',
  'image-background': 'checker-fix',
  'image-content': null,
  'image-rejected': null,
  'title-missing': 'fit-title',
  'title-too-long': 'fit-title',
  'title-rejected': null,
  'description-missing': 'fit-description',
  'description-too-long': 'fit-description',
  'description-rejected': null,
  'forbidden-words': 'checker-fix',
  'banned-product': null,
  'brand-unknown': 'choose-brand',
  'brand-authority': null,
  counterfeit: null,
  'category-unknown': 'choose-category',
  'category-not-leaf': 'choose-category',
  'wrong-category': 'choose-category',
  'attribute-missing': 'attribute-form',
  'attribute-value-invalid': 'attribute-form',
  'attribute-unknown': 'attribute-form',
  'barcode-invalid': 'edit-listing',
  'barcode-duplicate': 'edit-listing',
  'stock-code-invalid': 'edit-listing',
  'price-invalid': 'edit-listing',
  'list-price-below-sale': 'edit-listing',
  'stock-invalid': 'edit-listing',
  'vat-invalid': 'edit-listing',
  'desi-invalid': 'edit-listing',
  'origin-missing': 'edit-listing',
  'warranty-missing': 'edit-listing',
  // The image's own checklist (the marketplace panel) names the rule and its fix.
  'checker-failed': null,
  // The product goes without its video when published again without it; nothing to render.
  'video-unreachable': null,
  'video-format': null,
  'video-rejected': null,
  'lot-number-invalid': 'edit-listing',
  'duplicate-product': null,
  'missing-content': null,
  'incorrect-entry': null,
  regulatory: null,
  'variant-grouping': null,
  'personalised-product': null,
  'universal-product': null,
  'marketplace-standards': null,
  'not-on-marketplace': null,
  'already-approved': null,
  'account-mismatch': null,
  other: null,
}

/** For a `checker-fix`, which of the pre-publish checker's fixes it runs (check.ts). */
export const rejectionCheckerActions: Partial<Record<RejectionCode, FixAction>> = {
  'image-background': 'white-background',
  'forbidden-words': 'remove-promotional',
}

/**
 * The checker fixes a resubmission makes by itself (server resubmit.service.ts): taking the
 * promotional words out of the copy. The others (a white background) make a new image, which is
 * the seller's to make in the image's checklist before resubmitting.
 */
export const resubmitCheckerActions: readonly FixAction[] = ['remove-promotional']

/** Whether Fix and resubmit makes this rejection's fix by itself, with nothing to ask. */
export function isMadeOnResubmit(rejection: Pick<Rejection, 'fix' | 'checkerAction'>): boolean {
  if (rejection.fix === 'checker-fix')
    return rejection.checkerAction !== undefined && resubmitCheckerActions.includes(rejection.checkerAction)
  return (
    rejection.fix === 're-export-images' ||
    rejection.fix === 'fit-title' ||
    rejection.fix === 'fit-description'
  )
}

export type Rejection = {
  code: RejectionCode
  /** The attribute the reason names, as the marketplace names it ("Renk"), when it names one. */
  attribute?: string
  fix: PublishFix | null
  /** The checker's fix a `checker-fix` runs. */
  checkerAction?: FixAction
  /** The marketplace's own words, always shown beside the explanation. */
  text: string
}

/**
 * The text folded one character at a time with the catalogue's header folding (case, Turkish
 * letters and accents away; other characters a space, but for the punctuation that separates a
 * reason's parts), so that a position in it is the same position in the original text and a name
 * found in the folded text is cut from the original.
 */
function foldAligned(text: string): string {
  let folded = ''
  for (const char of text.split('')) {
    folded += foldHeader(char).charAt(0) || (':.;()'.includes(char) ? char : ' ')
  }
  return folded
}

/** Addresses carry arbitrary words (a file called "baslik.jpg"); they are never part of a reason. */
function withoutAddresses(text: string): string {
  return text.replace(/\b(?:https?|ftp):\/\/\S+/gi, (url) => ' '.repeat(url.length))
}

// The words a reason is about, folded.
const image = /\b(gorsel\w*|images?\d*|resim\w*|foto\w*)\b/
const video = /\b(video\w*)\b/
const title = /\b(basli\w*|title|urun ?adi\w*)\b/
const description = /\b(aciklama\w*|urunaciklamasi|description)\b/
const barcode = /\b(barkod\w*|barcode|ean|gtin)\b/
const category = /\b(kategori\w*|category\w*)\b/
const attribute = /\bozelli\w*/
const missing = /\b(zorunlu\w*|eksik|bos|en az bir|girilme\w*|gonderilmeli\w*|belirtilme\w*)\b/
const tooLong = /\b(en fazla|uzun|asmamali|asiyor|karakter\w*)\b/

type Rule = { code: RejectionCode; all: RegExp[] }
const rule = (code: RejectionCode, ...all: RegExp[]): Rule => ({ code, all })

/** First match wins: the more particular a rule, the earlier it stands. */
const rules: Rule[] = [
  rule('banned-product', /\b(satisi yasak\w*|yasakli urun|satisi kapali)\b/),
  rule('forbidden-words', /\b(yasakli|yasak kelime\w*|tanitim amacli|promosyon\w*|reklam\w*|yaniltici)\b/),
  rule('lot-number-invalid', /\b(lotnumber|lot numara\w*|parti numara\w*)\b/),
  rule('variant-grouping', /\b(asorti|gruplama\w*|varyant grup\w*|karisik urun)\b/),
  // Attributes before images: "Renk özelliği görseldeki ürünle uyuşmuyor" is about the colour.
  rule('attribute-unknown', /\b(olmayan bir ozellik|ozellik bulunamadi|tanimsiz ozellik)\b/),
  rule('attribute-missing', attribute, missing),
  rule(
    'attribute-value-invalid',
    attribute,
    /\b(gecersiz|hatali|yanlis|uyusmuyor|birden fazla deger|degerlerinden)\b/,
  ),
  rule('attribute-value-invalid', /\bdegeri (en fazla|gecersiz)\b/),
  // Videos before images: "Video1 bir video değil …" is not about an image.
  rule('video-format', video, /\b(bicim\w*|format\w*|desteklenmiyor|uzanti\w*|video degil)\b/),
  rule(
    'video-unreachable',
    video,
    /\b(ssl|https|url|download|indirilemedi|indirilemiyor|erisilemedi|erisilemiyor|ulasilamadi|acilamadi)\b/,
  ),
  rule('video-rejected', video),
  rule('image-not-https', image, /\b(ssl|https)\b/),
  rule(
    'image-unreachable',
    image,
    /\b(indirilemedi|indirilemiyor|erisilemedi|erisilemiyor|ulasilamadi|acilamadi|yuklenemedi)\b/,
  ),
  rule('image-format', image, /\b(bicim\w*|format\w*|desteklenmiyor|uzanti\w*|gorsel degil)\b/),
  rule('image-size', image, /\b(boyut\w*|cozunurluk\w*|piksel|px|\d{3,4} ?x ?\d{3,4}|olcu\w*|en boy)\b/),
  rule('images-too-many', image, /\b(en fazla|fazla)\b/),
  rule('images-missing', image, missing),
  rule('image-background', image, /\b(beyaz|arka ?plan\w*|fon\w*|zemin\w*)\b/),
  rule(
    'image-content',
    image,
    /\b(logo\w*|yazi\w*|filigran\w*|watermark|baska|gostermiyor|sakincali|uygun degil|uyusmuyor|alakasiz|kolaj|bulanik)\b/,
  ),
  rule('image-rejected', image),
  rule('duplicate-product', /\b(mukerrer urun|ayni urun|kopya urun|baska bir barkod\w*)\b/),
  rule('brand-authority', /\b(yetki belge\w*|marka yetki\w*|yetkili satici\w*|marka sahibi)\b/),
  rule('counterfeit', /\b(sahte|taklit|replika|orijinal\w*)\b/),
  rule('missing-content', /\b(eksik urun icerig\w*|eksik icerik)\b/),
  rule('incorrect-entry', /\byanlis urun giris\w*/),
  rule('personalised-product', /\bkisiye ozel\b/),
  rule('universal-product', /\buniversal\b/),
  rule('regulatory', /\b(yasal|mevzuat\w*)\b/),
  rule('not-on-marketplace', /\burun bulunamadi\b/),
  rule('already-approved', /\bonayli urun\w*/),
  rule(
    'account-mismatch',
    /\b(merchant|magaza|satici)\b.*\bkimlik dogrulama\w*|\bkimlik dogrulama\w*.*\b(merchant|magaza|satici)\b/,
  ),
  rule('title-too-long', title, tooLong),
  rule('title-missing', title, missing),
  rule('title-rejected', title),
  rule('description-too-long', description, tooLong),
  rule('description-missing', description, missing),
  rule('description-rejected', description),
  rule(
    'barcode-duplicate',
    barcode,
    /\b(kayitli\w*|birden fazla kez|zaten|mukerrer|kullanilmakta\w*|kullaniliyor|ayni)\b/,
  ),
  rule('barcode-invalid', barcode),
  rule(
    'stock-code-invalid',
    /\b(stok kodu|stockcode|model kodu|productmainid|merchantsku|satici stok kodu)\b/,
  ),
  rule('category-not-leaf', category, /\b(en alt|alt kategori\w*|leaf|seviye\w*)\b/),
  rule('wrong-category', category, /\b(hatali|yanlis|degisim\w*|uygun degil)\b/),
  rule('category-unknown', category),
  rule('brand-unknown', /\b(marka\w*|brand\w*)\b/),
  rule(
    'list-price-below-sale',
    /\b(satis fiyati\w*|saleprice)\b.*\b(liste fiyat\w*|listprice)\b.*\bbuyuk olamaz\b/,
  ),
  rule('list-price-below-sale', /\b(liste fiyat\w*|listprice)\b.*\b(kucuk olamaz|dusuk olamaz)\b/),
  rule('vat-invalid', /\b(kdv\w*|vatrate|vat|tax)\b/),
  rule('price-invalid', /\b(fiyat\w*|price|listprice|saleprice)\b/),
  rule('stock-invalid', /\b(stok\w*|stock|quantity|adet\w*)\b/),
  rule('desi-invalid', /\b(desi|dimensionalweight|kg|agirlik\w*)\b/),
  rule('origin-missing', /\b(mensei\w*|origin)\b/),
  rule('warranty-missing', /\b(garanti\w*)\b/),
  rule('wrong-category', /\b(hatali|yanlis) (urun tipi|kategori\w*)\b/),
  rule('marketplace-standards', /\bstandart\w*/),
  // Hepsiburada's import names any other field by its id: "<field> için geçersiz değer: …",
  // "<field> alanı zorunludur".
  rule('attribute-value-invalid', /\bicin gecersiz deger\b/),
  rule('attribute-missing', /\balani zorunlu\w*/),
]

/**
 * Hepsiburada's lockReasons by their documented names (changelog Ocak 2025), should a message
 * carry the name rather than its Turkish label.
 */
const lockReasonCodes: Record<string, RejectionCode> = {
  bannedproduct: 'banned-product',
  catalogexchange: 'wrong-category',
  duplicateproduct: 'duplicate-product',
  incorrectproductentry: 'incorrect-entry',
  missingproductcontent: 'missing-content',
  counterfeitproduct: 'counterfeit',
  regulative: 'regulatory',
  assortment: 'variant-grouping',
  barcodeerror: 'barcode-invalid',
  branderror: 'brand-unknown',
  productdescriptionerror: 'description-rejected',
  productnameerror: 'title-rejected',
  personalproducterror: 'personalised-product',
  groupingoptionerror: 'variant-grouping',
  wrongcategoryerror: 'wrong-category',
  universalproducterror: 'universal-product',
  wrongproductattribute: 'attribute-value-invalid',
  imageerror: 'image-rejected',
}

const attributeCodes = new Set<RejectionCode>([
  'attribute-missing',
  'attribute-value-invalid',
  'attribute-unknown',
])

/** The attribute a reason names: "eksik: Renk", "Renk özelliği …", "Renk için geçersiz değer", "Renk değeri …", "X alanı zorunludur". */
function attributeNamed(text: string, folded: string): string | undefined {
  const patterns = [
    /\b(?:eksik|girilmemis|girilmedi|belirtilmemis)(?: bilgi)? *: *([^.:;(]+)/,
    /(?:^|[:.;] *)([^:.;]+?) +(?:ozelligi|ozelliginin|ozelligine|icin gecersiz|degeri|alani zorunlu)(?![a-z])/,
  ]
  for (const pattern of patterns) {
    const match = pattern.exec(folded)
    if (!match?.[1]) continue
    const start = match.index + match[0].indexOf(match[1])
    const name = text.slice(start, start + match[1].length).trim()
    if (name !== '') return name
  }
  return undefined
}

/** The code a marketplace's reason text stands for, with the attribute it names and the fix. */
export function classifyReason(marketplace: IntegrationMarketplace, text: string): Rejection {
  // Both marketplaces answer in Turkish and share the vocabulary; the marketplace is kept in the
  // signature for the day their words part.
  void marketplace
  const folded = foldAligned(withoutAddresses(text))
  const tokens = folded.split(/ +/)
  const code =
    tokens.map((token) => lockReasonCodes[token]).find((found) => found !== undefined) ??
    rules.find((candidate) => candidate.all.every((pattern) => pattern.test(folded)))?.code ??
    'other'
  return rejectionOf(code, text, attributeCodes.has(code) ? attributeNamed(text, folded) : undefined)
}

function rejectionOf(code: RejectionCode, text: string, attribute?: string): Rejection {
  const checkerAction = rejectionCheckerActions[code]
  return {
    code,
    ...(attribute === undefined ? {} : { attribute }),
    fix: rejectionFixes[code],
    ...(checkerAction === undefined ? {} : { checkerAction }),
    text,
  }
}

/**
 * A problem that kept a listing from being sent (the server's listing.ts `listingProblemCodes`),
 * as the same codes a marketplace's refusal gets, so a row blocked here and a row refused there
 * read and fix alike.
 */
export const listingProblemRejections: Record<string, RejectionCode> = {
  'barcode-invalid': 'barcode-invalid',
  'key-duplicate': 'barcode-duplicate',
  'stock-code-invalid': 'stock-code-invalid',
  'title-missing': 'title-missing',
  'description-missing': 'description-missing',
  'brand-unknown': 'brand-unknown',
  'category-invalid': 'category-unknown',
  'price-invalid': 'price-invalid',
  'list-price-below-sale': 'list-price-below-sale',
  'stock-invalid': 'stock-invalid',
  'desi-invalid': 'desi-invalid',
  'images-missing': 'images-missing',
  'image-not-https': 'image-not-https',
  'video-not-https': 'video-unreachable',
  'attribute-invalid': 'attribute-value-invalid',
  'attribute-missing': 'attribute-missing',
  'vat-invalid': 'vat-invalid',
  'origin-missing': 'origin-missing',
  'warranty-missing': 'warranty-missing',
  'checker-failed': 'checker-failed',
}

/** A listing problem ({ code, field }) as a rejection; `text` is the field it is about. */
export function classifyListingProblem(problem: { code: string; field: string }): Rejection {
  const code = listingProblemRejections[problem.code] ?? 'other'
  const attribute = problem.field.startsWith('attributes.')
    ? problem.field.slice('attributes.'.length)
    : undefined
  return rejectionOf(code, problem.field, attributeCodes.has(code) ? attribute : undefined)
}

/** Where a code's explanation is, in the `publishing` messages. */
export function rejectionMessageKey(code: RejectionCode): TKey {
  return `publishing.rejections.codes.${code}`
}

/** Where a fix's button label and its one-line description are. */
export function publishFixMessageKeys(fix: PublishFix): { label: TKey; does: TKey } {
  return {
    label: `publishing.rejections.fixes.${fix}.label`,
    does: `publishing.rejections.fixes.${fix}.does`,
  }
}
