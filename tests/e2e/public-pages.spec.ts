import { expect, test } from '@playwright/test'
import { plans } from '#shared/plans.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { screenshotPath } from './support/clients.ts'
import {
  browserLocale,
  footerLinks,
  formatCount,
  formatPrice,
  langs,
  localePath,
  msg,
  publicRoutes,
} from './support/i18n.ts'
import { openPublicPage, waitForHydration } from './support/public-page.ts'

test.describe.configure({ mode: 'parallel' })

/** Pages whose desktop screenshots are kept for people to look at. */
const screenshotRoutes: Record<string, string> = { '/': 'landing', '/contact': 'contact' }

for (const lang of langs) {
  test.describe(`public pages in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    for (const route of publicRoutes) {
      test(`${route.path} shows its title, the header and the footer, with no serious a11y violations`, async ({
        page,
      }) => {
        await page.goto(localePath(lang, route.path))

        const h1 = page.getByRole('heading', { level: 1 })
        await expect(h1).toBeVisible()
        await expect(h1).toHaveText(msg(lang, route.h1))
        await expect(page.locator('html')).toHaveAttribute('lang', lang)

        const header = page.getByRole('banner')
        await expect(header.getByRole('link', { name: msg(lang, 'common.nav.home') })).toBeVisible()
        await expect(header.getByRole('link', { name: msg(lang, 'common.nav.accessApp') })).toBeVisible()

        const footer = page.getByRole('contentinfo')
        await expect(footer).toBeVisible()
        for (const link of footerLinks) {
          await expect(
            footer.getByRole('link', { name: msg(lang, link.label), exact: true }),
          ).toHaveAttribute('href', localePath(lang, link.to))
        }

        if (route.path === '/contact') {
          // The support address arrives from the server; wait for it so axe and the screenshot see the finished page.
          await expect(page.getByRole('complementary').getByRole('link', { name: /@/ })).toBeVisible()
        }
        // One page load serves both the checks above and axe (WCAG 2.0/2.1 A and AA).
        await expectNoSeriousA11yViolations(page)

        const shot = screenshotRoutes[route.path]
        if (shot) await page.screenshot({ path: screenshotPath(`desktop-${shot}-${lang}`), fullPage: true })
      })
    }

    test('the landing page leads into the app and teases the three plans', async ({ page }) => {
      await page.goto(localePath(lang, '/'))

      await expect(page.getByRole('link', { name: msg(lang, 'landing.ctaProduct') })).toHaveAttribute(
        'href',
        localePath(lang, '/access?next=/app/create'),
      )
      await expect(page.getByRole('link', { name: msg(lang, 'landing.ctaFashion') })).toHaveAttribute(
        'href',
        localePath(lang, '/access?next=/app/fashion'),
      )
      await expect(
        page.getByRole('banner').getByRole('link', { name: msg(lang, 'common.nav.accessApp') }),
      ).toHaveAttribute('href', localePath(lang, '/access'))

      const teaser = page.getByRole('region', { name: msg(lang, 'pricing.teaserTitle') })
      await expect(teaser.getByRole('article')).toHaveCount(plans.length)
      for (const plan of plans) {
        const card = teaser.getByRole('article', { name: plan.name, exact: true })
        await expect(card.getByTestId('plan-price')).toHaveText(formatPrice(lang, plan.priceMonthlyUsd))
        await expect(card.getByTestId('plan-images')).toContainText(formatCount(lang, plan.imageQuota))
        await expect(card.getByTestId('plan-videos')).toContainText(formatCount(lang, plan.videoQuota))
      }
      await expect(teaser.getByRole('link', { name: msg(lang, 'pricing.teaserCta') })).toHaveAttribute(
        'href',
        localePath(lang, '/pricing'),
      )
    })
  })
}

test.describe('unknown paths', () => {
  for (const [lang, path] of [
    ['en', '/no-such-page'],
    ['en', '/app/nowhere'],
    ['en', '/features/no-such-section?x=1'],
    ['tr', '/tr/no-such-page'],
    ['tr', '/tr/features/no-such-section'],
  ] as const) {
    test(`${path} is redirected to the landing page in ${lang}, never answered as a page`, async ({
      page,
    }) => {
      const response = await page.goto(path)
      // The server's 302: no page at this address for a crawler to index.
      const first = response?.request().redirectedFrom()
      expect(first?.url()).toBe(new URL(path, page.url()).href)
      expect((await first?.response())?.status()).toBe(302)
      await expect(page).toHaveURL(localePath(lang, '/'))
      await expect(page.locator('html')).toHaveAttribute('lang', lang)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg(lang, 'landing.title'))
    })
  }

  for (const [lang, from, path] of [
    ['en', '/faq', '/no-such-page'],
    ['tr', '/faq', '/tr/no-such-page'],
  ] as const) {
    test(`moving to ${path} inside the app replaces it with the landing page in ${lang}`, async ({
      page,
    }) => {
      await openPublicPage(page, lang, from)
      // A move the router makes itself (as a link would), with no request to the server.
      await page.evaluate((to) => {
        window.history.pushState(null, '', to)
        window.dispatchEvent(new PopStateEvent('popstate'))
      }, path)
      await expect(page).toHaveURL(localePath(lang, '/'))
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg(lang, 'landing.title'))
      // Replaced, not added: Back returns to the page before.
      await page.goBack()
      await expect(page).toHaveURL(localePath(lang, from))
    })
  }

  test('a footer link to a page and the home link work as in-app navigation', async ({ page }) => {
    await page.goto('/no-such-page')
    await expect(page).toHaveURL('/')
    await waitForHydration(page)
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: msg('en', 'common.footer.faq') })
      .click()
    await expect(page).toHaveURL('/faq')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'pages.faq.title'))
    await page
      .getByRole('banner')
      .getByRole('link', { name: msg('en', 'common.nav.home') })
      .click()
    await expect(page).toHaveURL('/')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'landing.title'))
  })
})
