import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { ApiError } from '#web/lib/api-client.ts'
import { LoadState } from './load-state.tsx'

const labels = {
  loadingLabel: 'Loading things…',
  errorTitle: 'We could not load things.',
  retryLabel: 'Try again',
}

type Props = Parameters<typeof LoadState<string>>[0]

/** Renders a LoadState with the labels above; `props` sets the resource and anything else. */
function renderLoadState(
  props: Omit<Props, keyof typeof labels | 'children'> & { children?: Props['children'] },
  options?: { locale: 'tr' },
) {
  return renderWeb(
    <LoadState {...labels} {...props}>
      {props.children ?? (() => <p>data</p>)}
    </LoadState>,
    options,
  )
}

const loading = { status: 'loading', reload: () => undefined } as const

describe('LoadState', () => {
  it('announces loading with a spinner, or shows the skeleton it is given', async () => {
    const view = await renderLoadState({ resource: loading })
    expect(screen.getByRole('status').textContent).toBe('Loading things…')
    view.unmount()

    await renderLoadState({ resource: loading, loading: <div data-testid="skeleton" /> })
    expect(screen.getByTestId('skeleton')).toBeTruthy()
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('shows the error with its translated reason, and Try again retries', async () => {
    const onRetry = vi.fn()
    const user = userEvent.setup()
    await renderLoadState(
      {
        resource: { status: 'error', error: new ApiError('SERVICE_UNAVAILABLE', 503, 'x'), reload: onRetry },
        errorTitleAs: 'h1',
      },
      { locale: 'tr' },
    )
    const alert = screen.getByRole('alert')
    expect(screen.getByRole('heading', { level: 1, name: 'We could not load things.' })).toBeTruthy()
    expect(alert.textContent).toContain('Vitrin kısa bir süreliğine kullanılamıyor.')
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(onRetry).toHaveBeenCalledTimes(1)
  })

  it('uses the generic reason for an error that is not the API’s', async () => {
    await renderLoadState({
      resource: { status: 'error', error: new TypeError('bad json'), reload: () => undefined },
    })
    expect(screen.getByRole('alert').textContent).toContain(
      'Something went wrong on our side. Please try again.',
    )
  })

  it('inline, says it quietly with a Try again and no reason', async () => {
    const onRetry = vi.fn()
    const user = userEvent.setup()
    await renderLoadState({
      resource: { status: 'error', error: new ApiError('INTERNAL', 500, 'x'), reload: onRetry },
      variant: 'inline',
    })
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByText('We could not load things.')).toBeTruthy()
    expect(document.body.textContent).not.toContain('Something went wrong')
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(onRetry).toHaveBeenCalledTimes(1)
  })

  it('renders the data when ready', async () => {
    await renderLoadState({
      resource: { status: 'ready', data: 'The data', reload: () => undefined },
      children: (data) => <p>{data}</p>,
    })
    expect(screen.getByText('The data')).toBeTruthy()
    expect(screen.queryByRole('status')).toBeNull()
  })
})
