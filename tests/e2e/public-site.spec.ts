import { type Browser, expect, type Page, test } from '@playwright/test'
import enSeo from '#shared/i18n/locales/en/seo.json' with { type: 'json' }
import trSeo from '#shared/i18n/locales/tr/seo.json' with { type: 'json' }
import { languageCookie, localizedPath, ogImageSize, publicPaths } from '#shared/public-pages.ts'
import { type Lang, msg } from './support/i18n.ts'
import { waitForHydration } from './support/public-page.ts'

// The public site as crawlers, link previews and readers get it (docs/decisions/0032):
// prerendered HTML per language, head tags, robots.txt and sitemap.xml, preview images,
// hydration without warnings or layout shift, and the language menu moving between URLs.

// Most tests here walk every public page in both languages (48 loads): a minute each, not 30 s.
test.describe.configure({ mode: 'parallel', timeout: 60_000 })

const seo = { en: enSeo, tr: trSeo } as const
const pages = publicPaths()

/** The h1 each page shows (the page's own title), by page key. */
const headingKey: Partial<Record<string, string>> = {
  landing: 'landing.title',
  pricing: 'pricing.title',
  features: 'pages.features.title',
  faq: 'pages.faq.title',
  about: 'pages.about.title',
  contact: 'contact.title',
  privacy: 'pages.privacy.title',
  terms: 'pages.terms.title',
}

async function withoutJavaScript<T>(browser: Browser, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ javaScriptEnabled: false })
  try {
    return await run(await context.newPage())
  } finally {
    await context.close()
  }
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

test('without JavaScript, every public URL has its heading, title and description in its language', async ({
  browser,
}) => {
  test.setTimeout(90_000)
  await withoutJavaScript(browser, async (page) => {
    for (const { page: publicPage, locale, path } of pages) {
      const response = await page.goto(path)
      expect(response?.status(), path).toBe(200)
      await expect(page.locator('html'), path).toHaveAttribute('lang', locale)
      const texts = seo[locale][publicPage.key]
      await expect(page, path).toHaveTitle(texts.title)
      await expect(page.locator('meta[name="description"]'), path).toHaveAttribute(
        'content',
        texts.description,
      )
      await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible()
      const key = headingKey[publicPage.key]
      if (key) await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(msg(locale, key))
      // The footer is there, in the page's language, linking within it.
      await expect(
        page.getByRole('contentinfo').getByRole('link', { name: msg(locale, 'common.footer.pricing') }),
      ).toHaveAttribute('href', localizedPath(locale, '/pricing'))
    }
  })
})

test('hreflang alternates point at each other, with x-default on English and a self canonical', async ({
  browser,
  baseURL,
}) => {
  test.slow() // every indexed page, and its pair, loaded in turn
  await withoutJavaScript(browser, async (page) => {
    const links = async (path: string) => {
      await page.goto(path)
      const alternates = Object.fromEntries(
        await page
          .locator('link[rel="alternate"][hreflang]')
          .evaluateAll((nodes) =>
            nodes.map((node) => [node.getAttribute('hreflang'), (node as HTMLLinkElement).href] as const),
          ),
      )
      const canonical = await page.locator('link[rel="canonical"]').getAttribute('href')
      return { alternates, canonical }
    }
    for (const { page: publicPage, locale, path } of pages.filter((entry) => entry.page.indexed)) {
      const own = await links(path)
      expect(own.canonical, path).toBe(`${baseURL}${path}`)
      expect(own.alternates[locale], path).toBe(`${baseURL}${path}`)
      expect(own.alternates['x-default'], path).toBe(`${baseURL}${publicPage.path}`)
      const other: Lang = locale === 'en' ? 'tr' : 'en'
      const pair = await links(new URL(own.alternates[other] ?? '').pathname)
      expect(pair.alternates, path).toEqual(own.alternates)
    }
  })
})

test('robots.txt and sitemap.xml are served as such and list every public page in both languages', async ({
  request,
  baseURL,
}) => {
  const robots = await request.get('/robots.txt')
  expect(robots.headers()['content-type']).toContain('text/plain')
  const robotsText = await robots.text()
  expect(robotsText).toContain('User-agent: *')
  expect(robotsText).toContain(`Sitemap: ${baseURL}/sitemap.xml`)
  expect(robotsText).not.toContain('<html')

  const sitemap = await request.get('/sitemap.xml')
  expect(sitemap.headers()['content-type']).toContain('application/xml')
  const xml = await sitemap.text()
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])
  expect(locs.sort()).toEqual(
    pages
      .filter((entry) => entry.page.indexed)
      .map((entry) => `${baseURL}${entry.path}`)
      .sort(),
  )
})

test('every page names its own 1200×630 preview image, and the image is there', async ({
  browser,
  request,
}) => {
  await withoutJavaScript(browser, async (page) => {
    const seen = new Set<string>()
    for (const { path } of pages) {
      await page.goto(path)
      const image = await page.locator('meta[property="og:image"]').getAttribute('content')
      expect(image, path).toBeTruthy()
      await expect(page.locator('meta[name="twitter:image"]')).toHaveAttribute('content', image ?? '')
      seen.add(image ?? '')
      const response = await request.get(new URL(image ?? '').pathname)
      expect(response.status(), image ?? '').toBe(200)
      expect(response.headers()['content-type']).toBe('image/png')
      expect(pngSize(await response.body())).toEqual(ogImageSize)
    }
    // One image per page and language.
    expect(seen.size).toBe(pages.length)
  })
})

test('hydration keeps the prerendered page: no React warning, no layout shift, nothing the CSP refuses', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  await page.addInitScript(() => {
    const state = window as unknown as { __shifts: number[]; __refused: string[] }
    state.__shifts = []
    state.__refused = []
    document.addEventListener('securitypolicyviolation', (event) => {
      state.__refused.push(`${event.violatedDirective} ${event.sourceFile}`)
    })
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number
        hadRecentInput: boolean
      })[]) {
        if (!entry.hadRecentInput) state.__shifts.push(entry.value)
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
  // English first: once a Turkish page has been read, an English address opens its Turkish page.
  const englishFirst = [...pages].sort((a, b) => Number(a.locale === 'tr') - Number(b.locale === 'tr'))
  for (const { page: publicPage, locale, path } of englishFirst) {
    // The confirm page with no token in its link says the link does not work: another layout.
    const url = publicPage.key === 'resetPasswordConfirm' ? `${path}?token=from-the-email` : path
    await page.goto(url)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    // Hydrated: the language menu answers (it is a controlled select once React owns it).
    await page.waitForLoadState('networkidle')
    await expect(page.locator('html')).toHaveAttribute('lang', locale)
    const shifts = await page.evaluate(() => (window as unknown as { __shifts: number[] }).__shifts)
    const total = shifts.reduce((sum, value) => sum + value, 0)
    // Hydration that replaced or re-laid the prerendered page shifts it by hundredths at least;
    // Chromium on a loaded machine reports a few thousandths now and then on unchanged pages
    // (0.0015–0.003 seen on / and /tr/privacy, which pass when run again). 0.005 is 20 times
    // under what Lighthouse calls a good CLS.
    expect(total, `layout shift on ${url}`).toBeLessThanOrEqual(0.005)
    // e.g. the inline stylesheet without its hash, or a library probing eval.
    const refused = await page.evaluate(() => (window as unknown as { __refused: string[] }).__refused)
    expect(refused, `CSP refusals on ${url}`).toEqual([])
  }
  expect(problems).toEqual([])
})

test('the language menu moves between the two URLs of the same page, and / follows the remembered choice', async ({
  page,
  context,
}) => {
  const menu = (lang: Lang) =>
    page.getByRole('banner').getByRole('combobox', { name: msg(lang, 'common.language.label') })
  await page.goto('/faq?from=menu#top')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'pages.faq.title'))
  // The menu is inert until React has taken the page over.
  await expect(page.getByRole('banner').locator('div[inert]')).toHaveCount(0)
  await waitForHydration(page)

  await menu('en').selectOption({ label: 'Türkçe' })
  await expect(page).toHaveURL(/\/tr\/faq\?from=menu#top$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'pages.faq.title'))
  await expect(page.locator('html')).toHaveAttribute('lang', 'tr')
  await expect(page).toHaveTitle(trSeo.faq.title)
  // Links now lead to the Turkish pages, and following one stays in Turkish.
  await page
    .getByRole('contentinfo')
    .getByRole('link', { name: msg('tr', 'common.footer.pricing') })
    .click()
  await expect(page).toHaveURL(/\/tr\/pricing$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'pricing.title'))
  await expect(page).toHaveTitle(trSeo.pricing.title)
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/tr\/pricing$/)

  // The choice is remembered: a later visit to / lands on /tr/.
  expect((await context.cookies()).find((cookie) => cookie.name === languageCookie)?.value).toBe('tr')
  await page.goto('/')
  await expect(page).toHaveURL(/\/tr\/$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('tr', 'landing.title'))

  // Back to English: / stays /, and no address bounces between the two.
  await waitForHydration(page)
  await menu('tr').selectOption({ label: 'English' })
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'landing.title'))
  await page.goto('/')
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg('en', 'landing.title'))
})

test('a form used before the page has hydrated sends nothing and keeps nothing typed from React', async ({
  page,
}) => {
  // A slow connection: the page is on screen, its script not yet run.
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await held
    await route.continue()
  })
  // Not waiting for DOMContentLoaded: it waits for the held module script.
  await page.goto('/auth/signin', { waitUntil: 'commit' })
  const email = page.locator('form input[type="email"]')
  await expect(email).toBeVisible()
  // The form is inert: it takes no focus and no typing, so Enter cannot send it the browser's way.
  await email.click({ force: true })
  await page.keyboard.type('someone@example.com')
  await page.keyboard.press('Enter')
  expect(new URL(page.url()).search).toBe('')
  await expect(email).toHaveValue('')

  release()
  // Once hydrated, the same form takes input.
  await expect(page.locator('form')).not.toHaveAttribute('inert')
  await email.fill('someone@example.com')
  await expect(email).toHaveValue('someone@example.com')
  expect(page.url()).not.toContain('someone')
})

test('a first visit follows the browser: a Turkish one lands on /tr/, an English one stays', async ({
  browser,
}) => {
  for (const [locale, lang] of [
    ['tr-TR', 'tr'],
    ['en-US', 'en'],
  ] as const) {
    const context = await browser.newContext({ locale })
    try {
      const page = await context.newPage()
      const response = await page.goto('/')
      expect(response?.status(), locale).toBe(200)
      await expect(page).toHaveURL(localizedPath(lang, '/'))
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(msg(lang, 'landing.title'))
    } finally {
      await context.close()
    }
  }
})
