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
})
