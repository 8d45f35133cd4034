// The reference data the Hepsiburada fake serves: a few leaf categories with real-looking Turkish
// paths and their attributes, in the catalogue API's shapes (BaseCategoryDTO, AttributeDTO). The
// ids, paths and attribute choices are the fake's own.

export type HepsiburadaAttribute = {
  id: string
  name: string
  mandatory: boolean
  /** 'string' | 'enum' | 'integer' | 'decimal' … ; enum attributes have values (…/values). */
  type: string
  multiValue: boolean
  values?: string[]
}

export type HepsiburadaCategory = {
  categoryId: number
  name: string
  displayName: string
  parentCategoryId: number | null
  paths: string[]
  leaf: boolean
  status: 'ACTIVE' | 'INACTIVE' | 'ARCHIVED'
  available: boolean
  type: 'HB'
}

function category(
  categoryId: number,
  parentCategoryId: number | null,
  paths: string[],
  leaf: boolean,
): HepsiburadaCategory {
  const name = paths.at(-1) ?? ''
  return {
    categoryId,
    name,
    displayName: name,
    parentCategoryId,
    paths,
    leaf,
    status: 'ACTIVE',
    available: true,
    type: 'HB',
  }
}

const home = ['Ev, Yaşam, Kırtasiye, Ofis', 'Mutfak Gereçleri', 'Çay ve Kahve Fincanları']
const women = ['Giyim / Ayakkabı', 'Kadın Giyim']

export const hepsiburadaCategories: HepsiburadaCategory[] = [
  category(60000001, null, home.slice(0, 1), false),
  category(60000010, 60000001, home.slice(0, 2), false),
  category(60000100, 60000010, home, false),
  category(60001001, 60000100, [...home, 'Fincan Takımları'], true),
  category(60001002, 60000100, [...home, 'Kupalar'], true),
  category(60002000, null, women.slice(0, 1), false),
  category(60002010, 60002000, women, false),
  category(60002011, 60002010, [...women, 'Kadın T-Shirt'], true),
  // A leaf that takes no new products (available: false), as Hepsiburada's notes warn of.
  { ...category(60002012, 60002010, [...women, 'Kadın Eski Sezon'], true), available: false },
]

/**
 * The fields every product import carries (the "baseAttributes" of a category). Which are
 * mandatory is the fake's reading of the import example; Hepsiburada lists them per category.
 */
export const hepsiburadaBaseAttributes: HepsiburadaAttribute[] = [
  { id: 'merchantSku', name: 'Satıcı Stok Kodu', mandatory: true, type: 'string', multiValue: false },
  { id: 'VaryantGroupID', name: 'Varyant Grup Id', mandatory: false, type: 'string', multiValue: false },
  { id: 'Barcode', name: 'Barkod', mandatory: true, type: 'string', multiValue: false },
  { id: 'UrunAdi', name: 'Ürün Adı', mandatory: true, type: 'string', multiValue: false },
  { id: 'UrunAciklamasi', name: 'Ürün Açıklaması', mandatory: true, type: 'string', multiValue: false },
  { id: 'Marka', name: 'Marka', mandatory: true, type: 'string', multiValue: false },
  { id: 'GarantiSuresi', name: 'Garanti Süresi (Ay)', mandatory: true, type: 'integer', multiValue: false },
  { id: 'kg', name: 'Desi', mandatory: true, type: 'decimal', multiValue: false },
  {
    id: 'tax_vat_rate',
    name: 'KDV',
    mandatory: true,
    type: 'enum',
    multiValue: false,
    values: ['0', '1', '10', '20'],
  },
  { id: 'price', name: 'Fiyat', mandatory: true, type: 'decimal', multiValue: false },
  { id: 'stock', name: 'Stok', mandatory: true, type: 'integer', multiValue: false },
  { id: 'Image1', name: 'Görsel 1', mandatory: true, type: 'string', multiValue: false },
  ...[2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({
    id: `Image${n}`,
    name: `Görsel ${n}`,
    mandatory: false,
    type: 'string',
    multiValue: false,
  })),
  { id: 'Video1', name: 'Video 1', mandatory: false, type: 'string', multiValue: false },
]

const colours = [
  'Beyaz',
  'Siyah',
  'Gri',
  'Kırmızı',
  'Mavi',
  'Lacivert',
  'Yeşil',
  'Sarı',
  'Pembe',
  'Kahverengi',
  'Bej',
  'Çok Renkli',
]

const tableware = {
  attributes: [
    {
      id: 'materyal',
      name: 'Materyal',
      mandatory: true,
      type: 'enum',
      multiValue: false,
      values: ['Porselen', 'Seramik', 'Cam'],
    },
    {
      id: 'kisi_sayisi',
      name: 'Kişi Sayısı',
      mandatory: true,
      type: 'enum',
      multiValue: false,
      values: ['2', '4', '6', '12'],
    },
    {
      id: 'bulasik_makinesi',
      name: 'Bulaşık Makinesinde Yıkanabilir',
      mandatory: false,
      type: 'enum',
      multiValue: false,
      values: ['Evet', 'Hayır'],
    },
  ],
  variantAttributes: [
    {
      id: 'renk_variant_property',
      name: 'Renk',
      mandatory: true,
      type: 'enum',
      multiValue: false,
      values: colours,
    },
    {
      id: 'ebatlar_variant_property',
      name: 'Ebat',
      mandatory: false,
      type: 'enum',
      multiValue: false,
      values: ['Standart', 'Büyük Ebat'],
    },
  ],
}

const tshirt = {
  attributes: [
    {
      id: 'materyal',
      name: 'Materyal',
      mandatory: true,
      type: 'enum',
      multiValue: false,
      values: ['Pamuk', 'Polyester', 'Viskon'],
    },
    {
      id: 'yas_grubu',
      name: 'Yaş Grubu',
      mandatory: true,
      type: 'enum',
      multiValue: false,
      values: ['Yetişkin', 'Genç'],
    },
    {
      id: 'kol_tipi',
      name: 'Kol Tipi',
      mandatory: false,
      type: 'enum',
      multiValue: false,
      values: ['Kısa Kol', 'Uzun Kol'],
    },
  ],
  variantAttributes: [
    {
      id: 'renk_variant_property',
      name: 'Renk',
      mandatory: true,
      type: 'enum',
      multiValue: false,
      values: colours,
    },
    {
      id: 'beden_variant_property',
      name: 'Beden',
      mandatory: true,
      type: 'enum',
      multiValue: false,
      values: ['XS', 'S', 'M', 'L', 'XL'],
    },
  ],
}

/** Attributes of each leaf category (Hepsiburada serves them for leaf, available categories only). */
export const hepsiburadaCategoryAttributes = new Map<
  number,
  { attributes: HepsiburadaAttribute[]; variantAttributes: HepsiburadaAttribute[] }
>([
  [60001001, tableware],
  [60001002, tableware],
  [60002011, tshirt],
])

/**
 * Why Hepsiburada locks a listing (lockReasons of the listing service), with its Turkish label,
 * from developers.hepsiburada.com/hepsiburada/changelog/hepsiburada-entegrasyon-ocak-2025.
 */
export const hepsiburadaLockReasons = {
  BannedProduct: 'Satışı Yasak Ürün',
  CatalogExchange: 'Kategori Değişimi',
  DuplicateProduct: 'Mükerrer Ürün',
  IncorrectProductEntry: 'Yanlış Ürün Girişi',
  MissingProductContent: 'Eksik Ürün İçeriği',
  CounterfeitProduct: 'Sahte Ürün',
  Regulative: 'Yasal Yükümlülükler',
  Assortment: 'Karışık ürün çeşitliliği (Asorti)',
  BarcodeError: 'Barkod Problemi',
  BrandError: 'Marka Problemi',
  ProductDescriptionError: 'Ürün Açıklaması Problemi',
  ProductNameError: 'Ürün Adı Problemi',
  PersonalProductError: 'Kişiye Özel Ürün Problemi',
  GroupingOptionError: 'Gruplama Seçeneği Problemi',
  WrongCategoryError: 'Hatalı Kategori Problemi',
  UniversalProductError: 'Universal Ürün Problemi',
  WrongProductAttribute: 'Hatalı Ürün tipi & Varyant tipi Özellikleri Hatalı',
  ImageError: 'Görsel Problemi',
  Unknown: 'Hepsiburada standartları gereği',
} as const

export type HepsiburadaLockReason = keyof typeof hepsiburadaLockReasons
