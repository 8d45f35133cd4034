import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { screenshotPath } from './support/clients.ts'
import { browserLocale, type Lang, langs } from './support/i18n.ts'
import { garmentPhoto, productPhotoPng } from './support/images.ts'
import { enterAsBeta } from './support/studio.ts'
import { offlineResultTimeout, offlineVideoTimeout, studioScreen } from './support/studio-screens.ts'

// The studio on a phone (Pixel 7), in both languages: the same flows fit one column, nothing
// overflows sideways, and axe finds nothing serious with results on screen.

test.describe.configure({ mode: 'parallel' })

async function expectNoSidewaysScroll(page: import('@playwright/test').Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

for (const lang of langs as Lang[]) {
  test.describe(`studio on a phone in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    test('Create: photo → image → video, then the library', async ({ page }) => {
      test.slow() // an image and an ffmpeg video; keep them inside the time limit on a busy machine
      await page.addInitScript((l) => localStorage.setItem('vitrin.lang', l), lang)
      await enterAsBeta(page)
      await page.goto('/app/create')
      const screen = studioScreen(page, lang)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.m('studio.create.title'))
      await expectNoSidewaysScroll(page)
      await screen.photoInput.setInputFiles(await productPhotoPng())
      await expect(screen.uploaded).toBeVisible()
      await screen.suggestion(screen.m('studio.scenes.product.wood')).click()
      // The chip writes the scene in the seller's own language.
      await expect(screen.prompt).toHaveValue(
        screen.m('studio.scenes.product.wood').toLocaleLowerCase(lang === 'tr' ? 'tr-TR' : 'en-US'),
      )
      await screen.generate.click()
      // The result panel sits under the form on a phone: starting a job brings it into view.
      const resultTitle = page.getByRole('heading', { name: screen.m('studio.result.title') })
      const viewportHeight = page.viewportSize()?.height ?? 0
      await expect
        .poll(async () => (await resultTitle.boundingBox())?.y ?? viewportHeight)
        .toBeLessThan(viewportHeight / 2)
      await expect(screen.resultImage).toBeVisible({ timeout: offlineResultTimeout })
      await screen.resultImage.scrollIntoViewIfNeeded()
      await expectNoSidewaysScroll(page)
      await expectNoSeriousA11yViolations(page)
      await page.screenshot({ path: screenshotPath(`studio-create-phone-${lang}`), fullPage: true })

      await screen.createVideo.click()
      await expect(screen.resultVideo).toBeVisible({ timeout: offlineVideoTimeout })
      await expect(page.getByTestId('video-note')).toHaveText(
        screen.m('studio.result.videoNote', { ratio: '1:1' }),
      )

      await page.goto('/app/library')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(screen.m('studio.library.title'))
      await expect(page.getByTestId('library-item')).toHaveCount(2)
      await expectNoSidewaysScroll(page)
      await expectNoSeriousA11yViolations(page)
    })

    test('the menu leads to each tool', async ({ page }) => {
      await page.addInitScript((l) => localStorage.setItem('vitrin.lang', l), lang)
      await enterAsBeta(page)
      await page.goto('/app')
      const header = page.getByRole('banner')
      const menuName = lang === 'tr' ? 'Menüyü aç' : 'Open menu'
      await header.getByRole('button', { name: menuName }).click()
      const menu = page.locator('#mobile-menu')
      const libraryName = lang === 'tr' ? 'Kitaplık' : 'Library'
      await menu.getByRole('link', { name: libraryName, exact: true }).click()
      await expect(page).toHaveURL(/\/app\/library$/)
      await expect(menu).toBeHidden()
      await header.getByRole('button', { name: menuName }).click()
      await menu.getByRole('link', { name: lang === 'tr' ? 'Oluştur' : 'Create', exact: true }).click()
      await expect(page).toHaveURL(/\/app\/create$/)
    })

    test('Fashion: garment → on-model image in 9:16', async ({ page }) => {
      await page.addInitScript((l) => localStorage.setItem('vitrin.lang', l), lang)
      await enterAsBeta(page)
      await page.goto('/app/fashion')
      const screen = studioScreen(page, lang)
      await expect(screen.generate).toHaveText(screen.m('studio.generate.fashion'))
      await screen.garmentInput.setInputFiles(await garmentPhoto())
      await expect(
        page.getByTestId('garment-photo').getByText(screen.m('studio.upload.uploaded')),
      ).toBeVisible()
      await screen.generate.click()
      await expect(screen.resultImage).toBeVisible({ timeout: offlineResultTimeout })
      await expectNoSidewaysScroll(page)
      await expectNoSeriousA11yViolations(page)
      await page.screenshot({ path: screenshotPath(`studio-fashion-phone-${lang}`), fullPage: true })
    })
  })
}
