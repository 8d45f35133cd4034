import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { dismissalKey } from '../hooks/use-alert-dismissal.ts'
import { QuotaAlerts } from './quota-alerts.tsx'

const growth = (images: number, videos: number) => ({
  images: { used: images, quota: 1000 },
  videos: { used: videos, quota: 30 },
})

afterEach(() => {
  window.sessionStorage.clear()
})

describe('QuotaAlerts', () => {
  it('shows nothing below 70 %', async () => {
    await renderWeb(<QuotaAlerts {...growth(699, 20)} />)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('shows the alert texts at 70, 90 and 100 %, and Buy More Credits only when blocked', async () => {
    let view = await renderWeb(<QuotaAlerts {...growth(700, 21)} />)
    expect(screen.getAllByRole('alert').map((a) => a.querySelector('p')?.textContent)).toEqual([
      "You've used 70% of your monthly image quota. Consider upgrading or purchasing top-ups.",
      "You've used 70% of your monthly video quota. Consider upgrading or purchasing top-ups.",
    ])
    expect(screen.queryByRole('link', { name: 'Buy More Credits' })).toBeNull()

    view.unmount()
    view = await renderWeb(<QuotaAlerts {...growth(900, 27)} />)
    expect(
      screen.getByText("You've used 90% of your monthly image quota. You're approaching your limit."),
    ).toBeTruthy()
    expect(
      screen.getByText("You've used 90% of your monthly video quota. You're approaching your limit."),
    ).toBeTruthy()

    view.unmount()
    await renderWeb(<QuotaAlerts {...growth(1000, 30)} />)
    const images = screen.getByText(
      "You've reached your monthly image quota. Purchase top-ups to continue generating.",
    )
    expect(images).toBeTruthy()
    const links = screen.getAllByRole('link', { name: 'Buy More Credits' })
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/billing#buy-credits',
      '/billing#buy-credits',
    ])
  })

  it('speaks Turkish', async () => {
    await renderWeb(<QuotaAlerts {...growth(1000, 27)} />, { locale: 'tr' })
    expect(
      screen.getByText(
        'Aylık görsel kotanızın sonuna geldiniz. Üretmeye devam etmek için ek kredi satın alın.',
      ),
    ).toBeTruthy()
    expect(
      screen.getByText("Aylık video kotanızın %90'ını kullandınız. Limitinize yaklaşıyorsunuz."),
    ).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Daha Fazla Kredi Al' })).toBeTruthy()
  })

  it('remembers a dismissal per resource and level for the session', async () => {
    const user = userEvent.setup()
    let view = await renderWeb(<QuotaAlerts {...growth(750, 22)} />)
    const imageAlert = screen.getByTestId('quota-alert-images')
    await user.click(within(imageAlert).getByRole('button', { name: 'Dismiss alert' }))

    expect(screen.queryByTestId('quota-alert-images')).toBeNull()
    expect(screen.getByTestId('quota-alert-videos')).toBeTruthy()
    expect(window.sessionStorage.getItem(dismissalKey('images', 'warning'))).toBe('1')

    // Still 70 %: stays dismissed. 90 %: a new alert.
    view.unmount()
    view = await renderWeb(<QuotaAlerts {...growth(800, 22)} />)
    expect(screen.queryByTestId('quota-alert-images')).toBeNull()
    view.unmount()
    await renderWeb(<QuotaAlerts {...growth(900, 22)} />)
    expect(screen.getByTestId('quota-alert-images').getAttribute('data-level')).toBe('danger')
  })

  it('reads dismissals made earlier in the session', async () => {
    window.sessionStorage.setItem(dismissalKey('videos', 'blocked'), '1')
    await renderWeb(<QuotaAlerts {...growth(0, 30)} />)
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('at 100 % with credits left says generation goes on from them, and still offers Buy More Credits', async () => {
    await renderWeb(<QuotaAlerts {...growth(1000, 30)} credits={{ images: 100, videos: 0 }} />)
    const images = screen.getByTestId('quota-alert-images')
    expect(images.getAttribute('data-level')).toBe('blocked')
    expect(images.textContent).toContain(
      "You've used this period's image quota. Generation goes on from your 100 image credits.",
    )
    expect(within(images).getByRole('link', { name: 'Buy More Credits' })).toBeTruthy()
    // Videos have no credits: still the blocked text.
    expect(screen.getByTestId('quota-alert-videos').textContent).toContain(
      "You've reached your monthly video quota.",
    )
  })

  it('says so in Turkish', async () => {
    await renderWeb(<QuotaAlerts {...growth(1000, 0)} credits={{ images: 1200, videos: 0 }} />, {
      locale: 'tr',
    })
    expect(screen.getByTestId('quota-alert-images').textContent).toContain(
      'Üretim 1.200 görsel krediniz ile devam ediyor.',
    )
  })
})
