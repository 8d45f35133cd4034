import { devices, expect, type Locator, type Page, test } from '@playwright/test'
import {
  appMsg,
  enterWithAccessCode,
  expectDashboardLoaded,
  formatDateFor,
  newBrowserContext,
  readUsage,
  setUsage,
  signIn,
  signUp,
  signUpWithPlan,
} from './app-support.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { screenshotPath } from './support/clients.ts'
import { browserLocale, formatCount, type Lang, langs, localePath } from './support/i18n.ts'

test.describe.configure({ mode: 'parallel' })

type Resource = 'images' | 'videos'
type Level = 'warning' | 'danger' | 'blocked'
const resources: readonly Resource[] = ['images', 'videos']

/** The exact English alert texts, written out here so a changed locale string fails. */
const englishAlertText: Record<Resource, Record<Level, string>> = {
  images: {
    warning: "You've used 70% of your monthly image quota. Consider upgrading or purchasing top-ups.",
    danger: "You've used 90% of your monthly image quota. You're approaching your limit.",
    blocked: "You've reached your monthly image quota. Purchase top-ups to continue generating.",
  },
  videos: {
    warning: "You've used 70% of your monthly video quota. Consider upgrading or purchasing top-ups.",
    danger: "You've used 90% of your monthly video quota. You're approaching your limit.",
    blocked: "You've reached your monthly video quota. Purchase top-ups to continue generating.",
  },
}

const alertText = (lang: Lang, resource: Resource, level: Level) =>
  lang === 'en' ? englishAlertText[resource][level] : appMsg(lang, `app.alerts.${resource}.${level}`)

const meter = (page: Page, lang: Lang, resource: Resource) =>
  page.getByRole('meter', { name: appMsg(lang, `app.meter.${resource}`) })
const meterBox = (page: Page, resource: Resource) => page.getByTestId(`meter-${resource}`)
const alertOf = (page: Page, resource: Resource) => page.getByTestId(`quota-alert-${resource}`)

/** The hue family of the meter's bar: white, or the OKLCH hue of a colour. */
async function barColour(box: Locator): Promise<'white' | 'yellow' | 'orange' | 'red' | string> {
  const colour = await box.getByTestId('meter-fill').evaluate((el) => getComputedStyle(el).backgroundColor)
  if (colour === 'rgb(255, 255, 255)' || /^oklch\(1 0 0/.test(colour)) return 'white'
  const match = /^oklch\(([\d.]+) ([\d.]+) ([\d.]+)/.exec(colour)
  if (!match) return colour
  const hue = Number(match[3])
  if (hue >= 75 && hue <= 110) return 'yellow'
  if (hue >= 40 && hue < 75) return 'orange'
  if (hue >= 10 && hue < 40) return 'red'
  return colour
}

const levelColour: Record<'ok' | Level, string> = {
  ok: 'white',
  warning: 'yellow',
  danger: 'orange',
  blocked: 'red',
}

test('sign-up, then /pricing: choosing Growth activates it and the dashboard shows 0 / 1,000 and 0 / 30', async ({
  page,
}) => {
  const account = await signUp(page, 'choose-growth')
  await page.goto('/pricing?plan=growth')

  const growth = page.getByRole('article', { name: 'Growth', exact: true })
  await expect(growth).toHaveAttribute('data-selected', 'true')
  await expect(growth.getByText(appMsg('en', 'billing.plans.selected'), { exact: true })).toBeVisible()
  await expect(page.getByRole('article', { name: 'Pro', exact: true })).not.toHaveAttribute('data-selected')
  for (const name of ['Starter', 'Growth', 'Pro']) {
    await expect(page.getByRole('button', { name: `Choose ${name}` })).toBeEnabled()
  }
  await expect(page.getByRole('link', { name: /Get Started/ })).toHaveCount(0)

  await growth.getByRole('button', { name: 'Choose Growth' }).click()
  const dialog = page.getByRole('dialog', { name: 'Activate Growth?' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText(appMsg('en', 'billing.confirmPlan.testNote'))
  await dialog.getByRole('button', { name: 'Activate Growth' }).click()

  await expect(page).toHaveURL(/\/app$/)
  await expectDashboardLoaded(page, 'en')
  await expect(page.getByTestId('dashboard-plan')).toHaveText('Growth plan')
  await expect(page.getByTestId('signed-in-as')).toHaveText(`Signed in as ${account.email}`)
  await expect(meterBox(page, 'images').getByTestId('meter-value')).toHaveText('0 / 1,000')
  await expect(meterBox(page, 'videos').getByTestId('meter-value')).toHaveText('0 / 30')
  await expect(meter(page, 'en', 'images')).toHaveAttribute('aria-valuemax', '1000')
  await expect(meter(page, 'en', 'images')).toHaveAttribute('aria-valuenow', '0')
  await expect(meter(page, 'en', 'videos')).toHaveAttribute('aria-valuemax', '30')
  await expect(page.getByTestId('stat-images')).toHaveText('0')
  await expect(page.getByTestId('stat-videos')).toHaveText('0')
  await expect(page.getByTestId('stat-seo')).toHaveText('Unlimited')
  await expect(page.getByRole('alert')).toHaveCount(0)
  // The quota renews with the billing period (the date /billing shows), not on the 1st of a month.
  const { subscription } = await readUsage(page)
  await expect(page.getByTestId('usage-renews')).toHaveText(
    appMsg('en', 'app.dashboard.usageNote', {
      date: formatDateFor('en', subscription?.currentPeriodEnd ?? ''),
    }),
  )
  await expect(page.getByText(/first day of each month/)).toHaveCount(0)

  // The quick actions lead into the app and to billing.
  const actions = page.getByRole('region', { name: 'Quick actions' })
  await expect(actions.getByRole('link', { name: /Create Content/ })).toHaveAttribute('href', '/app/create')
  await expect(actions.getByRole('link', { name: /Fashion Content/ })).toHaveAttribute('href', '/app/fashion')
  await expect(actions.getByRole('link', { name: /Library/ })).toHaveAttribute('href', '/app/library')
  await expect(actions.getByRole('link', { name: /Billing/ })).toHaveAttribute('href', '/billing')

  // Back on /pricing, Growth is the current plan and cannot be chosen again.
  await page.goto('/pricing')
  await expect(growth.getByRole('button', { name: 'Current plan' })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Choose Pro' })).toBeEnabled()
})

test('"Not now" in the pricing confirmation activates nothing', async ({ page }) => {
  await signUp(page, 'pricing-not-now')
  await page.goto('/pricing')
  const choosePro = page.getByRole('button', { name: 'Choose Pro' })
  await choosePro.click()
  const dialog = page.getByRole('dialog', { name: 'Activate Pro?' })
  await dialog.getByRole('button', { name: 'Not now' }).click()
  await expect(dialog).toBeHidden()
  await expect(choosePro).toBeFocused()
  await expect(page).toHaveURL(/\/pricing$/)
  expect((await readUsage(page)).subscription).toBeNull()
})

for (const lang of langs) {
  test.describe(`dashboard in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    test('without a plan: the Welcome page with View Plans', async ({ page }) => {
      await signUp(page, 'welcome')
      await page.goto('/app')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(appMsg(lang, 'app.welcome.title'))
      await expect(page.getByRole('meter')).toHaveCount(0)
      await expectNoSeriousA11yViolations(page)
      await page.getByRole('link', { name: appMsg(lang, 'app.welcome.viewPlans') }).click()
      await expect(page).toHaveURL(localePath(lang, '/pricing'))
    })

    test('alerts at 70, 90 and 100 % for images and videos, with the alert texts, meter colours and Buy More Credits', async ({
      page,
    }) => {
      // Four page loads and an axe run.
      test.slow()
      await signUpWithPlan(page, 'growth', 'alerts')

      // Below 70 %: white bars and no alert.
      await setUsage(page, 699, 20)
      await page.goto('/app')
      await expectDashboardLoaded(page, lang)
      for (const resource of resources) {
        await expect(meterBox(page, resource)).toHaveAttribute('data-level', 'ok')
        expect(await barColour(meterBox(page, resource))).toBe(levelColour.ok)
      }
      await expect(page.getByRole('alert')).toHaveCount(0)

      const steps: { images: number; videos: number; level: Level }[] = [
        { images: 700, videos: 21, level: 'warning' },
        { images: 900, videos: 27, level: 'danger' },
        { images: 1000, videos: 30, level: 'blocked' },
      ]
      for (const step of steps) {
        await setUsage(page, step.images, step.videos)
        await page.reload()
        await expectDashboardLoaded(page, lang)
        await expect(page.getByRole('alert')).toHaveCount(2)
        for (const resource of resources) {
          const alert = alertOf(page, resource)
          await expect(alert).toHaveAttribute('data-level', step.level)
          await expect(alert.getByText(alertText(lang, resource, step.level), { exact: true })).toBeVisible()
          await expect(meterBox(page, resource)).toHaveAttribute('data-level', step.level)
          expect(await barColour(meterBox(page, resource))).toBe(levelColour[step.level])
          const blocked = meterBox(page, resource).getByText(appMsg(lang, 'app.meter.blocked'))
          await expect(blocked).toHaveCount(step.level === 'blocked' ? 1 : 0)
          const buyMore = alert.getByRole('link', { name: appMsg(lang, 'app.alerts.buyMore') })
          await expect(buyMore).toHaveCount(step.level === 'blocked' ? 1 : 0)
        }
        await expect(meterBox(page, 'images').getByTestId('meter-value')).toHaveText(
          `${formatCount(lang, step.images)} / ${formatCount(lang, 1000)}`,
        )
        await expect(meter(page, lang, 'videos')).toHaveAttribute('aria-valuenow', String(step.videos))
        await expect(page.getByTestId('stat-images')).toHaveText(formatCount(lang, step.images))
        await expect(page.getByTestId('stat-videos')).toHaveText(formatCount(lang, step.videos))
      }

      await expectNoSeriousA11yViolations(page)

      await alertOf(page, 'videos')
        .getByRole('link', { name: appMsg(lang, 'app.alerts.buyMore') })
        .click()
      await expect(page).toHaveURL(/\/billing#buy-credits$/)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(appMsg(lang, 'billing.title'))
      // The link leads to the packs: that card is focused (read out) and scrolled into view.
      const buyCredits = page.getByRole('region', { name: appMsg(lang, 'billing.credits.title') })
      await expect(buyCredits).toBeFocused()
      await expect(buyCredits).toBeInViewport()
    })

    test('a dismissed alert stays dismissed across reloads, returns at the next level and in a new browser', async ({
      page,
      browser,
    }) => {
      const account = await signUpWithPlan(page, 'growth', 'dismiss')
      await setUsage(page, 700, 0)
      await page.goto('/app')
      await expectDashboardLoaded(page, lang)
      const images = alertOf(page, 'images')
      await expect(images).toHaveAttribute('data-level', 'warning')
      await expect(alertOf(page, 'videos')).toHaveCount(0)

      await images.getByRole('button', { name: appMsg(lang, 'app.alerts.dismiss') }).click()
      await expect(images).toHaveCount(0)
      // Focus goes somewhere sensible rather than being lost with the removed button.
      await expect(
        page.getByRole('heading', { name: appMsg(lang, 'app.dashboard.usageTitle') }),
      ).toBeFocused()

      await page.reload()
      await expectDashboardLoaded(page, lang)
      await expect(meterBox(page, 'images')).toHaveAttribute('data-level', 'warning')
      await expect(images).toHaveCount(0)

      // 90 % is a new alert, even though the 70 % one was dismissed.
      await setUsage(page, 900, 0)
      await page.reload()
      await expect(images).toHaveAttribute('data-level', 'danger')
      await expect(images.getByText(alertText(lang, 'images', 'danger'), { exact: true })).toBeVisible()

      // A new browser session has not dismissed anything.
      const other = await newBrowserContext(browser, lang)
      try {
        const otherPage = await other.newPage()
        await signIn(otherPage, account)
        await otherPage.goto('/app')
        await expectDashboardLoaded(otherPage, lang)
        await expect(alertOf(otherPage, 'images')).toHaveAttribute('data-level', 'danger')
        await alertOf(otherPage, 'images')
          .getByRole('button', { name: appMsg(lang, 'app.alerts.dismiss') })
          .click()
        await expect(alertOf(otherPage, 'images')).toHaveCount(0)
      } finally {
        await other.close()
      }
      // ...and dismissing there does not touch this session.
      await page.reload()
      await expect(images).toHaveAttribute('data-level', 'danger')
    })

    test('a beta account shows its trial end and "Beta account"', async ({ page }) => {
      await enterWithAccessCode(page)
      const { subscription } = await readUsage(page)
      expect(subscription?.isTrial).toBe(true)
      await page.goto('/app')
      await expectDashboardLoaded(page, lang)
      await expect(page.getByTestId('signed-in-as')).toHaveText(appMsg(lang, 'app.dashboard.betaAccount'))
      await expect(page.getByTestId('dashboard-plan')).toHaveText(
        appMsg(lang, 'app.dashboard.planName', { plan: 'Growth' }),
      )
      await expect(page.getByTestId('dashboard-period')).toHaveText(
        appMsg(lang, 'app.dashboard.trialUntil', {
          date: formatDateFor(lang, subscription?.currentPeriodEnd ?? ''),
        }),
      )
      await expect(meterBox(page, 'images').getByTestId('meter-value')).toHaveText(
        `0 / ${formatCount(lang, 1000)}`,
      )
      await expect(page.getByTestId('usage-renews')).toHaveText(
        appMsg(lang, 'app.dashboard.usageNoteTrial', {
          date: formatDateFor(lang, subscription?.currentPeriodEnd ?? ''),
        }),
      )
      await expectNoSeriousA11yViolations(page)
    })
  })
}

test('a skeleton while usage loads, an error with Try again when it fails', async ({ page }) => {
  await signUpWithPlan(page, 'starter', 'usage-error')
  let release: () => void = () => undefined
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  let calls = 0
  await page.route('**/api/usage', async (route) => {
    calls += 1
    if (calls === 1) {
      await released
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'INTERNAL', message: 'boom' } }),
      })
    } else {
      await route.continue()
    }
  })
  await page.goto('/app')
  await expect(page.getByTestId('usage-skeleton')).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: 'Loading your dashboard…' })).toBeAttached()
  release()

  const error = page.getByRole('alert')
  await expect(error).toContainText('We could not load your usage.')
  await expect(error).toContainText('Something went wrong on our side. Please try again.')
  await error.getByRole('button', { name: 'Try again' }).click()
  await expectDashboardLoaded(page, 'en')
  await expect(page.getByTestId('dashboard-plan')).toHaveText('Starter plan')
  await expect(meterBox(page, 'images').getByTestId('meter-value')).toHaveText('0 / 250')
})

test('signed out, the dashboard sends the visitor to /access', async ({ page }) => {
  await page.goto('/app')
  await expect(page).toHaveURL(/\/access$/)
})

test.describe('on a phone', () => {
  const pixel = devices['Pixel 7']
  test.use({
    locale: 'tr-TR',
    viewport: pixel.viewport,
    userAgent: pixel.userAgent,
    deviceScaleFactor: pixel.deviceScaleFactor,
    isMobile: pixel.isMobile,
    hasTouch: pixel.hasTouch,
  })

  test('the dashboard fits the screen without sideways scrolling (screenshot saved)', async ({ page }) => {
    await signUpWithPlan(page, 'growth', 'phone')
    await setUsage(page, 720, 30)
    await page.goto('/app')
    await expectDashboardLoaded(page, 'tr')
    await expect(alertOf(page, 'videos')).toHaveAttribute('data-level', 'blocked')
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
    await page.screenshot({ path: screenshotPath('dashboard-phone'), fullPage: true })
  })
})
