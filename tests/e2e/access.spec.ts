import { expect, test } from '@playwright/test'
import { actAsNewClient, authScreens, browserLocale, expectPath, langs } from './accounts-support.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { localePath } from './support/i18n.ts'
import { openPublicPage } from './support/public-page.ts'

test.describe.configure({ mode: 'parallel' })

/** One of the codes playwright.config.ts gives the server in ACCESS_CODES. */
const validCode = 'VITRIN'

test.describe('access code', () => {
  test.use({ locale: 'en-US' })

  test('a valid code typed in lower case opens a beta account and lands on next', async ({ page }) => {
    await actAsNewClient(page)
    const screens = authScreens(page, 'en')
    await openPublicPage(page, 'en', '/access?next=/app/create')
    await expect(screens.heading('auth.access.title')).toBeVisible()
    await expect(page.getByText(/30 days of the Growth plan/)).toBeVisible()

    const { code, submit } = screens.access
    await expect(code).toHaveAttribute('autocomplete', 'one-time-code')
    await expect(code).toHaveAttribute('autocapitalize', 'characters')
    await expect(code).toHaveAttribute('maxlength', '6')
    await expect(submit).toBeDisabled()
    await code.pressSequentially('vitri')
    await expect(code).toHaveValue('VITRI')
    await expect(submit).toBeDisabled()
    await code.pressSequentially('nx')
    // Six characters at most; the seventh is not taken.
    await expect(code).toHaveValue('VITRIN')
    await expect(submit).toBeEnabled()
    await submit.click()

    await expectPath(page, '/app/create')
    await expect(screens.header.accountMenu).toBeVisible()
    await expect(screens.header.dashboard).toBeVisible()
    const session = (await (await page.request.get('/api/session')).json()) as {
      user: { isBeta: boolean } | null
    }
    expect(session.user?.isBeta).toBe(true)
  })

  test('a wrong code says so, marks the field and can be corrected', async ({ page }) => {
    await actAsNewClient(page)
    const screens = authScreens(page, 'en')
    await openPublicPage(page, 'en', '/access?next=/app/fashion')
    await screens.access.code.fill('ABC123')
    await screens.access.submit.click()
    await expect(screens.alert).toHaveText('Invalid access code. Please try again.')
    await expect(screens.access.code).toHaveAttribute('aria-invalid', 'true')
    await expect(screens.access.code).toHaveAccessibleDescription(/Invalid access code\. Please try again\./)
    await expectPath(page, '/access', { next: '/app/fashion' })

    await screens.access.code.fill('trial1')
    await expect(screens.alert).toHaveCount(0)
    await screens.access.submit.click()
    await expectPath(page, '/app/fashion')
  })

  test('the eleventh wrong try from one client gets the rate-limit message', async ({ page }) => {
    test.slow() // many steps; keep them inside the time limit on a busy machine
    await actAsNewClient(page)
    const screens = authScreens(page, 'en')
    await openPublicPage(page, 'en', '/access')
    for (let attempt = 1; attempt <= 10; attempt++) {
      await screens.access.code.fill(`WRONG${attempt % 10}`)
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/access'))
      await screens.access.submit.click()
      expect((await answer).status()).toBe(400)
      await expect(screens.alert).toHaveText(screens.t('errors.ACCESS_CODE_INVALID'))
    }
    await screens.access.code.fill('WRONGX')
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/access'))
    await screens.access.submit.click()
    expect((await answer).status()).toBe(429)
    await expect(screens.alert).toHaveText(screens.t('errors.RATE_LIMITED'))

    // Even the right code waits now.
    await screens.access.code.fill(validCode)
    await screens.access.submit.click()
    await expect(screens.alert).toHaveText(screens.t('errors.RATE_LIMITED'))
    await expectPath(page, '/access')
  })

  test('someone already signed in goes straight on to next', async ({ page }) => {
    await actAsNewClient(page)
    const screens = authScreens(page, 'en')
    await openPublicPage(page, 'en', '/access')
    await screens.access.code.fill(validCode)
    await screens.access.submit.click()
    await expectPath(page, '/app')

    await page.goto('/access?next=/app/library')
    await expectPath(page, '/app/library')
    await page.goto('/access?next=https://evil.example')
    await expectPath(page, '/app')
  })

  test('"Have an account? Sign in" keeps next', async ({ page }) => {
    await actAsNewClient(page)
    const screens = authScreens(page, 'en')
    await openPublicPage(page, 'en', '/access?next=/app/create')
    await expect(page.getByText(screens.t('auth.access.haveAccount'))).toBeVisible()
    await page.getByRole('link', { name: screens.t('auth.access.signIn'), exact: true }).click()
    await expectPath(page, '/auth/signin', { next: '/app/create' })
    await expect(screens.heading('auth.signIn.title')).toBeVisible()
  })
})

test.describe('guarded pages without a session', () => {
  test.use({ locale: 'en-US' })

  for (const path of ['/app/create', '/app/fashion', '/app/library', '/settings', '/billing']) {
    test(`${path} goes to /access?next=${path}`, async ({ page }) => {
      await page.goto(path)
      await expectPath(page, '/access', { next: path })
      await expect(authScreens(page, 'en').heading('auth.access.title')).toBeVisible()
    })
  }

  test('/app goes to /access with no next', async ({ page }) => {
    await page.goto('/app')
    await expectPath(page, '/access')
    await expect(authScreens(page, 'en').heading('auth.access.title')).toBeVisible()
  })
})

test.describe('hostile next values', () => {
  test.use({ locale: 'en-US' })

  for (const next of ['//evil.example', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)']) {
    test(`after a valid code, next=${next} stays on the site at /app`, async ({ page, baseURL }) => {
      await actAsNewClient(page)
      const screens = authScreens(page, 'en')
      await openPublicPage(page, 'en', `/access?next=${encodeURIComponent(next)}`)
      await screens.access.code.fill(validCode)
      await screens.access.submit.click()
      await expectPath(page, '/app')
      expect(new URL(page.url()).origin).toBe(new URL(baseURL ?? '').origin)
      await expect(screens.header.accountMenu).toBeVisible()
    })
  }
})

for (const lang of langs) {
  test.describe(`in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    test('a guarded page sends a signed-out reader to the access page in their language', async ({
      page,
    }) => {
      await page.goto('/app/library')
      await expectPath(page, localePath(lang, '/access'), { next: '/app/library' })
      await expect(page.locator('html')).toHaveAttribute('lang', lang)
      await expect(authScreens(page, lang).heading('auth.access.title')).toBeVisible()
    })

    test('the access page, idle and with an error, has no serious accessibility violations', async ({
      page,
    }) => {
      await actAsNewClient(page)
      const screens = authScreens(page, lang)
      await openPublicPage(page, lang, '/access?next=/app/create')
      await expect(page.locator('html')).toHaveAttribute('lang', lang)
      await expect(screens.heading('auth.access.title')).toBeVisible()
      await expect(
        page.getByText(screens.t('auth.access.subtitle', { days: 30, plan: 'Growth' })),
      ).toBeVisible()
      await expectNoSeriousA11yViolations(page)

      await screens.access.code.fill('zzzzzz')
      await screens.access.submit.click()
      await expect(screens.alert).toHaveText(screens.t('errors.ACCESS_CODE_INVALID'))
      await expectNoSeriousA11yViolations(page)
    })
  })
}
