import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { renderWeb } from '../../../../tests/support/render-web.tsx'
import { SiteHeader } from './site-header.tsx'

beforeEach(() => {
  window.localStorage.clear()
})

describe('LanguageSelect', () => {
  it('switches the page to Turkish and remembers the choice', async () => {
    const user = userEvent.setup()
    await renderWeb(<SiteHeader />)
    expect(screen.getByRole('link', { name: 'Pricing' })).toBeTruthy()

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Türkçe')

    expect(await screen.findByRole('link', { name: 'Fiyatlar' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Uygulamaya Gir' })).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Pricing' })).toBeNull()
    expect(document.documentElement.lang).toBe('tr')
    expect(window.localStorage.getItem('vitrin.lang')).toBe('tr')
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Dil' }).value).toBe('tr')
  })

  it('switches back to English', async () => {
    const user = userEvent.setup()
    await renderWeb(<SiteHeader />, { locale: 'tr' })

    await user.selectOptions(screen.getByRole('combobox', { name: 'Dil' }), 'English')

    expect(await screen.findByRole('link', { name: 'Pricing' })).toBeTruthy()
    expect(document.documentElement.lang).toBe('en')
    expect(window.localStorage.getItem('vitrin.lang')).toBe('en')
  })
})
