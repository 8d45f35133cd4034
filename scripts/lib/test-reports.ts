import { relative } from 'node:path'

// The failed tests of a run, read from Vitest's and Playwright's JSON reports, one line each,
// so the last lines of a run name what failed as well as how many.

export type VitestReport = {
  testResults: {
    name: string
    status: string
    message?: string
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[]
  }[]
}

export type PlaywrightSuite = {
  title: string
  file?: string
  suites?: PlaywrightSuite[]
  specs?: {
    title: string
    file: string
    line: number
    tests: { projectName: string; status: string; results: { error?: { message?: string } }[] }[]
  }[]
}

export type PlaywrightReport = { suites?: PlaywrightSuite[] }

/** The first line of an error, without terminal colours, at most 300 characters. */
export function firstLine(text: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes in reporter text
  const plain = (text ?? '').replace(/\u001b\[[0-9;]*m/g, '').trim()
  return (plain.split('\n')[0] || 'no message').slice(0, 300)
}

/** Each failed test, and each file that failed without a failed test (it did not load). */
export function vitestFailures(report: VitestReport, root: string): string[] {
  const failures: string[] = []
  for (const file of report.testResults) {
    const where = relative(root, file.name)
    const failed = file.assertionResults.filter((test) => test.status === 'failed')
    for (const test of failed)
      failures.push(`vitest ${where} › ${test.fullName}: ${firstLine(test.failureMessages[0])}`)
    if (file.status === 'failed' && failed.length === 0)
      failures.push(`vitest ${where}: ${firstLine(file.message)}`)
  }
  return failures
}

/** Each test that ended unexpectedly, with its project, place and describe titles. */
export function playwrightFailures(report: PlaywrightReport): string[] {
  const failures: string[] = []
  const visit = (suites: PlaywrightSuite[] | undefined, titles: string[]) => {
    for (const suite of suites ?? []) {
      // A file's own suite is titled by its path; the place already names it.
      const path = suite.file === suite.title ? titles : [...titles, suite.title]
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests) {
          if (test.status !== 'unexpected') continue
          const name = [...path, spec.title].join(' › ')
          const error = test.results.at(-1)?.error?.message
          failures.push(`e2e [${test.projectName}] ${spec.file}:${spec.line} › ${name}: ${firstLine(error)}`)
        }
      visit(suite.suites, path)
    }
  }
  visit(report.suites, [])
  return failures
}
