import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { type LaunchedChrome, launch } from 'chrome-launcher'
import lighthouse, { type Result } from 'lighthouse'
import { isLocale, type Locale, locales } from '#shared/i18n/locales.ts'
import { type PublicPage, publicPages, publicPaths } from '#shared/public-pages.ts'
import { chromiumPath } from './lib/browser.ts'
import { type Figure, loadPerCore, printFigures, waitForQuietMachine } from './lib/report.ts'
import { startVitrin } from './lib/server.ts'

// `npx tsx bench/lighthouse.ts [--url http://host:port] [--pages pricing,faq] [--locales tr]`
// (also run by `npm run bench:web`): Lighthouse's default configuration (mobile, simulated
// throttling) on every indexed public page in every language, one page after another, each in a
// fresh headless Chromium as a first visit. Without --url it starts what `npm start` runs, as
// bench/web.ts does.
// Targets per page: performance ≥ 95, accessibility, best practices and SEO 100, CLS ≤ 0.05,
// LCP ≤ 2.0 s, TBT ≤ 100 ms; FCP is reported only. The figures are each metric's worst page.

const categories = [
  { id: 'performance', label: 'perf', atLeast: 95 },
  { id: 'accessibility', label: 'a11y', atLeast: 100 },
  { id: 'best-practices', label: 'bp', atLeast: 100 },
  { id: 'seo', label: 'seo', atLeast: 100 },
] as const
type CategoryId = (typeof categories)[number]['id']

const metrics = [
  { id: 'cumulative-layout-shift', label: 'CLS', budget: 0.05, unit: '', digits: 3 },
  { id: 'largest-contentful-paint', label: 'LCP', budget: 2000, unit: 'ms', digits: 0 },
  { id: 'total-blocking-time', label: 'TBT', budget: 100, unit: 'ms', digits: 0 },
  { id: 'first-contentful-paint', label: 'FCP', budget: undefined, unit: 'ms', digits: 0 },
] as const
type MetricId = (typeof metrics)[number]['id']

/** Lighthouse's own line between a passed and a failed audit (its report shows < 0.9 as failed). */
const auditPassScore = 0.9
/** Lighthouse gives up on a page load after 45 s by itself; past this the run is taken as stuck. */
const runTimeoutMs = 180_000
/**
 * Failures of Lighthouse's own recording, not of the page ("Please run Lighthouse again"): on a
 * busy 2-core machine NO_NAVSTART came up on about one page in eight of a full run, and not again
 * on a second try. Such a page is measured once more; any other failure is the page's.
 */
const retriedErrors = new Set([
  'NO_NAVSTART',
  'NO_TRACING_STARTED',
  'NO_RESOURCE_REQUEST',
  'PROTOCOL_TIMEOUT',
])

type Measured = {
  path: string
  scores: Record<CategoryId, number | null>
  values: Record<MetricId, number | null>
  failingAudits: { category: string; id: string; title: string; details: string[] }[]
}
type Row = { path: string; ms: number } & ({ ok: true; measured: Measured } | { ok: false; problem: string })

export type LighthouseOptions = {
  /** A running server to measure; without it one is started on `port`. */
  url?: string
  port?: number
  /** Page keys (src/shared/public-pages.ts) or paths without the leading slash; all when absent. */
  pages?: string[]
  locales?: Locale[]
}

/** Runs Lighthouse on the chosen public pages, prints the table and the figures; true when all hold. */
/**
 * Lighthouse's performance score is a timing: on a busy machine it measures the machine. A run
 * starts only once the load per core has settled to this (waiting up to 3 minutes) ...
 */
const quietBefore = 0.5
/** ... and counts only if, at its end, the load per core is no more than its own work explains. */
const quietAfter = 1

export async function benchLighthouse(options: LighthouseOptions = {}): Promise<boolean> {
  const targets = chooseTargets(options)
  const before = await waitForQuietMachine(quietBefore, 180_000)
  const started = performance.now()
  const server = options.url
    ? null
    : await startVitrin(options.port ?? Number(process.env.BENCH_PORT ?? 4320))
  const origin = (options.url ?? server?.url ?? '').replace(/\/+$/, '')
  let chrome = await launchChrome()
  const rows: Row[] = []
  try {
    console.log(`\nLighthouse (mobile, simulated throttling) on ${origin}: ${targets.length} pages`)
    console.log(header())
    for (const [index, path] of targets.entries()) {
      // Each page in a browser of its own, as a first visit: one profile for all would carry the
      // language cookie a Turkish page sets to the next English page, which the server then
      // redirects to its Turkish address, and the English page would go unmeasured.
      if (index > 0) {
        chrome.kill()
        chrome = await launchChrome()
      }
      const pageStarted = performance.now()
      let row: Row
      try {
        let outcome = await measure(`${origin}${path}`, chrome.port)
        if (typeof outcome === 'string' && retriedErrors.has(outcome.split(':')[0] ?? '')) {
          console.log(`   ${path}: ${outcome.split(':')[0]} on the first run; measuring it again`)
          outcome = await measure(`${origin}${path}`, chrome.port)
        }
        const ms = performance.now() - pageStarted
        row =
          typeof outcome === 'string'
            ? { path, ms, ok: false, problem: outcome }
            : { path, ms, ok: true, measured: outcome }
      } catch (error) {
        row = { path, ms: performance.now() - pageStarted, ok: false, problem: messageOf(error) }
        // A stuck or crashed run may leave the browser unusable for the next page.
        chrome.kill()
        chrome = await launchChrome()
      }
      rows.push(row)
      console.log(formatRow(row))
    }
  } finally {
    chrome.kill()
    await server?.stop()
  }
  if (rows.some((row) => !row.ok || formatRow(row).includes('!'))) console.log('  ! misses its target')
  printFailingAudits(rows)
  const after = loadPerCore()
  const isWithinBudgets = printFigures('Public pages: Lighthouse budgets (worst page)', [
    ...figuresOf(rows, performance.now() - started),
    {
      name: 'machine load per core (1 min), before the run',
      value: before.loadPerCore,
      unit: '',
      digits: 2,
      budget: quietBefore,
    },
    {
      name: 'machine load per core (1 min), after the run',
      value: after,
      unit: '',
      digits: 2,
      budget: quietAfter,
    },
  ])
  if (!before.isQuiet || after > quietAfter) {
    console.log(
      '  Not a measurement: the machine was busy with other work, so these scores time the machine, not the pages. Run it again on a quiet machine.',
    )
    return false
  }
  return isWithinBudgets
}

/** Every indexed public path in the chosen languages, filtered by page key or path. */
function chooseTargets(options: LighthouseOptions): string[] {
  const unknown = options.pages?.filter((name) => !indexedPages.some((page) => isNamed(page, name)))
  if (unknown?.length) throw new Error(unknownPages(unknown))
  return publicPaths()
    .filter(({ page }) => page.indexed)
    .filter(({ page }) => !options.pages || options.pages.some((name) => isNamed(page, name)))
    .filter(({ locale }) => !options.locales || options.locales.includes(locale))
    .map(({ path }) => path)
}

/** Pages with `indexed: false` are kept out of search engines, so out of these budgets too. */
const indexedPages: readonly PublicPage[] = publicPages.filter((page) => page.indexed)

/** A page is named by its key (`signIn`) or its English path without the slash (`auth/signin`). */
function isNamed(page: PublicPage, name: string): boolean {
  return page.key === name || page.path.slice(1) === name.replace(/^\/+/, '')
}

function unknownPages(names: string[]): string {
  return `unknown page ${names.join(', ')}; one of: ${indexedPages.map((page) => page.key).join(', ')}`
}

function launchChrome(): Promise<LaunchedChrome> {
  return launch({
    chromePath: chromiumPath,
    // chrome-launcher adds its own defaults, among them --disable-background-networking and
    // --disable-component-update: the browser's calls home (which this machine cannot make)
    // would otherwise sit beside the page's own requests.
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    logLevel: 'silent',
  })
}

/** One Lighthouse run, or why the page could not be measured. */
async function measure(url: string, port: number): Promise<Measured | string> {
  // Asked first so that a missing page reads as its status, not as Lighthouse's long error.
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) }).catch((error: unknown) => error)
  if (!(response instanceof Response)) return `unreachable: ${messageOf(response)}`
  await response.body?.cancel()
  if (!response.ok) return `HTTP ${response.status}`

  let timer: NodeJS.Timeout | undefined
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result after ${runTimeoutMs / 1000} s`)), runTimeoutMs)
  })
  const result = await Promise.race([
    lighthouse(url, {
      port,
      logLevel: 'error',
      output: 'json',
      onlyCategories: categories.map((category) => category.id),
    }),
    stuck,
  ]).finally(() => clearTimeout(timer))
  const lhr = result?.lhr
  if (!lhr) return 'Lighthouse returned no result'
  if (lhr.runtimeError) return `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`
  return readResult(new URL(url).pathname, lhr)
}

function readResult(path: string, lhr: Result): Measured {
  const scores = {} as Record<CategoryId, number | null>
  const failingAudits: Measured['failingAudits'] = []
  for (const { id, label } of categories) {
    const category = lhr.categories[id]
    const score = category?.score ?? null
    scores[id] = score === null ? null : Math.round(score * 100)
    if (!category || score === 1) continue
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id]
      if (!audit) continue
      const isFailed =
        audit.scoreDisplayMode === 'error' ||
        (['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode) &&
          audit.score !== null &&
          audit.score < auditPassScore)
      if (!isFailed) continue
      const title =
        audit.scoreDisplayMode === 'error'
          ? `${audit.title} (audit error: ${audit.errorMessage})`
          : audit.title
      failingAudits.push({
        category: label,
        id: ref.id,
        title: title.replaceAll('`', ''),
        details: detailsOf(audit.details),
      })
    }
  }
  const values = {} as Record<MetricId, number | null>
  for (const { id } of metrics) values[id] = lhr.audits[id]?.numericValue ?? null
  return { path, scores, values, failingAudits }
}

/**
 * What some audits' titles leave out: the kind of each issue Chrome logged (inspector-issues) and
 * each console error (errors-in-console), at most three.
 */
function detailsOf(details: Result['audits'][string]['details']): string[] {
  if (!details || !('items' in details) || !Array.isArray(details.items)) return []
  const texts = details.items.flatMap((item: Record<string, unknown>) =>
    typeof item.issueType === 'string'
      ? [item.issueType]
      : typeof item.description === 'string'
        ? [item.description]
        : [],
  )
  return [...new Set(texts)].slice(0, 3)
}

const widths = { path: 24, score: 5, metric: 7 }

function header(): string {
  return [
    '  ',
    'page'.padEnd(widths.path),
    ...categories.map((category) => category.label.padStart(widths.score)),
    ...metrics.map((metric) => metric.label.padStart(widths.metric)),
    'time'.padStart(widths.metric),
  ].join(' ')
}

function formatRow(row: Row): string {
  const time = `${(row.ms / 1000).toFixed(0)} s`.padStart(widths.metric)
  const start = ['  ', row.path.padEnd(widths.path)]
  if (!row.ok) return [...start, `not measured: ${row.problem}`, `(${time.trim()})`].join(' ')
  const { scores, values } = row.measured
  return [
    ...start,
    ...categories.map(({ id, atLeast }) => {
      const score = scores[id]
      return cell(score === null ? 'n/a' : String(score), score === null || score < atLeast, widths.score)
    }),
    ...metrics.map(({ id, budget }) => {
      const value = values[id]
      return cell(
        showMetric(id, value),
        value === null || (budget !== undefined && value > budget),
        widths.metric,
      )
    }),
    time,
  ].join(' ')
}

/** Near how Lighthouse shows them: CLS unitless, times in seconds except TBT. */
function showMetric(id: MetricId, value: number | null): string {
  if (value === null) return 'n/a'
  if (id === 'cumulative-layout-shift') return value.toFixed(3)
  if (id === 'total-blocking-time') return `${Math.round(value)}ms`
  // Two decimals: at one, an LCP of 2.04 s would read 2.0s beside its ≤ 2.0 s mark.
  return `${(value / 1000).toFixed(2)}s`
}

function cell(text: string, isFailing: boolean, width: number): string {
  return `${text}${isFailing ? '!' : ' '}`.padStart(width)
}

/** Each failing audit once, with the pages it fails on, so that the fix is plain. */
function printFailingAudits(rows: Row[]): void {
  const measured = rows.flatMap((row) => (row.ok ? [row.measured] : []))
  const audits = new Map<string, { line: string; paths: string[]; details: Set<string> }>()
  for (const page of measured) {
    for (const audit of page.failingAudits) {
      const key = `${audit.category}: ${audit.id}`
      const entry = audits.get(key) ?? { line: `${key} — ${audit.title}`, paths: [], details: new Set() }
      entry.paths.push(page.path)
      for (const detail of audit.details) entry.details.add(detail)
      audits.set(key, entry)
    }
  }
  if (audits.size === 0) return
  console.log('\nFailing audits')
  for (const { line, paths, details } of audits.values()) {
    const where =
      paths.length === measured.length && measured.length > 1
        ? `all ${paths.length} pages`
        : paths.length > 4
          ? `${paths.length} pages: ${paths.slice(0, 4).join(', ')} …`
          : paths.join(', ')
    console.log(`  ${line} (${where})`)
    for (const detail of [...details].slice(0, 3)) console.log(`      ${detail.slice(0, 160)}`)
  }
}

function figuresOf(rows: Row[], totalMs: number): Figure[] {
  const measured = rows.flatMap((row) => (row.ok ? [row.measured] : []))
  const figures: Figure[] = [
    { name: 'lighthouse: pages measured', value: measured.length, unit: 'pages', atLeast: rows.length },
  ]
  if (measured.length > 0) {
    for (const { id, label, atLeast } of categories) {
      // A category Lighthouse could not score counts as 0: it must not pass unseen.
      const worst = Math.min(...measured.map((page) => page.scores[id] ?? 0))
      figures.push({ name: `lighthouse: ${label} score`, value: worst, unit: '/100', atLeast })
    }
    for (const { id, label, budget, unit, digits } of metrics) {
      const worst = Math.max(...measured.map((page) => page.values[id] ?? Number.POSITIVE_INFINITY))
      figures.push({ name: `lighthouse: ${label}`, value: worst, unit, budget, digits })
    }
  }
  figures.push({ name: 'lighthouse: whole run', value: totalMs / 1000, unit: 's' })
  return figures
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { url: { type: 'string' }, pages: { type: 'string' }, locales: { type: 'string' } },
  })
  const list = (value: string | undefined) =>
    value
      ?.split(',')
      .map((item) => item.trim())
      .filter(Boolean)
  const chosenPages = list(values.pages)
  const chosenLocales = list(values.locales)
  const unknownPageNames =
    chosenPages?.filter((name) => !indexedPages.some((page) => isNamed(page, name))) ?? []
  const unknownLocales = chosenLocales?.filter((locale) => !isLocale(locale)) ?? []
  if (unknownPageNames.length > 0) console.error(unknownPages(unknownPageNames))
  if (unknownLocales.length > 0) {
    console.error(`unknown locale ${unknownLocales.join(', ')}; one of: ${locales.join(', ')}`)
  }
  if (unknownPageNames.length + unknownLocales.length > 0) process.exit(2)
  const ok = await benchLighthouse({
    url: values.url,
    pages: chosenPages,
    locales: chosenLocales?.filter(isLocale),
  })
  process.exit(ok ? 0 : 1)
}
