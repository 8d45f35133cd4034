import { test } from '@playwright/test'

/**
 * Where a screenshot to look at goes (not compared): the running test's own output folder, kept
 * with its other results (`test-results/…`, or wherever the config puts them).
 */
export function shotPath(name: string): string {
  return test.info().outputPath(`${name}.png`)
}
