import { expect, test } from '@playwright/test'
import { authScreens, expectPath, langs, newEmail } from './accounts-support.ts'
import { browserLocale, intlTag, localePath } from './support/i18n.ts'
import { productPhotoPng } from './support/images.ts'
import { openPublicPage } from './support/public-page.ts'
import { createGeneration, enterAsBeta, uploadAsset, waitForGeneration } from './support/studio.ts'

test.describe.configure({ mode: 'parallel' })

const password = 'keep-my-work-7'

for (const lang of langs) {
  test.describe(`a beta account keeps its work with an email (${lang})`, () => {
    test.use({ locale: browserLocale[lang] })

    test('access code → dashboard notice → add email → sign out → sign in → library still there', async ({
      page,
    }) => {
      test.slow() // a generation and two sign-ins; keep them inside the time limit on a busy machine
      const screens = authScreens(page, lang)
      await enterAsBeta(page, { throughForm: true, next: '/app', lang })
      const photo = await uploadAsset(page, await productPhotoPng())
      const { id } = await createGeneration(page, { mode: 'image', imageAssetId: photo.id })
      await waitForGeneration(page, id, ['succeeded'], 25_000)

      await page.goto('/app')
      const notice = page.getByTestId('beta-session-notice')
      const session = (await (await page.request.get('/api/session')).json()) as { sessionEndsAt: string }
      const date = new Intl.DateTimeFormat(intlTag[lang], { dateStyle: 'long' }).format(
        new Date(session.sessionEndsAt),
      )
      await expect(notice).toContainText(screens.t('auth.betaNotice.body', { date }))

      await notice.getByRole('button', { name: screens.t('auth.addEmail.open') }).click()
      const dialog = page.getByRole('dialog', { name: screens.t('auth.addEmail.title') })
      const email = newEmail(`beta-${lang}`)
      await dialog.getByLabel(screens.t('auth.fields.email'), { exact: true }).fill(email)
      await dialog.getByLabel(screens.t('auth.fields.password'), { exact: true }).fill(password)
      await dialog.getByLabel(screens.t('auth.fields.confirmPassword'), { exact: true }).fill(password)
      await dialog.getByRole('button', { name: screens.t('auth.addEmail.submit') }).click()

      await expect(dialog).toHaveCount(0)
      await expect(notice).toHaveCount(0)
      await expect(page.getByRole('status').filter({ hasText: email })).toHaveText(
        screens.t('auth.addEmail.added', { email }),
      )
      await screens.header.accountMenu.click()
      await expect(page.getByRole('banner')).toContainText(email)
      await screens.header.signOut.click()
      await expectPath(page, localePath(lang, '/'))

      await openPublicPage(page, lang, '/auth/signin')
      await screens.signIn.email.fill(email)
      await screens.signIn.password.fill(password)
      await screens.signIn.submit.click()
      await expectPath(page, '/app')
      await expect(page.getByTestId('beta-session-notice')).toHaveCount(0)

      await page.goto('/app/library')
      await expect(page.locator(`[data-testid="library-item"][data-id="${id}"]`)).toBeVisible()
    })
  })
}
