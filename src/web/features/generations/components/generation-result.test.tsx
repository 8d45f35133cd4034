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

  it('in English, for a garment in front of a reference photo', async () => {
    const note = formatOfflineNote({ subject: 'garment', separation: 'backdrop', scene: 'reference' })
    await renderWeb(<GenerationResult generation={imageGeneration(note)} />)
    expect(screen.getByTestId('result-description').textContent).toBe(
      "Made by Vitrin's offline studio, not by generative AI: the garment was cut out from its plain backdrop and placed in front of your reference photo (softened).",
    )
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
