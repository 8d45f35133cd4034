import { describe, expect, it } from 'vitest'
import { fashionStyles, productScenes } from '#shared/scenes.ts'
import {
  buildAttributePrompt,
  buildImagePrompt,
  buildSeoPrompt,
  buildVideoPrompt,
  defaultProductScene,
  defaultVideoPrompt,
  describeProductDetails,
} from './prompts.ts'

describe('buildImagePrompt', () => {
  it('wraps a product scene as a professional e-commerce product photo', () => {
    const prompt = buildImagePrompt({ tool: 'product', prompt: 'wooden table surface', hasReference: false })
    expect(prompt).toMatch(
      /^Professional e-commerce product photo: place the product on a wooden table surface\. /,
    )
    expect(prompt).toMatch(/Keep the product itself unchanged/)
  })

  it('adds a camera hint only when the seller chose a view', () => {
    const base = { tool: 'product', prompt: 'marble countertop', hasReference: false } as const
    expect(buildImagePrompt({ ...base, view: 'top' })).toMatch(/Seen from directly above/)
    expect(buildImagePrompt({ ...base, view: 'front' })).toMatch(/Front view at eye level/)
    expect(buildImagePrompt({ ...base, view: 'auto' })).toBe(buildImagePrompt(base))
    expect(buildImagePrompt(base)).not.toMatch(/from directly above|Front view/)
  })

  it('falls back to a white studio when the seller wrote nothing', () => {
    const prompt = buildImagePrompt({ tool: 'product', prompt: '  \n ', hasReference: false })
    expect(prompt).toContain(defaultProductScene)
  })

  it('cleans whitespace and trailing punctuation from the seller words', () => {
    const prompt = buildImagePrompt({
      tool: 'product',
      prompt: '  black   minimal\nbackdrop.  ',
      hasReference: false,
    })
    expect(prompt).toContain('on a black minimal backdrop. ')
  })

  it('every suggestion makes a distinct prompt that contains it', () => {
    const prompts = productScenes.map((scene) =>
      buildImagePrompt({ tool: 'product', prompt: scene.prompt, hasReference: false }),
    )
    for (const [i, scene] of productScenes.entries()) expect(prompts[i]).toContain(scene.prompt)
    expect(new Set(prompts).size).toBe(productScenes.length)
  })

  it('fashion with a reference asks to dress the reference model, keeping pose, light and background', () => {
    const prompt = buildImagePrompt({ tool: 'fashion', prompt: 'runway style', hasReference: true })
    expect(prompt).toMatch(/Dress the model from the second image in the garment from the first image/)
    expect(prompt).toMatch(/model, pose, lighting and background/)
    expect(prompt).toContain('Style: runway style.')
  })

  it('fashion without a reference has a model wear the garment in the style (or a default one)', () => {
    for (const style of fashionStyles) {
      expect(buildImagePrompt({ tool: 'fashion', prompt: style.prompt, hasReference: false })).toContain(
        `model wearing the garment from the image, ${style.prompt} style`,
      )
    }
    expect(buildImagePrompt({ tool: 'fashion', prompt: '', hasReference: false })).toContain(
      'minimalist studio style',
    )
  })
})

describe('buildVideoPrompt', () => {
  it('defaults to a slow 360-degree rotation', () => {
    expect(buildVideoPrompt('')).toBe(defaultVideoPrompt)
    expect(defaultVideoPrompt).toMatch(/slow, smooth 360-degree rotation/i)
  })

  it('adds the smooth-and-professional suffix to the seller words', () => {
    expect(buildVideoPrompt('pan left across the bottle!')).toBe(
      'pan left across the bottle. Smooth and professional camera movement, high quality, no text overlays.',
    )
  })
})

describe('buildSeoPrompt', () => {
  it('asks in Turkish for the JSON shape and every limit', () => {
    const prompt = buildSeoPrompt({})
    expect(prompt).toContain('JSON')
    expect(prompt).toContain('en fazla 60 karakter')
    expect(prompt).toContain('en fazla 160 karakter')
    expect(prompt).toContain('4-6 kısa ürün özelliği')
    expect(prompt).toContain('tam olarak 10 farklı anahtar kelime')
    expect(prompt).not.toContain('önceki yanıt')
  })

  it('adds the typed details as context, and a reminder on the second attempt', () => {
    const prompt = buildSeoPrompt(
      { name: 'Deri Cüzdan', category: 'Aksesuar', material: ' hakiki  deri ' },
      { isRetry: true },
    )
    expect(prompt).toContain('- Ürün adı: Deri Cüzdan\n- Kategori: Aksesuar\n- Malzeme: hakiki deri')
    expect(prompt).toContain('önceki yanıt kurallara uymadı')
  })

  it('has no context block when the details are blank', () => {
    expect(describeProductDetails({ name: '  ', brand: '' })).toBe('')
  })
})

describe('a suggestion chip in Turkish', () => {
  it('reaches the image model as the scene’s English prompt', () => {
    expect(buildImagePrompt({ tool: 'product', prompt: 'mermer tezgâh', hasReference: false })).toContain(
      'place the product on a marble countertop.',
    )
    expect(
      buildImagePrompt({ tool: 'fashion', prompt: 'sokak stili fotoğrafçılığı', hasReference: false }),
    ).toContain('street style photography style')
  })
})

describe('buildSeoPrompt: the seller’s facts are fixed', () => {
  const details = {
    name: 'Fincan Takımı',
    color: 'Kırmızı',
    description: 'El yapımı porselen. İki kişilik.',
    features: ['2 kişilik takım'],
  }

  it('states the given facts as fixed, in Turkish, and the colour as the only colour', () => {
    const prompt = buildSeoPrompt(details)
    expect(prompt).toContain('Satıcının verdiği bilgiler kesindir')
    expect(prompt).toContain('Ürün adını başlıkta aynen')
    expect(prompt).toContain('Renk "Kırmızı"')
    expect(prompt).toContain('yalnızca satıcının kendi sözlerindeki renkleri kullan')
    expect(prompt).toContain('ilk cümlesini aynen')
    expect(prompt).toContain('- Öne çıkan özellikler: 2 kişilik takım')
    expect(prompt).not.toContain('Marka')
  })

  it('says nothing is fixed when the seller gave nothing', () => {
    expect(buildSeoPrompt({})).not.toContain('kesindir')
  })

  it('names each problem of the previous answer on the second attempt', () => {
    const prompt = buildSeoPrompt(details, {
      isRetry: true,
      problems: [
        { fact: 'color', kind: 'contradicted', expected: 'Kırmızı', found: 'turuncu' },
        { fact: 'name', kind: 'missing', expected: 'Fincan Takımı' },
        { kind: 'keyword', keyword: 'mutfak > fincan', problem: 'path' },
        { kind: 'promotional', phrase: 'hemen' },
      ],
    })
    expect(prompt).toContain('Önemli: önceki yanıt kurallara uymadı. Şunları düzelt:')
    expect(prompt).toContain('- Satıcının verdiği renk "Kırmızı"; "turuncu" rengini hiçbir yerde kullanma')
    expect(prompt).toContain('- Ürün adı başlıkta aynen geçmeli: "Fincan Takımı"')
    expect(prompt).toContain('- Anahtar kelime kategori yolu olmamalı: "mutfak > fincan"')
    expect(prompt).toContain('- Tanıtım ifadesi kullanma: "hemen"')
  })
})

describe('buildAttributePrompt', () => {
  const attributes = [
    { key: '347', name: 'Parça Sayısı', isMultiple: false, values: [{ id: '6001', name: '2' }] },
    {
      key: '912',
      name: '  Özellik ',
      isMultiple: true,
      values: [
        { id: '7101', name: 'Kulplu' },
        { id: 'a"b', name: 'Tabaklı' },
      ],
    },
  ]

  it('lists each attribute under its key with every allowed value by id, and how many it takes', () => {
    const prompt = buildAttributePrompt(attributes)
    expect(prompt).toContain('- "347": Parça Sayısı (tek değer): "6001" = 2')
    expect(prompt).toContain('- "912": Özellik (bir ya da birkaç değer): "7101" = Kulplu; "a\\"b" = Tabaklı')
    expect(prompt).toContain('null')
    // Nothing about the product when the seller gave nothing.
    expect(prompt).not.toContain('Satıcının verdiği ürün adı')
    expect(prompt).not.toContain('Kategori:')
  })

  it('names the seller’s product and its category, cleaned', () => {
    const prompt = buildAttributePrompt(attributes, {
      name: '  Kahve   Fincan Takımı. ',
      category: 'Mutfak > Fincan Takımı',
    })
    expect(prompt).toContain(
      'Satıcının verdiği ürün adı: Kahve Fincan Takımı\nKategori: Mutfak > Fincan Takımı',
    )
  })
})
