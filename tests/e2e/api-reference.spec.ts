import { expect, test } from '@playwright/test'

// The public API's reference page renders the OpenAPI document in Chromium, from our own origin
// only (its script is served by the app, no CDN), under the page's own CSP, with no errors.

test('the API reference page renders the document from this server alone', async ({ page }) => {
  // The reference renders the whole document (every operation, schema and webhook) in the page,
  // which takes a loaded 2-core machine most of the default 30 s.
  test.setTimeout(60_000)
  const requested: string[] = []
  const errors: string[] = []
  page.on('request', (request) => {
    if (/^https?:/.test(request.url())) requested.push(request.url())
  })
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(error.message))

  const response = await page.goto('/docs/api')
  expect(response?.status()).toBe(200)
  await expect(page.getByRole('heading', { name: 'Vitrin API', level: 1 })).toBeVisible({ timeout: 20_000 })
  // The operations come from /v1/openapi.json.
  await expect(page.getByText('Upload a product photo').first()).toBeVisible()
  const document = await page.request.get('/v1/openapi.json')
  expect(document.ok()).toBe(true)
  expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./)
  const origin = new URL(page.url()).origin
  expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([])
  expect(errors).toEqual([])
})
