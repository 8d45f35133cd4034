import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { MarketplacePreferenceSection } from './marketplace-preference-section.tsx'

const fetchMock = stubFetchForEachTest(async (_input, init) =>
  init?.method === 'PATCH'
    ? json(200, JSON.parse(String(init.body)))
    : json(200, { marketplaceProfile: 'hepsiburada' }),
)

const patches = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PATCH')
    .map(([, init]) => JSON.parse(String(init?.body)))

describe('MarketplacePreferenceSection', () => {
  it('shows the saved default and saves a new one, or none', async () => {
    const user = userEvent.setup()
    await renderWeb(<MarketplacePreferenceSection />)
    const select = (await screen.findByRole('combobox', { name: 'Default marketplace' })) as HTMLSelectElement
    expect(select.value).toBe('hepsiburada')
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/preferences')

    await user.selectOptions(select, 'etsy')
    await vi.waitFor(() =>
      expect(screen.getByTestId('marketplace-default-status').textContent).toBe('Saved.'),
    )
    expect(select.value).toBe('etsy')

    await user.selectOptions(select, 'None (choose on each result)')
    await vi.waitFor(() => expect(select.value).toBe(''))
    expect(patches()).toEqual([{ marketplaceProfile: 'etsy' }, { marketplaceProfile: null }])
  })

  it('says when saving failed and shows the stored value again, in Turkish', async () => {
    fetchMock.mockImplementation(async (_input, init) =>
      init?.method === 'PATCH'
        ? json(500, { error: { code: 'INTERNAL', message: 'x', requestId: 'r' } })
        : json(200, { marketplaceProfile: null }),
    )
    const user = userEvent.setup()
    await renderWeb(<MarketplacePreferenceSection />, { locale: 'tr' })
    const select = (await screen.findByRole('combobox', {
      name: 'Varsayılan pazaryeri',
    })) as HTMLSelectElement
    expect(select.value).toBe('')
    await user.selectOptions(select, 'Çiçeksepeti')
    await vi.waitFor(() =>
      expect(screen.getByTestId('marketplace-default-status').textContent).toBe(
        'Kaydedilemedi. Tekrar deneyin.',
      ),
    )
    expect(select.value).toBe('')
  })
})
