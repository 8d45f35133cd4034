import type { ProductDetails } from '#shared/seo.ts'

// The offline writer's evaluation set: products as Turkish catalogue rows carry them, across the
// writer's categories (at least four each). Some give only a name, some the whole row (a category
// path, brand, material, colour, the seller's description and features), some a colour the photo
// contradicts (`photoColour` is what the caller measured), some a comma in the name. `category`
// is the category the writer must detect. Used by the writer's test and by bench/seo-writer.ts.

export type EvaluationProduct = {
  details: ProductDetails
  /** The colour the caller measured on the photo (a Turkish colour name). */
  photoColour: string
  category:
    | 'giyim'
    | 'ayakkabi'
    | 'canta'
    | 'aksesuar'
    | 'kozmetik'
    | 'evTekstili'
    | 'mutfak'
    | 'dekorasyon'
    | 'oyuncak'
    | 'anneBebek'
    | 'spor'
    | 'elektronik'
    | 'kirtasiye'
    | 'petShop'
    | 'bahce'
    | 'genel'
}

export const seoEvaluationSet: EvaluationProduct[] = [
  // giyim
  { details: { name: 'Basic Tişört' }, photoColour: 'lacivert', category: 'giyim' },
  {
    details: {
      name: 'Oversize Bisiklet Yaka Sweatshirt',
      category: 'Kadın > Giyim > Sweatshirt',
      brand: 'Koton',
      material: '%100 Pamuk',
      color: 'Gri',
      features: ['Şardonlu iç yüzey', 'Ribana bilek ve etek ucu'],
    },
    photoColour: 'beyaz',
    category: 'giyim',
  },
  {
    details: {
      name: 'Keten Gömlek, Uzun Kollu',
      category: 'Erkek Giyim',
      color: 'Bej',
      material: 'Keten',
      description: 'Yazlık keten kumaştan rahat kesim gömlek. Manken 1,85 m boyunda ve M beden giyiyor.',
    },
    photoColour: 'bej',
    category: 'giyim',
  },
  {
    details: { name: 'Yüksek Bel Mom Jean Pantolon', brand: 'LC Waikiki', color: 'Mavi' },
    photoColour: 'lacivert',
    category: 'giyim',
  },
  {
    details: { name: 'Kadın Triko Hırka', category: 'Moda / Kadın / Hırka', material: 'Akrilik' },
    photoColour: 'bordo',
    category: 'giyim',
  },
  // ayakkabı
  {
    details: { name: 'Nike Siyah Koşu Ayakkabısı', brand: 'Nike' },
    photoColour: 'siyah',
    category: 'ayakkabi',
  },
  {
    details: {
      name: 'Hakiki Deri Loafer',
      category: 'Ayakkabı > Erkek > Loafer',
      brand: 'Derimod',
      material: 'Hakiki Deri',
      color: 'Kahverengi',
      features: ['Kauçuk taban', 'İç astar deri'],
    },
    photoColour: 'siyah',
    category: 'ayakkabi',
  },
  { details: { name: 'Kadın Günlük Sneaker, Bağcıklı' }, photoColour: 'beyaz', category: 'ayakkabi' },
  {
    details: {
      name: 'Süet Kışlık Bot',
      category: 'Ayakkabı & Çanta > Bot',
      color: 'Vizon',
      description: 'İçi yünlü, kaymaz tabanlı kışlık bot.',
    },
    photoColour: 'kahverengi',
    category: 'ayakkabi',
  },
  // çanta
  {
    details: { name: 'Deri Sırt Çantası', brand: 'Atelier', category: 'Çanta', material: 'hakiki deri' },
    photoColour: 'siyah',
    category: 'canta',
  },
  { details: { name: 'Hasır Plaj Çantası' }, photoColour: 'bej', category: 'canta' },
  {
    details: {
      name: 'Kadın Omuz Çantası, Zincir Askılı',
      category: 'Aksesuar > Çanta > Omuz Çantası',
      brand: 'Mudo',
      material: 'Suni Deri',
      color: 'Siyah',
      features: ['Fermuarlı ana bölme', 'İç cepli'],
    },
    photoColour: 'gri',
    category: 'canta',
  },
  {
    details: { name: 'Erkek Deri Cüzdan', material: 'Dana Derisi', color: 'Taba' },
    photoColour: 'kahverengi',
    category: 'canta',
  },
  // takı, saat, aksesuar
  {
    details: {
      name: '925 Ayar Gümüş Kolye',
      category: 'Takı & Aksesuar > Kolye',
      material: '925 Ayar Gümüş',
      description: 'Zincir uzunluğu 45 cm, uç 1,2 cm.',
    },
    photoColour: 'gri',
    category: 'aksesuar',
  },
  {
    details: { name: 'Çelik Kordon Erkek Kol Saati', brand: 'Casio' },
    photoColour: 'gri',
    category: 'aksesuar',
  },
  {
    details: { name: 'İpek Eşarp, 90x90 cm', color: 'Lacivert', material: 'İpek' },
    photoColour: 'mavi',
    category: 'aksesuar',
  },
  { details: { name: 'Taşlı Halka Küpe', category: 'Bijuteri' }, photoColour: 'sarı', category: 'aksesuar' },
  // kozmetik
  {
    details: {
      name: 'Nemlendirici Yüz Kremi 50 ml',
      category: 'Kozmetik > Cilt Bakımı > Yüz Kremi',
      brand: 'Bioxcin',
      features: ['Normal ve kuru ciltler için'],
    },
    photoColour: 'beyaz',
    category: 'kozmetik',
  },
  { details: { name: 'Argan Yağlı Şampuan, 400 ml' }, photoColour: 'sarı', category: 'kozmetik' },
  {
    details: { name: 'Mat Likit Ruj', brand: 'Flormar', color: 'Kırmızı' },
    photoColour: 'bordo',
    category: 'kozmetik',
  },
  {
    details: {
      name: 'Zeytinyağlı Doğal Sabun',
      category: 'Kişisel Bakım',
      description: 'Ayvalık zeytinyağından soğuk yöntemle yapılmış sabun. 120 gram.',
    },
    photoColour: 'yeşil',
    category: 'kozmetik',
  },
  // ev tekstili
  {
    details: {
      name: 'Ranforce Çift Kişilik Nevresim Takımı',
      category: 'Ev & Yaşam > Ev Tekstili > Nevresim Takımı',
      brand: 'Taç',
      material: 'Ranforce Pamuk',
      features: ['Nevresim 200x220 cm', '2 adet yastık kılıfı 50x70 cm'],
    },
    photoColour: 'beyaz',
    category: 'evTekstili',
  },
  { details: { name: 'Pamuklu Banyo Havlusu' }, photoColour: 'beyaz', category: 'evTekstili' },
  {
    details: { name: 'Keten Masa Örtüsü, 150x220', color: 'Ekru', material: 'Keten' },
    photoColour: 'bej',
    category: 'evTekstili',
  },
  {
    details: { name: 'Kadife Kırlent Kılıfı', category: 'Ev Tekstili > Kırlent' },
    photoColour: 'yeşil',
    category: 'evTekstili',
  },
  // mutfak
  {
    details: {
      name: 'Türk Kahvesi Fincan Takımı, 2 Kişilik',
      category: 'Ev & Yaşam > Mutfak > Fincan',
      color: 'Kırmızı',
      material: 'Porselen',
    },
    photoColour: 'turuncu',
    category: 'mutfak',
  },
  {
    details: { name: 'Döküm Tava 28 cm', brand: 'Emsan', material: 'Döküm' },
    photoColour: 'siyah',
    category: 'mutfak',
  },
  {
    details: {
      name: 'Cam Saklama Kabı Seti',
      category: 'Mutfak > Saklama',
      brand: 'Paşabahçe',
      features: ['3 farklı boy', 'Kilitli kapak'],
      description: 'Fırında ve buzdolabında kullanılabilen borosilikat cam saklama kabı seti.',
    },
    photoColour: 'beyaz',
    category: 'mutfak',
  },
  { details: { name: 'Çelik Çaydanlık Takımı' }, photoColour: 'gri', category: 'mutfak' },
  { details: { name: 'El Yapımı Seramik Kupa', color: 'Mavi' }, photoColour: 'turkuaz', category: 'mutfak' },
  // dekorasyon
  { details: { name: 'Seramik Vazo', category: 'Dekorasyon' }, photoColour: 'beyaz', category: 'dekorasyon' },
  {
    details: {
      name: 'Soya Mumu Kokulu Mum, Lavanta',
      category: 'Ev & Yaşam > Dekorasyon > Mum',
      brand: 'Mumevi',
      description: 'Pamuk fitilli, yaklaşık 40 saat yanma süresi.',
    },
    photoColour: 'mor',
    category: 'dekorasyon',
  },
  {
    details: { name: 'Ahşap Çerçeveli Duvar Aynası', material: 'Ahşap', color: 'Naturel' },
    photoColour: 'kahverengi',
    category: 'dekorasyon',
  },
  { details: { name: 'Metal Duvar Saati 40 cm' }, photoColour: 'siyah', category: 'dekorasyon' },
  // oyuncak
  {
    details: { name: 'Ahşap Oyuncak Roket', color: 'Beyaz' },
    photoColour: 'kahverengi',
    category: 'oyuncak',
  },
  {
    details: {
      name: 'Peluş Ayı 40 cm',
      category: 'Oyuncak > Peluş',
      material: 'Peluş',
      features: ['Yıkanabilir'],
    },
    photoColour: 'kahverengi',
    category: 'oyuncak',
  },
  { details: { name: '1000 Parça Yapboz, İstanbul' }, photoColour: 'mavi', category: 'oyuncak' },
  { details: { name: 'Oyuncak Bebek', brand: 'Barbie' }, photoColour: 'pembe', category: 'oyuncak' },
  // anne-bebek
  {
    details: { name: 'Bebek Arabası, Çift Yönlü', category: 'Anne & Bebek > Bebek Arabası', brand: 'Kraft' },
    photoColour: 'gri',
    category: 'anneBebek',
  },
  {
    details: { name: 'Organik Pamuk Zıbın Seti', material: 'Organik Pamuk' },
    photoColour: 'beyaz',
    category: 'anneBebek',
  },
  {
    details: {
      name: 'Cam Biberon 240 ml',
      category: 'Anne Bebek',
      features: ['0-6 ay', 'Geniş ağızlı'],
      color: 'Şeffaf',
    },
    photoColour: 'beyaz',
    category: 'anneBebek',
  },
  { details: { name: 'Mama Sandalyesi' }, photoColour: 'beyaz', category: 'anneBebek' },
  // spor, outdoor
  {
    details: { name: 'Yoga Matı 6 mm', category: 'Spor & Outdoor > Fitness', material: 'TPE', color: 'Mor' },
    photoColour: 'pembe',
    category: 'spor',
  },
  { details: { name: '4 Kişilik Kamp Çadırı', brand: 'Quechua' }, photoColour: 'yeşil', category: 'spor' },
  {
    details: {
      name: 'Çelik Matara, 750 ml',
      category: 'Outdoor',
      material: 'Paslanmaz Çelik',
      description: 'Çift cidarlı, sızdırmaz kapaklı matara.',
    },
    photoColour: 'gri',
    category: 'spor',
  },
  { details: { name: 'Ayarlanabilir Dambıl Seti 20 kg' }, photoColour: 'siyah', category: 'spor' },
  // elektronik aksesuar
  {
    details: {
      name: 'iPhone 15 Silikon Kılıf',
      category: 'Elektronik > Telefon Aksesuarları > Kılıf',
      material: 'Silikon',
      color: 'Lacivert',
    },
    photoColour: 'mavi',
    category: 'elektronik',
  },
  { details: { name: 'Bluetooth Kulaklık', brand: 'JBL' }, photoColour: 'siyah', category: 'elektronik' },
  {
    details: {
      name: 'Type-C Hızlı Şarj Kablosu, 1 m',
      features: ['60 W destekler', 'Örgü kaplama'],
    },
    photoColour: 'beyaz',
    category: 'elektronik',
  },
  { details: { name: '10000 mAh Powerbank', brand: 'Anker' }, photoColour: 'siyah', category: 'elektronik' },
  // kırtasiye
  {
    details: { name: 'Çizgili Spiralli Defter A4', brand: 'Gıpta' },
    photoColour: 'mavi',
    category: 'kirtasiye',
  },
  {
    details: {
      name: '2027 Haftalık Ajanda',
      category: 'Kırtasiye > Ajanda',
      material: 'Suni Deri Kapak',
      color: 'Bordo',
    },
    photoColour: 'kırmızı',
    category: 'kirtasiye',
  },
  {
    details: { name: 'Dolma Kalem, İnce Uç', brand: 'Pelikan' },
    photoColour: 'siyah',
    category: 'kirtasiye',
  },
  {
    details: { name: '24 Renk Kuru Boya Kalemi', category: 'Okul Malzemeleri' },
    photoColour: 'sarı',
    category: 'kirtasiye',
  },
  // pet shop
  {
    details: {
      name: 'Yetişkin Kedi Maması, Tavuklu 1,5 kg',
      category: 'Pet Shop > Kedi > Mama',
      brand: 'Pro Plan',
    },
    photoColour: 'mor',
    category: 'petShop',
  },
  {
    details: { name: 'Ayarlanabilir Köpek Tasması', material: 'Naylon' },
    photoColour: 'kırmızı',
    category: 'petShop',
  },
  { details: { name: 'Kedi Tırmalama Tahtası' }, photoColour: 'bej', category: 'petShop' },
  {
    details: { name: 'Köpek Yatağı, Büyük Boy', color: 'Gri', features: ['Fermuarlı, yıkanabilir kılıf'] },
    photoColour: 'gri',
    category: 'petShop',
  },
  // bahçe, yapı market
  {
    details: { name: 'Plastik Saksı 30 cm', category: 'Bahçe' },
    photoColour: 'kahverengi',
    category: 'bahce',
  },
  {
    details: { name: 'Akülü Vidalama Matkabı', brand: 'Bosch', category: 'Yapı Market > El Aletleri' },
    photoColour: 'yeşil',
    category: 'bahce',
  },
  {
    details: { name: 'Bahçe Hortumu, 20 Metre', description: 'Üç katlı, bükülmeye dayanıklı hortum.' },
    photoColour: 'yeşil',
    category: 'bahce',
  },
  { details: { name: 'Budama Makası', material: 'Karbon Çelik' }, photoColour: 'kırmızı', category: 'bahce' },
  // genel: nothing the writer recognises
  { details: { name: 'Kristal Kar Küresi' }, photoColour: 'beyaz', category: 'genel' },
  { details: { name: 'Nostaljik Radyo', category: 'Hobi' }, photoColour: 'kahverengi', category: 'genel' },
]
