import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router'
import { beforeEach, describe, expect, it } from 'vitest'
import { renderWeb } from '#tests/support/render-web.tsx'
import { useLanguageOfUrl } from '#web/lib/localized-paths.ts'
import { LanguageSelect } from './language-select.tsx'
import { SiteFooter } from './site-footer.tsx'

beforeEach(() => {
  window.localStorage.clear()
  // biome-ignore lint/suspicious/noDocumentCookie: clearing the remembered-language cookie between tests
  document.cookie = 'vitrin_lang=; path=/; max-age=0'
})

/** The address bar, and the URL's language applied as the root layout does. */
function Address() {
  useLanguageOfUrl()
  return <output data-testid="path">{useLocation().pathname}</output>
}

/** The language menu next to other translated text (the footer), as on every page. */
const page = (
  <>
    <Address />
    <LanguageSelect />
    <SiteFooter />
  </>
)

/** An app page: the language is switched in place. */
const appRoute = '/settings'

describe('LanguageSelect', () => {
  it('switches the page to Turkish and remembers the choice', async () => {
    const user = userEvent.setup()
    await renderWeb(page, { route: appRoute })
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
    await renderWeb(page, { locale: 'tr', route: appRoute })

    await user.selectOptions(screen.getByRole('combobox', { name: 'Dil' }), 'English')

    expect(await screen.findByRole('link', { name: 'Pricing' })).toBeTruthy()
    expect(document.documentElement.lang).toBe('en')
    expect(window.localStorage.getItem('vitrin.lang')).toBe('en')
    expect(screen.getByTestId('path').textContent).toBe(appRoute)
  })

  it('on a public page, moves to the same page in the other language and remembers it', async () => {
    const user = userEvent.setup()
    await renderWeb(page, { route: '/pricing' })

    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'Türkçe')

    expect(await screen.findByRole('link', { name: 'Fiyatlar' })).toBeTruthy()
    expect(screen.getByTestId('path').textContent).toBe('/tr/pricing')
    // The footer's links now lead to the Turkish pages.
    expect(screen.getByRole('link', { name: 'Fiyatlar' }).getAttribute('href')).toBe('/tr/pricing')
    expect(document.documentElement.lang).toBe('tr')
    expect(window.localStorage.getItem('vitrin.lang')).toBe('tr')
    expect(document.cookie).toContain('vitrin_lang=tr')

    await user.selectOptions(screen.getByRole('combobox', { name: 'Dil' }), 'English')
    expect(await screen.findByRole('link', { name: 'Pricing' })).toBeTruthy()
    expect(screen.getByTestId('path').textContent).toBe('/pricing')
    expect(document.cookie).toContain('vitrin_lang=en')
  })

  it('shows a public page in the language its URL names, whatever was remembered', async () => {
    window.localStorage.setItem('vitrin.lang', 'en')
    await renderWeb(page, { route: '/tr/faq' })
    expect(await screen.findByRole('link', { name: 'Fiyatlar' })).toBeTruthy()
    expect(window.localStorage.getItem('vitrin.lang')).toBe('tr')
  })
})
