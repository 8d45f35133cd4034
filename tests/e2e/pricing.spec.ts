import { expect, test } from '@playwright/test'
import { plans } from '#shared/plans.ts'
import { browserLocale, formatPrice, langs, localePath, msg } from './support/i18n.ts'

test.describe.configure({ mode: 'parallel' })

for (const lang of langs) {
  test.describe(`pricing in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })

    test('shows one card per catalogue plan with its price, quotas and a way to start', async ({ page }) => {
      await page.goto(localePath(lang, '/pricing'))
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg(lang, 'pricing.title'))

      const cards = page.getByRole('main').getByRole('article')
      await expect(cards).toHaveCount(plans.length)
      for (const [index, plan] of plans.entries()) {
        const card = cards.nth(index)
        await expect(card.getByRole('heading', { name: plan.name, exact: true })).toBeVisible()
        await expect(card.getByTestId('plan-price')).toHaveText(formatPrice(lang, plan.priceMonthlyUsd))
        await expect(card).toContainText(msg(lang, 'plans.perMonth'))
        await expect(card.getByTestId('plan-images')).toHaveText(
          msg(lang, 'plans.imagesPerMonth', { count: plan.imageQuota }),
        )
        await expect(card.getByTestId('plan-videos')).toHaveText(
          msg(lang, 'plans.videosPerMonth', { count: plan.videoQuota }),
        )
        await expect(card).toContainText(msg(lang, 'plans.seoUnlimited'))
        for (const feature of plan.features) {
          await expect(card).toContainText(msg(lang, `plans.features.${feature}`))
        }

        const badge = card.getByText(msg(lang, 'plans.mostPopular'))
        await expect(badge).toHaveCount(plan.isMostPopular ? 1 : 0)

        const getStarted = card.getByRole('link', { name: msg(lang, 'plans.getStarted') })
        await expect(getStarted).toHaveAttribute('href', localePath(lang, `/auth/signup?plan=${plan.id}`))
      }
    })
  })
}

test('English prices and quotas are written the English way', async ({ page }) => {
  await page.goto('/pricing')
  const growth = page.getByRole('article', { name: 'Growth', exact: true })
  await expect(growth.getByTestId('plan-price')).toHaveText('$299')
  await expect(growth.getByTestId('plan-images')).toHaveText('1,000 images / month')
  await expect(growth.getByTestId('plan-videos')).toHaveText('30 videos / month')
  await expect(growth.getByText('Most Popular')).toBeVisible()
  const pro = page.getByRole('article', { name: 'Pro', exact: true })
  await expect(pro.getByTestId('plan-images')).toHaveText('2,500 images / month')
})

test.describe('Turkish number format', () => {
  test.use({ locale: 'tr-TR' })

  test('quotas use the Turkish thousands separator', async ({ page }) => {
    await page.goto(localePath('tr', '/pricing'))
    const growth = page.getByRole('article', { name: 'Growth', exact: true })
    const thousand = new Intl.NumberFormat('tr-TR').format(1000)
    expect(thousand).toBe('1.000')
    await expect(growth.getByTestId('plan-images')).toContainText(thousand)
    await expect(growth.getByTestId('plan-images')).not.toContainText('1,000')
    await expect(growth.getByTestId('plan-price')).toHaveText(
      new Intl.NumberFormat('tr-TR', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(
        299,
      ),
    )
  })
})
