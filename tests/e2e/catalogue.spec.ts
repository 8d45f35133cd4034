import { mkdir, readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { expect, type Locator, type Page, test } from '@playwright/test'
import { parse } from 'csv-parse/sync'
import ExcelJS from 'exceljs'
import iconv from 'iconv-lite'
import sharp from 'sharp'
import enCatalogue from '#shared/i18n/locales/en/catalogue.json' with { type: 'json' }
import trCatalogue from '#shared/i18n/locales/tr/catalogue.json' with { type: 'json' }
import { csvOf, productRow, turkishHeader, zipOf } from '#tests/support/catalogue-fixtures.ts'
import { unzip } from '#tests/support/unzip.ts'
import { appMsg, expectDashboardLoaded, signUpWithPlan } from './app-support.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { browserLocale, formatCount, type Lang } from './support/i18n.ts'
import { garmentPhoto, productPhotoJpeg } from './support/images.ts'

/**
 * How long "Checking the list…" may take: the list is read on a worker thread, and the first read
 * of a server starts that thread, which on a 2-core machine busy with other tests' jobs has taken
 * over 10 s.
 */
const listCheckTimeout = 30_000

// The catalogue on the offline studio, in Chromium, in both languages: a product list as Turkish
// Excel saves it and a ZIP of photos go in, the columns are checked and one is changed, the bad
// rows are listed with their lines and reasons, the batch runs to the end while the page follows
// it, and the ZIP that comes out is opened and read. Every step is photographed at desktop and
// phone sizes into .test-output/catalogue-shots/ for people to look at (nothing compares them).

const desktop = { width: 1280, height: 800 }
const phone = { width: 390, height: 844 }

// --- The files a seller uploads, made here -----------------------------------------------------

/** The list's columns: Trendyol's template words, and a short description the mapping skips. */
const listHeader = [...turkishHeader, 'Kısa Açıklama']
const listName = 'ürünler.csv'
const zipName = 'fotoğraflar.zip'

type Product = { sku: string; name: string; photo: string; short: string }

/** The rows that become products, in list order. */
const goodProducts: readonly Product[] = [
  { sku: 'KRM-001', name: 'İpek Eşarp', photo: 'KRM-001.png', short: 'İpek eşarp, kırmızı' },
  { sku: 'KRM-002', name: 'Ağır Çorap', photo: 'KRM-002.jpg', short: 'Yün çorap' },
  { sku: 'IŞK-004', name: 'Işık Saçan Lamba', photo: 'Işık Lamba.jpg', short: 'Cam lamba' },
  { sku: 'ÇİN-006', name: 'Çini Kase', photo: 'cini-kase.jpg', short: 'İznik desenli kase' },
]

/** Lines as Excel numbers them: the header is line 1; KRM-001's description takes lines 2–3. */
const lines = { emptyName: 5, photoNotInZip: 7 } as const
const missingPhoto = 'yüzük.jpg'
const firstDescription = 'Yumuşak, şık bir eşarp.\nİkinci satır: "özel" dokuma.'

function row(product: Product, overrides: Partial<Record<string, string>> = {}): string[] {
  return [
    ...productRow(0, {
      'Stok Kodu': product.sku,
      'Ürün Adı': product.name,
      Marka: 'Işıklı Tekstil',
      Renk: 'Kırmızı',
      'Görsel 1': product.photo,
      ...overrides,
    }),
    product.short,
  ]
}

/**
 * "CSV (noktalı virgülle ayrılmış)" as Turkish Excel writes it: Windows-1254, `;`, CRLF, a quoted
 * two-line cell. Four good rows and two bad ones: an empty name (line 5) and a photo that is not
 * in the ZIP (line 7).
 */
function productListCsv(): Buffer {
  const [first, second, third, fourth] = goodProducts as [Product, Product, Product, Product]
  const rows = [
    row(first, { Açıklama: firstDescription }),
    row(second),
    row({ sku: 'BOŞ-003', name: '', photo: 'BOŞ-003.jpg', short: 'Adı unutulmuş' }),
    row(third),
    row({ sku: 'KRM-005', name: 'Gümüş Yüzük', photo: missingPhoto, short: 'Gümüş' }),
    row(fourth),
  ]
  return iconv.encode(csvOf(rows, listHeader).toString('utf8'), 'windows-1254')
}

const realPhoto = (name: string) =>
  readFile(fileURLToPath(new URL(`../fixtures/photos/${name}`, import.meta.url)))

/**
 * The photos: the two real ones in tests/fixtures/photos and two made with sharp; one in a folder
 * (the list names it without), one with a Turkish name. The photo of line 7 is not there.
 */
async function photosZip(): Promise<Buffer> {
  return zipOf([
    { name: 'KRM-001.png', data: await realPhoto('coffee.png') },
    { name: 'fotoğraflar/KRM-002.jpg', data: await realPhoto('rocket.jpg') },
    { name: 'BOŞ-003.jpg', data: (await productPhotoJpeg()).buffer },
    { name: 'Işık Lamba.jpg', data: (await productPhotoJpeg()).buffer },
    { name: 'cini-kase.jpg', data: (await garmentPhoto()).buffer },
  ])
}

const listFile = () => ({ name: listName, mimeType: 'text/csv', buffer: productListCsv() })
const zipFile = async () => ({ name: zipName, mimeType: 'application/zip', buffer: await photosZip() })

// --- Expected text, from the locale files ------------------------------------------------------

const catalogueMessages = { en: enCatalogue, tr: trCatalogue } as const

/** A `catalogue.*` message with `{{name}}` filled (numbers as the language writes them). */
function cat(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  let node: unknown = catalogueMessages[lang]
  for (const part of key.split('.')) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined
  }
  if (typeof node !== 'string') throw new Error(`no ${lang} message for catalogue.${key}`)
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    const value = vars[name]
    if (value === undefined) return whole
    return typeof value === 'number' ? formatCount(lang, value) : value
  })
}

/** "1 product" / "4 products" as countText writes them. */
const count = (lang: Lang, n: number, one: string, other: string) =>
  cat(lang, n === 1 ? one : other, { count: n })

// --- Screens -------------------------------------------------------------------------------------

function wizardScreen(page: Page, lang: Lang) {
  const wizard = page.getByRole('region', { name: cat(lang, 'wizard.title') })
  const preview = wizard.getByRole('region', { name: cat(lang, 'preview.title') })
  return {
    wizard,
    preview,
    stepHeading: (step: 'file' | 'mapping' | 'photos' | 'outputs') =>
      wizard.getByRole('heading', { level: 3, name: new RegExp(`^${cat(lang, `wizard.headings.${step}`)}`) }),
    currentStep: wizard.locator('[aria-current="step"]'),
    listInput: wizard.getByLabel(cat(lang, 'file.listLabel'), { exact: true }),
    photosInput: wizard.getByLabel(cat(lang, 'file.photosLabel'), { exact: true }),
    field: (field: string) => wizard.getByLabel(cat(lang, `fields.${field}`), { exact: true }),
    counts: wizard.getByTestId('preview-counts'),
    problems: wizard.getByTestId('problem'),
    button: (key: string, vars?: Record<string, string | number>) =>
      wizard.getByRole('button', { name: cat(lang, key, vars), exact: true }),
  }
}

/** The text of the option a mapping select shows. */
function chosenColumn(select: Locator): Promise<string> {
  return select.evaluate((element) => (element as HTMLSelectElement).selectedOptions[0]?.textContent ?? '')
}

/** Presses Tab until `target` has the focus, as a keyboard user gets there; fails if it never does. */
async function tabTo(page: Page, target: Locator, maxPresses = 60): Promise<void> {
  await expect(target).toBeVisible()
  for (let press = 0; press < maxPresses; press += 1) {
    await page.keyboard.press('Tab')
    if (await target.evaluate((element) => element === document.activeElement)) return
  }
  throw new Error(`Tab never reached ${target}`)
}

const shotsDir = fileURLToPath(new URL('../../.test-output/catalogue-shots/', import.meta.url))

/**
 * Saves the whole page at desktop and at phone width, then puts the page back at the size it had.
 * Waits for fonts and images first, so a shot is never of a half-drawn page.
 */
async function shoot(page: Page, name: string): Promise<void> {
  await mkdir(shotsDir, { recursive: true })
  const size = page.viewportSize() ?? desktop
  for (const [label, viewport] of [
    ['desktop', desktop],
    ['phone', phone],
  ] as const) {
    await page.setViewportSize(viewport)
    await page.evaluate(async () => {
      await document.fonts.ready
      // Lazy pictures below the fold would never load for a full-page shot: load them all now.
      await Promise.all(
        [...document.images].map((image) => {
          image.loading = 'eager'
          return image.decode().catch(() => undefined)
        }),
      )
    })
    // From the top, so the sticky header is drawn where it belongs and not over the middle.
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: `${shotsDir}${name}-${label}.png`, fullPage: true })
  }
  await page.setViewportSize(size)
}

// --- The export ----------------------------------------------------------------------------------

const listingHeader = (lang: Lang) => [
  cat(lang, 'export.columns.seoTitle'),
  cat(lang, 'export.columns.metaDescription'),
  cat(lang, 'export.columns.features'),
  cat(lang, 'export.columns.keywords'),
  cat(lang, 'export.columns.image', { n: 1 }),
  ...listHeader,
]

/** Opens the downloaded ZIP and checks what a seller would upload from it. */
async function checkExport(zip: Buffer, lang: Lang): Promise<void> {
  const entries = await unzip(zip)
  const names = entries.map((entry) => entry.name)
  const imagePaths = new Map<string, string>()
  for (const product of goodProducts) {
    const inFolder = names.filter((name) => name.startsWith(`${product.sku}/`))
    expect(inFolder, `the files of ${product.sku}`).toHaveLength(1)
    const [path = ''] = inFolder
    expect(path).toMatch(new RegExp(`^${product.sku}/${product.sku}-1\\.(jpg|png|webp)$`))
    const image = entries.find((entry) => entry.name === path)?.bytes ?? Buffer.alloc(0)
    const { width, height } = await sharp(image).metadata()
    expect([width, height], `${path} is a square picture`).toEqual([1080, 1080])
    imagePaths.set(product.sku, path)
  }
  // The bad rows made nothing.
  expect(names.filter((name) => /^(BOŞ-003|KRM-005)\//.test(name))).toEqual([])
  expect(names.slice(-2)).toEqual(['listing.csv', 'listing.xlsx'])
  expect(names).toHaveLength(goodProducts.length + 2)

  const csv = entries.find((entry) => entry.name === 'listing.csv')?.bytes ?? Buffer.alloc(0)
  expect([...csv.subarray(0, 3)], 'listing.csv starts with a UTF-8 BOM').toEqual([0xef, 0xbb, 0xbf])
  const text = csv.subarray(3).toString('utf8')
  // Read back as UTF-8 it is the same text: nothing was lost on the way (no U+FFFD, no mojibake).
  expect(Buffer.from(text, 'utf8').equals(csv.subarray(3))).toBe(true)
  expect(text).not.toMatch(/Ã|Ä|Å|\uFFFD/)
  const [header, ...records] = parse(text, { delimiter: ';' }) as string[][]
  expect(header).toEqual(listingHeader(lang))
  expect(records.map((record) => record[5])).toEqual(goodProducts.map((product) => product.sku))
  expect(records.map((record) => record[6])).toEqual(goodProducts.map((product) => product.name))
  for (const [index, product] of goodProducts.entries()) {
    const record = records[index] ?? []
    expect(record[0], `${product.sku} has an SEO title`).not.toBe('')
    expect(record[4]).toBe(imagePaths.get(product.sku))
    expect(record[7]).toBe('Işıklı Tekstil')
    expect(record[listingHeader(lang).length - 1]).toBe(product.short)
  }
  expect(records[0]?.[11]).toBe(firstDescription)

  const xlsx = entries.find((entry) => entry.name === 'listing.xlsx')?.bytes ?? Buffer.alloc(0)
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(xlsx as unknown as ArrayBuffer)
  const sheet = workbook.worksheets[0]
  expect(sheet?.name).toBe(cat(lang, 'export.sheetName'))
  expect(sheet?.getRow(1).getCell(1).text).toBe(cat(lang, 'export.columns.seoTitle'))
  expect(goodProducts.map((_, index) => sheet?.getRow(index + 2).getCell(7).text)).toEqual(
    goodProducts.map((product) => product.name),
  )
}

// --- The tests -------------------------------------------------------------------------------------

test.describe('catalogue in en', () => {
  const lang: Lang = 'en'
  test.use({ locale: browserLocale[lang], viewport: desktop })

  test('a Turkish Excel list and a photo ZIP → columns → bad rows → batch → ZIP, by keyboard', async ({
    page,
  }) => {
    // A whole journey (sign-up, the wizard, a 4-product batch of offline jobs, the ZIP) on a
    // machine the other specs share; the batch itself still has to finish within its 90 s.
    test.setTimeout(180_000)
    const shot = (name: string) => shoot(page, `${lang}-${name}`)
    const screen = wizardScreen(page, lang)
    await signUpWithPlan(page, 'growth', 'catalogue-en')
    await page.goto('/app')
    await expectDashboardLoaded(page, lang)
    await page
      .getByRole('banner')
      .getByRole('link', { name: appMsg(lang, 'common.nav.catalogue') })
      .click()
    await expect(page).toHaveURL(/\/app\/catalogue$/)
    await expect(page.getByRole('heading', { level: 1, name: cat(lang, 'page.title') })).toBeVisible()
    await expect(page.getByText(cat(lang, 'list.emptyTitle'))).toBeVisible()
    await expect(screen.currentStep).toContainText(cat(lang, 'wizard.steps.file'))
    await shot('01-file')

    // Step 1: nothing chosen is caught in the browser; then both files, sent from the keyboard.
    const upload = screen.button('file.submit')
    await upload.press('Enter')
    await expect(screen.wizard.getByText(cat(lang, 'file.listRequired'))).toBeVisible()
    await expect(screen.listInput).toBeFocused()
    await screen.listInput.setInputFiles(listFile())
    await screen.photosInput.setInputFiles(await zipFile())
    await expect(screen.wizard.getByText(cat(lang, 'file.listRequired'))).toHaveCount(0)
    await tabTo(page, upload)
    await page.keyboard.press('Enter')

    // Step 2: the detected columns, each select found by its label; the heading takes the focus.
    await expect(screen.stepHeading('mapping')).toBeFocused({ timeout: listCheckTimeout })
    await expect(screen.stepHeading('mapping')).toContainText(listName)
    await expect(screen.currentStep).toContainText(cat(lang, 'wizard.steps.mapping'))
    const detected: Record<string, string> = {
      sku: 'Stok Kodu',
      name: 'Ürün Adı',
      brand: 'Marka',
      category: 'Kategori',
      color: 'Renk',
      material: 'Materyal',
      description: 'Açıklama',
      image1: 'Görsel 1',
      image2: 'Görsel 2',
      image3: cat(lang, 'mapping.notUsed'),
    }
    for (const [field, header] of Object.entries(detected)) {
      expect(await chosenColumn(screen.field(field)), `${field} is read from`).toBe(header)
    }
    await expect(screen.field('sku')).toHaveAttribute('aria-required', 'true')
    await expect(screen.counts).toContainText(count(lang, 5, 'preview.readyOne', 'preview.readyOther'))
    await expect(screen.counts).toContainText(count(lang, 1, 'preview.badOne', 'preview.badOther'))
    await expect(screen.problems).toHaveCount(1)
    await expect(screen.problems.first()).toHaveText(
      `${cat(lang, 'preview.lineN', { line: lines.emptyName })} · ${cat(lang, 'fields.name')}: ${cat(lang, 'rowProblems.nameEmpty')}`,
    )
    // Windows-1254 read as such: the Turkish letters are whole in the preview.
    const table = screen.preview.getByRole('table')
    await expect(table.getByRole('row')).toHaveCount(1 + 6)
    const firstRow = table.getByRole('row').nth(1)
    await expect(firstRow.getByRole('cell').first()).toHaveText('2')
    await expect(firstRow).toContainText('İpek Eşarp')
    await expect(firstRow).toContainText('Işıklı Tekstil')
    await expect(firstRow).toContainText('Yumuşak, şık bir eşarp.')
    await expect(table.getByRole('row').nth(3).getByRole('cell').first()).toHaveText(String(lines.emptyName))
    await expectNoSeriousA11yViolations(page)
    await shot('02-mapping')

    // The description comes from the short column instead: the preview follows.
    const descriptionHeader = table.getByRole('columnheader', {
      name: new RegExp(cat(lang, 'fields.description')),
    })
    await expect(descriptionHeader).toContainText('Açıklama')
    await screen.field('description').focus()
    await screen.field('description').selectOption({ label: 'Kısa Açıklama' })
    await expect(descriptionHeader).toContainText('Kısa Açıklama')
    await expect(firstRow).toContainText('İpek eşarp, kırmızı')
    await expect(firstRow).not.toContainText('Yumuşak')
    await expect(
      screen.wizard.getByRole('status').filter({ hasText: cat(lang, 'mapping.updating') }),
    ).toHaveCount(0)
    expect(await chosenColumn(screen.field('description'))).toBe('Kısa Açıklama')
    await shot('03-mapping-changed')

    const toPhotos = screen.button('mapping.toPhotos')
    await expect(toPhotos).toBeEnabled()
    await tabTo(page, toPhotos)
    await page.keyboard.press('Enter')

    // Step 3: the ZIP chosen in step 1 is sent; the photo problem joins the list.
    await expect(screen.stepHeading('photos')).toBeFocused()
    await expect(screen.wizard.getByText(cat(lang, 'photos.zipChosen', { name: zipName }))).toBeVisible()
    await shot('04-photos')
    await tabTo(page, screen.button('photos.submitZip'))
    await page.keyboard.press('Enter')
    await expect(screen.counts).toContainText(count(lang, 4, 'preview.readyOne', 'preview.readyOther'))
    await expect(screen.counts).toContainText(count(lang, 2, 'preview.badOne', 'preview.badOther'))
    await expect(screen.counts).toContainText(
      count(lang, 5, 'preview.zipPhotosOne', 'preview.zipPhotosOther'),
    )
    await expect(screen.problems).toHaveCount(2)
    await expect(screen.problems.nth(0)).toContainText(cat(lang, 'rowProblems.nameEmpty'))
    await expect(screen.problems.nth(1)).toHaveText(
      `${cat(lang, 'preview.lineN', { line: lines.photoNotInZip })} · ${cat(lang, 'fields.image1')}: ${cat(lang, 'rowProblems.photoNotInZip')}${missingPhoto}`,
    )
    // The draft in the list of imports counts what the wizard counts.
    await expect(page.getByTestId('batch-list')).toContainText(
      `${count(lang, 4, 'list.productsOne', 'list.productsOther')} · `,
    )
    await shot('05-photos-checked')
    const withoutBadRows = screen.button('mapping.continueWithout')
    await tabTo(page, withoutBadRows)
    await page.keyboard.press('Enter')

    // Step 4: a studio scene (a suggestion, pressed with Space) and the SEO copy, for 4 products.
    await expect(screen.stepHeading('outputs')).toBeFocused()
    await expect(screen.wizard.getByText(cat(lang, 'outputs.introOther', { count: 4 }))).toBeVisible()
    const studio = screen.wizard.getByRole('checkbox', {
      name: new RegExp(`^${cat(lang, 'outputs.studio')}`),
    })
    const seo = screen.wizard.getByRole('checkbox', { name: new RegExp(`^${cat(lang, 'outputs.seo')}`) })
    await expect(studio).toBeChecked()
    await expect(seo).toBeChecked()
    await expect(
      screen.wizard.getByRole('checkbox', { name: new RegExp(`^${cat(lang, 'outputs.video')}`) }),
    ).not.toBeChecked()
    const marble = screen.wizard.getByRole('button', {
      name: appMsg(lang, 'studio.scenes.product.marble'),
      exact: true,
    })
    await tabTo(page, marble)
    await page.keyboard.press('Space')
    await expect(marble).toHaveAttribute('aria-pressed', 'true')
    await expect(screen.wizard.getByLabel(cat(lang, 'outputs.sceneLabel'))).toHaveValue('marble countertop')
    await expect(screen.wizard.getByTestId('quota-needed')).toContainText(
      cat(lang, 'outputs.neededLeft', { needed: 4, left: 1000 }),
    )
    await shot('06-outputs')
    const start = screen.button('outputs.startOther', { count: 4 })
    await tabTo(page, start)
    await page.keyboard.press('Enter')

    // The batch page follows the batch live until every product is done.
    await expect(page).toHaveURL(/\/app\/catalogue\/[0-9a-f-]{36}$/)
    await expect(page.getByRole('heading', { level: 1, name: listName })).toBeVisible()
    await shot('07-batch-started')
    const counts = page.getByTestId('batch-counts')
    await expect(page.getByTestId('batch-status')).toHaveAttribute('data-status', 'finished', {
      timeout: 90_000,
    })
    await expect(counts.getByTestId('count-done')).toHaveText(`${cat(lang, 'rowState.done')}4`)
    for (const state of ['queued', 'running', 'failed', 'canceled'] as const) {
      await expect(counts.getByTestId(`count-${state}`)).toHaveText(`${cat(lang, `rowState.${state}`)}0`)
    }
    await expect(page.getByText(cat(lang, 'batch.progress', { settled: 4, total: 4 }))).toBeVisible()
    await expect(page.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100')
    await expect(page.getByTestId('batch-announcer')).toHaveText(
      cat(lang, 'batch.ended', { done: 4, failed: 0 }),
    )
    const rows = page.getByTestId('batch-row')
    await expect(rows).toHaveCount(4)
    expect(await rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-sku')))).toEqual(
      goodProducts.map((product) => product.sku),
    )
    await expect(page.getByTestId('row-state').and(page.locator('[data-state="done"]'))).toHaveCount(4)
    await expectNoSeriousA11yViolations(page)
    await shot('08-batch-done')

    // The ZIP, downloaded from the keyboard and opened.
    const download = page.getByRole('link', { name: cat(lang, 'batch.download') })
    const downloading = page.waitForEvent('download')
    await download.focus()
    await page.keyboard.press('Enter')
    const file = await downloading
    expect(file.suggestedFilename()).toBe('ürünler-vitrin.zip')
    await checkExport(await readFile(await file.path()), lang)

    // The batch is listed on the catalogue page.
    await page.getByRole('link', { name: cat(lang, 'batch.back') }).click()
    const listed = page.getByTestId('batch-list').getByRole('listitem')
    await expect(listed).toHaveCount(1)
    await expect(listed).toContainText(listName)
    await expect(listed).toContainText(count(lang, 4, 'list.productsOne', 'list.productsOther'))
    await expect(listed.getByTestId('batch-status')).toHaveText(cat(lang, 'batchStatus.finished'))
    await shot('09-list')
  })
})

test.describe('catalogue in tr', () => {
  const lang: Lang = 'tr'
  test.use({ locale: browserLocale[lang], viewport: phone })

  test('Türkçe, telefonda: liste → sütunlar → sorunlu satırlar → fotoğraflar → toplu iş → ZIP', async ({
    page,
  }) => {
    // A whole journey (sign-up, the wizard, a 4-product batch of offline jobs, the ZIP) on a
    // machine the other specs share; the batch itself still has to finish within its 90 s.
    test.setTimeout(180_000)
    const shot = (name: string) => shoot(page, `${lang}-${name}`)
    const screen = wizardScreen(page, lang)
    await signUpWithPlan(page, 'growth', 'catalogue-tr')
    await page.goto('/app')
    await expectDashboardLoaded(page, lang)
    await page.getByRole('button', { name: appMsg(lang, 'common.nav.openMenu') }).click()
    await page
      .getByRole('navigation', { name: appMsg(lang, 'common.nav.main') })
      .getByRole('link', { name: appMsg(lang, 'common.nav.catalogue') })
      .click()
    await expect(page.getByRole('heading', { level: 1, name: cat(lang, 'page.title') })).toBeVisible()
    await shot('01-file')

    // Only the list now; the ZIP is asked for in the photos step.
    await screen.listInput.setInputFiles(listFile())
    await screen.button('file.submit').click()

    await expect(screen.stepHeading('mapping')).toBeFocused({ timeout: listCheckTimeout })
    expect(await chosenColumn(screen.field('sku'))).toBe('Stok Kodu')
    expect(await chosenColumn(screen.field('name'))).toBe('Ürün Adı')
    expect(await chosenColumn(screen.field('image1'))).toBe('Görsel 1')
    expect(await chosenColumn(screen.field('image3'))).toBe(cat(lang, 'mapping.notUsed'))
    await expect(screen.counts).toContainText(cat(lang, 'preview.readyOther', { count: 5 }))
    await expect(screen.counts).toContainText(cat(lang, 'preview.badOne'))
    await expect(screen.problems).toHaveText([
      `${cat(lang, 'preview.lineN', { line: lines.emptyName })} · ${cat(lang, 'fields.name')}: ${cat(lang, 'rowProblems.nameEmpty')}`,
    ])
    // On a phone the first rows are cards, not a table.
    await expect(screen.preview.getByRole('table')).toBeHidden()
    const firstCard = screen.preview
      .getByRole('listitem')
      .filter({ hasText: cat(lang, 'preview.lineN', { line: 2 }) })
    await expect(firstCard).toContainText('İpek Eşarp')
    await expect(firstCard).toContainText('Yumuşak, şık bir eşarp.')
    await shot('02-mapping')

    await screen.field('description').selectOption({ label: 'Kısa Açıklama' })
    await expect(firstCard).toContainText('İpek eşarp, kırmızı')
    await expect(firstCard).not.toContainText('Yumuşak')
    await shot('03-mapping-changed')
    await screen.button('mapping.toPhotos').click()

    // The photos step asks for the ZIP before sending anything.
    await expect(screen.stepHeading('photos')).toBeFocused()
    await expect(screen.wizard.getByText(cat(lang, 'photos.zipNeeded'))).toBeVisible()
    await screen.button('photos.submitZip').click()
    await expect(screen.wizard.getByText(cat(lang, 'photos.zipRequired'))).toBeVisible()
    await shot('04-photos')
    await screen.wizard
      .getByLabel(cat(lang, 'file.photosLabel'), { exact: true })
      .setInputFiles(await zipFile())
    await screen.button('photos.submitZip').click()
    await expect(screen.counts).toContainText(cat(lang, 'preview.readyOther', { count: 4 }))
    await expect(screen.counts).toContainText(cat(lang, 'preview.badOther', { count: 2 }))
    await expect(screen.problems).toHaveText([
      `${cat(lang, 'preview.lineN', { line: lines.emptyName })} · ${cat(lang, 'fields.name')}: ${cat(lang, 'rowProblems.nameEmpty')}`,
      `${cat(lang, 'preview.lineN', { line: lines.photoNotInZip })} · ${cat(lang, 'fields.image1')}: ${cat(lang, 'rowProblems.photoNotInZip')}${missingPhoto}`,
    ])
    await shot('05-photos-checked')
    await screen.button('mapping.continueWithout').click()

    await expect(screen.stepHeading('outputs')).toBeFocused()
    await screen.wizard
      .getByRole('button', { name: appMsg(lang, 'studio.scenes.product.white-studio'), exact: true })
      .click()
    await shot('06-outputs')
    await screen.button('outputs.startOther', { count: 4 }).click()

    // The batch page in Turkish, followed to the end.
    await expect(page.getByRole('heading', { level: 1, name: listName })).toBeVisible()
    await shot('07-batch-started')
    const counts = page.getByTestId('batch-counts')
    for (const state of ['queued', 'running', 'done', 'failed', 'canceled'] as const) {
      await expect(counts.getByTestId(`count-${state}`).getByRole('term')).toHaveText(
        cat(lang, `rowState.${state}`),
      )
    }
    await expect(page.getByTestId('batch-status')).toHaveText(cat(lang, 'batchStatus.finished'), {
      timeout: 90_000,
    })
    await expect(counts.getByTestId('count-done').getByRole('definition')).toHaveText('4')
    await expect(page.getByText(cat(lang, 'batch.progress', { settled: 4, total: 4 }))).toBeVisible()
    await expect(page.getByText(cat(lang, 'batch.downloadReady'))).toBeVisible()
    await expect(page.getByTestId('row-state').filter({ hasText: cat(lang, 'rowState.done') })).toHaveCount(4)
    await shot('08-batch-done')

    const downloading = page.waitForEvent('download')
    await page.getByRole('link', { name: cat(lang, 'batch.download') }).click()
    const file = await downloading
    await checkExport(await readFile(await file.path()), lang)
  })
})
