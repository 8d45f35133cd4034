import { benchCreateScreen } from './create.ts'
import { gzippedKB } from './lib/browser.ts'
import { type Figure, printFigures } from './lib/report.ts'
import { startVitrin } from './lib/server.ts'
import { benchLighthouse } from './lighthouse.ts'

// `npm run bench:web`: the public site's budgets.
// - JavaScript the prerendered landing page loads to hydrate, and its inline CSS, gzipped.
// - Time from starting what `npm start` runs (scripts/start.js; npm's own start-up not counted)
//   on an installed checkout to `/` being served (build reused).
// - The signed-in Create screen's JavaScript and its Generate-to-image time (bench/create.ts).
// - Lighthouse (mobile) on every indexed public page in every language (bench/lighthouse.ts).

const port = Number(process.env.BENCH_PORT ?? 4300)

// The first start may build; the second must reuse that build, which is the figure that matters.
// The second start also finds the data folder the first one made, as a restart would.
const first = await startVitrin(port, {}, { keepData: true })
await first.stop()
const server = await startVitrin(port + 1, {}, { dataDir: first.dataDir })

const figures: Figure[] = []
try {
  // The landing page arrives prerendered: its text and styles are in the HTML (the stylesheet
  // inlined), so the first render needs no file at all. What the budget holds now is the
  // JavaScript the page asks for to hydrate: the entry script and the modules the HTML preloads
  // (its own chunk and its language's text). What is fetched after hydration (the rest of the
  // language's text, loaded while the reader reads) does not count.
  const response = await fetch(`${server.url}/`)
  const html = await response.text()
  // public/hydrate.js (under /assets by its content) starts the entry and preloads the modules the
  // build listed for the page.
  const starter =
    /<script src="\/assets\/hydrate-[0-9a-f]+\.js" data-entry="([^"]+)" data-preload="([^"]*)"/.exec(html)
  if (!starter) throw new Error('the landing page has no hydrate.js starter: is it prerendered?')
  const scripts = [starter[1] ?? '', ...(starter[2] ?? '').split(' ').filter(Boolean)]
  const bodies = await Promise.all(
    scripts.map(async (src) => Buffer.from(await (await fetch(new URL(src, server.url))).arrayBuffer())),
  )
  const inlineCss = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) =>
    Buffer.from(match[1] ?? ''),
  )
  figures.push(
    { name: 'landing: JavaScript to hydrate (gzip)', value: gzippedKB(bodies), unit: 'KB', budget: 100 },
    { name: 'landing: CSS, inline (gzip)', value: gzippedKB(inlineCss), unit: 'KB', budget: 25 },
    { name: 'landing: HTML with its CSS (gzip)', value: gzippedKB([Buffer.from(html)]), unit: 'KB' },
    {
      name: 'start to / served, first start (new data folder, may build)',
      value: first.msToServe,
      unit: 'ms',
    },
    { name: 'start to / served, build and data reused', value: server.msToServe, unit: 'ms' },
  )
} finally {
  await server.stop()
}
const ok = printFigures('Public site budgets', figures)
const isCreateOk = await benchCreateScreen(port + 2)
// Last: at about 10 s a page it is by far the longest part, and the figures above need not wait.
const isLighthouseOk = await benchLighthouse({ port: port + 3 })
process.exit(ok && isCreateOk && isLighthouseOk ? 0 : 1)
