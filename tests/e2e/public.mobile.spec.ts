import { expect, test } from '@playwright/test'
import { screenshotPath } from './support/clients.ts'
import { browserLocale, langs, localePath, msg, publicRoutes } from './support/i18n.ts'
import { openPublicPage } from './support/public-page.ts'

test.describe.configure({ mode: 'parallel' })

const screenshotRoutes: Record<string, string> = { '/': 'landing', '/pricing': 'pricing' }

for (const lang of langs) {
  test.describe(`phone in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    test('the menu button opens the menu, and a navigation closes it', async ({ page }) => {
      await openPublicPage(page, lang, '/')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg(lang, 'landing.title'))

      const header = page.getByRole('banner')
      // On a phone the desktop links are hidden behind the menu button.
      await expect(header.getByRole('link', { name: msg(lang, 'common.nav.pricing') })).toBeHidden()
      const menuButton = header.getByRole('button', { name: msg(lang, 'common.nav.openMenu') })
      await expect(menuButton).toHaveAttribute('aria-expanded', 'false')
      await menuButton.click()

      const menu = page.locator('#mobile-menu')
      await expect(menu).toBeVisible()
      await expect(header.getByRole('button', { name: msg(lang, 'common.nav.closeMenu') })).toHaveAttribute(
        'aria-expanded',
        'true',
      )
      await expect(menu.getByRole('link', { name: msg(lang, 'common.nav.pricing') })).toBeVisible()
      await expect(menu.getByRole('link', { name: msg(lang, 'common.nav.features') })).toBeVisible()
      await expect(menu.getByRole('combobox', { name: msg(lang, 'common.language.label') })).toHaveValue(lang)
      await expect(menu.getByRole('link', { name: msg(lang, 'common.nav.accessApp') })).toHaveAttribute(
        'href',
        localePath(lang, '/access'),
      )

      await menu.getByRole('link', { name: msg(lang, 'common.nav.pricing') }).click()
      await expect(page).toHaveURL(localePath(lang, '/pricing'))
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg(lang, 'pricing.title'))
      await expect(menu).toBeHidden()
      await expect(header.getByRole('button', { name: msg(lang, 'common.nav.openMenu') })).toHaveAttribute(
        'aria-expanded',
        'false',
      )
    })

    test('the close button closes the menu again', async ({ page }) => {
      await openPublicPage(page, lang, '/features')
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await page.getByRole('button', { name: msg(lang, 'common.nav.openMenu') }).click()
      await expect(page.locator('#mobile-menu')).toBeVisible()
      await page.getByRole('button', { name: msg(lang, 'common.nav.closeMenu') }).click()
      await expect(page.locator('#mobile-menu')).toBeHidden()
    })

    test('no public page scrolls sideways', async ({ page }) => {
      const overflowing: string[] = []
      for (const route of publicRoutes) {
        await page.goto(localePath(lang, route.path))
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg(lang, route.h1))
        const { scrollWidth, clientWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }))
        if (scrollWidth > clientWidth) overflowing.push(`${route.path}: ${scrollWidth}px > ${clientWidth}px`)

        const shot = screenshotRoutes[route.path]
        if (shot) await page.screenshot({ path: screenshotPath(`phone-${shot}-${lang}`), fullPage: true })
      }
      expect(overflowing, 'pages wider than the phone screen').toEqual([])
    })
  })
}

test.describe('phone language switch', () => {
  test.use({ locale: 'en-US' })

  test('choosing Türkçe in the menu switches the page', async ({ page }) => {
    await openPublicPage(page, 'en', '/')
    await page.getByRole('button', { name: msg('en', 'common.nav.openMenu') }).click()
    await page
      .locator('#mobile-menu')
      .getByRole('combobox', { name: msg('en', 'common.language.label') })
      .selectOption({ label: 'Türkçe' })
    await expect(page).toHaveURL(localePath('tr', '/'))
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'landing.title'))
  })
})
