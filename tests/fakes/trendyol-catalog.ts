// The reference data the Trendyol fake serves: a small category tree with real Turkish paths, the
// attributes of its leaf categories, and brands. The shapes are Trendyol's; every id and the
// attribute choices are the fake's own (Trendyol's real ids differ between stage and production
// and are never hard-coded by a client).

export type TrendyolCategoryNode = {
  id: number
  name: string
  parentId: number | null
  subCategories: TrendyolCategoryNode[]
}

export type TrendyolAttributeValue = { id: number; name: string }

export type TrendyolCategoryAttribute = {
  attribute: { id: number; name: string }
  required: boolean
  allowCustom: boolean
  varianter: boolean
  slicer: boolean
  allowMultipleAttributeValues: boolean
  attributeValues: TrendyolAttributeValue[]
}

type Tree = [id: number, name: string, children?: Tree[]]

const tree: Tree[] = [
  [
    1000,
    'Ev & Mobilya',
    [
      [
        1100,
        'Mutfak',
        [
          [
            1110,
            'Sofra & Servis',
            [
              [1111, 'Fincan Takımı'],
              [1112, 'Kupa'],
              [1113, 'Tabak'],
            ],
          ],
        ],
      ],
      [1200, 'Ev Tekstili', [[1210, 'Nevresim Takımı']]],
    ],
  ],
  [
    2000,
    'Giyim',
    [
      [
        2100,
        'Kadın',
        [
          [2110, 'Tişört'],
          [2120, 'Elbise'],
        ],
      ],
      [2200, 'Erkek', [[2210, 'Tişört']]],
    ],
  ],
  [3000, 'Kozmetik & Kişisel Bakım', [[3100, 'Cilt Bakımı', [[3110, 'Yüz Kremi']]]]],
  [4000, 'Aksesuar', [[4100, 'Çanta', [[4110, 'Omuz Çantası']]]]],
]

function build(nodes: Tree[], parentId: number | null): TrendyolCategoryNode[] {
  return nodes.map(([id, name, children]) => ({
    id,
    name,
    parentId,
    subCategories: build(children ?? [], id),
  }))
}

export const trendyolCategoryTree: TrendyolCategoryNode[] = build(tree, null)

/** Every category by id, with its path of names from the root. */
export const trendyolCategories = new Map<number, { node: TrendyolCategoryNode; path: string[] }>()
;(function index(nodes: TrendyolCategoryNode[], path: string[]) {
  for (const node of nodes) {
    trendyolCategories.set(node.id, { node, path: [...path, node.name] })
    index(node.subCategories, [...path, node.name])
  }
})(trendyolCategoryTree, [])

let valueId = 5000
function values(...names: string[]): TrendyolAttributeValue[] {
  return names.map((name) => ({ id: valueId++, name }))
}

function attribute(
  id: number,
  name: string,
  flags: Partial<Omit<TrendyolCategoryAttribute, 'attribute' | 'attributeValues'>>,
  attributeValues: TrendyolAttributeValue[] = [],
): TrendyolCategoryAttribute {
  return {
    attribute: { id, name },
    required: false,
    allowCustom: false,
    varianter: false,
    slicer: false,
    allowMultipleAttributeValues: false,
    ...flags,
    attributeValues,
  }
}

const colours = values(
  'Beyaz',
  'Siyah',
  'Gri',
  'Kırmızı',
  'Mavi',
  'Lacivert',
  'Yeşil',
  'Sarı',
  'Turuncu',
  'Pembe',
  'Mor',
  'Kahverengi',
  'Bej',
  'Krem',
  'Altın',
  'Gümüş',
  'Çok Renkli',
)

/** One shared set of values per attribute id, as on Trendyol (the colour list is the same everywhere). */
const colour = () => attribute(47, 'Renk', { required: true, slicer: true }, colours)
const tableMaterial = values('Porselen', 'Seramik', 'Kemik Porselen', 'Cam', 'Stoneware')
const clothMaterial = values('Pamuk', '%100 Pamuk', 'Polyester', 'Viskon', 'Keten', 'Modal')
const sizesOne = values('Tek Ebat')
const clothingSizes = values('XS', 'S', 'M', 'L', 'XL', 'XXL')
const ageGroups = values('Yetişkin', 'Genç', 'Çocuk', 'Bebek')
const pieces = values('2', '4', '6', '12', '18', '24')
const sleeves = values('Kısa Kol', 'Uzun Kol', 'Kolsuz')
const skinTypes = values('Tüm Cilt Tipleri', 'Kuru', 'Yağlı', 'Karma', 'Hassas')
const bagMaterials = values('Deri', 'Suni Deri', 'Kumaş', 'Hasır')

const tableware = () => [
  colour(),
  attribute(14, 'Materyal', { required: true }, tableMaterial),
  attribute(343, 'Boyut/Ebat', { required: true, varianter: true }, sizesOne),
  attribute(711, 'Parça Sayısı', { required: true }, pieces),
  attribute(712, 'Kişi Sayısı', { allowCustom: true }),
  attribute(713, 'Bulaşık Makinesinde Yıkanabilir', {}, values('Evet', 'Hayır')),
]

const clothing = () => [
  colour(),
  attribute(338, 'Beden', { required: true, varianter: true }, clothingSizes),
  attribute(14, 'Materyal', { required: true }, clothMaterial),
  attribute(294, 'Yaş Grubu', { required: true }, ageGroups),
  attribute(48, 'Kol Tipi', {}, sleeves),
  attribute(715, 'Desen', { allowCustom: true }),
]

/** Attributes of each leaf category (Trendyol serves attributes for leaf categories only). */
export const trendyolCategoryAttributes = new Map<number, TrendyolCategoryAttribute[]>([
  [1111, tableware()],
  [1112, tableware()],
  [1113, tableware()],
  [
    1210,
    [
      colour(),
      attribute(
        343,
        'Boyut/Ebat',
        { required: true, varianter: true },
        values('Tek Kişilik', 'Çift Kişilik'),
      ),
      attribute(14, 'Materyal', { required: true }, clothMaterial),
    ],
  ],
  [2110, clothing()],
  [2120, clothing()],
  [2210, clothing()],
  [
    3110,
    [
      attribute(343, 'Boyut/Ebat', { required: true, varianter: true }, values('50 ml', '100 ml')),
      attribute(720, 'Cilt Tipi', { required: true }, skinTypes),
      attribute(294, 'Yaş Grubu', {}, ageGroups),
    ],
  ],
  [
    4110,
    [
      colour(),
      attribute(14, 'Materyal', { required: true }, bagMaterials),
      attribute(343, 'Boyut/Ebat', { required: true, varianter: true }, sizesOne),
    ],
  ],
])

export type TrendyolBrand = { id: number; name: string }

export const trendyolBrands: TrendyolBrand[] = [
  { id: 101, name: 'Vitrin Atölye' },
  { id: 102, name: 'Paşabahçe' },
  { id: 103, name: 'Karaca' },
  { id: 104, name: 'Kütahya Porselen' },
  { id: 105, name: 'TRENDYOLMİLLA' },
  { id: 106, name: 'Koton' },
  { id: 107, name: 'LC Waikiki' },
  { id: 108, name: 'English Home' },
  { id: 109, name: 'Madame Coco' },
  { id: 110, name: 'Mavi' },
]
