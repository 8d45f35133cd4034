import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'
import { appMsg, signUpWithPlan } from './app-support.ts'
import { browserLocale, type Lang, langs } from './support/i18n.ts'
import { productPhotoPng } from './support/images.ts'
import { trendyolFakeURL } from './support/servers.ts'
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

/** Makes an image in Create and publishes it to Trendyol from the panel under it; answers the panel. */
async function publishFromCreate(page: Page, lang: Lang, listing: { barcode: string; title: string }) {
  const msg = (key: string, vars?: Record<string, string>) => appMsg(lang, key, vars)
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
  await panel.getByLabel(msg('publishing.panel.fields.title'), { exact: true }).fill(listing.title)
  await panel
    .getByLabel(msg('publishing.panel.fields.description'), { exact: true })
    .fill('Altı kişilik porselen kahve fincan takımı.')
  await panel.getByLabel(msg('publishing.panel.fields.barcode'), { exact: true }).fill(listing.barcode)
  await panel.getByLabel(msg('publishing.panel.fields.brand'), { exact: true }).fill('Paşabahçe')
  await panel.getByLabel(msg('publishing.panel.fields.salePrice'), { exact: true }).fill('749,90')
  await panel.getByLabel(msg('publishing.panel.fields.stock'), { exact: true }).fill('20')
  await panel.getByLabel(msg('publishing.panel.fields.desi'), { exact: true }).fill('2')
  await panel.getByLabel(msg('publishing.panel.fields.origin'), { exact: true }).fill('TR')
  await page.screenshot({ path: shotPath(`publish-form-${lang}`), fullPage: true })
  await panel
    .getByRole('button', { name: msg('publishing.panel.publish', { marketplace: 'Trendyol' }) })
    .click()
  return panel
}

for (const lang of langs) {
  test.describe(`publishing in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })
    test.describe.configure({ timeout: 180_000 })

    test('a studio result published to Trendyol goes live on the marketplace', async ({ page }) => {
      const msg = (key: string, vars?: Record<string, string>) => appMsg(lang, key, vars)
      await signUpWithPlan(page, 'starter', `publish-${lang}`)
      await connectTrendyol(page, lang)
      const barcode = `E2E-${lang}-${Date.now()}`
      const panel = await publishFromCreate(page, lang, {
        barcode,
        title: 'Porselen Kahve Fincan Takımı 6 Kişilik',
      })

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

    test('a product the marketplace rejects is fixed and resubmitted from the Library', async ({ page }) => {
      const msg = (key: string, vars?: Record<string, string>) => appMsg(lang, key, vars)
      await signUpWithPlan(page, 'starter', `resubmit-${lang}`)
      await connectTrendyol(page, lang)
      const barcode = `E2E-RS-${lang}-${Date.now()}`
      // Trendyol's reviewers refuse this barcode once, for promotional words in the title.
      const scripted = await fetch(`${trendyolFakeURL}/__control/reject-once`, {
        method: 'POST',
        body: JSON.stringify({
          barcode,
          reasons: [
            {
              rejectReason: 'Ürün Başlığı',
              rejectReasonDetail:
                'Başlıkta yasaklı ya da tanıtım amaçlı ifadeler var (ör. "ücretsiz kargo").',
            },
          ],
        }),
      })
      expect(scripted.status).toBe(200)
      const title = 'Porselen Kahve Fincan Takımı Ücretsiz Kargo'
      const panel = await publishFromCreate(page, lang, { barcode, title })
      await expect(panel.getByTestId('publication-item-status')).toHaveText(
        msg('publishing.panel.statuses.rejected'),
        { timeout: 60_000 },
      )

      // The Library lists the publication; its product shows the reason, explained, with the fix.
      await page.goto('/app/library?view=publications')
      const entry = page.getByTestId('publication-entry').first()
      await expect(entry).toContainText(msg('publishing.library.fromStudio'))
      await entry.getByTestId('publication-toggle').click()
      await expect(entry).toContainText(barcode)
      await expect(entry).toContainText('ücretsiz kargo')
      await expect(entry).toContainText(msg('publishing.rejections.codes.forbidden-words'))
      await page.screenshot({ path: shotPath(`resubmit-rejected-${lang}`), fullPage: true })
      await entry
        .getByRole('button', { name: msg('publishing.resubmit.oneNamed', { product: title }) })
        .click()

      const dialog = page.getByRole('dialog', { name: msg('publishing.resubmit.title') })
      await expect(dialog.getByTestId('resubmit-automatic')).toContainText(
        msg('publishing.rejections.fixes.checker-fix.does'),
      )
      const axe = await new AxeBuilder({ page }).include('[data-testid="resubmit-dialog"]').analyze()
      expect(axe.violations).toEqual([])
      await page.screenshot({ path: shotPath(`resubmit-dialog-${lang}`), fullPage: true })
      await dialog.getByRole('button', { name: msg('publishing.resubmit.send', { count: '1' }) }).click()

      // The new publication is followed in place until the product is live, its title fixed.
      const followed = page.getByTestId('publication-status').last()
      await expect(followed.getByTestId('publication-item-status')).toHaveText(
        msg('publishing.panel.statuses.live'),
        { timeout: 60_000 },
      )
      await expect(followed).toContainText('Porselen Kahve Fincan Takımı')
      await expect(followed).not.toContainText('Ücretsiz Kargo')
      await page.screenshot({ path: shotPath(`resubmit-live-${lang}`), fullPage: true })
    })
  })
}

test('a video made on Create is published with the image it was made from', async ({ page }) => {
  test.slow() // an image and an ffmpeg video on a machine other tests share
  const msg = (key: string, vars?: Record<string, string>) => appMsg('en', key, vars)
  await signUpWithPlan(page, 'starter', 'publish-video')
  await connectTrendyol(page, 'en')
  await page.goto('/app/create')
  const screen = studioScreen(page, 'en')
  await screen.photoInput.setInputFiles(await productPhotoPng())
  await expect(screen.uploaded).toBeVisible()
  await screen.generate.click()
  await expect(screen.resultImage).toBeVisible({ timeout: 45_000 })
  await screen.createVideo.click()
  await expect(screen.resultVideo).toBeVisible({ timeout: 90_000 })

  // The video took the image's place; the Publish form under it is the image's, with the video.
  const panel = page.getByRole('region', { name: msg('publishing.panel.title'), exact: true })
  await panel.getByLabel(msg('publishing.panel.categoryLabel'), { exact: true }).fill('fincan takımı')
  await panel.getByRole('button', { name: msg('publishing.panel.search'), exact: true }).click()
  await panel
    .getByRole('list', { name: msg('publishing.panel.categoryResults') })
    .getByRole('button', { name: msg('publishing.panel.chooseCategoryNamed', { category: 'Fincan Takımı' }) })
    .first()
    .click()
  await expect(panel.getByTestId('publish-with-video')).toBeChecked({ timeout: 45_000 })
  await panel.scrollIntoViewIfNeeded()
  await page.screenshot({ path: shotPath('publish-with-video-en'), fullPage: true })
})
