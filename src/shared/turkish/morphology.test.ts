import { describe, expect, it } from 'vitest'
import { inflect, softened } from './morphology.ts'

describe('Turkish noun suffixes', () => {
  it.each([
    // word, accusative, dative, locative, ablative, genitive, plural, possessive, with
    ['kitap', 'kitabı', 'kitaba', 'kitapta', 'kitaptan', 'kitabın', 'kitaplar', 'kitabı', 'kitapla'],
    ['ağaç', 'ağacı', 'ağaca', 'ağaçta', 'ağaçtan', 'ağacın', 'ağaçlar', 'ağacı', 'ağaçla'],
    ['renk', 'rengi', 'renge', 'renkte', 'renkten', 'rengin', 'renkler', 'rengi', 'renkle'],
    ['saat', 'saati', 'saate', 'saatte', 'saatten', 'saatin', 'saatler', 'saati', 'saatle'],
    ['sepet', 'sepeti', 'sepete', 'sepette', 'sepetten', 'sepetin', 'sepetler', 'sepeti', 'sepetle'],
    ['top', 'topu', 'topa', 'topta', 'toptan', 'topun', 'toplar', 'topu', 'topla'],
    ['kalp', 'kalbi', 'kalbe', 'kalpte', 'kalpten', 'kalbin', 'kalpler', 'kalbi', 'kalple'],
    ['çanta', 'çantayı', 'çantaya', 'çantada', 'çantadan', 'çantanın', 'çantalar', 'çantası', 'çantayla'],
    ['kutu', 'kutuyu', 'kutuya', 'kutuda', 'kutudan', 'kutunun', 'kutular', 'kutusu', 'kutuyla'],
    ['pamuk', 'pamuğu', 'pamuğa', 'pamukta', 'pamuktan', 'pamuğun', 'pamuklar', 'pamuğu', 'pamukla'],
    ['ahşap', 'ahşabı', 'ahşaba', 'ahşapta', 'ahşaptan', 'ahşabın', 'ahşaplar', 'ahşabı', 'ahşapla'],
    [
      'porselen',
      'porseleni',
      'porselene',
      'porselende',
      'porselenden',
      'porselenin',
      'porselenler',
      'porseleni',
      'porselenle',
    ],
    ['tişört', 'tişörtü', 'tişörte', 'tişörtte', 'tişörtten', 'tişörtün', 'tişörtler', 'tişörtü', 'tişörtle'],
    ['metal', 'metali', 'metale', 'metalde', 'metalden', 'metalin', 'metaller', 'metali', 'metalle'],
    ['kanat', 'kanadı', 'kanada', 'kanatta', 'kanattan', 'kanadın', 'kanatlar', 'kanadı', 'kanatla'],
    ['su', 'suyu', 'suya', 'suda', 'sudan', 'suyun', 'sular', 'suyu', 'suyla'],
    ['laptop', 'laptopu', 'laptopa', 'laptopta', 'laptoptan', 'laptopun', 'laptoplar', 'laptopu', 'laptopla'],
  ])('%s', (word, ...forms) => {
    const cases = [
      'accusative',
      'dative',
      'locative',
      'ablative',
      'genitive',
      'plural',
      'possessive',
      'with',
    ] as const
    expect(cases.map((c) => inflect(word, c))).toEqual(forms)
  })

  it('puts an apostrophe after brands, numbers and acronyms, and suffixes them as they are said', () => {
    expect(inflect('Nike', 'accusative', { properNoun: true })).toBe("Nike'ı")
    expect(inflect('Nike', 'genitive', { properNoun: true })).toBe("Nike'ın")
    expect(inflect('iPhone', 'accusative', { properNoun: true })).toBe("iPhone'u")
    expect(inflect('Karaca', 'genitive', { properNoun: true })).toBe("Karaca'nın")
    expect(inflect('IKEA', 'dative', { properNoun: true })).toBe("IKEA'ya")
    expect(inflect('Zeynep', 'accusative', { properNoun: true })).toBe("Zeynep'i")
    expect(inflect('USB', 'accusative')).toBe("USB'yi")
    expect(inflect('PU', 'ablative')).toBe("PU'dan")
    expect(inflect('2', 'accusative')).toBe("2'yi")
    expect(inflect('3', 'accusative')).toBe("3'ü")
    expect(inflect('10', 'accusative')).toBe("10'u")
    expect(inflect('Samsung Galaxy', 'locative', { properNoun: true })).toBe("Samsung Galaxy'de")
  })

  it('gives a compound noun the buffer n, and its plural before the possessive', () => {
    expect(inflect('fincan takımı', 'accusative', { compound: true })).toBe('fincan takımını')
    expect(inflect('fincan takımı', 'dative', { compound: true })).toBe('fincan takımına')
    expect(inflect('fincan takımı', 'with', { compound: true })).toBe('fincan takımıyla')
    expect(inflect('masa örtüsü', 'locative', { compound: true })).toBe('masa örtüsünde')
    expect(inflect('kahve fincanı', 'plural', { compound: true })).toBe('kahve fincanları')
    expect(inflect('su bardağı', 'plural', { compound: true })).toBe('su bardakları')
    expect(inflect('masa örtüsü', 'plural', { compound: true })).toBe('masa örtüleri')
    expect(inflect('Kol Saati', 'genitive', { compound: true })).toBe('Kol Saatinin')
  })

  it('softens only where Turkish does, keeping the case of the word', () => {
    expect(softened('Kitap')).toBe('Kitab')
    expect(softened('KİTAP')).toBe('KİTAB')
    expect(softened('ceket')).toBe('ceket')
    expect(softened('saç')).toBe('saç')
    expect(softened('bardak')).toBe('bardağ')
    expect(inflect('kitap', 'accusative')).not.toBe("kitap'ı")
  })
})
