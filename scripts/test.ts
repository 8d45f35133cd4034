import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { run } from './lib/run.ts'
import { ensureSystemPackages } from './lib/system-deps.ts'
import {
  type PlaywrightReport,
  playwrightFailures,
  type VitestReport,
  vitestFailures,
} from './lib/test-reports.ts'

// `npm test`: every check in one command: typecheck, lint, unit + web + server tests (and the
// server suite again on PostgreSQL when TEST_DATABASE_URL is set), a production build, and the
// end-to-end tests in Chromium. It runs every stage, then prints one plain total line.

type Tally = { passed: number; failed: number; skipped: number }
const total: Tally = { passed: 0, failed: 0, skipped: 0 }
const stages: { name: string; tally: Tally }[] = []
/** Each failed test's name and first line of its error, repeated after the summary. */
const failures: string[] = []
const out = '.test-output'
mkdirSync(out, { recursive: true })

function record(name: string, tally: Tally) {
  stages.push({ name, tally })
  total.passed += tally.passed
  total.failed += tally.failed
  total.skipped += tally.skipped
}

/** A check with no test count of its own counts as one test. */
async function check(name: string, command: string, args: string[]) {
  console.log(`\n▶ ${name}`)
  const code = await run(command, args)
  record(name, { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 })
}

function readJson<T>(path: string): T | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T
  } catch {
    return null
  }
}

const only = process.argv.slice(2)
const wants = (stage: string) => only.length === 0 || only.includes(stage)

// The project's TypeScript by its path: `typescript-5` (for openapi-typescript) also ships a `tsc`
// binary, and which one node_modules/.bin/tsc links to depends on how the tree was installed.
if (wants('typecheck')) await check('typecheck', 'npm', ['run', '--silent', 'typecheck'])
// Biome, then the import boundaries of docs/conventions.md (scripts/check-boundaries.ts).
if (wants('lint')) await check('lint', 'npm', ['run', '--silent', 'lint'])

/** One vitest run with its JSON report, recorded as stage `name`. */
async function vitest(name: string, title: string, args: string[]) {
  console.log(`\n▶ ${title}`)
  const report = `${out}/${name}.json`
  rmSync(report, { force: true })
  const code = await run('vitest', [
    'run',
    ...args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ])
  const json = readJson<
    VitestReport & {
      numPassedTests: number
      numFailedTests: number
      numPendingTests: number
      numTodoTests: number
    }
  >(report)
  if (json) {
    failures.push(...vitestFailures(json, process.cwd()))
    // A file that fails to load has no failed test of its own; count the run as failed then.
    const failed = json.numFailedTests + (code !== 0 && json.numFailedTests === 0 ? 1 : 0)
    record(name, {
      passed: json.numPassedTests,
      failed,
      skipped: json.numPendingTests + json.numTodoTests,
    })
  } else {
    record(name, { passed: 0, failed: 1, skipped: 0 })
  }
}

if (wants('vitest')) {
  const projects = ['unit', 'web', 'server', ...(process.env.TEST_DATABASE_URL ? ['server-pg'] : [])]
  await vitest(
    'vitest',
    'unit, web and server tests (vitest)',
    projects.flatMap((project) => ['--project', project]),
  )
  // Tests that time the server's answers, with no other test file running beside them.
  await vitest('alone', 'timed server tests, alone (vitest)', ['--project', 'alone', '--maxWorkers=1'])
}

if (wants('e2e')) {
  await check('build', 'tsx', ['scripts/build.ts'])
  console.log('\n▶ end-to-end tests (Playwright, Chromium)')
  const hasBrowser = await ensureSystemPackages([{ name: 'chromium', binary: '/usr/bin/chromium' }])
  if (!hasBrowser || !existsSync('dist/web/index.html')) {
    record('e2e', { passed: 0, failed: 1, skipped: 0 })
  } else {
    const report = `${out}/playwright.json`
    rmSync(report, { force: true })
    const code = await run('playwright', ['test'], { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report } })
    const json = readJson<
      PlaywrightReport & {
        stats: { expected: number; unexpected: number; flaky: number; skipped: number }
      }
    >(report)
    if (json) {
      failures.push(...playwrightFailures(json))
      const failed = json.stats.unexpected + (code !== 0 && json.stats.unexpected === 0 ? 1 : 0)
      record('e2e', { passed: json.stats.expected + json.stats.flaky, failed, skipped: json.stats.skipped })
    } else {
      record('e2e', { passed: 0, failed: 1, skipped: 0 })
    }
  }
}

if (failures.length > 0) {
  console.log('\nFailed')
  for (const failure of failures) console.log(`  ${failure}`)
}
console.log('\nSummary')
for (const stage of stages) {
  console.log(`  ${stage.name.padEnd(10)} ${stage.tally.passed} passed, ${stage.tally.failed} failed`)
}
console.log(
  `${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`,
)
process.exit(total.failed > 0 ? 1 : 0)
