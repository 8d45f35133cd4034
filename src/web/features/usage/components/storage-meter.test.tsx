import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { formatBytes } from '../format-bytes.ts'
import { StorageMeter } from './storage-meter.tsx'

describe('formatBytes', () => {
  it.each([
    ['en', 0, '0 kB'],
    ['en', 512, '0.5 kB'],
    ['en', 512_000, '512 kB'],
    ['en', 1_500_000_000, '1.5 GB'],
    ['en', 20_000_000_000, '20 GB'],
    ['tr', 1_500_000_000, '1,5 GB'],
    ['tr', 2_340_000, '2,3 MB'],
  ] as const)('%s %i → %s', (locale, bytes, text) => {
    expect(formatBytes(locale, bytes).replace(/\u00a0/g, ' ')).toBe(text)
  })
})

describe('StorageMeter', () => {
  it('is a named meter showing used of quota in bytes, in each language', async () => {
    await renderWeb(<StorageMeter usedBytes={1_500_000_000} quotaBytes={5_000_000_000} />)
    const meter = screen.getByRole('meter', { name: 'Storage' })
    expect(meter.getAttribute('aria-valuemax')).toBe('5000000000')
    expect(screen.getByTestId('storage-value').textContent?.replace(/\u00a0/g, ' ')).toBe('1.5 GB / 5 GB')
    expect(screen.getByTestId('meter-storage').getAttribute('data-level')).toBe('ok')
  })

  it('says when storage is full', async () => {
    await renderWeb(<StorageMeter usedBytes={5_000_000_000} quotaBytes={5_000_000_000} />, { locale: 'tr' })
    expect(screen.getByRole('meter', { name: 'Depolama' }).getAttribute('aria-valuenow')).toBe('5000000000')
    expect(screen.getByTestId('meter-storage').getAttribute('data-level')).toBe('blocked')
    expect(screen.getByText(/Depolama dolu/)).toBeTruthy()
  })
})
