import { expect, type Page, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { actAsNewClient } from './support/clients.ts'
import { contactForm } from './support/contact-form.ts'
import { browserLocale, langs, localePath, msg } from './support/i18n.ts'
import { openPublicPage } from './support/public-page.ts'

test.describe.configure({ mode: 'parallel' })

for (const lang of langs) {
  test.describe(`accessibility in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    // Every public page is checked with axe in public-pages.spec.ts, on the same page load as its other checks.
    test('the contact form in its error state has no serious violations', async ({ page }) => {
      await actAsNewClient(page)
      await openPublicPage(page, lang, '/contact')
      const form = contactForm(page, lang)
      await form.submit.click()
      await expect(form.message).toHaveAttribute('aria-invalid', 'true')
      await expectNoSeriousA11yViolations(page)
    })
  })
}

/** A short description of the focused element, to follow the Tab order. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement
    if (!el || el === document.body) return 'body'
    const name = el.getAttribute('aria-label') ?? (el as HTMLElement).textContent?.trim() ?? ''
    return `${el.tagName.toLowerCase()}:${name}`
  })

test.describe('keyboard', () => {
  test.use({ locale: 'en-US' })

  test('the skip link is the first Tab stop and moves focus to the content', async ({ page }) => {
    await openPublicPage(page, 'en', '/pricing')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()

    await page.keyboard.press('Tab')
    const skip = page.getByRole('link', { name: msg('en', 'common.skipToContent') })
    await expect(skip).toBeFocused()
    await expect(skip).toBeInViewport()

    await page.keyboard.press('Enter')
    await expect(page.locator('#main')).toBeFocused()
    // The next Tab continues from the content, not from the top of the page.
    await page.keyboard.press('Tab')
    await expect(page.getByRole('banner').locator(':focus')).toHaveCount(0)
  })

  test('the language menu and Access App are reachable by Tab, in that order', async ({ page }) => {
    await openPublicPage(page, 'en', '/')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()

    const select = page
      .getByRole('banner')
      .getByRole('combobox', { name: msg('en', 'common.language.label') })
    const access = page.getByRole('banner').getByRole('link', { name: msg('en', 'common.nav.accessApp') })
    const order: string[] = []
    let reachedSelect = -1
    let reachedAccess = -1
    for (let stop = 0; stop < 10 && reachedAccess < 0; stop += 1) {
      await page.keyboard.press('Tab')
      order.push(await focused(page))
      if (reachedSelect < 0 && (await select.evaluate((el) => el === document.activeElement)))
        reachedSelect = stop
      if (await access.evaluate((el) => el === document.activeElement)) reachedAccess = stop
    }
    expect(reachedSelect, `Tab order: ${order.join(' → ')}`).toBeGreaterThan(0)
    expect(reachedAccess, `Tab order: ${order.join(' → ')}`).toBeGreaterThan(reachedSelect)

    // The language menu works from the keyboard too.
    await select.focus()
    await page.keyboard.press('ArrowDown')
    await expect(page).toHaveURL(localePath('tr', '/'))
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'landing.title'))
  })
})
