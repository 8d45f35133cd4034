import { expect, type Page, test } from '@playwright/test'
import {
  appMsg,
  enterWithAccessCode,
  formatDateFor,
  readBilling,
  readUsage,
  setUsage,
  signUp,
  signUpWithPlan,
} from './app-support.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { browserLocale, formatCount, type Lang, langs } from './support/i18n.ts'

test.describe.configure({ mode: 'parallel' })

const billingHeading = (page: Page, lang: Lang) =>
  page.getByRole('heading', { level: 1, name: appMsg(lang, 'billing.title') })
const planOption = (page: Page, name: string) =>
  page
    .getByRole('region', { name: /Change plan|Choose a plan|Planı değiştir|Bir plan seçin/ })
    .getByRole('listitem', {
      name: name,
      exact: true,
    })

for (const lang of langs) {
  test.describe(`billing in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    test('shows the plan, its status and period, this period’s usage and renewal date, the test-billing label and a disabled portal', async ({
      page,
    }) => {
      await signUpWithPlan(page, 'growth', 'billing-view')
      await setUsage(page, 120, 3)
      const { subscription } = await readBilling(page)
      if (!subscription) throw new Error('expected a subscription')

      await page.goto('/billing')
      await expect(billingHeading(page, lang)).toBeVisible()

      const notice = page.getByTestId('test-billing-notice')
      await expect(notice).toContainText(appMsg(lang, 'billing.testMode.title'))
      await expect(notice).toContainText(appMsg(lang, 'billing.testMode.body'))

      await expect(page.getByTestId('current-plan-name')).toHaveText('Growth')
      await expect(page.getByTestId('subscription-status')).toHaveText(
        appMsg(lang, 'billing.current.status.active'),
      )
      await expect(page.getByTestId('subscription-period')).toHaveText(
        appMsg(lang, 'billing.current.periodRange', {
          start: formatDateFor(lang, subscription.currentPeriodStart),
          end: formatDateFor(lang, subscription.currentPeriodEnd),
        }),
      )

      const usage = page.getByRole('region', { name: appMsg(lang, 'billing.usage.title') })
      await expect(usage.getByTestId('meter-images').getByTestId('meter-value')).toHaveText(
        `120 / ${formatCount(lang, 1000)}`,
      )
      await expect(usage.getByTestId('meter-videos').getByTestId('meter-value')).toHaveText('3 / 30')
      // The quota renews with the billing period shown above, not on a calendar date.
      await expect(usage.getByTestId('usage-renews')).toHaveText(
        appMsg(lang, 'billing.usage.renews', { date: formatDateFor(lang, subscription.currentPeriodEnd) }),
      )

      const portal = page.getByRole('button', { name: appMsg(lang, 'billing.portal.button') })
      await expect(portal).toBeDisabled()
      await expect(portal).toHaveAccessibleDescription(appMsg(lang, 'billing.portal.unavailable'))

      const current = planOption(page, 'Growth')
      await expect(current).toHaveAttribute('aria-current', 'true')
      await expect(
        current.getByRole('button', { name: appMsg(lang, 'billing.plans.current') }),
      ).toBeDisabled()
      for (const name of ['Starter', 'Pro']) {
        await expect(
          planOption(page, name).getByRole('button', {
            name: appMsg(lang, 'billing.plans.choose', { plan: name }),
          }),
        ).toBeEnabled()
      }

      await expectNoSeriousA11yViolations(page)
    })

    test('changing the plan asks first, then shows the new plan at once, in the same period with its usage', async ({
      page,
    }) => {
      await signUpWithPlan(page, 'growth', 'billing-change')
      await setUsage(page, 120, 3)
      await page.goto('/billing')
      await expect(billingHeading(page, lang)).toBeVisible()
      const periodBefore = await page.getByTestId('subscription-period').textContent()
      const before = (await readBilling(page)).subscription

      const choosePro = page.getByRole('button', {
        name: appMsg(lang, 'billing.plans.choose', { plan: 'Pro' }),
      })
      await choosePro.click()
      const dialog = page.getByRole('dialog', {
        name: appMsg(lang, 'billing.confirmPlan.title', { plan: 'Pro' }),
      })
      await expect(dialog).toBeVisible()
      await expect(dialog).toContainText(appMsg(lang, 'billing.confirmPlan.testNote'))
      // The safe choice has focus; Escape closes and gives focus back.
      await expect(
        dialog.getByRole('button', { name: appMsg(lang, 'billing.confirmPlan.cancel') }),
      ).toBeFocused()
      await expectNoSeriousA11yViolations(page)
      await page.keyboard.press('Escape')
      await expect(dialog).toBeHidden()
      await expect(choosePro).toBeFocused()
      expect((await readBilling(page)).subscription?.planId).toBe('growth')

      await choosePro.click()
      await dialog
        .getByRole('button', { name: appMsg(lang, 'billing.confirmPlan.confirm', { plan: 'Pro' }) })
        .click()
      await expect(dialog).toBeHidden()
      await expect(page.getByTestId('billing-message')).toHaveText(
        appMsg(lang, 'billing.done.changed', { plan: 'Pro' }),
      )
      await expect(page.getByTestId('billing-message')).toBeFocused()
      await expect(page.getByTestId('current-plan-name')).toHaveText('Pro')
      await expect(planOption(page, 'Pro')).toHaveAttribute('aria-current', 'true')
      await expect(page.getByTestId('meter-images').getByTestId('meter-value')).toHaveText(
        `120 / ${formatCount(lang, 2500)}`,
      )
      await expect(page.getByTestId('subscription-period')).toHaveText(periodBefore ?? '')
      const billing = await readBilling(page)
      expect(billing.subscription).toMatchObject({
        planId: 'pro',
        status: 'active',
        isTrial: false,
        currentPeriodStart: before?.currentPeriodStart,
        currentPeriodEnd: before?.currentPeriodEnd,
      })
      expect(billing.provider).toBe('manual')

      await page.reload()
      await expect(page.getByTestId('current-plan-name')).toHaveText('Pro')
    })

    test('cancelling asks first; afterwards the plan shows as canceled and a plan can be chosen again', async ({
      page,
    }) => {
      await signUpWithPlan(page, 'starter', 'billing-cancel')
      await page.goto('/billing')
      await expect(billingHeading(page, lang)).toBeVisible()

      const cancel = page.getByRole('button', { name: appMsg(lang, 'billing.cancel.button') })
      await cancel.click()
      const dialog = page.getByRole('dialog', { name: appMsg(lang, 'billing.cancel.title') })
      await expect(dialog).toContainText(appMsg(lang, 'billing.cancel.body', { plan: 'Starter' }))
      await dialog.getByRole('button', { name: appMsg(lang, 'billing.cancel.keep') }).click()
      await expect(dialog).toBeHidden()
      await expect(cancel).toBeFocused()
      expect((await readBilling(page)).subscription?.status).toBe('active')

      await cancel.click()
      await dialog.getByRole('button', { name: appMsg(lang, 'billing.cancel.confirm') }).click()
      await expect(page.getByTestId('billing-message')).toHaveText(appMsg(lang, 'billing.done.canceled'))
      await expect(page.getByTestId('subscription-status')).toHaveText(
        appMsg(lang, 'billing.current.status.canceled'),
      )
      await expect(page.getByRole('button', { name: appMsg(lang, 'billing.cancel.button') })).toHaveCount(0)
      await expect(page.getByRole('heading', { name: appMsg(lang, 'billing.plans.titleNone') })).toBeVisible()
      expect((await readBilling(page)).subscription?.status).toBe('canceled')
      expect((await readUsage(page)).subscription).toBeNull()

      // Without a plan the dashboard welcomes instead.
      await page.goto('/app')
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(appMsg(lang, 'app.welcome.title'))

      // Choosing again starts a new plan.
      await page.goto('/billing')
      await page
        .getByRole('button', { name: appMsg(lang, 'billing.plans.choose', { plan: 'Growth' }) })
        .click()
      const activate = page.getByRole('dialog', {
        name: appMsg(lang, 'billing.confirmPlan.titleNew', { plan: 'Growth' }),
      })
      await activate
        .getByRole('button', { name: appMsg(lang, 'billing.confirmPlan.confirm', { plan: 'Growth' }) })
        .click()
      await expect(page.getByTestId('subscription-status')).toHaveText(
        appMsg(lang, 'billing.current.status.active'),
      )
      await expect(page.getByTestId('current-plan-name')).toHaveText('Growth')
    })
  })
}

test('a new account without a plan sees "no plan yet" and the three plans to choose from', async ({
  page,
}) => {
  await signUp(page, 'billing-none')
  await page.goto('/billing')
  await expect(page.getByTestId('current-plan')).toContainText('You have no plan yet.')
  for (const name of ['Starter', 'Growth', 'Pro']) {
    await expect(page.getByRole('button', { name: `Choose ${name}` })).toBeEnabled()
  }
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0)
  await expect(page.getByTestId('usage-no-plan')).toHaveText('No active plan, so no quota to use.')
  await expect(page.getByRole('meter')).toHaveCount(0)
})

test('a beta trial is labelled as such', async ({ page }) => {
  await enterWithAccessCode(page)
  await page.goto('/billing')
  await expect(page.getByTestId('current-plan-name')).toHaveText('Growth')
  await expect(page.getByTestId('current-plan')).toContainText('Beta trial')
})

test('billing shows an error with Try again when it cannot load', async ({ page }) => {
  await signUpWithPlan(page, 'growth', 'billing-error')
  let failures = 1
  await page.route('**/api/billing', async (route) => {
    if (failures > 0) {
      failures -= 1
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"error":{"code":"SERVICE_UNAVAILABLE","message":"x"}}',
      })
    } else {
      await route.continue()
    }
  })
  await page.goto('/billing')
  const error = page.getByRole('alert')
  await expect(error).toContainText('We could not load your billing details.')
  await expect(error).toContainText('Vitrin is briefly unavailable.')
  await error.getByRole('button', { name: 'Try again' }).click()
  await expect(page.getByTestId('current-plan-name')).toHaveText('Growth')
})

test('a plan change that fails keeps the dialog open with the reason', async ({ page }) => {
  await signUpWithPlan(page, 'growth', 'billing-fail')
  await page.route('**/api/billing/subscription', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: '{"error":{"code":"INTERNAL","message":"x"}}',
    }),
  )
  await page.goto('/billing')
  await page.getByRole('button', { name: 'Choose Starter' }).click()
  const dialog = page.getByRole('dialog', { name: 'Switch to Starter?' })
  await dialog.getByRole('button', { name: 'Activate Starter' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Something went wrong on our side. Please try again.')
  await expect(dialog.getByRole('button', { name: 'Activate Starter' })).toBeEnabled()
  expect((await readBilling(page)).subscription?.planId).toBe('growth')
})
