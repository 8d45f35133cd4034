import { describe, expect, it } from 'vitest'
import { firstLine, playwrightFailures, vitestFailures } from './test-reports.ts'

// Shapes as Vitest's and Playwright's JSON reporters write them (trimmed to what is read).

describe('vitestFailures', () => {
  it('names each failed test by file and full name, with its first error line', () => {
    const failures = vitestFailures(
      {
        testResults: [
          {
            name: '/repo/src/a.test.ts',
            status: 'failed',
            assertionResults: [
              {
                fullName: 'outer fails here',
                status: 'failed',
                failureMessages: ['AssertionError: expected 1 to be 2\n    at a.test.ts:3:5'],
              },
              { fullName: 'outer passes', status: 'passed', failureMessages: [] },
            ],
          },
          { name: '/repo/src/b.test.ts', status: 'passed', assertionResults: [] },
        ],
      },
      '/repo',
    )
    expect(failures).toEqual(['vitest src/a.test.ts › outer fails here: AssertionError: expected 1 to be 2'])
  })

  it('names a file that failed to load, which has no failed test of its own', () => {
    const failures = vitestFailures(
      {
        testResults: [
          {
            name: '/repo/src/c.test.ts',
            status: 'failed',
            message: 'Failed to load url ./missing.ts',
            assertionResults: [],
          },
        ],
      },
      '/repo',
    )
    expect(failures).toEqual(['vitest src/c.test.ts: Failed to load url ./missing.ts'])
  })
})

describe('playwrightFailures', () => {
  it('names each unexpected test by project, place and describe titles; passes and flakes are left out', () => {
    const test = (projectName: string, status: string, message?: string) => ({
      projectName,
      status,
      results: [{ error: message === undefined ? undefined : { message } }],
    })
    const failures = playwrightFailures({
      suites: [
        {
          title: 'billing.spec.ts',
          file: 'billing.spec.ts',
          specs: [
            { title: 'top level', file: 'billing.spec.ts', line: 4, tests: [test('desktop', 'expected')] },
          ],
          suites: [
            {
              title: 'billing in tr',
              file: 'billing.spec.ts',
              specs: [
                {
                  title: 'buys a pack',
                  file: 'billing.spec.ts',
                  line: 12,
                  tests: [
                    test('desktop', 'unexpected', '\u001b[2mexpect(\u001b[22mreceived).toBe(expected)\nmore'),
                    test('phone', 'flaky'),
                  ],
                },
              ],
            },
          ],
        },
      ],
    })
    expect(failures).toEqual([
      'e2e [desktop] billing.spec.ts:12 › billing in tr › buys a pack: expect(received).toBe(expected)',
    ])
  })
})

describe('firstLine', () => {
  it('says so when there is no message, and keeps a long line to 300 characters', () => {
    expect(firstLine(undefined)).toBe('no message')
    expect(firstLine('  \n')).toBe('no message')
    expect(firstLine('x'.repeat(500))).toHaveLength(300)
  })
})
