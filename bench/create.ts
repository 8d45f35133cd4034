import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page, Response } from '@playwright/test'
import sharp from 'sharp'
import { gzippedKB, launchChromium } from './lib/browser.ts'
import { type Figure, printFigures } from './lib/report.ts'
import { startVitrin } from './lib/server.ts'
import { ensureBenchWebBuild } from './lib/web-dist.ts'

// `npx tsx bench/create.ts` (also run by `npm run bench:web` and `npm run bench`): the signed-in
// Create screen, in Chromium against the real server on a private build of the web app.
// - Every JavaScript file the browser downloads to show /app/create (entry, shared chunks, the
//   page's lazy chunk and its imports, the language catalogue), gzipped: at most 200 KB.
// - Clicking Generate to the offline studio's image shown, timed inside the page; report only.

const accessCode = 'BENCH1'
const generateRuns = 5
const jsBudgetKB = 200

/** Signs in with the beta access code on /access, as a visitor would; returns the session cookies. */
async function signIn(browser: Browser, url: string) {
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(`${url}/access?next=/app/create`)
    await page.getByRole('textbox').fill(accessCode)
    await page.locator('button[type=submit]').click()
    // (A glob would match the `next` parameter of the /access URL itself.)
    await page.waitForURL((target) => target.pathname === '/app/create')
    await page.getByTestId('generate').waitFor({ state: 'visible' })
    return await context.storageState()
  } finally {
    await context.close()
  }
}

/** Opens /app/create and returns every script the page downloaded until Generate is visible. */
async function loadCreateScreen(page: Page, url: string): Promise<{ url: string; body: Buffer }[]> {
  const scripts: Promise<{ url: string; body: Buffer }>[] = []
  let isShown = false
  const onResponse = (response: Response) => {
    if (isShown || response.request().resourceType() !== 'script') return
    scripts.push(response.body().then((body) => ({ url: response.url(), body })))
  }
  page.on('response', onResponse)
  await page.goto(`${url}/app/create`)
  await page.getByTestId('generate').waitFor({ state: 'visible' })
  isShown = true
  page.off('response', onResponse)
  if (!new URL(page.url()).pathname.startsWith('/app/create')) {
    throw new Error(`expected /app/create, landed on ${page.url()}`)
  }
  return Promise.all(scripts)
}

/** An 800×800 product photo: a coloured box on a plain light backdrop. */
async function productPhoto(): Promise<Buffer> {
  const box = await sharp({ create: { width: 360, height: 480, channels: 3, background: '#b91c1c' } })
    .png()
    .toBuffer()
  return sharp({ create: { width: 800, height: 800, channels: 3, background: '#f1f5f9' } })
    .composite([{ input: box, top: 160, left: 220 }])
    .png()
    .toBuffer()
}

/**
 * Run in the page: notes performance.now() at the click on Generate (window.benchClickAt) and
 * when the result image has loaded (window.benchShownAt). A string, because tsx would wrap the
 * named functions of a compiled callback in a helper that does not exist in the page.
 */
const watchGenerate = `(() => {
  const isShown = () => {
    const img = document.querySelector('[data-testid=result-image]')
    return img !== null && img.complete && img.naturalWidth > 0
  }
  const check = () => {
    if (window.benchClickAt === undefined || window.benchShownAt !== undefined || !isShown()) return
    window.benchShownAt = performance.now()
  }
  document.addEventListener('click', (event) => {
    if (event.target.closest('[data-testid=generate]')) window.benchClickAt = performance.now()
  }, { capture: true })
  // The image's load event (captured, as load does not bubble) and any change to the page.
  document.addEventListener('load', check, { capture: true })
  new MutationObserver(check).observe(document.body, { childList: true, subtree: true, attributes: true })
})()`

/**
 * Uploads the photo, clicks Generate and returns the ms, by the page's own clock
 * (performance.now()), from the click to the result image loaded (complete, naturalWidth > 0).
 */
async function timeGenerate(page: Page, url: string, photo: Buffer): Promise<number> {
  await page.goto(`${url}/app/create`)
  await page.getByTestId('generate').waitFor({ state: 'visible' })
  await page
    .locator('input[type=file]')
    .first()
    .setInputFiles({ name: 'product.png', mimeType: 'image/png', buffer: photo })
  await page.getByText('Uploaded').waitFor()
  await page.evaluate(watchGenerate)
  await page.getByTestId('generate').click()
  await page.waitForFunction(
    () => (window as unknown as { benchShownAt?: number }).benchShownAt !== undefined,
    undefined,
    { timeout: 60_000 },
  )
  return page.evaluate(() => {
    const w = window as unknown as { benchClickAt: number; benchShownAt: number }
    return w.benchShownAt - w.benchClickAt
  })
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/**
 * Run in the page before anything else: notes performance.now() (from the navigation's start)
 * when the first h1 with text appears, as window.benchHeadingAt.
 */
const watchFirstHeading = `(() => {
  const observer = new MutationObserver(() => {
    const heading = document.querySelector('h1')
    if (!heading || !heading.textContent.trim()) return
    window.benchHeadingAt = performance.now()
    observer.disconnect()
  })
  observer.observe(document, { childList: true, subtree: true, characterData: true })
})()`

/** /app opened in a new context (an empty HTTP cache, as a first visit of the day), to its first heading. */
async function timeDashboardColdLoad(
  browser: Browser,
  url: string,
  storageState: Awaited<ReturnType<typeof signIn>>,
): Promise<number> {
  const context = await browser.newContext({ storageState })
  try {
    const page = await context.newPage()
    await page.addInitScript(watchFirstHeading)
    await page.goto(`${url}/app`)
    await page.locator('h1').first().waitFor({ state: 'visible' })
    if (new URL(page.url()).pathname !== '/app') throw new Error(`expected /app, landed on ${page.url()}`)
    return await page
      .waitForFunction(() => (window as unknown as { benchHeadingAt?: number }).benchHeadingAt)
      .then((handle) => handle.jsonValue() as Promise<number>)
  } finally {
    await context.close()
  }
}

/** Runs the Create screen's benchmarks, prints them and returns whether every budget holds. */
export async function benchCreateScreen(port = Number(process.env.BENCH_PORT ?? 4310)): Promise<boolean> {
  const build = await ensureBenchWebBuild()
  if (build.outcome === 'built') console.log(`web app built for the benchmarks into ${build.dir}`)
  const server = await startVitrin(port, { ACCESS_CODES: accessCode }, { webDistDir: build.dir })
  const browser = await launchChromium()
  const figures: Figure[] = []
  try {
    const storageState = await signIn(browser, server.url)
    const dashboardRuns: number[] = []
    for (let i = 0; i < generateRuns; i++)
      dashboardRuns.push(await timeDashboardColdLoad(browser, server.url, storageState))
    // A new context has an empty HTTP cache, so every file the screen needs is downloaded.
    const context = await browser.newContext({ storageState })
    const page = await context.newPage()
    const scripts = await loadCreateScreen(page, server.url)
    if (process.env.BENCH_VERBOSE) {
      for (const s of scripts) console.log(`  ${gzippedKB([s.body]).toFixed(1).padStart(6)} KB  ${s.url}`)
    }
    const photo = await productPhoto()
    const timings: number[] = []
    for (let i = 0; i < generateRuns; i++) timings.push(await timeGenerate(page, server.url, photo))
    figures.push(
      {
        name: '/app/create: JavaScript incl. shared chunks (gzip)',
        value: gzippedKB(scripts.map((s) => s.body)),
        unit: 'KB',
        budget: jsBudgetKB,
      },
      { name: '/app/create: JavaScript files downloaded', value: scripts.length, unit: 'files' },
      {
        name: `/app cold load (empty cache) to first heading, median of ${generateRuns}`,
        value: median(dashboardRuns),
        unit: 'ms',
        budget: 1000,
      },
      {
        name: `Generate click to offline image shown, median of ${generateRuns}`,
        value: median(timings),
        unit: 'ms',
      },
      {
        name: `Generate click to offline image shown, max of ${generateRuns}`,
        value: Math.max(...timings),
        unit: 'ms',
      },
    )
  } finally {
    await browser.close()
    await server.stop()
  }
  return printFigures('Create screen budgets (Chromium, signed-in beta user)', figures)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit((await benchCreateScreen()) ? 0 : 1)
}
