import { expect, test } from '@playwright/test'

test('the landing page renders with its two calls to action', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Create product content' })).toHaveAttribute(
    'href',
    '/access?next=/app/create',
  )
})
