import { expect, type Page, test } from '@playwright/test'
import { type Lang, localePath, msg } from './support/i18n.ts'
import { openPublicPage, waitForHydration } from './support/public-page.ts'

test.describe.configure({ mode: 'parallel' })

const languageSelect = (page: Page, lang: Lang) =>
  page.getByRole('banner').getByRole('combobox', { name: msg(lang, 'common.language.label') })

const storedLanguage = (page: Page) => page.evaluate(() => window.localStorage.getItem('vitrin.lang'))

test.describe('with an English browser', () => {
  test.use({ locale: 'en-US' })

  test('the first visit is in English', async ({ page }) => {
    await page.goto('/')
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'landing.title'))
    await expect(languageSelect(page, 'en')).toHaveValue('en')
  })

  test('choosing Türkçe moves to the Turkish page, and the choice is remembered until switched back', async ({
    page,
  }) => {
    await openPublicPage(page, 'en', '/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'landing.title'))

    await languageSelect(page, 'en').selectOption({ label: 'Türkçe' })
    await expect(page).toHaveURL(localePath('tr', '/'))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'landing.title'))
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr')
    await expect(page.getByRole('link', { name: msg('tr', 'common.nav.accessApp') })).toBeVisible()
    await expect(page.getByRole('link', { name: msg('tr', 'landing.ctaProduct') })).toBeVisible()
    expect(await storedLanguage(page)).toBe('tr')

    // A reload keeps Turkish.
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'landing.title'))
    await expect(languageSelect(page, 'tr')).toHaveValue('tr')

    // So does a fresh visit to the home page, and the links lead on to Turkish pages.
    await page.goto('/')
    await expect(page).toHaveURL(localePath('tr', '/'))
    await waitForHydration(page)
    await page
      .getByRole('banner')
      .getByRole('link', { name: msg('tr', 'common.nav.pricing') })
      .click()
    await expect(page).toHaveURL(localePath('tr', '/pricing'))
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'pricing.title'))

    // Switching back to English works the same way.
    await languageSelect(page, 'tr').selectOption({ label: 'English' })
    await expect(page).toHaveURL(localePath('en', '/pricing'))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'pricing.title'))
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    expect(await storedLanguage(page)).toBe('en')
    await page.reload()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'pricing.title'))
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await page.goto('/')
    await expect(page).toHaveURL(localePath('en', '/'))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'landing.title'))
  })

  test('the language chosen in one tab is used by a new tab', async ({ page, context }) => {
    await openPublicPage(page, 'en', '/about')
    await languageSelect(page, 'en').selectOption('tr')
    await expect(page).toHaveURL(localePath('tr', '/about'))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'pages.about.title'))

    const other = await context.newPage()
    await other.goto('/')
    await expect(other).toHaveURL(localePath('tr', '/'))
    await expect(other.locator('html')).toHaveAttribute('lang', 'tr')
    await expect(other.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'landing.title'))
  })

  test('the Most Popular badge is upper-cased with English rules', async ({ page }) => {
    await page.goto('/pricing')
    const badge = page
      .getByRole('article', { name: 'Growth', exact: true })
      .getByText(msg('en', 'plans.mostPopular'))
    await expect(badge).toHaveText('MOST POPULAR', { useInnerText: true })
  })
})

test.describe('an address without a language, after choosing one', () => {
  test.use({ locale: 'en-US' })

  test('a stored Turkish choice opens the Turkish page of an English address, query and fragment kept', async ({
    page,
    context,
    browser,
  }) => {
    await openPublicPage(page, 'en', '/faq')
    await languageSelect(page, 'en').selectOption({ label: 'Türkçe' })
    await expect(page).toHaveURL(localePath('tr', '/faq'))
    await expect.poll(() => storedLanguage(page)).toBe('tr')

    // A bookmark or an old link to the English address.
    const response = await page.goto('/pricing?plan=growth#plans')
    expect(response?.status()).toBe(200)
    await expect(page).toHaveURL(localePath('tr', '/pricing?plan=growth#plans'))
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'pricing.title'))

    // From the stored choice alone (its cookie gone): the English page checks it before it
    // paints anything.
    await context.clearCookies()
    const painted: string[] = []
    page.on('console', (message) => {
      if (message.text().startsWith('painted ')) painted.push(message.text())
    })
    await page.addInitScript(() => {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.name === 'first-contentful-paint') console.log(`painted ${window.location.pathname}`)
        }
      }).observe({ type: 'paint', buffered: true })
    })
    await page.goto('/about')
    await expect(page).toHaveURL(localePath('tr', '/about'))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'pages.about.title'))
    await expect.poll(() => painted.some((line) => line.endsWith(' /tr/about'))).toBe(true)
    expect(painted.filter((line) => line.endsWith(' /about'))).toEqual([])
    await waitForHydration(page)
    expect(await storedLanguage(page)).toBe('tr')

    // The Turkish page put the cookie back: the next English address is sent on by the server.
    const next = await page.goto('/contact')
    expect((await next?.request().redirectedFrom()?.response())?.status()).toBe(302)
    await expect(page).toHaveURL(localePath('tr', '/contact'))

    // A browser with no stored choice follows its own language on its first visit: an English
    // browser (and every crawler) gets the page of the address, a Turkish one its Turkish page.
    for (const [locale, lang] of [
      ['en-US', 'en'],
      ['tr-TR', 'tr'],
    ] as const) {
      const fresh = await browser.newContext({ locale })
      try {
        const other = await fresh.newPage()
        await other.goto('/pricing')
        await expect(other.getByRole('heading', { level: 1 })).toHaveText(msg(lang, 'pricing.title'))
        await waitForHydration(other)
        await expect(other).toHaveURL(localePath(lang, '/pricing'))
        await expect(other.locator('html')).toHaveAttribute('lang', lang)
      } finally {
        await fresh.close()
      }
    }
  })
})

test.describe('with a Turkish browser', () => {
  test.use({ locale: 'tr-TR' })

  test('the Turkish home page is in Turkish', async ({ page }) => {
    await page.goto(localePath('tr', '/'))
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'landing.title'))
    await expect(languageSelect(page, 'tr')).toHaveValue('tr')
    await expect(page.getByRole('link', { name: msg('tr', 'common.nav.accessApp') })).toBeVisible()
  })

  test('a remembered English choice wins over the Turkish browser', async ({ page }) => {
    await openPublicPage(page, 'tr', '/')
    await languageSelect(page, 'tr').selectOption({ label: 'English' })
    await expect(page).toHaveURL(localePath('en', '/'))
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'landing.title'))
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'landing.title'))
    // The app, which has no language in its URL, stays in English too: a signed-out visit goes
    // to the English access page.
    await page.goto('/app')
    await expect(page).toHaveURL(localePath('en', '/access'))
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  })

  test('the Most Popular badge is upper-cased with Turkish rules', async ({ page }) => {
    await page.goto(localePath('tr', '/pricing'))
    const badge = page
      .getByRole('article', { name: 'Growth', exact: true })
      .getByText(msg('tr', 'plans.mostPopular'))
    // The badge is upper-cased by CSS, which follows the element's language (from <html lang>).
    await expect(badge).toHaveCSS('text-transform', 'uppercase')
    await expect(badge).toHaveText('EN POPÜLER', { useInnerText: true })
    expect(await badge.evaluate((el) => el.closest('[lang]')?.getAttribute('lang'))).toBe('tr')
  })
})
