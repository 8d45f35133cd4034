import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { getPlan } from '#shared/plans.ts'
import { renderWeb } from '#tests/support/render-web.tsx'
import { PlanCard } from './plan-card.tsx'

const trUsd = (n: number) =>
  new Intl.NumberFormat('tr-TR', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(n)

describe('PlanCard', () => {
  it('shows the price and quotas written the Turkish way', async () => {
    const growth = getPlan('growth')
    await renderWeb(<PlanCard plan={growth} ctaTo="/auth/signup?plan=growth" />, { locale: 'tr' })

    const card = screen.getByRole('article', { name: 'Growth' })
    expect(within(card).getByTestId('plan-price').textContent).toBe(trUsd(growth.priceMonthlyUsd))
    expect(within(card).getByTestId('plan-images').textContent).toBe('Ayda 1.000 görsel')
    expect(within(card).getByTestId('plan-videos').textContent).toBe('Ayda 30 video')
    expect(within(card).getByText('En Popüler')).toBeTruthy()
    expect(within(card).getByText('Sınırsız SEO içeriği')).toBeTruthy()
    const cta = within(card).getByRole('link', { name: 'Hemen Başla: Growth' })
    // The sign-up page in the card's language.
    expect(cta.getAttribute('href')).toBe('/tr/auth/signup?plan=growth')
  })

  it('shows English numbers, and no badge on a plan that is not the most popular', async () => {
    const pro = getPlan('pro')
    await renderWeb(<PlanCard plan={pro} ctaTo="/auth/signup?plan=pro" />)

    const card = screen.getByRole('article', { name: 'Pro' })
    expect(within(card).getByTestId('plan-price').textContent).toBe('$499')
    expect(within(card).getByTestId('plan-images').textContent).toBe('2,500 images / month')
    expect(within(card).getByTestId('plan-videos').textContent).toBe('60 videos / month')
    expect(within(card).queryByText('Most Popular')).toBeNull()
    expect(within(card).getByRole('link', { name: 'Get Started: Pro' }).getAttribute('href')).toBe(
      '/auth/signup?plan=pro',
    )
  })

  it('offers no choose button when the operator sets plans, only the current plan marked', async () => {
    const onChoose = () => {
      throw new Error('not offered')
    }
    await renderWeb(
      <>
        <PlanCard plan={getPlan('pro')} ctaTo="/" choice={{ isCurrent: false, canChoose: false, onChoose }} />
        <PlanCard
          plan={getPlan('growth')}
          ctaTo="/"
          choice={{ isCurrent: true, canChoose: false, onChoose }}
        />
        <PlanCard plan={getPlan('starter')} ctaTo="/" choice={{ isCurrent: false, onChoose }} />
      </>,
    )
    const pro = screen.getByRole('article', { name: 'Pro' })
    expect(within(pro).queryByRole('button')).toBeNull()
    expect(within(pro).queryByRole('link')).toBeNull()
    const growth = screen.getByRole('article', { name: 'Growth' })
    expect(within(growth).getByRole('button', { name: 'Current plan' })).toBeTruthy()
    const starter = screen.getByRole('article', { name: 'Starter' })
    expect(within(starter).getByRole('button', { name: 'Choose Starter' })).toBeTruthy()
  })
})
