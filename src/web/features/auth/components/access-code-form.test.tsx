import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes, useLocation } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { SessionProvider } from '#web/lib/session.tsx'
import { AccessCodeForm, normalizeCodeInput } from './access-code-form.tsx'

const betaUser = { id: 'b1', email: null, isBeta: true, createdAt: '2026-01-01T00:00:00.000Z' }

const _fetchMock = stubFetchForEachTest(async (input, init) => {
  if (String(input) === '/api/session') return json(200, { user: null })
  const { code } = JSON.parse(String(init?.body)) as { code: string }
  if (code === 'VITRIN') return json(201, { user: betaUser })
  if (code === 'SLOWWW') return json(429, { error: { code: 'RATE_LIMITED', message: 'slow down' } })
  return json(400, { error: { code: 'ACCESS_CODE_INVALID', message: 'no' } })
})

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>
}

async function renderAccess(next: string | null, locale: 'en' | 'tr' = 'en') {
  return renderWeb(
    <SessionProvider>
      <Routes>
        <Route path="/access" element={<AccessCodeForm next={next} />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </SessionProvider>,
    { route: '/access', locale },
  )
}

describe('normalizeCodeInput', () => {
  it('upper-cases without the Turkish dotted capital, drops spaces and keeps six characters', () => {
    expect(normalizeCodeInput('vitrin')).toBe('VITRIN')
    expect(normalizeCodeInput('vıtrın')).toBe('VITRIN')
    expect(normalizeCodeInput('VİTRİN')).toBe('VITRIN')
    expect(normalizeCodeInput(' vi trin 2')).toBe('VITRIN')
  })
})

describe('AccessCodeForm', () => {
  it('enables the button only at six characters and goes to next on a valid code', async () => {
    const user = userEvent.setup()
    await renderAccess('/app/create')
    const input = screen.getByRole('textbox', { name: 'Access code' })
    const submit = screen.getByRole('button', { name: 'Enter Vitrin' })
    expect(input.getAttribute('autocomplete')).toBe('one-time-code')
    expect(submit).toHaveProperty('disabled', true)
    await user.type(input, 'vitri')
    expect(submit).toHaveProperty('disabled', true)
    await user.type(input, 'n')
    expect(input).toHaveProperty('value', 'VITRIN')
    expect(submit).toHaveProperty('disabled', false)
    await user.click(submit)
    await vi.waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/app/create'))
  })

  it('falls back to /app for a next that leaves the site', async () => {
    const user = userEvent.setup()
    await renderAccess('//evil.example')
    await user.type(screen.getByRole('textbox', { name: 'Access code' }), 'vitrin{Enter}')
    await vi.waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/app'))
  })

  it('marks a wrong code and ties the message to the field', async () => {
    const user = userEvent.setup()
    await renderAccess(null, 'tr')
    const input = screen.getByRole('textbox', { name: 'Erişim kodu' })
    await user.type(input, 'abcdef{Enter}')
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toBe('Geçersiz erişim kodu. Lütfen tekrar deneyin.')
    expect(input.getAttribute('aria-invalid')).toBe('true')
    expect(input.getAttribute('aria-describedby')?.split(' ')).toContain(alert.id)
    expect(screen.getByTestId('where').textContent).toBe('/access')
  })

  it('shows the rate-limit message', async () => {
    const user = userEvent.setup()
    await renderAccess(null)
    await user.type(screen.getByRole('textbox', { name: 'Access code' }), 'slowww{Enter}')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please wait a few minutes and try again.',
    )
  })
})
