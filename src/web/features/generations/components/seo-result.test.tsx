import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { SeoResult } from './seo-result.tsx'

const content = {
  title: 'Kırmızı Seramik Kupa',
  description: 'El yapımı kırmızı seramik kupa, günlük kullanım için ideal.',
  features: ['El yapımı', 'Bulaşık makinesinde yıkanabilir', '350 ml', 'Kırmızı sır'],
  keywords: ['kupa', 'seramik', 'kırmızı', 'el yapımı', 'hediye', 'kahve', 'çay', 'mutfak', 'ev', 'tasarım'],
}

afterEach(() => vi.restoreAllMocks())

describe('SeoResult', () => {
  it('shows each part with its count against the limit', async () => {
    await renderWeb(<SeoResult content={content} />)
    expect(screen.getByTestId('seo-title-count').textContent).toBe(`${content.title.length} / 60 characters`)
    expect(screen.getByTestId('seo-description-count').textContent).toBe(
      `${content.description.length} / 160 characters`,
    )
    expect(screen.getByTestId('seo-features-count').textContent).toBe('4 items')
    expect(screen.getByTestId('seo-keywords-count').textContent).toBe('10 items')
  })

  it('copies features as a bulleted list and keywords comma-joined, and says so', async () => {
    const writeText = vi.fn(async (_text: string) => undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await renderWeb(<SeoResult content={content} />)
    fireEvent.click(screen.getByTestId('seo-features-copy'))
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1))
    expect(writeText.mock.calls[0]?.[0]).toBe(content.features.map((f) => `• ${f}`).join('\n'))
    expect(await screen.findAllByText('Copied')).not.toHaveLength(0)
    fireEvent.click(screen.getByTestId('seo-keywords-copy'))
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(2))
    expect(writeText.mock.calls[1]?.[0]).toBe(content.keywords.join(', '))
  })

  it('says when the clipboard refuses, in Turkish too', async () => {
    const writeText = vi.fn(async () => {
      throw new Error('denied')
    })
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    await renderWeb(<SeoResult content={content} />, { locale: 'tr' })
    fireEvent.click(screen.getByTestId('seo-title-copy'))
    expect(await screen.findByText('Kopyalanamadı. Metni seçip elle kopyalayın.')).toBeTruthy()
  })
})
