import { expect, type Page, test } from '@playwright/test'
import enMarketplaces from '#shared/i18n/locales/en/marketplaces.json' with { type: 'json' }
import trMarketplaces from '#shared/i18n/locales/tr/marketplaces.json' with { type: 'json' }
import { type Messages, translate } from '#shared/i18n/translate.ts'
import { appMsg, signUpWithPlan } from './app-support.ts'
import { browserLocale, type Lang, langs } from './support/i18n.ts'
import { productPhotoPng } from './support/images.ts'
import { shotPath } from './support/shots.ts'
import { studioScreen } from './support/studio-screens.ts'

// "Keep my product exactly" on Create, and the marketplace checklist summary on the library's
// cards, in both languages, on the offline studio: the switch is reached and turned on by
// keyboard, the request carries it, the result says the product was kept, and once a
// marketplace is chosen the card shows its counts as the panel does.

test.describe.configure({ mode: 'parallel' })

const marketplaceMessages: Record<Lang, Messages> = {
  en: { marketplaces: enMarketplaces },
  tr: { marketplaces: trMarketplaces },
}

function mm(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  const text = translate(marketplaceMessages[lang], lang, `marketplaces.${key}`, vars)
  if (text === `marketplaces.${key}`) throw new Error(`no ${lang} message for marketplaces.${key}`)
  return text
}

/** Screenshots to look at (not compared): desktop, then a phone's width. */
async function shoot(page: Page, name: string) {
  const desktop = page.viewportSize()
  await page.screenshot({ path: shotPath(`${name}-desktop`), fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: shotPath(`${name}-phone`), fullPage: true })
  if (desktop) await page.setViewportSize(desktop)
}

for (const lang of langs) {
  test.describe(`keep my product exactly, in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    test('the switch is sent with the request and the result says the product was kept', async ({ page }) => {
      await signUpWithPlan(page, 'starter', `keep-${lang}`)
      await page.goto('/app/create')
      await expect(page.locator('html')).toHaveAttribute('lang', lang)
      const screen = studioScreen(page, lang)
      await screen.photoInput.setInputFiles(await productPhotoPng())
      await expect(screen.uploaded).toBeVisible()

      const keep = page.getByRole('switch', { name: appMsg(lang, 'studio.keepProduct.label') })
      await expect(keep).toHaveAttribute('aria-checked', 'false')
      await expect(keep).toHaveAccessibleDescription(appMsg(lang, 'studio.keepProduct.hint'))
      await keep.focus()
      await page.keyboard.press('Space')
      await expect(keep).toHaveAttribute('aria-checked', 'true')

      const sent = page.waitForRequest(
        (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/generations',
      )
      await screen.generate.click()
      expect((await sent).postDataJSON()).toMatchObject({ mode: 'image', keepProduct: true })
      await expect(screen.resultImage).toBeVisible({ timeout: 25_000 })
      await expect(page.getByText(appMsg(lang, 'studio.keepProduct.kept'), { exact: true })).toBeVisible()
      await shoot(page, `keep-product-${lang}`)
    })

    test("the library card shows the chosen marketplace's checklist counts", async ({ page }) => {
      // A generation, then a first check that segments the result: most of 30 s on a loaded machine.
      test.setTimeout(60_000)
      await signUpWithPlan(page, 'starter', `card-${lang}`)
      await page.goto('/app/create')
      const screen = studioScreen(page, lang)
      await screen.photoInput.setInputFiles(await productPhotoPng())
      await expect(screen.uploaded).toBeVisible()
      await screen.generate.click()
      await expect(screen.resultImage).toBeVisible({ timeout: 25_000 })
      const id = new URL(page.url()).searchParams.get('job')
      if (!id) throw new Error('no job in the URL')

      // No marketplace chosen yet: the cards stay quiet.
      await page.goto('/app/library')
      const card = page.getByTestId('library-item').first()
      await expect(card).toBeVisible()
      const marketplace = mm(lang, 'profiles.trendyol')
      await expect(card.getByRole('button', { name: new RegExp(marketplace) })).toHaveCount(0)

      const chosen = await page.request.patch('/api/preferences', {
        data: { marketplaceProfile: 'trendyol' },
      })
      expect(chosen.ok()).toBe(true)
      const check = await page.request.get(`/api/generations/${id}/marketplace/trendyol?slot=main`)
      const { summary } = (await check.json()) as { summary: { pass: number; warn: number; fail: number } }

      await page.reload()
      const summaryButton = page.getByRole('button', {
        name: mm(lang, 'card.label', { marketplace, ...summary }),
        exact: true,
      })
      await expect(summaryButton).toBeVisible({ timeout: 20_000 })
      if (summary.fail > 0) {
        await expect(summaryButton).toContainText(mm(lang, 'card.fail', { count: summary.fail }))
      }
      await shoot(page, `library-summary-${lang}`)
      // It opens the result, whose dialog holds the marketplace panel.
      await summaryButton.press('Enter')
      await expect(page.getByRole('region', { name: mm(lang, 'panel.title'), exact: true })).toBeVisible()
    })
  })
}
