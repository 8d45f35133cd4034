import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { formatOfflineNote } from '#shared/offline-note.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { GenerationResult } from './generation-result.tsx'

function imageGeneration(description: string | null, provider = 'offline'): GenerationView {
  const asset = {
    id: 'a1',
    url: '/api/assets/a1/file',
    downloadUrl: '/api/assets/a1/file?download=1',
    mime: 'image/jpeg',
    width: 1080,
    height: 1080,
    fileName: 'vitrin-product-image.jpg',
  }
  return {
    id: 'g1',
    tool: 'product',
    mode: 'image',
    aspectRatio: '1:1',
    prompt: 'ahşap masa',
    status: 'succeeded',
    queuePosition: null,
    isRetrying: false,
    errorCode: null,
    provider,
    usesOwnKey: false,
    isSaved: false,
    input: asset,
    result: { type: 'image', image: asset, description, promptUsed: 'ahşap masa', provider },
    sourceGenerationId: null,
    createdAt: '2026-11-23T10:00:00.000Z',
    startedAt: '2026-11-23T10:00:01.000Z',
    finishedAt: '2026-11-23T10:00:02.000Z',
  }
}

describe('GenerationResult: the offline studio says what it did in the reader’s language', () => {
  const cutOut = formatOfflineNote({ subject: 'product', separation: 'model', scene: 'wood' })

  it('in Turkish', async () => {
    await renderWeb(<GenerationResult generation={imageGeneration(cutOut)} />, { locale: 'tr' })
    expect(screen.getByTestId('result-description').textContent).toBe(
      "Vitrin'in çevrimdışı stüdyosu yaptı, üretken yapay zekâ değil: ürünü fotoğrafından yerleşik küçük bir model kesti ve ürün “Ahşap masa yüzeyi” sahnesine yerleştirildi.",
    )
    expect(screen.getByTestId('offline-note').textContent).toBe(
      'Yerleşik çevrimdışı stüdyo tarafından yapıldı',
    )
    expect(screen.getByTestId('result-image').getAttribute('alt')).toContain('üretken yapay zekâ değil')
  })

  it('names the view the scene was drawn in, in both languages', async () => {
    const top = formatOfflineNote({ subject: 'product', separation: 'model', scene: 'wood', view: 'top' })
    const { unmount } = await renderWeb(<GenerationResult generation={imageGeneration(top)} />, {
      locale: 'tr',
    })
    expect(screen.getByTestId('result-description').textContent).toContain(
      '“Ahşap masa yüzeyi” sahnesine üstten bakışla yerleştirildi.',
    )
    unmount()
    const front = formatOfflineNote({ subject: 'product', separation: 'model', scene: 'wood', view: 'front' })
    await renderWeb(<GenerationResult generation={imageGeneration(front)} />)
    expect(screen.getByTestId('result-description').textContent).toMatch(/scene, seen from the front\.$/)
  })

  it('in English, for a garment in front of a reference photo', async () => {
    const note = formatOfflineNote({ subject: 'garment', separation: 'backdrop', scene: 'reference' })
    await renderWeb(<GenerationResult generation={imageGeneration(note)} />)
    expect(screen.getByTestId('result-description').textContent).toBe(
      "Made by Vitrin's offline studio, not by generative AI: the garment was cut out from its plain backdrop and placed in front of your reference photo (softened).",
    )
  })

  it('says when the photo was too small, with what to do, in both languages', async () => {
    const small = formatOfflineNote({
      subject: 'product',
      separation: 'backdrop',
      scene: 'marble',
      smallPhoto: { productSide: 410, enlargement: 2.6, photoSide: 1700 },
    })
    const english = await renderWeb(<GenerationResult generation={imageGeneration(small)} />)
    expect(screen.getByTestId('small-photo-note').textContent).toBe(
      'The product in your photo is 410 px on its longer side, so it was enlarged 2.6× to fill the frame and looks softer. A photo at least 1,700 px on its longer side, with the product filling it, gives a sharper result.',
    )
    english.unmount()
    await renderWeb(<GenerationResult generation={imageGeneration(small)} />, { locale: 'tr' })
    expect(screen.getByTestId('small-photo-note').textContent).toBe(
      'Fotoğrafınızdaki ürün uzun kenarında 410 piksel; kareyi doldurması için 2,6 kat büyütüldü, bu yüzden daha yumuşak görünüyor. Uzun kenarı en az 1.700 piksel olan ve ürünün kareyi doldurduğu bir fotoğraf daha net sonuç verir.',
    )
  })

  it('says nothing about size when the photo was large enough', async () => {
    await renderWeb(<GenerationResult generation={imageGeneration(cutOut)} />)
    expect(screen.queryByTestId('small-photo-note')).toBeNull()
  })

  it('shows any other description (a model’s own words, an older result) as it came', async () => {
    await renderWeb(
      <GenerationResult generation={imageGeneration('A blue mug on a marble counter.', 'fal')} />,
      {
        locale: 'tr',
      },
    )
    expect(screen.getByTestId('result-description').textContent).toBe('A blue mug on a marble counter.')
  })
})

describe('GenerationResult: keep my product exactly', () => {
  const withKept = (productKept: boolean | undefined): GenerationView => {
    const generation = imageGeneration(null, 'fal')
    if (generation.result?.type !== 'image') throw new Error('expected an image')
    return {
      ...generation,
      keepProduct: productKept !== undefined,
      result: { ...generation.result, ...(productKept === undefined ? {} : { productKept }) },
    }
  }

  it('says the product was kept, or why it could not be, and nothing when it was not asked for', async () => {
    const kept = await renderWeb(<GenerationResult generation={withKept(true)} />)
    expect(screen.getByTestId('keep-product-note').textContent).toBe(
      'Your product was kept exactly: the product from your photo is laid over the scene.',
    )
    kept.unmount()
    const missed = await renderWeb(<GenerationResult generation={withKept(false)} />, { locale: 'tr' })
    expect(screen.getByTestId('keep-product-note').textContent).toContain('birebir korunamadı')
    missed.unmount()
    await renderWeb(<GenerationResult generation={withKept(undefined)} />)
    expect(screen.queryByTestId('keep-product-note')).toBeNull()
  })
})

describe('GenerationResult: SEO copy', () => {
  const seoGeneration = (provider: string, colourFromPhoto?: string): GenerationView => ({
    ...imageGeneration(null, provider),
    mode: 'seo',
    result: {
      type: 'seo',
      title: 'Kırmızı Porselen Fincan',
      description: 'Porselen fincan.',
      features: ['Porselen', 'Kırmızı', '90 ml', 'Tabaklı'],
      keywords: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'],
      model: provider === 'offline' ? 'offline-studio' : 'gpt-4o-mini',
      provider,
      ...(colourFromPhoto ? { colourFromPhoto } : {}),
    },
  })

  it('says a colour read from the photo is a guess to check, in either language', async () => {
    const first = await renderWeb(<GenerationResult generation={seoGeneration('offline', 'kırmızı')} />)
    expect(screen.getByTestId('seo-colour-note').textContent).toBe(
      'Colour read from the photo: kırmızı — check it before you publish.',
    )
    first.unmount()
    await renderWeb(<GenerationResult generation={seoGeneration('offline', 'kırmızı')} />, { locale: 'tr' })
    expect(screen.getByTestId('seo-colour-note').textContent).toBe(
      'Renk fotoğraftan okundu: kırmızı — yayınlamadan önce kontrol edin.',
    )
  })

  it('has no such note when the seller gave the colour', async () => {
    await renderWeb(<GenerationResult generation={seoGeneration('offline')} />)
    expect(screen.queryByTestId('seo-colour-note')).toBeNull()
  })

  it('labels offline copy as the offline writer’s, as offline images are the offline studio’s', async () => {
    const offline = await renderWeb(<GenerationResult generation={seoGeneration('offline')} />, {
      locale: 'tr',
    })
    expect(screen.getByTestId('offline-note').textContent).toBe(
      'Yerleşik çevrimdışı metin yazarı tarafından yazıldı',
    )
    offline.unmount()
    await renderWeb(<GenerationResult generation={seoGeneration('offline')} />)
    expect(screen.getByTestId('offline-note').textContent).toBe('Written by the built-in offline writer')
  })

  it('has no offline label on a language model’s copy', async () => {
    await renderWeb(<GenerationResult generation={seoGeneration('openai')} />)
    expect(screen.queryByTestId('offline-note')).toBeNull()
  })
})
