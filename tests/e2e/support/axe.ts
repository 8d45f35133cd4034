import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/** Runs axe on the page and fails, listing each problem, on any serious or critical violation. */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(wcagTags).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  const report = serious
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n` +
        v.nodes
          .slice(0, 5)
          .map((n) => `    at ${n.target.join(' ')}: ${n.failureSummary?.replaceAll('\n', ' ')}`)
          .join('\n'),
    )
    .join('\n')
  expect(serious, `accessibility violations on ${page.url()}:\n${report}`).toEqual([])
}
