import { mkdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { expect, type Page, test } from '@playwright/test'
import { parse } from 'csv-parse/sync'
import enCatalogue from '#shared/i18n/locales/en/catalogue.json' with { type: 'json' }
import { seoLimits } from '#shared/seo.ts'
import { csvOf, productRow, zipOf } from '#tests/support/catalogue-fixtures.ts'
import { unzip } from '#tests/support/unzip.ts'
import { appMsg, expectDashboardLoaded, signUpWithPlan } from './app-support.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { browserLocale, type Lang } from './support/i18n.ts'
import { productPhotoJpeg } from './support/images.ts'

// The review before export on the offline studio, in Chromium: a small catalogue is imported and
// run, one product's review is opened, its title edited and saved, and the ZIP's listing.csv
// carries the edited title. The review is photographed at desktop and phone width into
// .test-output/catalogue-shots/ for people to look at (nothing compares them).

const lang: Lang = 'en'
const desktop = { width: 1280, height: 800 }
const phone = { width: 390, height: 844 }
const shotsDir = fileURLToPath(new URL('../../.test-output/catalogue-shots/', import.meta.url))

const products = [
  { sku: 'FIN-1', name: 'Porselen Kahve Fincanı' },
  { sku: 'ROK-2', name: 'Oyuncak Roket' },
] as const
const editedTitle = 'Kırmızı Porselen Türk Kahvesi Fincanı'

/** A `catalogue.*` message in English with `{{name}}` filled, as catalogue.spec.ts reads them. */
function msg(key: string, vars: Record<string, string | number> = {}): string {
  let node: unknown = enCatalogue
  for (const part of key.split('.')) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined
  }
  if (typeof node !== 'string') throw new Error(`no en message for catalogue.${key}`)
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => String(vars[name] ?? whole))
}

/** The dialog at desktop and phone width, as a seller sees it (the viewport, not the whole page). */
async function shootReview(page: Page, name: string): Promise<void> {
  await mkdir(shotsDir, { recursive: true })
  for (const [label, viewport] of [
    ['desktop', desktop],
    ['phone', phone],
  ] as const) {
    await page.setViewportSize(viewport)
    await page.evaluate(async () => {
      await document.fonts.ready
      await Promise.all([...document.images].map((image) => image.decode().catch(() => undefined)))
    })
    await page.screenshot({ path: `${shotsDir}review-${name}-${label}.png` })
  }
  await page.setViewportSize(desktop)
}

test.use({ locale: browserLocale[lang], viewport: desktop })

test('review a product before export: edit its title, and the ZIP carries it', async ({ page }) => {
  test.setTimeout(120_000)
  await signUpWithPlan(page, 'growth', 'catalogue-review')
  await page.goto('/app')
  await expectDashboardLoaded(page, lang)
  await page.goto('/app/catalogue')
  const wizard = page.getByRole('region', { name: msg('wizard.title') })
  const button = (key: string, vars?: Record<string, string | number>) =>
    wizard.getByRole('button', { name: msg(key, vars), exact: true })

  // A two-product list and its photos, imported and started with a studio image and the copy.
  const rows = products.map((product, i) =>
    productRow(i + 1, {
      'Stok Kodu': product.sku,
      'Ürün Adı': product.name,
      'Görsel 1': `${product.sku}.jpg`,
    }),
  )
  const photo = (await productPhotoJpeg()).buffer
  await wizard
    .getByLabel(msg('file.listLabel'), { exact: true })
    .setInputFiles({ name: 'fincanlar.csv', mimeType: 'text/csv', buffer: csvOf(rows) })
  await wizard.getByLabel(msg('file.photosLabel'), { exact: true }).setInputFiles({
    name: 'fotoğraflar.zip',
    mimeType: 'application/zip',
    buffer: await zipOf(products.map((product) => ({ name: `${product.sku}.jpg`, data: photo }))),
  })
  await button('file.submit').click()
  await button('mapping.toPhotos').click()
  await button('photos.submitZip').click()
  await button('mapping.continue').click()
  await wizard
    .getByRole('button', { name: appMsg(lang, 'studio.scenes.product.white-studio'), exact: true })
    .click()
  await button('outputs.startOther', { count: 2 }).click()
  await expect(page.getByTestId('batch-status')).toHaveAttribute('data-status', 'finished', {
    timeout: 90_000,
  })

  // The first product's review, opened from the keyboard.
  const first = page.getByTestId('batch-row').filter({ hasText: products[0].name })
  const open = first.getByRole('button', { name: msg('review.openLabel', { name: products[0].name }) })
  await open.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: msg('review.title', { name: products[0].name }) })
  await expect(dialog).toBeVisible()
  const title = dialog.getByLabel(msg('review.fields.title'), { exact: true })
  await expect(title).not.toHaveValue('')
  await expect(
    dialog.getByRole('checkbox', { name: `${msg('review.include')}: ${msg('review.output.studio')}` }),
  ).toBeChecked()
  await expect(dialog.getByRole('img', { name: msg('review.output.studio') })).toBeVisible()
  await expectNoSeriousA11yViolations(page)
  await shootReview(page, 'generated')

  // The title edited: the counter follows; saved, the dialog says the edit is what goes out.
  await title.fill(editedTitle)
  await expect(
    dialog.getByText(msg('review.counter', { count: editedTitle.length, max: seoLimits.titleMax })),
  ).toBeVisible()
  await dialog.getByRole('button', { name: msg('review.save') }).click()
  await expect(dialog.getByText(msg('review.copyEditedNote'))).toBeVisible()
  await expect(dialog.getByRole('button', { name: msg('review.revert') })).toBeVisible()
  await shootReview(page, 'edited')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(open).toBeFocused()
  await expect(first.getByTestId('row-edited')).toHaveText(msg('review.edited'))

  // The ZIP's listing carries the edited title for that product, and the generated one for the other.
  const downloading = page.waitForEvent('download')
  await page.getByRole('link', { name: msg('batch.download') }).click()
  const entries = await unzip(await readFile(await (await downloading).path()))
  const csv = entries.find((entry) => entry.name === 'listing.csv')?.bytes ?? Buffer.alloc(0)
  const [, ...records] = parse(csv.subarray(3).toString('utf8'), { delimiter: ';' }) as string[][]
  const recordOf = (sku: string) => records.find((record) => record.includes(sku)) ?? []
  expect(recordOf(products[0].sku)[0]).toBe(editedTitle)
  expect(recordOf(products[1].sku)[0]).not.toBe('')
  expect(recordOf(products[1].sku)[0]).not.toBe(editedTitle)
})
