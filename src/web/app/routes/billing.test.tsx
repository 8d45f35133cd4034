import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import type { BillingResponse, SubscriptionView, UsageResponse } from '#shared/contracts/billing.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { subscriptionView } from '#tests/support/web-views.ts'
import { leaveFor } from '#web/features/billing/leave-for.ts'
import { BillingPage } from './billing.tsx'

vi.mock('#web/features/billing/leave-for.ts', () => ({ leaveFor: vi.fn() }))

const fetchMock = stubFetchForEachTest()

const growth = subscriptionView('growth')

const stripe = (subscription: SubscriptionView | null): BillingResponse => ({
  provider: 'stripe',
  hasCustomerPortal: true,
  canChangePlan: true,
  hasCheckout: true,
  subscription,
})

const usage = (subscription: SubscriptionView | null): UsageResponse => ({
  period: subscription
    ? { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd }
    : null,
  subscription,
  images: { used: 10, quota: subscription ? 1000 : 0 },
  videos: { used: 0, quota: subscription ? 30 : 0 },
  credits: { images: 0, videos: 0 },
  seo: { unlimited: true },
  storage: { usedBytes: 0, quotaBytes: 0 },
})

/** /api/billing answers `billing` until a change answers `changed`; every other call is recorded. */
function serve(billing: BillingResponse, answers: Record<string, unknown> = {}) {
  fetchMock.mockImplementation(async (input, init) => {
    const path = String(input)
    const method = init?.method ?? 'GET'
    const key = `${method} ${path}`
    if (key in answers) return json(200, answers[key])
    if (path === '/api/billing') return json(200, billing)
    if (path === '/api/usage') return json(200, usage(billing.subscription))
    return json(500, { error: { code: 'INTERNAL', message: `unexpected ${key}` } })
  })
}

function requests(method: string, path: string) {
  return fetchMock.mock.calls
    .filter(([input, init]) => String(input) === path && (init?.method ?? 'GET') === method)
    .map(([, init]) => (init?.body ? JSON.parse(String(init.body)) : undefined))
}

/** Opens the billing page and chooses `plan`: the dialog that asks to confirm the change. */
async function openChoice(plan: string) {
  await renderWeb(<BillingPage />)
  const option = (await screen.findAllByRole('listitem')).find((li) => li.getAttribute('data-plan') === plan)
  await userEvent.click(
    within(option as HTMLElement).getByRole('button', {
      name: `Choose ${plan[0]?.toUpperCase()}${plan.slice(1)}`,
    }),
  )
  return screen.getByRole('dialog')
}

describe('BillingPage with Stripe', () => {
  it('upgrades now, saying the difference is charged prorated', async () => {
    serve(stripe(growth), { 'POST /api/billing/subscription': stripe({ ...growth, planId: 'pro' }) })
    const dialog = await openChoice('pro')
    expect(within(dialog).getByRole('heading').textContent).toBe('Upgrade to Pro now?')
    expect(dialog.textContent).toContain('charged to your card now (prorated)')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upgrade now' }))
    expect(requests('POST', '/api/billing/subscription')).toEqual([{ planId: 'pro' }])
    expect((await screen.findByTestId('billing-message')).textContent).toBe('You are now on the Pro plan.')
  })

  it('schedules a downgrade for the period end and shows it with its undo', async () => {
    serve(stripe(growth), {
      'POST /api/billing/subscription': stripe({ ...growth, scheduledPlanId: 'starter' }),
    })
    const dialog = await openChoice('starter')
    expect(within(dialog).getByRole('heading').textContent).toBe('Change to Starter on December 24, 2026?')
    expect(dialog.textContent).toContain('You keep Growth and its quota until December 24, 2026.')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change on December 24, 2026' }))
    expect(requests('POST', '/api/billing/subscription')).toEqual([{ planId: 'starter' }])
    expect((await screen.findByTestId('change-scheduled')).textContent).toContain(
      'Changes to Starter on December 24, 2026.',
    )
    expect(screen.getByRole('button', { name: 'Keep Growth' })).toBeTruthy()
  })

  it('sends a user without a paid plan to the hosted checkout', async () => {
    vi.mocked(leaveFor).mockClear()
    serve(stripe(null), { 'POST /api/billing/checkout': { url: 'https://billing.example/checkout/cs_9' } })
    const dialog = await openChoice('growth')
    expect(within(dialog).getByRole('heading').textContent).toBe('Subscribe to Growth?')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue to payment' }))
    expect(requests('POST', '/api/billing/checkout')).toEqual([{ planId: 'growth' }])
    expect(leaveFor).toHaveBeenCalledWith('https://billing.example/checkout/cs_9')
    expect(requests('POST', '/api/billing/subscription')).toEqual([])
  })

  it('shows a failed checkout start translated, in the dialog', async () => {
    vi.mocked(leaveFor).mockClear()
    fetchMock.mockImplementation(async (input, init) => {
      const path = String(input)
      if (path === '/api/billing') return json(200, stripe(null))
      if (path === '/api/usage') return json(200, usage(null))
      if (path === '/api/billing/checkout' && init?.method === 'POST')
        return json(502, { error: { code: 'BILLING_PROVIDER_UNAVAILABLE', message: 'x' } })
      return json(500, { error: { code: 'INTERNAL', message: 'unexpected' } })
    })
    await renderWeb(<BillingPage />, { locale: 'tr' })
    const option = (await screen.findAllByRole('listitem')).find(
      (li) => li.getAttribute('data-plan') === 'growth',
    )
    await userEvent.click(within(option as HTMLElement).getByRole('button', { name: 'Growth planını seç' }))
    await userEvent.click(screen.getByRole('button', { name: 'Ödemeye geç' }))
    expect((await within(screen.getByRole('dialog')).findByRole('alert')).textContent).toContain(
      'Ödeme hizmeti yanıt vermedi.',
    )
    expect(leaveFor).not.toHaveBeenCalled()
  })

  it('shows a past-due banner, and Manage Billing opens the portal', async () => {
    vi.mocked(leaveFor).mockClear()
    serve(stripe({ ...growth, status: 'past_due' }), {
      'POST /api/billing/portal': { url: 'https://billing.example/portal/ps_1' },
    })
    await renderWeb(<BillingPage />)
    expect((await screen.findByTestId('past-due-banner')).textContent).toContain('Your last payment failed')
    await userEvent.click(screen.getByRole('button', { name: 'Manage Billing' }))
    expect(requests('POST', '/api/billing/portal')).toHaveLength(1)
    expect(leaveFor).toHaveBeenCalledWith('https://billing.example/portal/ps_1')
  })

  it('opened at #buy-credits (the Buy More Credits links), focuses the packs once they are shown', async () => {
    serve(stripe(growth))
    await renderWeb(<BillingPage />, { route: '/billing#buy-credits' })
    const packs = await screen.findByRole('region', { name: 'Buy more credits' })
    expect(document.activeElement).toBe(packs)
  })

  it('opened without the hash, leaves focus where it is', async () => {
    serve(stripe(growth))
    await renderWeb(<BillingPage />, { route: '/billing' })
    const packs = await screen.findByRole('region', { name: 'Buy more credits' })
    expect(document.activeElement).not.toBe(packs)
  })
})
