import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { CheckoutStatusResponse } from '#shared/contracts/billing.ts'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { subscriptionView } from '#tests/support/web-views.ts'
import { CheckoutReturn } from './checkout-return.tsx'

const fetchMock = stubFetchForEachTest()

const growth = subscriptionView('growth')

const answer = (overrides: Partial<CheckoutStatusResponse>): CheckoutStatusResponse => ({
  state: 'pending',
  kind: 'plan',
  packId: null,
  subscription: null,
  credits: { images: 0, videos: 0 },
  ...overrides,
})

/** Answers each check with the next of `answers` (the last one from then on). */
function answerInTurn(...answers: (CheckoutStatusResponse | Response)[]) {
  let calls = 0
  fetchMock.mockImplementation(async () => {
    const next = answers[Math.min(calls, answers.length - 1)]
    calls += 1
    return next instanceof Response ? next : json(200, next)
  })
}

const fast = { delaysMs: [5], giveUpAfterMs: 5_000 }

describe('CheckoutReturn', () => {
  it('says it is confirming the payment, then shows the plan once applied', async () => {
    answerInTurn(answer({}), answer({}), answer({ state: 'applied', subscription: growth }))
    await renderWeb(<CheckoutReturn sessionId="cs_test_1" {...fast} />)
    expect(screen.getByText('Confirming your payment…')).toBeTruthy()
    expect(
      await screen.findByRole('heading', { name: 'You are on the Growth plan' }, { timeout: 2000 }),
    ).toBeTruthy()
    expect(screen.getByTestId('checkout-return-detail').textContent).toContain('December 24, 2026')
    expect(fetchMock).toHaveBeenCalledTimes(3)
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/billing/checkout/cs_test_1')
    expect(screen.getByRole('link', { name: 'Go to billing' }).getAttribute('href')).toBe('/billing')
  })

  it('shows the credits a pack added, in Turkish', async () => {
    answerInTurn(
      answer({ state: 'applied', kind: 'pack', packId: 'images_100', credits: { images: 100, videos: 0 } }),
    )
    await renderWeb(<CheckoutReturn sessionId="cs_test_2" {...fast} />, { locale: 'tr' })
    expect(await screen.findByRole('heading', { name: 'Krediler eklendi' })).toBeTruthy()
    expect(screen.getByTestId('checkout-return-detail').textContent).toContain('100 görsel')
  })

  it('says an abandoned checkout expired and stops asking', async () => {
    answerInTurn(answer({ state: 'expired' }))
    await renderWeb(<CheckoutReturn sessionId="cs_test_3" {...fast} />)
    expect(await screen.findByRole('heading', { name: 'This payment was not completed' })).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('gives up after its time limit with a link to billing, asking again after a provider outage meanwhile', async () => {
    answerInTurn(json(502, { error: { code: 'BILLING_PROVIDER_UNAVAILABLE', message: 'x' } }), answer({}))
    await renderWeb(<CheckoutReturn sessionId="cs_test_4" delaysMs={[5, 10]} giveUpAfterMs={60} />)
    expect(
      await screen.findByRole('heading', { name: 'The payment is not confirmed yet' }, { timeout: 2000 }),
    ).toBeTruthy()
    expect(fetchMock.mock.calls.length).toBeGreaterThan(2)
    expect(screen.getByRole('link', { name: 'Go to billing' })).toBeTruthy()
  })

  it('stops at once for a session that is not the user’s, and without a session id', async () => {
    answerInTurn(json(404, { error: { code: 'NOT_FOUND', message: 'No such checkout session' } }))
    const { unmount } = await renderWeb(<CheckoutReturn sessionId="cs_test_other" {...fast} />)
    expect(await screen.findByRole('heading', { name: 'We could not check this payment.' })).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)
    unmount()
    await renderWeb(<CheckoutReturn sessionId={null} {...fast} />)
    await waitFor(() => expect(screen.getByText('This link has no payment to confirm.')).toBeTruthy())
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })
})
