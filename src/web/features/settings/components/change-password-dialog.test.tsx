import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { ChangePasswordDialog } from './change-password-dialog.tsx'

const fetchMock = stubFetchForEachTest()

const field = (name: string) => screen.getByLabelText<HTMLInputElement>(name, { exact: true })

async function fill(
  user: ReturnType<typeof userEvent.setup>,
  current: string,
  next: string,
  confirm: string,
) {
  await user.type(field('Current password'), current)
  await user.type(field('New password'), next)
  await user.type(field('Confirm new password'), confirm)
}

describe('ChangePasswordDialog', () => {
  it('checks the length and the match before sending anything', async () => {
    const user = userEvent.setup()
    await renderWeb(<ChangePasswordDialog onClose={() => undefined} onChanged={() => undefined} />)

    await fill(user, 'old-password', 'abc', 'abc')
    await user.click(screen.getByRole('button', { name: 'Change Password' }))
    expect(field('New password').getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('Password must be at least 6 characters')).toBeTruthy()

    await user.clear(field('New password'))
    await user.type(field('New password'), 'long-enough')
    await user.click(screen.getByRole('button', { name: 'Change Password' }))
    expect(screen.getByText('Passwords do not match')).toBeTruthy()
    expect(field('Confirm new password').getAttribute('aria-invalid')).toBe('true')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('sends the current and new password, then reports success', async () => {
    fetchMock.mockResolvedValue(json(200, { ok: true }))
    const onChanged = vi.fn()
    const user = userEvent.setup()
    await renderWeb(<ChangePasswordDialog onClose={() => undefined} onChanged={onChanged} />)

    await fill(user, 'old-password', 'new-password-1', 'new-password-1')
    await user.click(screen.getByRole('button', { name: 'Change Password' }))

    await vi.waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1))
    const [url, init] = fetchMock.mock.calls[0] ?? []
    expect(url).toBe('/api/auth/password')
    expect(init?.method).toBe('POST')
    expect(JSON.parse(String(init?.body))).toEqual({
      currentPassword: 'old-password',
      newPassword: 'new-password-1',
    })
  })

  it('puts a wrong current password next to that field, in Turkish', async () => {
    fetchMock.mockResolvedValue(
      json(400, { error: { code: 'AUTH_WRONG_PASSWORD', message: 'Invalid password' } }),
    )
    const user = userEvent.setup()
    await renderWeb(<ChangePasswordDialog onClose={() => undefined} onChanged={() => undefined} />, {
      locale: 'tr',
    })
    await user.type(field('Mevcut şifre'), 'wrong-one')
    await user.type(field('Yeni şifre'), 'new-password-1')
    await user.type(field('Yeni şifre (tekrar)'), 'new-password-1')
    await user.click(screen.getByRole('button', { name: 'Şifreyi Değiştir' }))

    expect(await screen.findByText('Mevcut şifreniz doğru değil.')).toBeTruthy()
    await vi.waitFor(() => expect(document.activeElement).toBe(field('Mevcut şifre')))
  })

  it('shows other failures as a message at the top', async () => {
    fetchMock.mockResolvedValue(json(429, { error: { code: 'RATE_LIMITED', message: 'slow' } }))
    const user = userEvent.setup()
    await renderWeb(<ChangePasswordDialog onClose={() => undefined} onChanged={() => undefined} />)
    await fill(user, 'old-password', 'new-password-1', 'new-password-1')
    await user.click(screen.getByRole('button', { name: 'Change Password' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please wait a few minutes and try again.',
    )
  })
})
