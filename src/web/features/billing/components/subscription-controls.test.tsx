import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { BillingResponse, SubscriptionView } from '#shared/contracts/billing.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { subscriptionView } from '#tests/support/web-views.ts'
import { SubscriptionControls } from './subscription-controls.tsx'

const fetchMock = stubFetchForEachTest()

const pro = subscriptionView('pro')

const view = (subscription: SubscriptionView): BillingResponse => ({
  provider: 'stripe',
  hasCustomerPortal: true,
  canChangePlan: true,
  hasCheckout: true,
  subscription,
})

function lastRequest() {
  const [path, init] = fetchMock.mock.calls.at(-1) ?? []
  return {
    path: String(path),
    method: init?.method,
    body: init?.body ? JSON.parse(String(init.body)) : undefined,
  }
}

describe('SubscriptionControls', () => {
  it('cancels at the period end after asking, naming the date', async () => {
    fetchMock.mockResolvedValue(json(200, view({ ...pro, cancelAtPeriodEnd: true })))
    const onChanged = vi.fn()
    await renderWeb(<SubscriptionControls subscription={pro} onChanged={onChanged} />)
    await userEvent.click(screen.getByRole('button', { name: 'Cancel subscription' }))
    const dialog = screen.getByRole('dialog', { name: 'Cancel at the end of this period?' })
    expect(dialog.textContent).toContain('stays active until December 24, 2026')
    expect(fetchMock).not.toHaveBeenCalled()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel on December 24, 2026' }))
    expect(lastRequest()).toMatchObject({ path: '/api/billing/subscription', method: 'DELETE' })
    expect(onChanged).toHaveBeenCalledWith(
      view({ ...pro, cancelAtPeriodEnd: true }),
      'Your plan ends on December 24, 2026. You can resume it until then.',
    )
  })

  it('shows a cancel at the period end with Resume, which undoes it', async () => {
    fetchMock.mockResolvedValue(json(200, view(pro)))
    const onChanged = vi.fn()
    await renderWeb(
      <SubscriptionControls subscription={{ ...pro, cancelAtPeriodEnd: true }} onChanged={onChanged} />,
    )
    expect(screen.getByTestId('cancel-scheduled').textContent).toContain(
      'Your Pro plan ends on December 24, 2026 and will not renew.',
    )
    expect(screen.queryByRole('button', { name: 'Cancel subscription' })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Resume subscription' }))
    expect(lastRequest()).toMatchObject({ path: '/api/billing/subscription/resume', method: 'POST' })
    expect(onChanged).toHaveBeenCalledWith(view(pro), expect.stringContaining('resumed'))
  })

  it('shows a scheduled downgrade with its undo, which chooses the current plan again', async () => {
    fetchMock.mockResolvedValue(json(200, view(pro)))
    const onChanged = vi.fn()
    await renderWeb(
      <SubscriptionControls subscription={{ ...pro, scheduledPlanId: 'starter' }} onChanged={onChanged} />,
    )
    expect(screen.getByTestId('change-scheduled').textContent).toContain(
      'Changes to Starter on December 24, 2026.',
    )
    await userEvent.click(screen.getByRole('button', { name: 'Keep Pro' }))
    expect(lastRequest()).toEqual({
      path: '/api/billing/subscription',
      method: 'POST',
      body: { planId: 'pro' },
    })
    expect(onChanged).toHaveBeenCalledWith(view(pro), 'The change is undone: you stay on Pro.')
  })

  it('shows a failed resume translated and keeps the button', async () => {
    fetchMock.mockResolvedValue(json(502, { error: { code: 'BILLING_PROVIDER_UNAVAILABLE', message: 'x' } }))
    const onChanged = vi.fn()
    await renderWeb(
      <SubscriptionControls subscription={{ ...pro, cancelAtPeriodEnd: true }} onChanged={onChanged} />,
      { locale: 'tr' },
    )
    await userEvent.click(screen.getByRole('button', { name: 'Aboneliği sürdür' }))
    expect((await screen.findByRole('alert')).textContent).toContain('Ödeme hizmeti yanıt vermedi.')
    expect(onChanged).not.toHaveBeenCalled()
    expect((screen.getByRole('button', { name: 'Aboneliği sürdür' }) as HTMLButtonElement).disabled).toBe(
      false,
    )
  })
})
