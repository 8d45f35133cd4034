import { devices, expect, type Page, test } from '@playwright/test'
import type { BillingRedirectResponse } from '#shared/contracts/billing.ts'
import { getPlan, getTopUpPack, type PlanId } from '#shared/plans.ts'
import {
  appMsg,
  expectDashboardLoaded,
  formatDateFor,
  readBilling,
  readUsage,
  setUsage,
  signUp,
} from './app-support.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { browserLocale, formatCount, formatPrice, type Lang, langs, localePath } from './support/i18n.ts'
import { stripeFakeURL, studioStripeBaseURL } from './support/servers.ts'

// Billing on Stripe, clicked through as a seller does: the app's real Stripe SDK talks to the
// fake Stripe server (tests/fakes/stripe-server.ts), whose hosted checkout and portal pages the
// browser visits, and whose signed webhooks reach the app. Each test has its own account and
// Stripe customer, so the tests run in parallel on the shared fake.
test.use({ baseURL: studioStripeBaseURL })
test.describe.configure({ mode: 'parallel' })

const billingHeading = (page: Page, lang: Lang) =>
  page.getByRole('heading', { level: 1, name: appMsg(lang, 'billing.title') })
const planOption = (page: Page, lang: Lang, planId: PlanId) =>
  page
    .getByRole('region', { name: appMsg(lang, 'billing.plans.title') })
    .getByRole('listitem', { name: getPlan(planId).name, exact: true })
const returnPage = (page: Page) => page.getByTestId('checkout-return')

/** The fake's hosted checkout page: shows what is bought; Pay completes it and comes back to the app. */
async function payOnHostedCheckout(page: Page, product: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.origin === stripeFakeURL && url.pathname.startsWith('/checkout/'))
  await expect(page.getByRole('heading', { level: 1, name: 'Pay Vitrin' })).toBeVisible()
  await expect(page.getByText(product)).toBeVisible()
  await page.getByRole('button', { name: 'Pay', exact: true }).click()
  await expect(page).toHaveURL(
    (url) => url.origin === studioStripeBaseURL && url.pathname === '/billing/success',
  )
}

/** A paid plan without the browser: Checkout started through the API and paid on the fake. */
async function subscribeViaApi(page: Page, planId: PlanId): Promise<void> {
  const started = await page.request.post('/api/billing/checkout', { data: { planId } })
  expect(started.ok(), await started.text()).toBe(true)
  const { url } = (await started.json()) as BillingRedirectResponse
  const sessionId = new URL(url).pathname.split('/').pop() ?? ''
  // Resolves once the app has answered the session's webhooks.
  const paid = await page.request.post(`${stripeFakeURL}/__control/checkout/${sessionId}/complete`)
  expect(paid.ok(), await paid.text()).toBe(true)
  expect((await readBilling(page)).subscription).toMatchObject({ planId, status: 'active' })
}

/** Buys +100 images from the Buy more credits card on /billing, through the hosted checkout. */
async function buyImagePack(page: Page, lang: Lang): Promise<void> {
  const pack = getTopUpPack('images_100')
  const name = appMsg(lang, 'billing.credits.pack.images_100', { amount: pack.amount })
  await page
    .getByRole('region', { name: appMsg(lang, 'billing.credits.title') })
    .getByRole('button', {
      name: appMsg(lang, 'billing.credits.buyLabel', { pack: name, price: formatPrice(lang, pack.priceUsd) }),
    })
    .click()
  await payOnHostedCheckout(page, `Vitrin +${pack.amount} images`)
  await expect(returnPage(page)).toHaveAttribute('data-state', 'applied')
  await expect(
    page.getByRole('heading', { level: 2, name: appMsg(lang, 'billing.return.packApplied') }),
  ).toBeFocused()
  await expect(page.getByTestId('checkout-return-detail')).toHaveText(
    appMsg(lang, 'billing.return.packAppliedBody', { images: pack.amount, videos: 0 }),
  )
}

for (const lang of langs) {
  test.describe(`billing on Stripe in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    test('buys Growth on the hosted checkout, sees it applied, then upgrades to Pro with proration', async ({
      page,
    }) => {
      // Two trips to the fake's pages and three axe runs.
      test.slow()
      await signUp(page, `stripe-plan-${lang}`)
      await page.goto(localePath(lang, '/pricing'))
      await page
        .getByRole('button', { name: appMsg(lang, 'billing.plans.choose', { plan: 'Growth' }) })
        .click()
      const subscribe = page.getByRole('dialog', {
        name: appMsg(lang, 'billing.checkout.title', { plan: 'Growth' }),
      })
      await expect(subscribe).toContainText(
        appMsg(lang, 'billing.checkout.body', {
          plan: 'Growth',
          price: formatPrice(lang, getPlan('growth').priceMonthlyUsd),
          images: getPlan('growth').imageQuota,
          videos: getPlan('growth').videoQuota,
        }),
      )
      await subscribe.getByRole('button', { name: appMsg(lang, 'billing.checkout.confirm') }).click()
      await payOnHostedCheckout(page, 'Vitrin Growth')

      // The return page says the plan is on once the webhook (or its own check) applied it.
      await expect(returnPage(page)).toHaveAttribute('data-state', 'applied')
      const growth = (await readBilling(page)).subscription
      if (!growth) throw new Error('expected a subscription')
      expect(growth).toMatchObject({ planId: 'growth', status: 'active', isTrial: false })
      const applied = page.getByRole('heading', {
        level: 2,
        name: appMsg(lang, 'billing.return.planApplied', { plan: 'Growth' }),
      })
      await expect(applied).toBeFocused()
      await expect(page.getByTestId('checkout-return-detail')).toHaveText(
        appMsg(lang, 'billing.return.planAppliedBody', {
          images: 1000,
          videos: 30,
          date: formatDateFor(lang, growth.currentPeriodEnd),
        }),
      )
      await expectNoSeriousA11yViolations(page)

      await page.getByRole('link', { name: appMsg(lang, 'billing.return.toBilling') }).click()
      await expect(billingHeading(page, lang)).toBeVisible()
      await expect(page.getByTestId('current-plan-name')).toHaveText('Growth')
      await expect(page.getByTestId('subscription-status')).toHaveText(
        appMsg(lang, 'billing.current.status.active'),
      )
      await expect(planOption(page, lang, 'growth')).toHaveAttribute('aria-current', 'true')
      // Paid billing: no test-billing label, and Manage Billing is there.
      await expect(page.getByTestId('test-billing-notice')).toHaveCount(0)
      await expect(page.getByRole('button', { name: appMsg(lang, 'billing.portal.button') })).toBeEnabled()
      await expectNoSeriousA11yViolations(page)

      // Upgrading asks first and says the difference is charged now, prorated.
      await planOption(page, lang, 'pro')
        .getByRole('button', { name: appMsg(lang, 'billing.plans.choose', { plan: 'Pro' }) })
        .click()
      const upgrade = page.getByRole('dialog', {
        name: appMsg(lang, 'billing.upgrade.title', { plan: 'Pro' }),
      })
      await expect(upgrade).toContainText(
        appMsg(lang, 'billing.upgrade.body', {
          plan: 'Pro',
          price: formatPrice(lang, getPlan('pro').priceMonthlyUsd),
          images: getPlan('pro').imageQuota,
          videos: getPlan('pro').videoQuota,
        }),
      )
      await expectNoSeriousA11yViolations(page)
      await upgrade.getByRole('button', { name: appMsg(lang, 'billing.upgrade.confirm') }).click()
      await expect(upgrade).toBeHidden()
      await expect(page.getByTestId('billing-message')).toHaveText(
        appMsg(lang, 'billing.done.changed', { plan: 'Pro' }),
      )
      await expect(page.getByTestId('current-plan-name')).toHaveText('Pro')
      await expect(planOption(page, lang, 'pro')).toHaveAttribute('aria-current', 'true')
      await expect(page.getByTestId('meter-images').getByTestId('meter-value')).toHaveText(
        `0 / ${formatCount(lang, getPlan('pro').imageQuota)}`,
      )
      // The same subscription and period, now on Pro; it stays so on a reload.
      expect((await readBilling(page)).subscription).toMatchObject({
        planId: 'pro',
        status: 'active',
        currentPeriodStart: growth.currentPeriodStart,
        currentPeriodEnd: growth.currentPeriodEnd,
      })
      await page.reload()
      await expect(page.getByTestId('current-plan-name')).toHaveText('Pro')
    })

    test('buys an image pack on the hosted checkout and sees the credits beside the meters', async ({
      page,
    }) => {
      await signUp(page, `stripe-pack-${lang}`)
      await subscribeViaApi(page, 'growth')
      await page.goto('/billing')
      await expect(billingHeading(page, lang)).toBeVisible()
      await expect(page.getByTestId('meter-images').getByTestId('meter-credits')).toHaveCount(0)

      await buyImagePack(page, lang)
      expect((await readUsage(page)).credits).toEqual({ images: 100, videos: 0 })

      await page.getByRole('link', { name: appMsg(lang, 'billing.return.toDashboard') }).click()
      await expectDashboardLoaded(page, lang)
      await expect(page.getByTestId('meter-images').getByTestId('meter-credits')).toHaveText(
        appMsg(lang, 'app.meter.credits', { count: 100 }),
      )
      await expect(page.getByTestId('meter-videos').getByTestId('meter-credits')).toHaveCount(0)

      await page.goto('/billing')
      const usage = page.getByRole('region', { name: appMsg(lang, 'billing.usage.title') })
      await expect(usage.getByTestId('meter-images').getByTestId('meter-credits')).toHaveText(
        appMsg(lang, 'app.meter.credits', { count: 100 }),
      )
      await expect(usage.getByTestId('meter-images').getByTestId('meter-value')).toHaveText(
        `0 / ${formatCount(lang, 1000)}`,
      )
    })

    test('Manage Billing opens the portal; cancelling at the period’s end asks first and is undone with Resume', async ({
      page,
    }) => {
      test.slow() // a trip to the portal and back, then two changes on Stripe
      await signUp(page, `stripe-cancel-${lang}`)
      await subscribeViaApi(page, 'growth')
      const subscription = (await readBilling(page)).subscription
      if (!subscription) throw new Error('expected a subscription')
      const date = formatDateFor(lang, subscription.currentPeriodEnd)
      await page.goto('/billing')
      await expect(billingHeading(page, lang)).toBeVisible()

      await page.getByRole('button', { name: appMsg(lang, 'billing.portal.button') }).click()
      await expect(page).toHaveURL(
        (url) => url.origin === stripeFakeURL && url.pathname.startsWith('/portal/'),
      )
      await expect(page.getByRole('heading', { level: 1, name: 'Manage billing' })).toBeVisible()
      await expect(page.getByRole('heading', { level: 2, name: 'Vitrin Growth' })).toBeVisible()
      await page.getByRole('link', { name: 'Return to Vitrin' }).click()
      await expect(page).toHaveURL(`${studioStripeBaseURL}/billing`)
      await expect(page.getByTestId('current-plan-name')).toHaveText('Growth')

      const cancel = page.getByRole('button', { name: appMsg(lang, 'billing.cancel.button') })
      await cancel.click()
      const dialog = page.getByRole('dialog', { name: appMsg(lang, 'billing.periodEnd.title') })
      await expect(dialog).toContainText(appMsg(lang, 'billing.periodEnd.body', { plan: 'Growth', date }))
      await dialog.getByRole('button', { name: appMsg(lang, 'billing.periodEnd.confirm', { date }) }).click()
      await expect(dialog).toBeHidden()
      await expect(page.getByTestId('billing-message')).toHaveText(
        appMsg(lang, 'billing.periodEnd.done', { date }),
      )
      await expect(page.getByTestId('cancel-scheduled')).toContainText(
        appMsg(lang, 'billing.periodEnd.notice', { plan: 'Growth', date }),
      )
      // The plan runs until then: still Growth and active.
      await expect(page.getByTestId('subscription-status')).toHaveText(
        appMsg(lang, 'billing.current.status.active'),
      )
      await expect(cancel).toHaveCount(0)
      expect((await readBilling(page)).subscription).toMatchObject({
        planId: 'growth',
        cancelAtPeriodEnd: true,
      })
      await expectNoSeriousA11yViolations(page)

      await page.getByRole('button', { name: appMsg(lang, 'billing.periodEnd.resume') }).click()
      await expect(page.getByTestId('billing-message')).toHaveText(
        appMsg(lang, 'billing.periodEnd.resumed', { date }),
      )
      await expect(page.getByTestId('cancel-scheduled')).toHaveCount(0)
      await expect(cancel).toBeVisible()
      expect((await readBilling(page)).subscription).toMatchObject({
        planId: 'growth',
        status: 'active',
        cancelAtPeriodEnd: false,
      })
    })
  })
}

test.describe('billing on Stripe on a phone', () => {
  // The phone's screen, touch and user agent; the browser stays this project's Chromium.
  const { defaultBrowserType: _, ...pixel } = devices['Pixel 7']
  test.use(pixel)

  test('Buy More Credits on the 100 % alert leads to the packs; a pack bought there shows on the meter', async ({
    page,
  }) => {
    const lang: Lang = 'en'
    await signUp(page, 'stripe-phone')
    await subscribeViaApi(page, 'growth')
    await setUsage(page, 1000, 0)
    await page.goto('/app')
    await page
      .getByTestId('quota-alert-images')
      .getByRole('link', { name: appMsg(lang, 'app.alerts.buyMore') })
      .click()
    await expect(page).toHaveURL(`${studioStripeBaseURL}/billing#buy-credits`)
    const packs = page.getByRole('region', { name: appMsg(lang, 'billing.credits.title') })
    await expect(packs).toBeFocused()
    await expect(packs).toBeInViewport()

    await buyImagePack(page, lang)
    await page.goto('/app')
    await expect(page.getByTestId('quota-alert-images')).toContainText(
      appMsg(lang, 'app.alerts.onCredits.images', { count: 100 }),
    )
    await expect(page.getByTestId('meter-images').getByTestId('meter-credits')).toHaveText(
      appMsg(lang, 'app.meter.credits', { count: 100 }),
    )
  })
})
