import { act, screen } from '@testing-library/react'
import userEvent, { type UserEvent } from '@testing-library/user-event'
import { Route, Routes, useLocation } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { SessionProvider, useSession } from '#web/lib/session.tsx'
import { SignUpForm, signUpRedirectDelayMs } from './sign-up-form.tsx'

const newUser = { id: 'u1', email: 'ayse@example.com', isBeta: false, createdAt: '2026-01-01T00:00:00.000Z' }

/** Whether the sign-up answer came with a session (a new email) or not (a registered one). */
let signUpSignsIn = true
let isSignedIn = false

const fetchMock = stubFetchForEachTest(async (input) => {
  const url = String(input)
  if (url === '/api/session') return json(200, { user: isSignedIn ? newUser : null })
  if (url === '/api/auth/sign-up') {
    isSignedIn = signUpSignsIn
    return json(201, { user: { ...newUser, id: signUpSignsIn ? newUser.id : 'never-used' } })
  }
  return json(404, { error: { code: 'NOT_FOUND', message: 'no' } })
})

afterEach(() => {
  vi.useRealTimers()
  signUpSignsIn = true
  isSignedIn = false
})

function Where() {
  const location = useLocation()
  const session = useSession()
  return (
    <p data-testid="where">
      {location.pathname + location.search} {session.status}
    </p>
  )
}

async function renderSignUp(options: { locale?: 'en' | 'tr' } = {}) {
  return renderWeb(
    <SessionProvider>
      <Routes>
        <Route path="/auth/signup" element={<SignUpForm plan="growth" />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </SessionProvider>,
    { route: '/auth/signup?plan=growth', locale: options.locale ?? 'en' },
  )
}

/** Types the email, the password and its confirmation into the English form, then sends it. */
async function submitSignUp(user: UserEvent, email: string, password: string, confirmation: string) {
  await user.type(screen.getByRole('textbox', { name: 'Email' }), email)
  await user.type(screen.getByLabelText('Password', { exact: true }), password)
  await user.type(screen.getByLabelText('Confirm password'), confirmation)
  await user.click(screen.getByRole('button', { name: 'Create Account' }))
}

const signUpCalls = () => fetchMock.mock.calls.filter(([url]) => String(url) === '/api/auth/sign-up')

describe('SignUpForm', () => {
  it('shows the too-short and mismatch password messages on the fields and sends nothing', async () => {
    const user = userEvent.setup()
    await renderSignUp()
    await submitSignUp(user, 'ayse@example.com', 'abc', 'abd')

    const password = screen.getByLabelText('Password', { exact: true })
    expect(password.getAttribute('aria-invalid')).toBe('true')
    expect(password).toHaveProperty('type', 'password')
    expect(screen.getByText('Password must be at least 6 characters').id).toBe(
      password.getAttribute('aria-describedby'),
    )
    const confirm = screen.getByLabelText('Confirm password')
    expect(confirm.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('Passwords do not match')).toBeTruthy()
    await vi.waitFor(() => expect(document.activeElement).toBe(password))
    expect(signUpCalls()).toHaveLength(0)
  })

  it('says the same in Turkish', async () => {
    const user = userEvent.setup()
    await renderSignUp({ locale: 'tr' })
    await user.type(screen.getByLabelText('Şifre', { exact: true }), 'abc')
    await user.type(screen.getByLabelText('Şifre tekrarı'), 'abcd')
    await user.click(screen.getByRole('button', { name: 'Hesap Oluştur' }))
    expect(screen.getByText('Bu alan zorunludur.')).toBeTruthy()
    expect(screen.getByText('Şifre en az 6 karakter olmalıdır')).toBeTruthy()
    expect(screen.getByText('Şifreler eşleşmiyor')).toBeTruthy()
  })

  it('shows Account Created, signed in, and goes to the plans after exactly 2 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    await renderSignUp()
    await submitSignUp(user, 'Ayse@Example.com', 'secret-1', 'secret-1')

    const heading = await screen.findByRole('heading', { level: 1, name: 'Account Created' })
    expect(document.activeElement).toBe(heading)
    expect(screen.getByTestId('where').textContent).toBe('/auth/signup?plan=growth signed-in')
    expect(JSON.parse(String(signUpCalls()[0]?.[1]?.body))).toEqual({
      email: 'Ayse@Example.com',
      password: 'secret-1',
    })

    await act(async () => {
      vi.advanceTimersByTime(signUpRedirectDelayMs - 50)
    })
    expect(screen.getByTestId('where').textContent).toBe('/auth/signup?plan=growth signed-in')
    await act(async () => {
      vi.advanceTimersByTime(50)
    })
    expect(screen.getByTestId('where').textContent).toBe('/pricing?plan=growth signed-in')
  })

  it('answers a registered email with the same screen, signed out, saying what happens then', async () => {
    signUpSignsIn = false
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    await renderSignUp()
    await submitSignUp(user, 'ayse@example.com', 'secret-1', 'secret-1')

    await screen.findByRole('heading', { level: 1, name: 'Account Created' })
    expect(
      screen.getByText(
        'If this email already had a Vitrin account, no new one was made: we emailed its owner how to sign in.',
      ),
    ).toBeTruthy()
    // The session is the server's, not the answer's: nobody is signed in.
    await vi.waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/auth/signup?plan=growth signed-out'),
    )
    await act(async () => {
      vi.advanceTimersByTime(signUpRedirectDelayMs)
    })
    expect(screen.getByTestId('where').textContent).toBe('/pricing?plan=growth signed-out')
  })

  it('shows a server refusal in a red banner', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input) === '/api/session'
        ? json(200, { user: null })
        : json(409, { error: { code: 'AUTH_EMAIL_TAKEN', message: 'taken' } }),
    )
    const user = userEvent.setup()
    await renderSignUp()
    await submitSignUp(user, 'ayse@example.com', 'secret-1', 'secret-1')
    expect((await screen.findByRole('alert')).textContent).toBe(
      'An account with this email already exists. Sign in instead.',
    )
    expect(screen.getByTestId('where').textContent).toBe('/auth/signup?plan=growth signed-out')
  })
})
