import { readFile } from 'node:fs/promises'
import AxeBuilder from '@axe-core/playwright'
import { type Download, expect, type Locator, type Page, test } from '@playwright/test'
import sharp from 'sharp'
import type { MarketplaceCheckView } from '#shared/contracts/marketplaces.ts'
import enMarketplaces from '#shared/i18n/locales/en/marketplaces.json' with { type: 'json' }
import trMarketplaces from '#shared/i18n/locales/tr/marketplaces.json' with { type: 'json' }
import { type Messages, translate } from '#shared/i18n/translate.ts'
import type { CheckResult, CheckStatus } from '#shared/marketplaces/check.ts'
import { trendyol } from '#shared/marketplaces/trendyol.ts'
import { appMsg, signUpWithPlan } from './app-support.ts'
import { browserLocale, type Lang, langs } from './support/i18n.ts'
import { productPhotoPng } from './support/images.ts'
import { shotPath } from './support/shots.ts'
import { studioScreen } from './support/studio-screens.ts'

// The Marketplace panel on a Create result, on the offline studio, in both languages: choose a
// profile by keyboard, read the checklist, download the export and open the file; and the
// Amazon.com.tr main-image check of a generated scene. Expected text comes from the locale files.

test.describe.configure({ mode: 'parallel' })

const catalogues: Record<Lang, Messages> = {
  en: { marketplaces: enMarketplaces },
  tr: { marketplaces: trMarketplaces },
}

/** `marketplaces.<key>` as the app writes it (numbers formatted for the language). */
function mm(lang: Lang, key: string, vars: Record<string, string | number> = {}): string {
  const text = translate(catalogues[lang], lang, `marketplaces.${key}`, vars)
  if (text === `marketplaces.${key}`) throw new Error(`no ${lang} message for marketplaces.${key}`)
  return text
}

/** Every status word, so a row can be shown to carry one in text. */
const statuses: CheckStatus[] = ['pass', 'warn', 'fail', 'not-published', 'check-by-eye']

/**
 * The English text of the marketplace messages that Turkish words differently: the fixed parts of
 * each template (between placeholders), long enough to mean something. None may show on a
 * Turkish screen.
 */
function englishOnlyFragments(): string[] {
  const fragments = new Set<string>()
  const walk = (en: unknown, tr: unknown) => {
    if (typeof en === 'string') {
      if (typeof tr === 'string' && tr === en) return
      for (const part of en.split(/\{\{\s*\w+\s*\}\}/)) {
        const fragment = part.trim()
        if (fragment.length >= 8 && !(typeof tr === 'string' && tr.includes(fragment)))
          fragments.add(fragment)
      }
      return
    }
    if (typeof en === 'object' && en !== null) {
      for (const [key, value] of Object.entries(en)) {
        walk(value, typeof tr === 'object' && tr !== null ? (tr as Record<string, unknown>)[key] : undefined)
      }
    }
  }
  walk(enMarketplaces, trMarketplaces)
  return [...fragments]
}

/** The product name typed into Create's details: it names the export file. */
const productNames: Record<Lang, string> = { en: 'Blue Mug 042', tr: 'Çay Kupası' }

/** Signs up, makes an image on Create with the offline studio and returns its id and size. */
async function makeCreateImage(page: Page, lang: Lang) {
  await signUpWithPlan(page, 'starter', `marketplace-${lang}`)
  await page.goto('/app/create')
  await expect(page.locator('html')).toHaveAttribute('lang', lang)
  const screen = studioScreen(page, lang)
  await screen.photoInput.setInputFiles(await productPhotoPng())
  await expect(screen.uploaded).toBeVisible()
  await page.getByLabel(appMsg(lang, 'studio.details.name'), { exact: true }).fill(productNames[lang])
  await screen.generate.click()
  await expect(screen.resultImage).toBeVisible({ timeout: 25_000 })
  const id = new URL(page.url()).searchParams.get('job')
  if (!id) throw new Error('no job in the URL')
  const imageUrl = (await screen.resultImage.getAttribute('src')) ?? ''
  const image = await sharp(await (await page.request.get(imageUrl)).body()).metadata()
  return { id, width: image.width ?? 0, height: image.height ?? 0 }
}

function marketplacePanel(page: Page, lang: Lang) {
  const panel = page.getByRole('region', { name: mm(lang, 'panel.title'), exact: true })
  return {
    panel,
    profile: panel.getByRole('combobox', { name: mm(lang, 'panel.profileLabel'), exact: true }),
    checklist: (marketplace: string) =>
      panel.getByRole('list', { name: mm(lang, 'panel.checklistLabel', { marketplace }), exact: true }),
  }
}

/** A checklist row by its rule's visible name. */
function ruleRow(list: Locator, lang: Lang, ruleId: CheckResult['ruleId']): Locator {
  return list
    .getByRole('listitem')
    .filter({ has: list.page().getByText(mm(lang, `rules.${ruleId}`), { exact: true }) })
}

async function expectRow(
  list: Locator,
  lang: Lang,
  ruleId: CheckResult['ruleId'],
  status: CheckStatus,
  reason: string,
): Promise<Locator> {
  const row = ruleRow(list, lang, ruleId)
  await expect(row).toHaveCount(1)
  await expect(row.getByText(mm(lang, `status.${status}`), { exact: true })).toBeVisible()
  await expect(row.getByText(reason, { exact: true })).toBeVisible()
  return row
}

/** The one quiet line that names the rules the marketplace publishes nothing on. */
function unpublishedLine(list: Locator): Locator {
  return list.getByTestId('marketplace-unpublished')
}

/** Every row says its status in words (the icon only repeats it, hidden from assistive technology). */
async function expectStatusesInText(list: Locator, lang: Lang) {
  const words = statuses.map((status) => mm(lang, `status.${status}`).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  const statusWord = new RegExp(`^(${words.join('|')})$`)
  const rows = await list.getByTestId('marketplace-rule').all()
  // Trendyol publishes three image rules (size, ratio, the product unchanged); the rest share one line.
  expect(rows.length).toBeGreaterThanOrEqual(3)
  for (const row of rows) {
    await expect(row.getByText(statusWord)).toBeVisible()
    for (const icon of await row.locator('svg').all())
      await expect(icon).toHaveAttribute('aria-hidden', 'true')
  }
}

async function expectNoSeriousViolationsIn(page: Page, selector: string) {
  const results = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(
    serious.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([])
}

async function downloadedBytes(download: Download): Promise<Buffer> {
  const path = await download.path()
  return readFile(path)
}

/**
 * The whole panel, in a viewport tall enough to hold the page: a taller-than-viewport element shot
 * would have the sticky site header stitched over it.
 */
async function shootWholePanel(page: Page, panel: Locator, path: string) {
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 }
  const height = await page.evaluate(() => document.documentElement.scrollHeight)
  await page.setViewportSize({ width: viewport.width, height })
  await panel.screenshot({ path })
  await page.setViewportSize(viewport)
}

/**
 * Desktop and phone (390×844) shots of the panel for the lead to look at, not assertions:
 * `<name>-desktop.png` and `<name>-phone-full.png` hold the whole panel, `<name>-phone.png` the
 * phone screen scrolled to the panel. The phone width must not scroll sideways.
 */
async function shootPanel(page: Page, panel: Locator, name: string) {
  const desktop = page.viewportSize()
  await shootWholePanel(page, panel, shotPath(`marketplace-${name}-desktop`))
  await page.setViewportSize({ width: 390, height: 844 })
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
      message: 'no sideways scrolling at 390 px',
    })
    .toBeLessThanOrEqual(390)
  // Instantly (the page scrolls smoothly), and clear of the sticky header.
  await panel.evaluate((element) => {
    element.scrollIntoView({ block: 'start', behavior: 'instant' })
    window.scrollBy({ top: -80, behavior: 'instant' })
  })
  await page.screenshot({ path: shotPath(`marketplace-${name}-phone`) })
  await shootWholePanel(page, panel, shotPath(`marketplace-${name}-phone-full`))
  if (desktop) await page.setViewportSize(desktop)
}

/**
 * How long "Checking for …" may take: a new result's first check joins its measurement (the cut-out
 * model, OCR and the product's fidelity to the photo), about 7 s on an idle 2-core machine and over
 * 20 s on one busy with other tests' jobs, more when the model was idle long enough to be unloaded.
 */
const checkTimeout = 45_000

for (const lang of langs) {
  test.describe(`marketplace panel in ${lang}`, () => {
    test.use({ locale: browserLocale[lang] })
    // A result is made, then checked (checkTimeout), in each test.
    test.describe.configure({ timeout: 120_000 })

    test('Create result → Trendyol chosen by keyboard → checklist → 1200×1800 JPEG export', async ({
      page,
    }) => {
      const result = await makeCreateImage(page, lang)
      const { panel, profile, checklist } = marketplacePanel(page, lang)
      await expect(panel).toBeVisible()

      // A new user has no default: the panel asks for a choice.
      await expect(profile).toHaveValue('')
      await expect(profile).toHaveAccessibleDescription(mm(lang, 'panel.profileHint'))
      await expect(panel.getByText(mm(lang, 'panel.chooseHint'), { exact: true })).toBeVisible()

      // Keyboard: the select is in the Tab order (out with Shift+Tab, back with Tab), and an
      // arrow key chooses Trendyol (the first profile) without opening the list.
      await profile.focus()
      await page.keyboard.press('Shift+Tab')
      await expect(profile).not.toBeFocused()
      await page.keyboard.press('Tab')
      await expect(profile).toBeFocused()
      await page.keyboard.press('ArrowDown')
      await expect(profile).toHaveValue('trendyol')
      await expect(profile).toBeFocused()
      await expect(panel.getByRole('status').first()).toHaveText(
        mm(lang, 'panel.saved', { marketplace: 'Trendyol' }),
      )

      const list = checklist('Trendyol')
      await expect(list).toBeVisible({ timeout: checkTimeout })
      const size = { width: String(result.width), height: String(result.height) }
      const sizeRow = await expectRow(
        list,
        lang,
        'image.size',
        'fail',
        mm(lang, 'reasons.sizeNotExact', { ...size, requiredWidth: '1200', requiredHeight: '1800' }),
      )
      await expectRow(
        list,
        lang,
        'image.ratio',
        'fail',
        mm(lang, 'reasons.ratioWrong', { ...size, expected: '2:3' }),
      )
      // Trendyol publishes no background rule: said so, not invented.
      await expect(unpublishedLine(list)).toContainText(mm(lang, 'rules.image.background'))
      await expect(ruleRow(list, lang, 'image.background')).toHaveCount(0)
      await expectStatusesInText(list, lang)
      // The size fix is the export itself.
      const fix = sizeRow.getByRole('link', {
        name: mm(lang, 'fixes.resize', { width: '1200', height: '1800' }),
      })
      await expect(fix).toBeVisible()

      // A key without a message would show as the key itself.
      expect((await panel.textContent()) ?? '').not.toMatch(/marketplaces\.\w/)
      if (lang === 'tr') {
        await expect(list.getByText('Görsel boyutu', { exact: true })).toBeVisible()
        const text = (await panel.textContent()) ?? ''
        for (const fragment of englishOnlyFragments())
          expect(text, `English left: "${fragment}"`).not.toContain(fragment)
      }
      await expectNoSeriousViolationsIn(page, '[data-testid="marketplace-panel"]')

      // The export, by keyboard: Enter on the download link starts it.
      const download = panel.getByRole('link', {
        name: mm(lang, 'panel.downloadImage', { marketplace: 'Trendyol', width: '1200', height: '1800' }),
        exact: true,
      })
      // Reached with Tab from the select, through the slot radios and each row's links.
      await profile.focus()
      let tabs = 0
      while (!(await download.evaluate((link) => link === document.activeElement)) && tabs < 80) {
        await page.keyboard.press('Tab')
        tabs += 1
      }
      await expect(download).toBeFocused()
      const byKeyboard = page.waitForEvent('download')
      await page.keyboard.press('Enter')
      const file = await byKeyboard
      // `<sku or name>-<marketplace>-<n>.jpg` (export-file-name.ts), the UTF-8 name kept.
      expect(file.suggestedFilename()).toBe(`${productNames[lang]}-trendyol-1.jpg`)
      const bytes = await downloadedBytes(file)
      expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
      const meta = await sharp(bytes).metadata()
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 1800])
      expect(meta.space).toBe('srgb')
      expect(meta.exif).toBeUndefined()
      expect(bytes.length).toBeGreaterThan(10_000)
      expect(bytes.length).toBeLessThanOrEqual(trendyol.export.maxBytes)

      // The row's fix link, clicked, gives the same file.
      const byClick = page.waitForEvent('download')
      await fix.click()
      const again = await byClick
      expect(again.suggestedFilename()).toBe(file.suggestedFilename())
      expect((await downloadedBytes(again)).equals(bytes)).toBe(true)

      await shootPanel(page, panel, `trendyol-${lang}`)
    })

    test("Amazon.com.tr main image: the seller's own product on the white studio passes the real-photo and background rules", async ({
      page,
    }) => {
      const result = await makeCreateImage(page, lang)
      const { panel, profile, checklist } = marketplacePanel(page, lang)
      await profile.selectOption({ label: 'Amazon.com.tr' })
      await expect(profile).toHaveValue('amazon-tr')
      await expect(panel.getByRole('radio', { name: mm(lang, 'slots.main'), exact: true })).toBeChecked()

      const list = checklist('Amazon.com.tr')
      await expect(list).toBeVisible({ timeout: checkTimeout })
      // The stored measurement the server judged, to write the background share as the app does.
      const response = await page.request.get(`/api/generations/${result.id}/marketplace/amazon-tr?slot=main`)
      expect(response.ok()).toBe(true)
      const view = (await response.json()) as MarketplaceCheckView
      const facts = view.image?.facts
      if (!facts) throw new Error('no image facts')
      expect(facts.isGenerated).toBe(true)

      // The studio composed the seller's own product, measured as kept, onto pure white: a real
      // photo as Amazon means it (a made scene, or a changed product, would fail).
      expect(facts.productFidelity?.changed).toBe(false)
      await expectRow(list, lang, 'image.realPhoto', 'pass', mm(lang, 'reasons.ownProductOnWhite'))

      // The default studio is pure white (RGB 255) outside the product's contact shadow, so
      // Amazon's main-image background rule (official) passes, and its reason names the limit.
      const share = Math.round(facts.borderPureWhiteShare * 100)
      expect(share).toBeGreaterThanOrEqual(98)
      await expectRow(
        list,
        lang,
        'image.background',
        'pass',
        mm(lang, 'reasons.backgroundWhite', { share, min: 98 }),
      )
      await expectStatusesInText(list, lang)

      // On an additional image neither rule applies: Amazon asks them of the main image only. The
      // slot is a radio group, moved through with the arrow keys.
      const slots = panel.getByRole('group', { name: mm(lang, 'panel.slotLegend'), exact: true })
      const main = slots.getByRole('radio', { name: mm(lang, 'slots.main'), exact: true })
      const additional = slots.getByRole('radio', { name: mm(lang, 'slots.additional'), exact: true })
      await main.focus()
      await page.keyboard.press('ArrowRight')
      await expect(additional).toBeChecked()
      await expect(additional).toBeFocused()
      await expect(unpublishedLine(list)).toContainText(mm(lang, 'rules.image.realPhoto'))
      await expect(unpublishedLine(list)).toContainText(mm(lang, 'rules.image.background'))
      await page.keyboard.press('ArrowLeft')
      await expect(main).toBeChecked()
      await expect(
        ruleRow(list, lang, 'image.realPhoto').getByText(mm(lang, 'status.pass'), { exact: true }),
      ).toBeVisible()

      await shootPanel(page, panel, `amazon-${lang}`)
    })
  })
}
