import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { QuotaMeter } from './quota-meter.tsx'

describe('QuotaMeter', () => {
  it('is a named meter with its value, range and spoken text', async () => {
    await renderWeb(<QuotaMeter resource="images" used={700} quota={1000} />)
    const meter = screen.getByRole('meter', { name: 'Images' })
    expect(meter.getAttribute('aria-valuenow')).toBe('700')
    expect(meter.getAttribute('aria-valuemin')).toBe('0')
    expect(meter.getAttribute('aria-valuemax')).toBe('1000')
    expect(meter.getAttribute('aria-valuetext')).toBe('700 of 1,000 used, 70%')
    expect(screen.getByTestId('meter-value').textContent).toBe('700 / 1,000')
    expect(screen.getByTestId('meter-images').getAttribute('data-level')).toBe('warning')
    expect(screen.getByTestId('meter-fill').className).toContain('bg-yellow-400')
    expect(screen.queryByText('Generation blocked')).toBeNull()
  })

  it.each([
    [20, 'ok', 'bg-white'],
    [27, 'danger', 'bg-orange-500'],
    [30, 'blocked', 'bg-red-500'],
  ])('at %i of 30 videos the level is %s (%s)', async (used, level, colour) => {
    await renderWeb(<QuotaMeter resource="videos" used={used} quota={30} />)
    expect(screen.getByTestId('meter-videos').getAttribute('data-level')).toBe(level)
    expect(screen.getByTestId('meter-fill').className).toContain(colour)
    expect(screen.queryByText('Generation blocked') !== null).toBe(level === 'blocked')
  })

  it('keeps aria-valuenow inside the range when usage is over the quota (after a downgrade)', async () => {
    await renderWeb(<QuotaMeter resource="images" used={300} quota={250} />, { locale: 'tr' })
    const meter = screen.getByRole('meter', { name: 'Görseller' })
    expect(meter.getAttribute('aria-valuenow')).toBe('250')
    expect(screen.getByTestId('meter-value').textContent).toBe('300 / 250')
    expect(screen.getByText('Üretim durduruldu')).toBeTruthy()
    expect(screen.getByTestId('meter-fill').style.width).toBe('100%')
  })

  it('shows bought credits beside the quota, and at 100 % says generation goes on from them', async () => {
    await renderWeb(<QuotaMeter resource="images" used={1000} quota={1000} credits={1100} />)
    expect(screen.getByTestId('meter-value').textContent).toBe('1,000 / 1,000')
    expect(screen.getByTestId('meter-credits').textContent).toBe('+ 1,100 credits')
    expect(screen.getByTestId('meter-images').getAttribute('data-level')).toBe('blocked')
    expect(screen.getByText('Plan quota used: generating from credits')).toBeTruthy()
    expect(screen.queryByText('Generation blocked')).toBeNull()
  })

  it('shows no credits when there are none', async () => {
    await renderWeb(<QuotaMeter resource="videos" used={3} quota={30} credits={0} />)
    expect(screen.queryByTestId('meter-credits')).toBeNull()
  })

  it('writes credits in Turkish', async () => {
    await renderWeb(<QuotaMeter resource="videos" used={30} quota={30} credits={10} />, { locale: 'tr' })
    expect(screen.getByTestId('meter-credits').textContent).toBe('+ 10 kredi')
    expect(screen.getByText('Plan kotası bitti: krediyle üretiliyor')).toBeTruthy()
  })
})
