import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { DeleteAccountDialog } from './delete-account-dialog.tsx'

const fetchMock = stubFetchForEachTest()

describe('DeleteAccountDialog', () => {
  it('warns, asks for the password, and sends it with DELETE /api/account', async () => {
    const user = userEvent.setup()
    const onDeleted = vi.fn()
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }))
    await renderWeb(<DeleteAccountDialog hasPassword onClose={() => undefined} onDeleted={onDeleted} />)

    expect(screen.getByRole('dialog', { name: 'Delete your account?' })).toBeTruthy()
    expect(screen.getByText(/It cannot be undone/)).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Delete account' }))
    expect(screen.getByText('Enter your password.')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()

    await user.type(screen.getByLabelText('Your password'), 'my-secret')
    await user.click(screen.getByRole('button', { name: 'Delete account' }))
    expect(onDeleted).toHaveBeenCalledOnce()
    const [url, init] = fetchMock.mock.calls[0] ?? []
    expect(url).toBe('/api/account')
    expect(init?.method).toBe('DELETE')
    expect(JSON.parse(String(init?.body))).toEqual({ password: 'my-secret' })
  })

  it('shows a wrong password on the field, translated, and stays open', async () => {
    const user = userEvent.setup()
    const onDeleted = vi.fn()
    fetchMock.mockResolvedValueOnce(
      json(400, { error: { code: 'AUTH_WRONG_PASSWORD', message: 'Wrong password' } }),
    )
    await renderWeb(<DeleteAccountDialog hasPassword onClose={() => undefined} onDeleted={onDeleted} />, {
      locale: 'tr',
    })
    await user.type(screen.getByLabelText('Şifreniz'), 'wrong')
    await user.click(screen.getByRole('button', { name: 'Hesabı sil' }))
    const field = screen.getByLabelText('Şifreniz')
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByRole('button', { name: 'Hesabı sil' }).hasAttribute('disabled')).toBe(false)
    expect(onDeleted).not.toHaveBeenCalled()
  })

  it('asks a beta account (no password) to type the word in its language, then sends the confirmation', async () => {
    const user = userEvent.setup()
    const onDeleted = vi.fn()
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }))
    await renderWeb(
      <DeleteAccountDialog hasPassword={false} onClose={() => undefined} onDeleted={onDeleted} />,
      { locale: 'tr' },
    )
    const field = screen.getByLabelText('Onaylamak için SİL yazın')
    await user.type(field, 'sil')
    await user.click(screen.getByRole('button', { name: 'Hesabı sil' }))
    expect(screen.getByText('Onaylamak için tam olarak SİL yazın.')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()

    await user.clear(field)
    await user.type(field, 'SİL')
    await user.click(screen.getByRole('button', { name: 'Hesabı sil' }))
    expect(onDeleted).toHaveBeenCalledOnce()
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ confirmation: 'DELETE' })
  })
})
