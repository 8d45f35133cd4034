import { expect, type Page, test } from '@playwright/test'
import {
  appMsg,
  enterWithAccessCode,
  newBrowserContext,
  readBilling,
  readSettings,
  readUsage,
  signIn,
  signUp,
  signUpWithPlan,
} from './app-support.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { browserLocale, type Lang, langs, localePath } from './support/i18n.ts'

test.describe.configure({ mode: 'parallel' })

const tabIds = ['profile', 'billing', 'api', 'integrations'] as const
type TabId = (typeof tabIds)[number]

const tab = (page: Page, lang: Lang, id: TabId) =>
  page.getByRole('tab', { name: appMsg(lang, `settings.tabs.${id}`), exact: true })
const panel = (page: Page) => page.getByRole('tabpanel')
const autoTopup = (page: Page, lang: Lang) =>
  page.getByRole('switch', { name: appMsg(lang, 'settings.billing.autoTopupLabel') })
const byoSwitch = (page: Page, lang: Lang) =>
  page.getByRole('switch', { name: appMsg(lang, 'settings.api.byoLabel') })

async function openSettings(page: Page, lang: Lang, query = '') {
  await page.goto(`/settings${query}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(appMsg(lang, 'settings.title'))
}

test('tabs: arrow keys move between them, the URL keeps the choice, and a link can open any tab', async ({
  page,
}) => {
  await signUpWithPlan(page, 'growth', 'tabs')
  await openSettings(page, 'en')
  await expect(page.getByRole('tablist', { name: 'Settings sections' })).toBeVisible()
  await expect(tab(page, 'en', 'profile')).toHaveAttribute('aria-selected', 'true')
  await expect(panel(page)).toHaveAccessibleName('Profile')

  await tab(page, 'en', 'profile').focus()
  await page.keyboard.press('ArrowRight')
  await expect(tab(page, 'en', 'billing')).toBeFocused()
  await expect(tab(page, 'en', 'billing')).toHaveAttribute('aria-selected', 'true')
  await expect(tab(page, 'en', 'profile')).toHaveAttribute('aria-selected', 'false')
  await expect(page).toHaveURL(/\/settings\?tab=billing$/)
  await expect(panel(page)).toHaveAccessibleName('Billing')

  await page.keyboard.press('End')
  await expect(tab(page, 'en', 'integrations')).toBeFocused()
  await expect(page).toHaveURL(/tab=integrations$/)
  await page.keyboard.press('ArrowRight')
  await expect(tab(page, 'en', 'profile')).toBeFocused()
  await page.keyboard.press('ArrowLeft')
  await expect(tab(page, 'en', 'integrations')).toBeFocused()
  await page.keyboard.press('Home')
  await expect(tab(page, 'en', 'profile')).toBeFocused()
  await expect(page).toHaveURL(/tab=profile$/)

  // Only the selected tab is a Tab stop; the next Tab goes into the panel.
  await page.keyboard.press('Tab')
  await expect(tab(page, 'en', 'billing')).not.toBeFocused()
  await expect(panel(page)).toBeFocused()

  await tab(page, 'en', 'api').click()
  await expect(page).toHaveURL(/tab=api$/)
  await page.reload()
  await expect(tab(page, 'en', 'api')).toHaveAttribute('aria-selected', 'true')
  await expect(byoSwitch(page, 'en')).toBeVisible()

  await openSettings(page, 'en', '?tab=integrations')
  await expect(tab(page, 'en', 'integrations')).toHaveAttribute('aria-selected', 'true')
  await openSettings(page, 'en', '?tab=nonsense')
  await expect(tab(page, 'en', 'profile')).toHaveAttribute('aria-selected', 'true')
})

for (const lang of langs) {
  test.describe(`settings in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    test('changing the password: checks, a translated wrong-password error, then it really changes and other sessions end', async ({
      page,
      browser,
    }) => {
      // Three browsers, several sign-ins and an axe run.
      test.slow()
      const account = await signUpWithPlan(page, 'growth', 'password')
      const newPassword = 'second-pass-456'

      // Another browser where the same user is signed in.
      const elsewhere = await newBrowserContext(browser, lang)
      const elsewherePage = await elsewhere.newPage()
      await signIn(elsewherePage, account)
      await elsewherePage.goto('/settings')
      await expect(elsewherePage.getByRole('heading', { level: 1 })).toHaveText(
        appMsg(lang, 'settings.title'),
      )

      await openSettings(page, lang)
      const email = page.getByRole('textbox', { name: appMsg(lang, 'settings.profile.email') })
      await expect(email).toHaveValue(account.email)
      await expect(email).toHaveAttribute('readonly', '')
      await expect(email).toHaveAccessibleDescription(appMsg(lang, 'settings.profile.emailHint'))

      const open = page.getByRole('button', { name: appMsg(lang, 'settings.profile.changePassword') })
      await open.click()
      const dialog = page.getByRole('dialog', { name: appMsg(lang, 'settings.passwordDialog.title') })
      await expect(dialog).toBeVisible()
      await expect(dialog).toHaveAttribute('aria-modal', 'true')
      const current = dialog.getByLabel(appMsg(lang, 'settings.passwordDialog.current'), { exact: true })
      const next = dialog.getByLabel(appMsg(lang, 'settings.passwordDialog.new'), { exact: true })
      const confirm = dialog.getByLabel(appMsg(lang, 'settings.passwordDialog.confirm'), { exact: true })
      const submit = dialog.getByRole('button', { name: appMsg(lang, 'settings.passwordDialog.submit') })
      await expect(current).toBeFocused()
      await expect(current).toHaveAttribute('type', 'password')

      // Focus stays inside: five stops, then round again; Shift+Tab from the first goes to the last.
      for (let i = 0; i < 6; i++) {
        await page.keyboard.press('Tab')
        await expect(dialog.locator(':focus')).toHaveCount(1)
      }
      await expect(next).toBeFocused()
      await current.focus()
      await page.keyboard.press('Shift+Tab')
      await expect(submit).toBeFocused()

      // Escape closes and gives focus back to the button that opened it.
      await page.keyboard.press('Escape')
      await expect(dialog).toBeHidden()
      await expect(open).toBeFocused()

      await open.click()
      await current.fill(account.password)
      await next.fill('abc')
      await confirm.fill('abc')
      await submit.click()
      await expect(next).toHaveAccessibleDescription(appMsg(lang, 'settings.passwordDialog.tooShort'))
      await expect(next).toHaveAttribute('aria-invalid', 'true')
      await expect(next).toBeFocused()

      await next.fill(newPassword)
      await confirm.fill(`${newPassword}x`)
      await submit.click()
      await expect(confirm).toHaveAccessibleDescription(appMsg(lang, 'settings.passwordDialog.mismatch'))
      await expectNoSeriousA11yViolations(page)

      await current.fill('not-my-password')
      await confirm.fill(newPassword)
      await submit.click()
      await expect(current).toHaveAccessibleDescription(appMsg(lang, 'errors.AUTH_WRONG_PASSWORD'))

      await current.fill(account.password)
      await submit.click()
      await expect(dialog).toBeHidden()
      await expect(
        page.getByRole('status').filter({ hasText: appMsg(lang, 'settings.profile.passwordChanged') }),
      ).toBeVisible()
      await expect(open).toBeFocused()

      // This browser stays signed in.
      const mine = await page.request.get('/api/session')
      expect(((await mine.json()) as { user: { email: string } | null }).user?.email).toBe(account.email)

      // The other browser was signed out.
      const theirs = await elsewherePage.request.get('/api/session')
      expect(((await theirs.json()) as { user: unknown }).user).toBeNull()
      await elsewherePage.goto('/settings')
      await expect(elsewherePage).toHaveURL(
        (url) => url.pathname === localePath(lang, '/access') && url.search === '?next=%2Fsettings',
      )
      await elsewhere.close()

      // The new password works in a fresh browser; the old one no longer does.
      const fresh = await newBrowserContext(browser, lang)
      try {
        const withOld = await fresh.request.post('/api/auth/sign-in', { data: account })
        expect(withOld.status()).toBe(401)
        expect(((await withOld.json()) as { error: { code: string } }).error.code).toBe(
          'AUTH_INVALID_CREDENTIALS',
        )
        const withNew = await fresh.request.post('/api/auth/sign-in', {
          data: { email: account.email, password: newPassword },
        })
        expect(withNew.status()).toBe(200)
      } finally {
        await fresh.close()
      }
    })

    test('auto top-up is a real switch, stored, and says when it takes effect', async ({ page }) => {
      await signUpWithPlan(page, 'growth', 'topup')
      await openSettings(page, lang, '?tab=billing')
      const toggle = autoTopup(page, lang)
      await expect(toggle).toHaveAttribute('aria-checked', 'false')
      await expect(toggle).toHaveAccessibleDescription(
        new RegExp(appMsg(lang, 'settings.billing.autoTopupDescription')),
      )
      await expect(panel(page)).toContainText(appMsg(lang, 'settings.billing.notLive'))
      const portal = page.getByRole('button', { name: appMsg(lang, 'settings.billing.portalButton') })
      await expect(portal).toBeDisabled()
      await expect(portal).toHaveAccessibleDescription(appMsg(lang, 'settings.billing.portalUnavailable'))

      await toggle.click()
      await expect(toggle).toHaveAttribute('aria-checked', 'true')
      await expect(
        panel(page)
          .getByRole('status')
          .filter({ hasText: appMsg(lang, 'settings.toggle.saved') }),
      ).toBeVisible()
      expect((await readSettings(page)).autoTopupEnabled).toBe(true)

      await page.reload()
      await expect(autoTopup(page, lang)).toHaveAttribute('aria-checked', 'true')

      // Keyboard works too.
      await autoTopup(page, lang).focus()
      await page.keyboard.press('Space')
      await expect(autoTopup(page, lang)).toHaveAttribute('aria-checked', 'false')
      await expect.poll(async () => (await readSettings(page)).autoTopupEnabled).toBe(false)
    })

    test('each tab has no serious accessibility violations', async ({ page }) => {
      // Four full axe runs: more than the default budget on a busy machine.
      test.slow()
      await signUpWithPlan(page, 'growth', 'axe')
      expect((await page.request.patch('/api/settings', { data: { byoApiEnabled: true } })).ok()).toBe(true)
      for (const id of tabIds) {
        await openSettings(page, lang, `?tab=${id}`)
        await expect(tab(page, lang, id)).toHaveAttribute('aria-selected', 'true')
        await expect(panel(page).getByRole('heading', { level: 2 })).toHaveText(
          appMsg(lang, `settings.${id}.title`),
        )
        await expectNoSeriousA11yViolations(page)
      }
    })
  })
}

test('bring your own key: saved once, shown only as ••••abcd, never sent back, and removable', async ({
  page,
}) => {
  const key = 'fal-test-key-1234567890abcd'
  const bodies: Promise<{ url: string; body: string }>[] = []
  page.on('response', (response) => {
    if (!response.url().includes('/api/')) return
    bodies.push(
      response
        .text()
        .then((body) => ({ url: response.url(), body }))
        .catch(() => ({ url: response.url(), body: '' })),
    )
  })

  await signUpWithPlan(page, 'pro', 'byo')
  await openSettings(page, 'en', '?tab=api')
  const toggle = byoSwitch(page, 'en')
  await expect(toggle).toHaveAccessibleDescription(
    'Use your own fal.ai key for images and videos; those generations do not count against your quota.',
  )
  await expect(page.getByLabel('fal.ai API key')).toHaveCount(0)
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-checked', 'true')
  expect((await readSettings(page)).byoApiEnabled).toBe(true)

  const field = page.getByLabel('fal.ai API key')
  await expect(field).toHaveAttribute('type', 'password')
  await expect(page.getByTestId('saved-key')).toContainText('No key saved yet.')
  await field.fill('too-short')
  await page.getByRole('button', { name: 'Save API Key' }).click()
  await expect(field).toHaveAccessibleDescription(/The key must be at least 16 characters\./)

  await field.fill(key)
  await page.getByRole('button', { name: 'Show key' }).click()
  await expect(field).toHaveAttribute('type', 'text')
  await page.getByRole('button', { name: 'Hide key' }).click()
  await expect(field).toHaveAttribute('type', 'password')
  await page.getByRole('button', { name: 'Save API Key' }).click()

  await expect(
    page.getByText('Your key was saved. For your safety it will not be shown again.'),
  ).toBeVisible()
  await expect(page.getByTestId('saved-key').locator('code')).toHaveText('••••abcd')
  const replace = page.getByLabel('Replace the saved key')
  await expect(replace).toHaveValue('')
  expect(await page.content()).not.toContain(key)

  const settings = await readSettings(page)
  expect(settings.falKey).toEqual({ isSet: true, mask: '••••abcd' })
  expect(JSON.stringify(settings)).not.toContain(key)

  await page.reload()
  await expect(page.getByTestId('saved-key').locator('code')).toHaveText('••••abcd')
  await expect(page.getByLabel('Replace the saved key')).toHaveValue('')
  expect(await page.content()).not.toContain(key)

  // Turned off, the key stays saved (and masked) but is not used.
  await byoSwitch(page, 'en').click()
  await expect(byoSwitch(page, 'en')).toHaveAttribute('aria-checked', 'false')
  await expect(
    page.getByText('A key is saved (••••abcd). It is used only while this setting is on.'),
  ).toBeVisible()
  await byoSwitch(page, 'en').click()
  await expect(byoSwitch(page, 'en')).toHaveAttribute('aria-checked', 'true')

  await page.getByRole('button', { name: 'Remove key' }).click()
  await expect(page.getByText('Your key was removed.')).toBeVisible()
  await expect(page.getByTestId('saved-key')).toContainText('No key saved yet.')
  expect((await readSettings(page)).falKey).toEqual({ isSet: false, mask: null })

  // No answer of the API, in the page or read directly, ever carried the key.
  for (const read of [readSettings, readBilling, readUsage]) {
    expect(JSON.stringify(await read(page))).not.toContain(key)
  }
  const seen = await Promise.all(bodies)
  expect(seen.some(({ url }) => url.endsWith('/api/settings/fal-key'))).toBe(true)
  expect(seen.filter(({ body }) => body.includes(key)).map(({ url }) => url)).toEqual([])
  expect(seen.filter(({ body }) => body.includes('1234567890')).map(({ url }) => url)).toEqual([])
})

test('without a plan the switches are disabled, with a link to choose a plan', async ({ page }) => {
  await signUp(page, 'no-plan-settings')
  await openSettings(page, 'en', '?tab=billing')
  await expect(autoTopup(page, 'en')).toBeDisabled()
  await expect(autoTopup(page, 'en')).toHaveAccessibleDescription(/Choose a plan to turn them on\./)
  await expect(panel(page).getByRole('link', { name: 'Choose a plan' })).toHaveAttribute('href', '/pricing')

  await tab(page, 'en', 'api').click()
  await expect(byoSwitch(page, 'en')).toBeDisabled()
  await expect(page.getByLabel('fal.ai API key')).toHaveCount(0)
  await panel(page).getByRole('link', { name: 'Choose a plan' }).click()
  await expect(page).toHaveURL(/\/pricing$/)
})

test('a beta account has no password to change, and is told why', async ({ page }) => {
  await enterWithAccessCode(page)
  await openSettings(page, 'en')
  await expect(panel(page)).toContainText('Beta account')
  await expect(panel(page)).toContainText(
    'You entered with an access code. Beta accounts have no email address and no password, so there is no password to change here.',
  )
  await expect(page.getByRole('button', { name: 'Change Password' })).toHaveCount(0)
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveCount(0)
})

test('shop integrations are shown as coming soon; CSV Upload leads to the catalogue', async ({ page }) => {
  await signUpWithPlan(page, 'starter', 'integrations')
  await openSettings(page, 'en', '?tab=integrations')
  const shops = panel(page).getByRole('region', { name: 'Shops and files' })
  for (const name of ['Shopify', 'WooCommerce']) {
    const card = shops.getByRole('listitem', { name, exact: true })
    await expect(card).toBeVisible()
    await expect(card.getByText('Coming soon')).toBeVisible()
  }
  const csv = shops.getByRole('listitem', { name: 'CSV Upload', exact: true })
  await expect(csv.getByText('Coming soon')).toHaveCount(0)
  await expect(shops.getByRole('button')).toHaveCount(0)
  await expect(shops.getByRole('link')).toHaveCount(1)
  await csv.getByRole('link', { name: 'Import a product list' }).click()
  await expect(page).toHaveURL(/\/app\/catalogue$/)
})

for (const lang of langs) {
  test.describe(`marketplace connections in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    test('connecting Trendyol and Hepsiburada: checked at the marketplace, then only the account and a mask', async ({
      page,
    }) => {
      await signUpWithPlan(page, 'starter', `marketplaces-${lang}`)
      await openSettings(page, lang, '?tab=integrations')
      const msg = (key: string, vars?: Record<string, string>) => appMsg(lang, key, vars)
      const marketplaces = panel(page).getByRole('region', {
        name: msg('settings.integrations.marketplacesTitle'),
      })
      const trendyol = marketplaces.getByRole('listitem', { name: 'Trendyol', exact: true })
      await expect(trendyol.getByText(msg('settings.integrations.notConnected'))).toBeVisible()

      // The fake Trendyol seller API's seller (tests/fakes/trendyol-server.ts).
      await trendyol.getByLabel(msg('settings.integrations.trendyol.account')).fill('123456')
      await trendyol.getByLabel(msg('settings.integrations.trendyol.apiKey')).fill('fake-trendyol-api-key')
      await trendyol
        .getByLabel(msg('settings.integrations.trendyol.apiSecret'))
        .fill('fake-trendyol-api-secret')
      await trendyol
        .getByRole('button', { name: msg('settings.integrations.connect', { name: 'Trendyol' }) })
        .click()
      await expect(marketplaces.getByRole('status')).toHaveText(
        msg('settings.integrations.saved', { name: 'Trendyol' }),
      )
      await expect(trendyol.getByText(msg('settings.integrations.connected'), { exact: true })).toBeVisible()
      await expect(trendyol.getByText('••••cret')).toBeVisible()

      // A wrong service key: the marketplace refuses it, the seller is told why, nothing is saved.
      const hepsiburada = marketplaces.getByRole('listitem', { name: 'Hepsiburada', exact: true })
      await hepsiburada
        .getByLabel(msg('settings.integrations.hepsiburada.account'))
        .fill('6fc6d90d-ee1d-4372-b3a6-264b1275e9ff')
      await hepsiburada.getByLabel(msg('settings.integrations.hepsiburada.serviceKey')).fill('WrongKey1234')
      await hepsiburada
        .getByRole('button', { name: msg('settings.integrations.connect', { name: 'Hepsiburada' }) })
        .click()
      await expect(hepsiburada.getByRole('alert')).toHaveText(msg('errors.MARKETPLACE_KEYS_REFUSED'))
      await expect(hepsiburada.getByText(msg('settings.integrations.notConnected'))).toBeVisible()

      // After a reload the connection is still there, shown the same way; the secret is not in the page.
      await page.reload()
      await expect(trendyol.getByText('••••cret')).toBeVisible()
      expect(await page.content()).not.toContain('fake-trendyol-api-secret')
      await trendyol
        .getByRole('button', { name: msg('settings.integrations.test', { name: 'Trendyol' }) })
        .click()
      await expect(marketplaces.getByRole('status')).toHaveText(
        msg('settings.integrations.tested', { name: 'Trendyol' }),
      )
      await expectNoSeriousA11yViolations(page)
      await trendyol
        .getByRole('button', { name: msg('settings.integrations.disconnect', { name: 'Trendyol' }) })
        .click()
      await expect(trendyol.getByText(msg('settings.integrations.notConnected'))).toBeVisible()
    })
  })
}

test('settings that cannot load show an error with Try again', async ({ page }) => {
  await signUpWithPlan(page, 'growth', 'settings-error')
  let failures = 1
  await page.route('**/api/settings', async (route) => {
    if (failures > 0) {
      failures -= 1
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"error":{"code":"INTERNAL","message":"x"}}',
      })
    } else {
      await route.continue()
    }
  })
  await openSettings(page, 'en', '?tab=billing')
  const error = panel(page).getByRole('alert')
  await expect(error).toContainText('We could not load your settings.')
  await error.getByRole('button', { name: 'Try again' }).click()
  await expect(autoTopup(page, 'en')).toBeVisible()
})
