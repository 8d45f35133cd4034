import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { SettingsResponse } from '#shared/contracts/settings.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { settingsView } from '#tests/support/web-views.ts'
import { ApiSettingsPanel } from './api-settings-panel.tsx'

const fetchMock = stubFetchForEachTest()

const base = settingsView({ byoApiEnabled: true })

describe('ApiSettingsPanel', () => {
  it('saves the key, then shows only its mask and empties the field', async () => {
    const saved: SettingsResponse = { ...base, falKey: { isSet: true, mask: '••••abcd' } }
    fetchMock.mockResolvedValue(json(200, saved))
    const onChange = vi.fn()
    const user = userEvent.setup()
    const view = await renderWeb(<ApiSettingsPanel settings={base} onChange={onChange} />)

    const input = screen.getByLabelText<HTMLInputElement>('fal.ai API key')
    expect(input.type).toBe('password')
    await user.type(input, 'fal-test-key-1234567890abcd')
    await user.click(screen.getByRole('button', { name: 'Show key' }))
    expect(input.type).toBe('text')
    await user.click(screen.getByRole('button', { name: 'Save API Key' }))

    await vi.waitFor(() => expect(onChange).toHaveBeenCalledWith(saved))
    const [url, init] = fetchMock.mock.calls[0] ?? []
    expect(url).toBe('/api/settings/fal-key')
    expect(init?.method).toBe('PUT')
    expect(JSON.parse(String(init?.body))).toEqual({ key: 'fal-test-key-1234567890abcd' })

    // The field was emptied before the new settings arrive; the page then shows the mask.
    expect(screen.getByLabelText<HTMLInputElement>('fal.ai API key').value).toBe('')
    view.unmount()
    await renderWeb(<ApiSettingsPanel settings={saved} onChange={onChange} />)
    const replace = screen.getByLabelText<HTMLInputElement>('Replace the saved key')
    expect(replace.value).toBe('')
    expect(replace.type).toBe('password')
    expect(screen.getByText('••••abcd')).toBeTruthy()
    expect(document.body.textContent).not.toContain('1234567890')
  })

  it('refuses a key that is too short without sending it', async () => {
    const user = userEvent.setup()
    await renderWeb(<ApiSettingsPanel settings={base} onChange={() => undefined} />)
    await user.type(screen.getByLabelText('fal.ai API key'), 'short')
    await user.click(screen.getByRole('button', { name: 'Save API Key' }))
    expect(screen.getByText('The key must be at least 16 characters.')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('disables the switch without a plan and says how to get one', async () => {
    await renderWeb(
      <ApiSettingsPanel
        settings={{ ...base, hasSubscription: false, byoApiEnabled: false }}
        onChange={() => undefined}
      />,
    )
    const toggle = screen.getByRole<HTMLButtonElement>('switch', { name: 'Bring Your Own API Key' })
    expect(toggle.disabled).toBe(true)
    expect(toggle.getAttribute('aria-checked')).toBe('false')
    expect(screen.getByRole('link', { name: 'Choose a plan' }).getAttribute('href')).toBe('/pricing')
    expect(screen.queryByLabelText('fal.ai API key')).toBeNull()
  })

  it('stores the switch with PATCH', async () => {
    fetchMock.mockResolvedValue(json(200, { ...base, byoApiEnabled: false }))
    const onChange = vi.fn()
    const user = userEvent.setup()
    await renderWeb(<ApiSettingsPanel settings={base} onChange={onChange} />)
    const toggle = screen.getByRole('switch', { name: 'Bring Your Own API Key' })
    expect(toggle.getAttribute('aria-checked')).toBe('true')
    await user.click(toggle)
    await vi.waitFor(() => expect(onChange).toHaveBeenCalled())
    const [url, init] = fetchMock.mock.calls[0] ?? []
    expect(url).toBe('/api/settings')
    expect(init?.method).toBe('PATCH')
    expect(JSON.parse(String(init?.body))).toEqual({ byoApiEnabled: false })
    expect(await screen.findByText('Saved.')).toBeTruthy()
  })
})
