import { benchCreateScreen } from './create.ts'
import { gzippedKB, launchChromium } from './lib/browser.ts'
import { type Figure, printFigures } from './lib/report.ts'
import { startVitrin } from './lib/server.ts'

// `npm run bench:web`: the public site's budgets.
// - JavaScript and CSS the landing page loads before its first render, gzipped, measured in Chromium.
// - Time from starting what `npm start` runs (scripts/start.ts; npm's own start-up not counted)
//   on an installed checkout to `/` being served (build reused).
// - The signed-in Create screen's JavaScript and its Generate-to-image time (bench/create.ts).

const port = Number(process.env.BENCH_PORT ?? 4300)

// The first start may build; the second must reuse that build, which is the figure that matters.
// The second start also finds the data folder the first one made, as a restart would.
const first = await startVitrin(port, {}, { keepData: true })
await first.stop()
const server = await startVitrin(port + 1, {}, { dataDir: first.dataDir })

const browser = await launchChromium()
const figures: Figure[] = []
try {
  const page = await browser.newPage()
  // The first render is when the landing page's h1 enters the document (seen by the page's own
  // clock); a file counts when the browser asked for it before then. What is fetched after
  // (the rest of the language's text, loaded while the reader reads) does not.
  await page.addInitScript(() => {
    const marker = window as unknown as { __renderAt?: number }
    const observer = new MutationObserver(() => {
      if (marker.__renderAt === undefined && document.querySelector('h1')) {
        marker.__renderAt = performance.now()
        observer.disconnect()
      }
    })
    observer.observe(document, { childList: true, subtree: true })
  })
  const reads: Promise<{ url: string; type: 'js' | 'css'; bytes: Buffer }>[] = []
  page.on('response', (response) => {
    const url = response.url()
    const type = url.endsWith('.js') ? 'js' : url.endsWith('.css') ? 'css' : null
    if (!type) return
    reads.push(response.body().then((bytes) => ({ url, type, bytes })))
  })
  await page.goto(`${server.url}/`)
  await page.getByRole('heading', { level: 1 }).waitFor()
  await page.waitForLoadState('networkidle')
  const beforeRender = new Set(
    await page.evaluate(() => {
      const renderAt = (window as unknown as { __renderAt?: number }).__renderAt ?? Number.POSITIVE_INFINITY
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime < renderAt)
        .map((entry) => entry.name)
    }),
  )
  const bodies = (await Promise.all(reads)).filter((body) => beforeRender.has(body.url))
  const gz = (type: 'js' | 'css') => gzippedKB(bodies.filter((b) => b.type === type).map((b) => b.bytes))
  figures.push(
    { name: 'landing: JavaScript before first render (gzip)', value: gz('js'), unit: 'KB', budget: 100 },
    { name: 'landing: CSS (gzip)', value: gz('css'), unit: 'KB', budget: 25 },
    {
      name: 'start to / served, first start (new data folder, may build)',
      value: first.msToServe,
      unit: 'ms',
    },
    { name: 'start to / served, build and data reused', value: server.msToServe, unit: 'ms' },
  )
} finally {
  await browser.close()
  await server.stop()
}
const ok = printFigures('Public site budgets', figures)
const isCreateOk = await benchCreateScreen(port + 2)
process.exit(ok && isCreateOk ? 0 : 1)
