import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { ConfirmDialog } from './confirm-dialog.tsx'

function Harness(props: { onConfirm: () => Promise<void> }) {
  const [isOpen, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {isOpen ? (
        <ConfirmDialog
          title="Cancel your subscription?"
          body={<p>Your plan ends now.</p>}
          confirmLabel="Yes, cancel"
          cancelLabel="Keep my plan"
          busyLabel="Please wait…"
          tone="danger"
          onConfirm={async () => {
            await props.onConfirm()
            setOpen(false)
          }}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  )
}

describe('ConfirmDialog', () => {
  it('is a labelled modal that starts on the safe choice, keeps Tab inside and closes on Escape', async () => {
    const user = userEvent.setup()
    await renderWeb(<Harness onConfirm={() => Promise.resolve()} />)
    const opener = screen.getByRole('button', { name: 'Open' })
    await user.click(opener)

    const dialog = screen.getByRole('dialog', { name: 'Cancel your subscription?' })
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy()
    const keep = screen.getByRole('button', { name: 'Keep my plan' })
    const confirm = screen.getByRole('button', { name: 'Yes, cancel' })
    expect(document.activeElement).toBe(keep)

    await user.tab()
    expect(document.activeElement).toBe(confirm)
    await user.tab()
    expect(document.activeElement).toBe(keep)
    await user.tab({ shift: true })
    expect(document.activeElement).toBe(confirm)

    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
  })

  it('shows the translated error and stays open when the action fails', async () => {
    const user = userEvent.setup()
    const onConfirm = vi.fn(() => Promise.reject(new ApiError('RATE_LIMITED', 429, 'slow down')))
    await renderWeb(<Harness onConfirm={onConfirm} />)
    await user.click(screen.getByRole('button', { name: 'Open' }))
    await user.click(screen.getByRole('button', { name: 'Yes, cancel' }))

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please wait a few minutes and try again.',
    )
    expect(screen.getByRole('dialog')).toBeTruthy()
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Yes, cancel' }).disabled).toBe(false)
    expect(onConfirm).toHaveBeenCalledTimes(1)
  })

  it('says it is busy while the action runs, then closes when it succeeds', async () => {
    const user = userEvent.setup()
    let finish: () => void = () => undefined
    const running = new Promise<void>((resolve) => {
      finish = resolve
    })
    await renderWeb(<Harness onConfirm={() => running} />)
    await user.click(screen.getByRole('button', { name: 'Open' }))
    await user.click(screen.getByRole('button', { name: 'Yes, cancel' }))
    const busy = screen.getByRole<HTMLButtonElement>('button', { name: 'Please wait…' })
    expect(busy.disabled).toBe(true)
    finish()
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})
