import { devices, expect, type Locator, type Page, type Route, test } from '@playwright/test'
import type { AssetView } from '#shared/contracts/assets.ts'
import type { GenerationListResponse, GenerationView } from '#shared/contracts/generations.ts'
import { appMsg, expectDashboardLoaded, signUpWithPlan } from './app-support.ts'
import { expectNoSeriousA11yViolations } from './support/axe.ts'
import { screenshotPath } from './support/clients.ts'
import { browserLocale, intlTag, type Lang } from './support/i18n.ts'
import { productPhotoPng } from './support/images.ts'
import { createGeneration, expectOk, uploadAsset, waitForGeneration } from './support/studio.ts'

test.describe.configure({ mode: 'parallel' })

// --- What the tests expect, from the locale files ----------------------------------------------

/** `studio.library.<key>` in a language, placeholders filled. */
function lib(lang: Lang, key: string, vars: Record<string, string> = {}): string {
  return appMsg(lang, `studio.library.${key}`, vars)
}

const modeKey = { image: 'modeImage', video: 'modeVideo', seo: 'modeSeo' } as const

/** "Jun 3, 2026, 2:05 PM" / "3 Haz 2026 14:05", as the library writes when a generation was made. */
function dateTime(lang: Lang, generation: GenerationView): string {
  return new Intl.DateTimeFormat(intlTag[lang], { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(generation.createdAt),
  )
}

/** How the library names one generation: "Image, Jun 3, 2026, 2:05 PM". */
function itemName(lang: Lang, generation: GenerationView): string {
  return lib(lang, 'itemLabel', {
    type: lib(lang, modeKey[generation.mode]),
    date: dateTime(lang, generation),
  })
}

/** The open generation: a dialog named by its type and described by its date. */
function itemDialog(page: Page, lang: Lang, generation: GenerationView) {
  return page.getByRole('dialog', {
    name: lib(lang, modeKey[generation.mode]),
    description: lib(lang, 'createdAt', { date: dateTime(lang, generation) }),
    exact: true,
  })
}

// --- Making generations through the API, as the page's user -----------------------------------

/** Starts one generation and waits (by asking, never sleeping) until it has succeeded. */
async function generate(page: Page, mode: 'image' | 'seo', photo: AssetView): Promise<GenerationView> {
  // Offline SEO copy needs a product name (SEO_NEEDS_PRODUCT_NAME without one).
  const { id } = await createGeneration(page, { mode, imageAssetId: photo.id, details: { name: 'Kupa' } })
  return waitForGeneration(page, id, ['succeeded'], 25_000)
}

/** Makes the generations in order (so each is newer than the one before) and returns them. */
async function generateInOrder(page: Page, modes: ('image' | 'seo')[]): Promise<GenerationView[]> {
  const photo = await uploadAsset(page, await productPhotoPng())
  const made: GenerationView[] = []
  for (const mode of modes) made.push(await generate(page, mode, photo))
  return made
}

// --- The page ------------------------------------------------------------------------------------

/** GET /api/generations (the list), whatever its query. */
const listUrl = (url: URL) => url.pathname === '/api/generations'
const cards = (page: Page) => page.getByTestId('library-item')
const card = (page: Page, generation: GenerationView) =>
  page.locator(`[data-testid="library-item"][data-id="${generation.id}"]`)
const shownIds = (page: Page) => cards(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-id')))
const filters = (page: Page, lang: Lang) => page.getByRole('navigation', { name: lib(lang, 'filters') })

async function expectLibraryLoaded(page: Page, lang: Lang) {
  await expect(page.getByRole('heading', { level: 1, name: lib(lang, 'title') })).toBeVisible()
  await expect(page.getByTestId('library-loading')).toHaveCount(0)
}

/** An element's box in page coordinates: where it is on the page, whatever the window's scroll. */
async function boxOnPage(page: Page, locator: Locator) {
  const box = await locator.boundingBox()
  const scroll = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }))
  return box ? { ...box, x: box.x + scroll.x, y: box.y + scroll.y } : null
}

test.describe('the library in English', () => {
  test.use({ locale: browserLocale.en })

  test('an empty library says so and leads to Create; so does the dashboard', async ({ page }) => {
    await signUpWithPlan(page, 'growth', 'lib-empty')
    await page.goto('/app/library')
    await expectLibraryLoaded(page, 'en')
    await expect(page).toHaveTitle(`${lib('en', 'documentTitle')} · Vitrin`)
    const empty = page.getByTestId('library-empty')
    await expect(empty.getByRole('heading', { name: lib('en', 'emptyTitle') })).toBeVisible()
    await expect(empty).toContainText(lib('en', 'emptyBody'))
    await expectNoSeriousA11yViolations(page)

    await page.goto('/app')
    await expectDashboardLoaded(page, 'en')
    const latest = page.getByRole('region', { name: lib('en', 'latestTitle') })
    await expect(latest.getByTestId('latest-empty')).toContainText(lib('en', 'latestEmpty'))
    await expect(latest.getByRole('link', { name: lib('en', 'viewAll') })).toHaveAttribute(
      'href',
      '/app/library',
    )
    await expect(latest.getByRole('link', { name: lib('en', 'goCreate') })).toHaveAttribute(
      'href',
      '/app/create',
    )

    await page.goto('/app/library')
    await page
      .getByTestId('library-empty')
      .getByRole('link', { name: lib('en', 'goCreate') })
      .click()
    await expect(page).toHaveURL(/\/app\/create$/)
  })

  test('newest first; filters by type and Saved live in the URL; Load more fetches the next page', async ({
    page,
  }) => {
    test.slow()
    await signUpWithPlan(page, 'growth', 'lib-filters')
    const [oldImage, seo, newImage] = (await generateInOrder(page, ['image', 'seo', 'image'])) as [
      GenerationView,
      GenerationView,
      GenerationView,
    ]
    await expectOk(await page.request.post(`/api/generations/${seo.id}/save`), 'save')

    await page.goto('/app/library')
    await expectLibraryLoaded(page, 'en')
    await expect(cards(page)).toHaveCount(3)
    expect(await shownIds(page)).toEqual([newImage.id, seo.id, oldImage.id])
    for (const generation of [newImage, seo, oldImage]) {
      const item = card(page, generation)
      await expect(item.getByTestId('status-badge')).toHaveText(lib('en', 'status.succeeded'))
      await expect(
        item.getByRole('button', { name: new RegExp(`^${escapeRegExp(itemName('en', generation))}`) }),
      ).toBeVisible()
    }
    // The thumbnails wait until they are scrolled near, and sit in square boxes of a fixed size.
    await expect(card(page, newImage).locator('img')).toHaveAttribute('loading', 'lazy')
    const box = await card(page, newImage).getByTestId('thumbnail').boundingBox()
    expect(box && Math.abs(box.width - box.height)).toBeLessThan(1)
    await expect(card(page, seo).getByTestId('saved-mark')).toHaveText(lib('en', 'savedMark'))
    await expect(card(page, oldImage).getByTestId('saved-mark')).toHaveCount(0)
    await expect(filters(page, 'en').getByRole('link', { name: lib('en', 'all') })).toHaveAttribute(
      'aria-current',
      'true',
    )
    await expectNoSeriousA11yViolations(page)

    const nav = filters(page, 'en')
    await nav.getByRole('link', { name: lib('en', 'images') }).click()
    await expect(page).toHaveURL(/\/app\/library\?type=image$/)
    await expect(nav.getByRole('link', { name: lib('en', 'images') })).toHaveAttribute('aria-current', 'true')
    await expect(cards(page)).toHaveCount(2)
    expect(await shownIds(page)).toEqual([newImage.id, oldImage.id])

    // Saved combines with the type: no image is saved.
    await nav.getByRole('link', { name: lib('en', 'saved') }).click()
    await expect(page).toHaveURL(/\?type=image&saved=1$/)
    await expect(page.getByTestId('library-empty')).toContainText(lib('en', 'emptySavedTitle'))

    await nav.getByRole('link', { name: lib('en', 'all') }).click()
    await expect(page).toHaveURL(/\?saved=1$/)
    await expect(cards(page)).toHaveCount(1)
    expect(await shownIds(page)).toEqual([seo.id])

    // Saved again turns it off.
    await nav.getByRole('link', { name: lib('en', 'saved') }).click()
    await expect(page).toHaveURL(/\/app\/library$/)
    await expect(cards(page)).toHaveCount(3)

    await nav.getByRole('link', { name: lib('en', 'seo') }).click()
    await expect(cards(page)).toHaveCount(1)
    await expect(card(page, seo)).toContainText(lib('en', 'modeSeo'))
    await nav.getByRole('link', { name: lib('en', 'videos') }).click()
    await expect(page.getByTestId('library-empty')).toContainText(lib('en', 'emptyFilteredTitle'))

    // The filter survives a reload, and Back returns to the previous one.
    await page.reload()
    await expectLibraryLoaded(page, 'en')
    await expect(nav.getByRole('link', { name: lib('en', 'videos') })).toHaveAttribute('aria-current', 'true')
    await page.goBack()
    await expect(page).toHaveURL(/\?type=seo$/)
    await expect(cards(page)).toHaveCount(1)

    // Two at a time (the request's page size is cut down), to reach the cursor.
    await page.route(listUrl, (route: Route) =>
      route.continue({ url: route.request().url().replace('limit=20', 'limit=2') }),
    )
    await page.goto('/app/library')
    await expectLibraryLoaded(page, 'en')
    await expect(cards(page)).toHaveCount(2)
    const loadMore = page.getByRole('button', { name: lib('en', 'loadMore') })
    await loadMore.click()
    await expect(cards(page)).toHaveCount(3)
    expect(await shownIds(page)).toEqual([newImage.id, seo.id, oldImage.id])
    await expect(loadMore).toHaveCount(0)
    // Focus moves to the first of the new cards rather than being lost with the button.
    await expect(card(page, oldImage).getByTestId('open-item')).toBeFocused()
  })

  test.describe('with clipboard access', () => {
    test.use({ permissions: ['clipboard-read', 'clipboard-write'] })

    test('an image opens with its download and a sensible file name; an SEO item copies its text', async ({
      page,
    }) => {
      await signUpWithPlan(page, 'growth', 'lib-open')
      const [image, seo] = (await generateInOrder(page, ['image', 'seo'])) as [GenerationView, GenerationView]

      await page.goto('/app/library')
      await expectLibraryLoaded(page, 'en')
      // By keyboard: the card's title button opens it.
      const openImage = card(page, image).getByTestId('open-item')
      await openImage.focus()
      await page.keyboard.press('Enter')
      const dialog = itemDialog(page, 'en', image)
      await expect(dialog).toBeVisible()
      await expect(page).toHaveURL(new RegExp(`\\?open=${image.id}$`))
      await expect(dialog.getByTestId('result-image')).toBeVisible()
      await expect(dialog.getByTestId('status-badge')).toHaveText(lib('en', 'status.succeeded'))
      await expect(dialog.getByRole('button', { name: lib('en', 'close') })).toBeFocused()

      const download = dialog.getByTestId('download-link')
      const fileName = await download.getAttribute('download')
      expect(fileName).toMatch(/^vitrin-product-image-1x1-\d{8}-\d{4}-[0-9a-f]{6}\.(png|jpe?g|webp)$/)
      const [saved] = await Promise.all([page.waitForEvent('download'), download.click()])
      expect(saved.suggestedFilename()).toBe(fileName)
      await expectNoSeriousA11yViolations(page)

      // Escape closes it and focus returns to the card.
      await page.keyboard.press('Escape')
      await expect(dialog).toBeHidden()
      await expect(page).toHaveURL(/\/app\/library$/)
      await expect(openImage).toBeFocused()

      await card(page, seo).getByTestId('open-item').click()
      const seoDialog = itemDialog(page, 'en', seo)
      await expect(seoDialog.getByTestId('seo-result')).toBeVisible()
      const result = seo.result
      if (result?.type !== 'seo') throw new Error('the SEO generation has no SEO result')
      await expect(seoDialog.getByTestId('seo-title')).toContainText(result.title)
      await seoDialog.getByTestId('seo-title-copy').click()
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(result.title)
      await seoDialog.getByTestId('seo-description-copy').click()
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(result.description)
      await expect(seoDialog.getByTestId('download-link')).toHaveCount(0)

      // Saving from the dialog marks the card.
      await seoDialog.getByTestId('save-button').click()
      await expect(seoDialog.getByTestId('save-button')).toHaveAttribute('aria-pressed', 'true')
      await seoDialog.getByRole('button', { name: lib('en', 'close') }).click()
      await expect(card(page, seo).getByTestId('saved-mark')).toBeVisible()
    })
  })

  test('delete asks first: cancelling keeps the item, confirming removes it and says so', async ({
    page,
  }) => {
    test.slow()
    await signUpWithPlan(page, 'growth', 'lib-delete')
    const [older, newer] = (await generateInOrder(page, ['image', 'seo'])) as [GenerationView, GenerationView]

    await page.goto('/app/library')
    await expectLibraryLoaded(page, 'en')
    const deleteNewer = card(page, newer).getByRole('button', {
      name: lib('en', 'deleteItem', { item: itemName('en', newer) }),
    })
    await deleteNewer.click()
    const confirm = page.getByRole('dialog', { name: lib('en', 'deleteTitle') })
    await expect(confirm).toContainText(lib('en', 'deleteBody'))
    await expect(confirm).toContainText(itemName('en', newer))
    await expect(confirm.getByRole('button', { name: lib('en', 'cancel') })).toBeFocused()
    await confirm.getByRole('button', { name: lib('en', 'cancel') }).click()
    await expect(confirm).toBeHidden()
    await expect(cards(page)).toHaveCount(2)
    await expect(deleteNewer).toBeFocused()

    await deleteNewer.click()
    await confirm.getByRole('button', { name: lib('en', 'deleteConfirm') }).click()
    await expect(confirm).toBeHidden()
    await expect(cards(page)).toHaveCount(1)
    await expect(page.getByTestId('library-announcer')).toHaveText(lib('en', 'deleted'))
    await expect(card(page, older).getByTestId('open-item')).toBeFocused()
    const listed = (await (await page.request.get('/api/generations')).json()) as GenerationListResponse
    expect(listed.items.map((item) => item.id)).toEqual([older.id])

    // From the open item too; the last one gone, the empty state takes focus.
    await card(page, older).getByTestId('open-item').click()
    const dialog = itemDialog(page, 'en', older)
    await dialog.getByRole('button', { name: lib('en', 'delete'), exact: true }).click()
    await expect(dialog).toBeHidden()
    await confirm.getByRole('button', { name: lib('en', 'deleteConfirm') }).click()
    await expect(page.getByTestId('library-empty')).toBeVisible()
    await expect(page.getByRole('heading', { name: lib('en', 'emptyTitle') })).toBeFocused()
    await expect(page).toHaveURL(/\/app\/library$/)
    // Said again for the second deletion (the text changes so screen readers repeat it).
    await expect(page.getByTestId('library-announcer')).toHaveText(
      new RegExp(`^${lib('en', 'deleted')}\\s?$`),
    )
  })

  test('a generation that is still running updates to ready by itself, on its card and when open', async ({
    page,
  }) => {
    await signUpWithPlan(page, 'growth', 'lib-live')
    const [image] = (await generateInOrder(page, ['image'])) as [GenerationView]

    // The list is answered as it was while the job ran, and the job's event stream is held
    // until the test lets it through: then the server tells the page the real, finished state.
    await page.route(listUrl, async (route) => {
      const response = await route.fetch()
      const body = (await response.json()) as GenerationListResponse
      body.items = body.items.map((item) =>
        item.id === image.id ? { ...item, status: 'running', result: null, finishedAt: null } : item,
      )
      await route.fulfill({ response, json: body })
    })
    let release: () => void = () => undefined
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    await page.route(`**/api/generations/${image.id}/events`, async (route) => {
      await released
      await route.continue()
    })
    await page.route(`**/api/generations/${image.id}`, async (route) => {
      // The polling fallback must not answer early either.
      await released
      await route.continue()
    })

    await page.goto('/app/library')
    await expectLibraryLoaded(page, 'en')
    const item = card(page, image)
    await expect(item).toHaveAttribute('data-status', 'running')
    await expect(item.getByTestId('status-badge')).toHaveText(lib('en', 'status.running'))
    const thumbnail = await boxOnPage(page, item.getByTestId('thumbnail'))

    await item.getByTestId('open-item').click()
    const dialog = itemDialog(page, 'en', image)
    await expect(dialog.getByTestId('job-status')).toBeVisible()

    release()
    await expect(dialog.getByTestId('result-image')).toBeVisible()
    await expect(dialog.getByTestId('status-badge')).toHaveText(lib('en', 'status.succeeded'))
    await page.keyboard.press('Escape')
    await expect(item).toHaveAttribute('data-status', 'succeeded')
    await expect(item.getByTestId('status-badge')).toHaveText(lib('en', 'status.succeeded'))
    await expect(page.getByTestId('library-announcer')).toHaveText(
      lib('en', 'itemStatus', { item: itemName('en', image), status: lib('en', 'status.succeeded') }),
    )
    // The result took the place of the photo without moving anything on the page (focus, back
    // on the card's link, may have scrolled the window to show it).
    expect(await boxOnPage(page, item.getByTestId('thumbnail'))).toEqual(thumbnail)
  })

  test('the dashboard shows the latest four, each opening in the library', async ({ page }) => {
    test.slow()
    await signUpWithPlan(page, 'growth', 'lib-dashboard')
    const made = await generateInOrder(page, ['image', 'seo', 'image', 'seo', 'image'])
    const newestFour = made.slice(1).reverse()

    await page.goto('/app')
    await expectDashboardLoaded(page, 'en')
    const latest = page.getByRole('region', { name: lib('en', 'latestTitle') })
    const items = latest.getByTestId('latest-item')
    await expect(items).toHaveCount(4)
    expect(await items.evaluateAll((els) => els.map((el) => el.getAttribute('data-id')))).toEqual(
      newestFour.map((item) => item.id),
    )
    await expect(items.first().getByTestId('status-badge')).toHaveText(lib('en', 'status.succeeded'))
    await expect(items.first().locator('img')).toHaveAttribute('loading', 'lazy')
    // The rest of the dashboard is still there.
    await expect(
      page.getByRole('region', { name: appMsg('en', 'app.dashboard.quickActions.title') }),
    ).toBeVisible()
    await expectNoSeriousA11yViolations(page)

    const second = newestFour[1] as GenerationView
    await items.nth(1).click()
    await expect(page).toHaveURL(new RegExp(`/app/library\\?open=${second.id}$`))
    const dialog = itemDialog(page, 'en', second)
    await expect(dialog.getByTestId('seo-result')).toBeVisible()
    await dialog.getByRole('button', { name: lib('en', 'close') }).click()
    await expect(page).toHaveURL(/\/app\/library$/)
    await expect(cards(page)).toHaveCount(5)

    await page.goto('/app')
    await latest.getByRole('link', { name: lib('en', 'viewAll') }).click()
    await expect(page).toHaveURL(/\/app\/library$/)
  })
})

test.describe('the library in Turkish', () => {
  test.use({ locale: browserLocale.tr })

  test('labels, dialogs and the dashboard section speak Turkish, with no serious axe findings', async ({
    page,
  }) => {
    await signUpWithPlan(page, 'growth', 'lib-tr')
    const [image, seo] = (await generateInOrder(page, ['image', 'seo'])) as [GenerationView, GenerationView]
    await page.goto('/app/library')
    await expectLibraryLoaded(page, 'tr')
    await expect(page).toHaveTitle(`${lib('tr', 'documentTitle')} · Vitrin`)
    const nav = filters(page, 'tr')
    for (const key of ['all', 'images', 'videos', 'seo', 'saved']) {
      await expect(nav.getByRole('link', { name: lib('tr', key) })).toBeVisible()
    }
    await expect(card(page, image)).toContainText(lib('tr', 'modeImage'))
    await expect(card(page, seo)).toContainText(lib('tr', 'modeSeo'))
    await expect(card(page, image).getByTestId('status-badge')).toHaveText(lib('tr', 'status.succeeded'))
    await expectNoSeriousA11yViolations(page)

    await card(page, image).getByTestId('open-item').click()
    const dialog = itemDialog(page, 'tr', image)
    await expect(dialog.getByRole('button', { name: lib('tr', 'close') })).toBeVisible()
    await dialog.getByRole('button', { name: lib('tr', 'delete'), exact: true }).click()
    const confirm = page.getByRole('dialog', { name: lib('tr', 'deleteTitle') })
    await expect(confirm).toContainText(lib('tr', 'deleteBody'))
    await expectNoSeriousA11yViolations(page)
    await confirm.getByRole('button', { name: lib('tr', 'deleteConfirm') }).click()
    await expect(page.getByTestId('library-announcer')).toHaveText(lib('tr', 'deleted'))
    await expect(cards(page)).toHaveCount(1)

    await page.goto('/app')
    await expectDashboardLoaded(page, 'tr')
    const latest = page.getByRole('region', { name: lib('tr', 'latestTitle') })
    await expect(latest.getByTestId('latest-item')).toHaveCount(1)
    await expect(latest.getByRole('link', { name: lib('tr', 'viewAll') })).toBeVisible()
  })
})

test.describe('on a phone', () => {
  const pixel = devices['Pixel 7']
  test.use({
    locale: browserLocale.tr,
    viewport: pixel.viewport,
    userAgent: pixel.userAgent,
    deviceScaleFactor: pixel.deviceScaleFactor,
    isMobile: pixel.isMobile,
    hasTouch: pixel.hasTouch,
  })

  test('the library fits the screen without sideways scrolling (screenshot saved)', async ({ page }) => {
    await signUpWithPlan(page, 'growth', 'lib-phone')
    const [image] = (await generateInOrder(page, ['image', 'seo'])) as [GenerationView]
    await page.goto('/app/library')
    await expectLibraryLoaded(page, 'tr')
    await expect(cards(page)).toHaveCount(2)
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
    await page.screenshot({ path: screenshotPath('library-phone'), fullPage: true })
    await card(page, image).getByTestId('open-item').click()
    await expect(page.getByRole('dialog').getByTestId('result-image')).toBeVisible()
    await page.screenshot({ path: screenshotPath('library-phone-open') })
  })
})

/** A string as a literal inside a RegExp. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
