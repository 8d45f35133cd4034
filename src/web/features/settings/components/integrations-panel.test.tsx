import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { describe, expect, it } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { IntegrationsPanel } from './integrations-panel.tsx'

describe('IntegrationsPanel', () => {
  it('shows the shop connections as coming soon and leads CSV Upload to the catalogue', async () => {
    const user = userEvent.setup()
    await renderWeb(
      <Routes>
        <Route path="/settings" element={<IntegrationsPanel />} />
        <Route path="/app/catalogue" element={<p>Catalogue page</p>} />
      </Routes>,
      { route: '/settings', locale: 'tr' },
    )
    for (const id of ['shopify', 'woocommerce']) {
      expect(within(screen.getByTestId(`integration-${id}`)).getByText('Çok yakında')).toBeTruthy()
    }
    const csv = screen.getByTestId('integration-csv')
    expect(within(csv).queryByText('Çok yakında')).toBeNull()
    await user.click(within(csv).getByRole('link', { name: 'Ürün listesi içe aktar' }))
    expect(screen.getByText('Catalogue page')).toBeTruthy()
  })
})
