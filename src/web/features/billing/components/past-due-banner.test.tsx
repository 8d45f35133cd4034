import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { jsonResponse as json, stubFetchForEachTest } from '#tests/support/fetch-mock.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { leaveFor } from '../leave-for.ts'
import { BuyCredits } from './buy-credits.tsx'
import { PastDueBanner } from './past-due-banner.tsx'

vi.mock('../leave-for.ts', () => ({ leaveFor: vi.fn() }))

const fetchMock = stubFetchForEachTest()

describe('PastDueBanner', () => {
  it('says the payment failed and opens the portal to fix the card', async () => {
    vi.mocked(leaveFor).mockClear()
    fetchMock.mockResolvedValue(json(200, { url: 'https://billing.example/portal/ps_1' }))
    await renderWeb(<PastDueBanner planId="growth" />)
    const banner = screen.getByRole('alert')
    expect(banner.textContent).toContain('Your last payment failed')
    expect(banner.textContent).toContain('keep your Growth plan')
    await userEvent.click(screen.getByRole('button', { name: 'Fix payment' }))
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/billing/portal')
    expect(fetchMock.mock.calls[0]?.[1]?.method).toBe('POST')
    expect(leaveFor).toHaveBeenCalledWith('https://billing.example/portal/ps_1')
  })

  it('shows a failure translated and lets the user try again', async () => {
    vi.mocked(leaveFor).mockClear()
    fetchMock.mockResolvedValue(json(502, { error: { code: 'BILLING_PROVIDER_UNAVAILABLE', message: 'x' } }))
    await renderWeb(<PastDueBanner planId="growth" />, { locale: 'tr' })
    await userEvent.click(screen.getByRole('button', { name: 'Ödemeyi düzelt' }))
    expect(await screen.findByText(/Ödeme hizmeti yanıt vermedi/)).toBeTruthy()
    expect(leaveFor).not.toHaveBeenCalled()
    expect((screen.getByRole('button', { name: 'Ödemeyi düzelt' }) as HTMLButtonElement).disabled).toBe(false)
  })
})

describe('BuyCredits', () => {
  it('starts the top-up checkout for the chosen pack', async () => {
    vi.mocked(leaveFor).mockClear()
    fetchMock.mockResolvedValue(json(200, { url: 'https://billing.example/checkout/cs_1' }))
    await renderWeb(<BuyCredits hasCheckout />)
    await userEvent.click(screen.getByRole('button', { name: 'Buy +10 videos for $39' }))
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/billing/top-up')
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ packId: 'videos_10' })
    expect(leaveFor).toHaveBeenCalledWith('https://billing.example/checkout/cs_1')
  })

  it('explains, without a dead button, that payments are not set up with manual billing', async () => {
    await renderWeb(<BuyCredits hasCheckout={false} />)
    const button = screen.getByRole('button', { name: 'Buy +100 images for $29' }) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    const reason = document.getElementById(button.getAttribute('aria-describedby') ?? '')
    expect(reason?.textContent).toContain('Payments are not set up here')
    expect(fetchMock).not.toHaveBeenCalled()
  })
})
