import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { settingsView } from '#tests/support/web-views.ts'
import { BillingSettingsPanel } from './billing-settings-panel.tsx'

const fetchMock = stubFetchForEachTest()

const live = settingsView({ autoTopupEnabled: true, isBillingLive: true, autoTopupMonthlyCap: 3 })

describe('BillingSettingsPanel', () => {
  it('with a payment provider, shows the Manage Billing action it is given and the monthly cap', async () => {
    await renderWeb(
      <BillingSettingsPanel
        settings={live}
        onChange={() => undefined}
        manageBilling={<button type="button">Open portal</button>}
      />,
    )
    expect(screen.getByRole('button', { name: 'Open portal' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Manage Billing' })).toBeNull()
    expect(screen.getByLabelText<HTMLSelectElement>('Monthly limit (packs)').value).toBe('3')
  })

  it('without a payment provider, shows Manage Billing disabled with the reason, never a dead click', async () => {
    await renderWeb(
      <BillingSettingsPanel
        settings={{ ...live, isBillingLive: false, autoTopupMonthlyCap: null }}
        onChange={() => undefined}
        manageBilling={<button type="button">Open portal</button>}
      />,
    )
    const button = screen.getByRole<HTMLButtonElement>('button', { name: 'Manage Billing' })
    expect(button.disabled).toBe(true)
    expect(button.getAttribute('aria-describedby')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Open portal' })).toBeNull()
  })

  it('saves a new monthly cap', async () => {
    fetchMock.mockResolvedValue(json(200, { ...live, autoTopupMonthlyCap: 5 }))
    const onChange = vi.fn()
    const user = userEvent.setup()
    await renderWeb(<BillingSettingsPanel settings={live} onChange={onChange} />)
    await user.selectOptions(screen.getByLabelText('Monthly limit (packs)'), '5')
    await vi.waitFor(() => expect(onChange).toHaveBeenCalledWith({ ...live, autoTopupMonthlyCap: 5 }))
    const [url, init] = fetchMock.mock.calls[0] ?? []
    expect(url).toBe('/api/settings')
    expect(JSON.parse(String(init?.body))).toEqual({ autoTopupMonthlyCap: 5 })
  })
})
