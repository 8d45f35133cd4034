import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { SessionProvider, useSession } from '#web/lib/session.tsx'
import { BetaSessionNotice } from './beta-session-notice.tsx'

const betaUser = { id: 'b1', email: null, isBeta: true, createdAt: '2026-06-01T00:00:00.000Z' }
const sessionEndsAt = '2026-06-08T12:00:00.000Z'
let addEmailAnswer: () => Response = () =>
  json(200, { user: { ...betaUser, email: 'ayse@example.com', isBeta: false } })

const fetchMock = stubFetchForEachTest(async (input) => {
  const url = String(input)
  if (url === '/api/session') return json(200, { user: betaUser, sessionEndsAt })
  if (url === '/api/auth/email') return addEmailAnswer()
  return json(404, { error: { code: 'NOT_FOUND', message: 'no' } })
})

const addEmailCalls = () => fetchMock.mock.calls.filter(([url]) => String(url) === '/api/auth/email')

/** Who the rest of the app (the header) sees as signed in. */
function Who() {
  const session = useSession()
  return <p data-testid="who">{session.user ? (session.user.email ?? 'beta') : 'nobody'}</p>
}

async function renderNotice(locale: 'en' | 'tr' = 'en') {
  await renderWeb(
    <SessionProvider>
      <BetaSessionNotice />
      <Who />
    </SessionProvider>,
    { locale },
  )
  return screen.findByTestId('beta-session-notice')
}

async function openDialog(user: ReturnType<typeof userEvent.setup>, name = 'Add email') {
  await user.click(screen.getByRole('button', { name }))
  return screen.getByRole('dialog')
}

describe('BetaSessionNotice and the add-email dialog', () => {
  it('says when the beta session ends and checks the fields before sending anything', async () => {
    const user = userEvent.setup()
    const notice = await renderNotice()
    expect(notice.textContent).toContain(
      'Your beta session ends on June 8, 2026. Add an email to keep your work.',
    )
    const dialog = await openDialog(user)
    const submit = within(dialog).getByRole('button', { name: 'Save Email' })

    await user.click(submit)
    expect(within(dialog).getByRole('textbox', { name: 'Email' }).getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: 'Email' }))

    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'ayse@example.com')
    await user.type(within(dialog).getByLabelText('Password', { exact: true }), 'abc')
    await user.type(within(dialog).getByLabelText('Confirm password'), 'abd')
    await user.click(submit)
    expect(within(dialog).getByText('Password must be at least 6 characters')).toBeTruthy()
    expect(within(dialog).getByText('Passwords do not match')).toBeTruthy()
    expect(addEmailCalls()).toHaveLength(0)
  })

  it('saves the email: the same user with it, the notice goes and the change is announced', async () => {
    addEmailAnswer = () => json(200, { user: { ...betaUser, email: 'ayse@example.com', isBeta: false } })
    const user = userEvent.setup()
    await renderNotice()
    expect(screen.getByTestId('who').textContent).toBe('beta')
    const dialog = await openDialog(user)
    await user.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'Ayse@Example.com')
    await user.type(within(dialog).getByLabelText('Password', { exact: true }), 'keep-my-work-7')
    await user.type(within(dialog).getByLabelText('Confirm password'), 'keep-my-work-7')
    await user.click(within(dialog).getByRole('button', { name: 'Save Email' }))

    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(screen.queryByTestId('beta-session-notice')).toBeNull()
    expect(screen.getByTestId('who').textContent).toBe('ayse@example.com')
    expect(screen.getByRole('status').textContent).toBe(
      'Your email ayse@example.com is saved. Sign in with it and your password from now on.',
    )
    const [, init] = addEmailCalls()[0] ?? []
    expect(init?.method).toBe('POST')
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'Ayse@Example.com', password: 'keep-my-work-7' })
  })

  it('shows a taken email above the form and a refused password on its field, in Turkish', async () => {
    const user = userEvent.setup()
    const notice = await renderNotice('tr')
    expect(notice.textContent).toContain('Beta oturumunuz 8 Haziran 2026 tarihinde sona eriyor.')
    const dialog = await openDialog(user, 'E-posta ekle')
    await user.type(within(dialog).getByRole('textbox', { name: 'E-posta' }), 'taken@example.com')
    await user.type(within(dialog).getByLabelText('Şifre', { exact: true }), 'keep-my-work-7')
    await user.type(within(dialog).getByLabelText('Şifre tekrarı'), 'keep-my-work-7')

    addEmailAnswer = () => json(409, { error: { code: 'AUTH_EMAIL_TAKEN', message: 'taken' } })
    await user.click(within(dialog).getByRole('button', { name: 'E-postayı Kaydet' }))
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Bu e-posta ile kayıtlı bir hesap zaten var. Giriş yapın.',
    )

    addEmailAnswer = () =>
      json(400, {
        error: { code: 'VALIDATION_FAILED', message: 'bad', details: { fields: { password: 'tooCommon' } } },
      })
    await user.click(within(dialog).getByRole('button', { name: 'E-postayı Kaydet' }))
    const password = within(dialog).getByLabelText('Şifre', { exact: true })
    await vi.waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'))
    expect(document.activeElement).toBe(password)
    expect(screen.getByTestId('beta-session-notice')).toBeTruthy()
    expect(screen.getByTestId('who').textContent).toBe('beta')
  })
})
