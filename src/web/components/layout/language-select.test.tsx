import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { beforeEach, describe, expect, it } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { LanguageSelect } from './language-select.tsx'
import { SiteFooter } from './site-footer.tsx'

beforeEach(() => {
  window.localStorage.clear()
})

/** The language menu next to other translated text (the footer), as on every page. */
const page = (
  <>
    <LanguageSelect />
    <SiteFooter />
  </>
)

describe('LanguageSelect', () => {
  it('switches the page to Turkish and remembers the choice', async () => {
    const user = userEvent.setup()
    await renderWeb(page)
    const footer = screen.getByRole('contentinfo')
    expect(within(footer).getByRole('link', { name: 'Pricing' })).toBeTruthy()

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Türkçe')

    expect(await within(footer).findByRole('link', { name: 'Fiyatlar' })).toBeTruthy()
    expect(within(footer).getByRole('link', { name: 'Hakkımızda' })).toBeTruthy()
    expect(within(footer).queryByRole('link', { name: 'Pricing' })).toBeNull()
    expect(document.documentElement.lang).toBe('tr')
    expect(window.localStorage.getItem('vitrin.lang')).toBe('tr')
    // The menu itself is relabelled, and still names each language in that language.
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Dil' })
    expect(select.value).toBe('tr')
    expect(within(select).getByRole('option', { name: 'English' })).toBeTruthy()
  })

  it('switches back to English', async () => {
    const user = userEvent.setup()
    await renderWeb(page, { locale: 'tr' })

    await user.selectOptions(screen.getByRole('combobox', { name: 'Dil' }), 'English')

    expect(await screen.findByRole('link', { name: 'Pricing' })).toBeTruthy()
    expect(document.documentElement.lang).toBe('en')
    expect(window.localStorage.getItem('vitrin.lang')).toBe('en')
  })
})
