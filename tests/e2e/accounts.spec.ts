import { expect, test } from '@playwright/test'
import {
  actAsNewClient,
  authScreens,
  browserLocale,
  createAccount,
  expectPath,
  langs,
  newEmail,
  outboxFor,
  resetLinkFor,
  signInThroughForm,
  successScreenTiming,
  watchSuccessScreen,
} from './accounts-support.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { localePath } from './support/i18n.ts'
import { openPublicPage, waitForHydration } from './support/public-page.ts'

test.describe.configure({ mode: 'parallel' })

const password = 'correct-horse-1'

test.beforeEach(async ({ page }) => {
  await actAsNewClient(page)
})

test.describe('sign up', () => {
  test.use({ locale: 'en-US' })

  test('from a plan’s Get Started link: Account Created, then the plans with that plan remembered, signed in', async ({
    page,
  }) => {
    test.slow() // many steps; keep them inside the time limit on a busy machine
    const screens = authScreens(page, 'en')
    await openPublicPage(page, 'en', '/pricing')
    await page.getByRole('link', { name: 'Get Started: Growth' }).click()
    await expectPath(page, '/auth/signup', { plan: 'growth' })
    await expect(screens.heading('auth.signUp.title')).toBeVisible()
    await expect(page.getByText(screens.t('auth.signUp.planChosen', { plan: 'Growth' }))).toBeVisible()

    await watchSuccessScreen(page, 'Account Created')
    await screens.signUp.email.fill(newEmail('signup'))
    await screens.signUp.password.fill(password)
    await screens.signUp.confirm.fill(password)
    await screens.signUp.submit.click()

    const created = screens.heading('auth.signUp.createdTitle')
    await expect(created).toHaveText('Account Created')
    await expect(created).toBeFocused()
    // Signed in at once: the header already shows the dashboard link and the account menu.
    await expect(screens.header.dashboard).toBeVisible()
    await expect(screens.header.accountMenu).toBeVisible()
    await expect(screens.header.accessApp).toHaveCount(0)

    await expectPath(page, '/pricing', { plan: 'growth' })
    // The success screen's pause (signUpRedirectDelayMs), timed inside the page: 2 seconds, not less.
    const { shownAt, leftAt } = await successScreenTiming(page)
    expect(leftAt - shownAt).toBeGreaterThanOrEqual(1950)
    await expect(screens.header.dashboard).toBeVisible()
    await expect(screens.header.accountMenu).toBeVisible()

    // The session is real (a cookie the server knows), not only the page's memory.
    await page.reload()
    await expect(screens.header.accountMenu).toBeVisible()
  })

  test('without a known plan, the new account goes to the plain pricing page', async ({ page }) => {
    const screens = authScreens(page, 'en')
    await openPublicPage(page, 'en', '/auth/signup?plan=enterprise')
    await expect(page.getByText('You chose the')).toHaveCount(0)
    await screens.signUp.email.fill(newEmail('signup-plain'))
    await screens.signUp.password.fill(password)
    await screens.signUp.confirm.fill(password)
    await screens.signUp.submit.click()
    await expect(screens.heading('auth.signUp.createdTitle')).toBeVisible()
    await expectPath(page, '/pricing')
  })

  test('an email that already has an account sees the same Account Created screen, stays signed out, and its owner gets an email', async ({
    page,
    request,
  }) => {
    const email = newEmail('taken')
    await createAccount(request, email, password)
    const screens = authScreens(page, 'en')
    await openPublicPage(page, 'en', '/auth/signup')
    await screens.signUp.email.fill(email.toUpperCase())
    await screens.signUp.password.fill('another-password')
    await screens.signUp.confirm.fill('another-password')
    await screens.signUp.submit.click()
    // Nothing on the screen says whether the account existed.
    await expect(screens.heading('auth.signUp.createdTitle')).toBeVisible()
    await expect(page.getByText(screens.t('auth.signUp.createdIfRegistered'))).toBeVisible()
    await expect(screens.alert).toHaveCount(0)
    await expectPath(page, '/pricing')
    await expect(screens.header.accountMenu).toHaveCount(0)
    await expect
      .poll(async () => (await outboxFor(request, email)).map((mail) => mail.kind))
      .toContain('account_exists')
  })
})

for (const lang of langs) {
  test.describe(`in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    test('sign-up checks the fields before sending anything', async ({ page }) => {
      const screens = authScreens(page, lang)
      const { signUp, t } = screens
      const sent: string[] = []
      page.on('request', (req) => {
        if (req.url().includes('/api/auth/')) sent.push(req.url())
      })
      await openPublicPage(page, lang, '/auth/signup')
      await expect(page.locator('html')).toHaveAttribute('lang', lang)

      await signUp.submit.click()
      await expect(signUp.email).toHaveAttribute('aria-invalid', 'true')
      await expect(signUp.email).toHaveAccessibleDescription(t('errors.field.required'))
      await expect(signUp.password).toHaveAccessibleDescription(
        new RegExp(t('errors.field.required').replace('.', '\\.')),
      )
      await expect(signUp.email).toBeFocused()

      await signUp.email.fill('not-an-email')
      await signUp.password.fill('abc')
      await signUp.confirm.fill('abd')
      await signUp.submit.click()
      const tooShort = t('auth.validation.passwordTooShort', { min: 6 })
      const mismatch = t('auth.validation.passwordMismatch')
      if (lang === 'en') {
        expect(tooShort).toBe('Password must be at least 6 characters')
        expect(mismatch).toBe('Passwords do not match')
      }
      await expect(page.getByText(t('errors.field.email'))).toBeVisible()
      await expect(page.getByText(tooShort)).toBeVisible()
      await expect(signUp.password).toHaveAttribute('aria-invalid', 'true')
      await expect(signUp.password).toHaveAccessibleDescription(new RegExp(tooShort))
      await expect(signUp.confirm).toHaveAttribute('aria-invalid', 'true')
      await expect(signUp.confirm).toHaveAccessibleDescription(mismatch)
      await expect(signUp.email).toBeFocused()

      // Long enough but still different: only the mismatch is left.
      await signUp.email.fill(newEmail('checks'))
      await signUp.password.fill('abcdef')
      await signUp.confirm.fill('abcdeg')
      await signUp.submit.click()
      await expect(signUp.confirm).toHaveAccessibleDescription(mismatch)
      await expect(page.getByText(tooShort)).toHaveCount(0)
      await expect(signUp.password).not.toHaveAttribute('aria-invalid', 'true')
      await expect(signUp.confirm).toBeFocused()
      expect(sent).toEqual([])
    })

    test('sign-in with a wrong password shows the server’s message in a red banner', async ({
      page,
      request,
    }) => {
      const email = newEmail(`wrong-${lang}`)
      await createAccount(request, email, password)
      const screens = authScreens(page, lang)
      await openPublicPage(page, lang, '/auth/signin')
      await screens.signIn.email.fill(email)
      await screens.signIn.password.fill('not-the-password')
      await screens.signIn.submit.click()
      await expect(screens.alert).toHaveText(screens.t('errors.AUTH_INVALID_CREDENTIALS'))
      if (lang === 'en') await expect(screens.alert).toHaveText('Invalid email or password.')
      await expectPath(page, localePath(lang, '/auth/signin'))
      await expect(screens.signIn.submit).toBeEnabled()
    })

    // One test per page, each on a fresh page load in its idle state and, where it has one, its error state.
    test('sign-in page has no serious accessibility violations', async ({ page }) => {
      const screens = authScreens(page, lang)
      await openPublicPage(page, lang, '/auth/signin')
      await expect(screens.heading('auth.signIn.title')).toBeVisible()
      await expectNoSeriousA11yViolations(page)
      await screens.signIn.submit.click()
      await expect(screens.signIn.email).toHaveAttribute('aria-invalid', 'true')
      await expectNoSeriousA11yViolations(page)
    })

    test('sign-up page has no serious accessibility violations', async ({ page }) => {
      const screens = authScreens(page, lang)
      await openPublicPage(page, lang, '/auth/signup?plan=pro')
      await expect(screens.heading('auth.signUp.title')).toBeVisible()
      await expectNoSeriousA11yViolations(page)
      await screens.signUp.password.fill('abc')
      await screens.signUp.submit.click()
      await expect(screens.signUp.confirm).toHaveAttribute('aria-invalid', 'true')
      await expectNoSeriousA11yViolations(page)
    })

    test('reset request page has no serious accessibility violations', async ({ page }) => {
      const screens = authScreens(page, lang)
      await openPublicPage(page, lang, '/auth/reset-password')
      await expect(screens.heading('auth.resetRequest.title')).toBeVisible()
      await expectNoSeriousA11yViolations(page)
      await screens.resetRequest.email.fill(newEmail('axe'))
      await screens.resetRequest.submit.click()
      await expect(screens.heading('auth.resetRequest.sentTitle')).toBeVisible()
      await expectNoSeriousA11yViolations(page)
    })

    test('reset confirm page has no serious accessibility violations', async ({ page }) => {
      const screens = authScreens(page, lang)
      await openPublicPage(page, lang, '/auth/reset-password/confirm?token=some-token')
      await expect(screens.heading('auth.resetConfirm.title')).toBeVisible()
      await expectNoSeriousA11yViolations(page)
      await openPublicPage(page, lang, '/auth/reset-password/confirm')
      await expect(screens.heading('auth.resetConfirm.invalidTitle')).toBeVisible()
      await expectNoSeriousA11yViolations(page)
    })

    test('the password-reset email links to the confirm page in the reader’s language', async ({
      page,
      request,
    }) => {
      const email = newEmail(`reset-link-${lang}`)
      await createAccount(request, email, password)
      const screens = authScreens(page, lang)
      await openPublicPage(page, lang, '/auth/reset-password')
      await screens.resetRequest.email.fill(email)
      await screens.resetRequest.submit.click()
      await expect(screens.heading('auth.resetRequest.sentTitle')).toBeVisible()

      const link = await resetLinkFor(request, email)
      expect(new URL(link).pathname).toBe(localePath(lang, '/auth/reset-password/confirm'))
      await page.goto(link)
      await expect(page.locator('html')).toHaveAttribute('lang', lang)
      await expect(screens.heading('auth.resetConfirm.title')).toBeVisible()
    })
  })
}

test.describe('sign in', () => {
  test.use({ locale: 'en-US' })

  test('goes to the dashboard by default', async ({ page, request }) => {
    const email = newEmail('signin')
    await createAccount(request, email, password)
    const screens = authScreens(page, 'en')
    await page.goto('/auth/signin')
    await expect(page.getByRole('link', { name: screens.t('auth.signIn.forgotPassword') })).toHaveAttribute(
      'href',
      '/auth/reset-password',
    )
    await expect(page.getByRole('link', { name: screens.t('auth.signIn.createAccount') })).toHaveAttribute(
      'href',
      '/auth/signup',
    )
    // Email addresses are not case-sensitive.
    await signInThroughForm(page, email.toUpperCase(), password)
    await expectPath(page, '/app')
    await expect(screens.header.dashboard).toBeVisible()
    await expect(screens.header.accountMenu).toBeVisible()
  })

  test('goes to the page it was asked for with ?next', async ({ page, request }) => {
    const email = newEmail('signin-next')
    await createAccount(request, email, password)
    await signInThroughForm(page, email, password, '/auth/signin?next=/settings')
    await expectPath(page, '/settings')
  })

  test('never follows ?next off the site', async ({ page, request }) => {
    const email = newEmail('signin-hostile')
    await createAccount(request, email, password)
    await signInThroughForm(
      page,
      email,
      password,
      `/auth/signin?next=${encodeURIComponent('//evil.example')}`,
    )
    await expectPath(page, '/app')
  })

  test('sign out from the account menu returns home and closes the app', async ({ page, request }) => {
    const email = newEmail('signout')
    await createAccount(request, email, password)
    const screens = authScreens(page, 'en')
    await signInThroughForm(page, email, password)
    await expectPath(page, '/app')

    await screens.header.accountMenu.click()
    await screens.header.signOut.click()
    await expectPath(page, '/')
    await expect(screens.header.accessApp).toBeVisible()
    await expect(screens.header.accountMenu).toHaveCount(0)

    await page.goto('/app')
    await expectPath(page, '/access')
    const session = await page.request.get('/api/session')
    expect(((await session.json()) as { user: unknown }).user).toBeNull()
  })
})

test.describe('password reset', () => {
  test.use({ locale: 'en-US' })

  test('through the emailed link: new password works, the old one and the used link do not', async ({
    page,
    request,
  }) => {
    test.slow() // many steps; keep them inside the time limit on a busy machine
    const email = newEmail('reset')
    const newPassword = 'brand-new-pass-2'
    await createAccount(request, email, password)
    const screens = authScreens(page, 'en')

    await openPublicPage(page, 'en', '/auth/signin')
    await page.getByRole('link', { name: screens.t('auth.signIn.forgotPassword') }).click()
    await expectPath(page, '/auth/reset-password')
    // The new page replaces the old one once its code has loaded: wait for it before typing.
    await expect(screens.heading('auth.resetRequest.title')).toBeVisible()
    await screens.resetRequest.email.fill(email)
    await screens.resetRequest.submit.click()
    await expect(screens.heading('auth.resetRequest.sentTitle')).toBeFocused()
    await expect(page.getByText(screens.t('auth.resetRequest.sentBody'))).toBeVisible()

    const link = await resetLinkFor(request, email)
    expect(new URL(link).pathname).toBe('/auth/reset-password/confirm')
    await page.goto(link)
    await waitForHydration(page)
    await expect(screens.heading('auth.resetConfirm.title')).toBeVisible()

    // The same checks as on sign-up.
    await screens.resetConfirm.password.fill('short')
    await screens.resetConfirm.confirm.fill('shorter')
    await screens.resetConfirm.submit.click()
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible()
    await expect(screens.resetConfirm.confirm).toHaveAccessibleDescription('Passwords do not match')

    await screens.resetConfirm.password.fill(newPassword)
    await screens.resetConfirm.confirm.fill(newPassword)
    await screens.resetConfirm.submit.click()
    await expect(screens.heading('auth.resetConfirm.doneTitle')).toBeFocused()
    await page.getByRole('link', { name: screens.t('auth.resetConfirm.signIn') }).click()
    await expectPath(page, '/auth/signin')
    await expect(screens.heading('auth.signIn.title')).toBeVisible()

    await screens.signIn.email.fill(email)
    await screens.signIn.password.fill(password)
    await screens.signIn.submit.click()
    await expect(screens.alert).toHaveText(screens.t('errors.AUTH_INVALID_CREDENTIALS'))

    await screens.signIn.password.fill(newPassword)
    await screens.signIn.submit.click()
    await expectPath(page, '/app')

    // The link works once.
    await page.goto(link)
    await waitForHydration(page)
    await screens.resetConfirm.password.fill('third-password-3')
    await screens.resetConfirm.confirm.fill('third-password-3')
    await screens.resetConfirm.submit.click()
    await expect(screens.heading('auth.resetConfirm.invalidTitle')).toBeVisible()
    await expect(screens.alert).toHaveText(screens.t('errors.AUTH_RESET_TOKEN_INVALID'))
    await page.getByRole('link', { name: screens.t('auth.resetConfirm.requestNew') }).click()
    await expectPath(page, '/auth/reset-password')
  })

  test('a reset ends the sessions of the account', async ({ page, request }) => {
    test.slow() // many steps; keep them inside the time limit on a busy machine
    const email = newEmail('reset-sessions')
    await createAccount(request, email, password)
    const screens = authScreens(page, 'en')
    await signInThroughForm(page, email, password)
    await expectPath(page, '/app')

    await openPublicPage(page, 'en', '/auth/reset-password')
    await screens.resetRequest.email.fill(email)
    await screens.resetRequest.submit.click()
    await expect(screens.heading('auth.resetRequest.sentTitle')).toBeVisible()
    await page.goto(await resetLinkFor(request, email))
    await waitForHydration(page)
    await screens.resetConfirm.password.fill('after-reset-4')
    await screens.resetConfirm.confirm.fill('after-reset-4')
    await screens.resetConfirm.submit.click()
    await expect(screens.heading('auth.resetConfirm.doneTitle')).toBeVisible()
    await expect(screens.header.accessApp).toBeVisible()
    await page.goto('/settings')
    await expectPath(page, '/access', { next: '/settings' })
  })

  test('an unknown email gets the same confirmation and no email is sent', async ({ page, request }) => {
    const email = newEmail('nobody')
    const screens = authScreens(page, 'en')
    await openPublicPage(page, 'en', '/auth/reset-password')
    await screens.resetRequest.email.fill(email)
    await screens.resetRequest.submit.click()
    await expect(screens.heading('auth.resetRequest.sentTitle')).toBeVisible()
    await expect(page.getByText(screens.t('auth.resetRequest.sentBody'))).toBeVisible()
    expect(await outboxFor(request, email)).toEqual([])
  })

  test('a link without a token says it does not work and offers a new one', async ({ page }) => {
    const screens = authScreens(page, 'en')
    await page.goto('/auth/reset-password/confirm')
    await expect(screens.heading('auth.resetConfirm.invalidTitle')).toBeVisible()
    await expect(page.getByText(screens.t('errors.AUTH_RESET_TOKEN_INVALID'))).toBeVisible()
    await expect(screens.resetConfirm.password).toHaveCount(0)
    await expect(page.getByRole('link', { name: screens.t('auth.resetConfirm.requestNew') })).toHaveAttribute(
      'href',
      '/auth/reset-password',
    )
  })
})
