import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'
import { appMsg, signUpWithPlan } from './app-support.ts'
import { browserLocale, type Lang, langs } from './support/i18n.ts'
import { productPhotoPng } from './support/images.ts'
import { shotPath } from './support/shots.ts'
import { studioScreen } from './support/studio-screens.ts'

// Publishing a studio result to Trendyol, in Chromium, on the offline studio, against the fake
// Trendyol seller API the config starts (tests/fakes/trendyol-server.ts): the seller connects
// their account, makes an image, finds the category in Turkish words, checks the attributes Vitrin
// filled, answers the rest, gives the listing's codes and price, publishes, and sees the product
// go live on the marketplace, with a link to it.

/** The fake's seller (tests/fakes/trendyol-server.ts defaultTrendyolSeller). */
const seller = { sellerId: '123456', apiKey: 'fake-trendyol-api-key', apiSecret: 'fake-trendyol-api-secret' }

async function connectTrendyol(page: Page, lang: Lang) {
  const msg = (key: string, vars?: Record<string, string>) => appMsg(lang, key, vars)
  await page.goto('/settings?tab=integrations')
  const trendyol = page.getByRole('listitem', { name: 'Trendyol', exact: true })
  await trendyol.getByLabel(msg('settings.integrations.trendyol.account')).fill(seller.sellerId)
  await trendyol.getByLabel(msg('settings.integrations.trendyol.apiKey')).fill(seller.apiKey)
  await trendyol.getByLabel(msg('settings.integrations.trendyol.apiSecret')).fill(seller.apiSecret)
  await trendyol
    .getByRole('button', { name: msg('settings.integrations.connect', { name: 'Trendyol' }) })
    .click()
  await expect(trendyol.getByText(msg('settings.integrations.connected'), { exact: true })).toBeVisible()
}

for (const lang of langs) {
  test.describe(`publishing in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })
    test.describe.configure({ timeout: 180_000 })

    test('a studio result published to Trendyol goes live on the marketplace', async ({ page }) => {
      const msg = (key: string, vars?: Record<string, string>) => appMsg(lang, key, vars)
      await signUpWithPlan(page, 'starter', `publish-${lang}`)
      await connectTrendyol(page, lang)

      await page.goto('/app/create')
      const screen = studioScreen(page, lang)
      await screen.photoInput.setInputFiles(await productPhotoPng())
      await expect(screen.uploaded).toBeVisible()
      await screen.generate.click()
      await expect(screen.resultImage).toBeVisible({ timeout: 45_000 })

      const panel = page.getByRole('region', { name: msg('publishing.panel.title'), exact: true })
      await expect(panel).toBeVisible()
      await panel.getByLabel(msg('publishing.panel.categoryLabel'), { exact: true }).fill('fincan takımı')
      await panel.getByRole('button', { name: msg('publishing.panel.search'), exact: true }).click()
      const found = panel.getByRole('list', { name: msg('publishing.panel.categoryResults') })
      await expect(found).toContainText('Fincan Takımı')
      await found
        .getByRole('button', {
          name: msg('publishing.panel.chooseCategoryNamed', { category: 'Fincan Takımı' }),
        })
        .first()
        .click()

      // The form starts from what Vitrin filled; the colour says it came from the photo.
      const colour = panel.getByLabel('Renk', { exact: true })
      await expect(colour).toBeVisible({ timeout: 45_000 })
      await expect(colour).not.toHaveValue('')
      await expect(colour).toHaveAccessibleDescription(
        new RegExp(msg('publishing.panel.sources.photo').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      )
      // Every required attribute nothing filled is answered with its first allowed value.
      for (const select of await panel.locator('select[data-testid^="publish-attribute-"]').all()) {
        if ((await select.inputValue()) === '') {
          const first = await select.locator('option:not([value=""])').first().getAttribute('value')
          if (first) await select.selectOption(first)
        }
      }
      const barcode = `E2E-${lang}-${Date.now()}`
      await panel
        .getByLabel(msg('publishing.panel.fields.title'), { exact: true })
        .fill('Porselen Kahve Fincan Takımı 6 Kişilik')
      await panel
        .getByLabel(msg('publishing.panel.fields.description'), { exact: true })
        .fill('Altı kişilik porselen kahve fincan takımı.')
      await panel.getByLabel(msg('publishing.panel.fields.barcode'), { exact: true }).fill(barcode)
      await panel.getByLabel(msg('publishing.panel.fields.brand'), { exact: true }).fill('Paşabahçe')
      await panel.getByLabel(msg('publishing.panel.fields.salePrice'), { exact: true }).fill('749,90')
      await panel.getByLabel(msg('publishing.panel.fields.stock'), { exact: true }).fill('20')
      await panel.getByLabel(msg('publishing.panel.fields.desi'), { exact: true }).fill('2')
      await panel.getByLabel(msg('publishing.panel.fields.origin'), { exact: true }).fill('TR')
      await page.screenshot({ path: shotPath(`publish-form-${lang}`), fullPage: true })
      await panel
        .getByRole('button', { name: msg('publishing.panel.publish', { marketplace: 'Trendyol' }) })
        .click()

      const status = panel.getByTestId('publication-status')
      await expect(status.getByTestId('publication-item-status')).toHaveText(
        msg('publishing.panel.statuses.live'),
        { timeout: 60_000 },
      )
      await expect(status.getByRole('status')).toHaveText(
        msg('publishing.panel.finished', { marketplace: 'Trendyol' }),
      )
      await expect(
        status.getByRole('link', { name: msg('publishing.panel.viewOn', { marketplace: 'Trendyol' }) }),
      ).toHaveAttribute('href', /^https:\/\//)
      await expect(status).toContainText(barcode)
      await panel.scrollIntoViewIfNeeded()
      await page.screenshot({ path: shotPath(`publish-live-${lang}`), fullPage: true })

      const axe = await new AxeBuilder({ page }).include('[data-testid="publish-panel"]').analyze()
      expect(axe.violations).toEqual([])
    })
  })
}
