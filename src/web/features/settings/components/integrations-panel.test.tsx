import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import type { IntegrationsResponse, IntegrationView } from '#shared/contracts/integrations.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { IntegrationsPanel } from './integrations-panel.tsx'

const fetchMock = stubFetchForEachTest()

const notConnected = (marketplace: IntegrationView['marketplace']): IntegrationView => ({
  marketplace,
  isConnected: false,
  accountId: null,
  secretMask: null,
  verifiedAt: null,
})

const none: IntegrationsResponse = { integrations: [notConnected('trendyol'), notConnected('hepsiburada')] }

const trendyolConnected: IntegrationsResponse = {
  integrations: [
    {
      marketplace: 'trendyol',
      isConnected: true,
      accountId: '123456',
      secretMask: '••••cret',
      verifiedAt: '2026-11-29T12:00:00.000Z',
    },
    notConnected('hepsiburada'),
  ],
}

function renderPanel(locale: 'en' | 'tr' = 'en') {
  return renderWeb(
    <Routes>
      <Route path="/settings" element={<IntegrationsPanel />} />
      <Route path="/app/catalogue" element={<p>Catalogue page</p>} />
    </Routes>,
    { route: '/settings', locale },
  )
}

describe('IntegrationsPanel', () => {
  it('shows the shop connections as coming soon and leads CSV Upload to the catalogue', async () => {
    fetchMock.mockResolvedValue(json(200, none))
    const user = userEvent.setup()
    await renderPanel('tr')
    for (const id of ['shopify', 'woocommerce']) {
      expect(within(screen.getByTestId(`integration-${id}`)).getByText('Çok yakında')).toBeTruthy()
    }
    const csv = screen.getByTestId('integration-csv')
    expect(within(csv).queryByText('Çok yakında')).toBeNull()
    await user.click(within(csv).getByRole('link', { name: 'Ürün listesi içe aktar' }))
    expect(screen.getByText('Catalogue page')).toBeTruthy()
  })

  it('connects Trendyol: checks the fields first, sends them once, then shows only the account and a mask', async () => {
    fetchMock.mockResolvedValueOnce(json(200, none)).mockResolvedValueOnce(json(200, trendyolConnected))
    const user = userEvent.setup()
    await renderPanel()
    const card = await screen.findByTestId('integration-trendyol')
    expect(within(card).getByText('Not connected')).toBeTruthy()
    const connect = within(card).getByRole('button', { name: 'Connect Trendyol' })

    // Nothing typed: every field says so, and nothing is sent.
    await user.click(connect)
    expect(within(card).getAllByText('Fill this in.')).toHaveLength(3)
    expect(document.activeElement).toBe(within(card).getByLabelText('Seller ID'))
    expect(fetchMock).toHaveBeenCalledTimes(1)

    await user.type(within(card).getByLabelText('Seller ID'), 'abc')
    await user.type(within(card).getByLabelText('API key'), 'fake-trendyol-api-key')
    await user.type(within(card).getByLabelText('API secret'), 'fake-trendyol-api-secret')
    expect(within(card).getByLabelText<HTMLInputElement>('API secret').type).toBe('password')
    await user.click(connect)
    expect(within(card).getByText('The seller ID is digits only.')).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)

    await user.clear(within(card).getByLabelText('Seller ID'))
    await user.type(within(card).getByLabelText('Seller ID'), '123456')
    await user.click(connect)
    await vi.waitFor(() => expect(screen.getByRole('status').textContent).toBe('Connected to Trendyol.'))
    const [url, init] = fetchMock.mock.calls[1] ?? []
    expect(url).toBe('/api/integrations/trendyol')
    expect(init?.method).toBe('PUT')
    expect(JSON.parse(String(init?.body))).toEqual({
      sellerId: '123456',
      apiKey: 'fake-trendyol-api-key',
      apiSecret: 'fake-trendyol-api-secret',
    })
    const connected = screen.getByTestId('integration-trendyol')
    expect(within(connected).getByText('Connected')).toBeTruthy()
    expect(within(connected).getByText('••••cret')).toBeTruthy()
    expect(document.body.textContent).not.toContain('fake-trendyol-api-secret')
    expect(within(connected).getByRole('button', { name: 'Disconnect Trendyol' })).toBeTruthy()
  })

  it('tells the seller the marketplace refused the keys, in their language, and keeps what they typed', async () => {
    fetchMock.mockResolvedValueOnce(json(200, none)).mockResolvedValueOnce(
      json(400, {
        error: {
          code: 'MARKETPLACE_KEYS_REFUSED',
          message: 'The marketplace did not accept these credentials',
        },
      }),
    )
    const user = userEvent.setup()
    await renderPanel('tr')
    const card = await screen.findByTestId('integration-hepsiburada')
    await user.type(
      within(card).getByLabelText('Mağaza ID (Merchant ID)'),
      '6fc6d90d-ee1d-4372-b3a6-264b1275e9ff',
    )
    await user.type(within(card).getByLabelText('Servis Anahtarı'), 'WrongKey1234')
    await user.click(within(card).getByRole('button', { name: 'Hepsiburada hesabını bağla' }))
    expect(
      await within(card).findByText(
        'Pazaryeri bu bilgileri kabul etmedi. Satıcı panelindeki hesap numarasını ve anahtarları kontrol edip yeniden deneyin.',
      ),
    ).toBeTruthy()
    expect(within(card).getByText('Bağlı değil')).toBeTruthy()
    expect(within(card).getByLabelText<HTMLInputElement>('Servis Anahtarı').value).toBe('WrongKey1234')
  })

  it('tests a connection: the new check time when it holds, what to do when the marketplace refuses', async () => {
    const tested: IntegrationsResponse = {
      integrations: [
        { ...(trendyolConnected.integrations[0] as IntegrationView), verifiedAt: '2026-11-29T15:30:00.000Z' },
        notConnected('hepsiburada'),
      ],
    }
    fetchMock
      .mockResolvedValueOnce(json(200, trendyolConnected))
      .mockResolvedValueOnce(json(200, tested))
      .mockResolvedValueOnce(json(503, { error: { code: 'MARKETPLACE_BUSY', message: 'busy' } }))
    const user = userEvent.setup()
    await renderPanel()
    const card = await screen.findByTestId('integration-trendyol')
    const test = within(card).getByRole('button', { name: 'Test Trendyol connection' })
    await user.click(test)
    await vi.waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Trendyol accepted the connection.'),
    )
    const [url, init] = fetchMock.mock.calls[1] ?? []
    expect(url).toBe('/api/integrations/trendyol/test')
    expect(init?.method).toBe('POST')
    await user.click(
      within(screen.getByTestId('integration-trendyol')).getByRole('button', {
        name: 'Test Trendyol connection',
      }),
    )
    expect(
      await screen.findByText(
        'The marketplace is refusing requests for a while (too many were sent from this server). Nothing was saved; try again in a few minutes.',
      ),
    ).toBeTruthy()
    // Still connected: a failed test forgets nothing.
    expect(within(screen.getByTestId('integration-trendyol')).getByText('••••cret')).toBeTruthy()
  })

  it('disconnects, saying the keys are deleted', async () => {
    fetchMock.mockResolvedValueOnce(json(200, trendyolConnected)).mockResolvedValueOnce(json(200, none))
    const user = userEvent.setup()
    await renderPanel()
    const card = await screen.findByTestId('integration-trendyol')
    await user.click(within(card).getByRole('button', { name: 'Disconnect Trendyol' }))
    await vi.waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe(
        'Disconnected from Trendyol. Your keys are deleted.',
      ),
    )
    const [url, init] = fetchMock.mock.calls[1] ?? []
    expect(url).toBe('/api/integrations/trendyol')
    expect(init?.method).toBe('DELETE')
    expect(within(screen.getByTestId('integration-trendyol')).getByText('Not connected')).toBeTruthy()
  })
})
