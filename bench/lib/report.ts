import { availableParallelism, loadavg } from 'node:os'
import { setTimeout as delay } from 'node:timers/promises'

/**
 * One measured figure against its budget: at most `budget`, or at least `atLeast` (a score);
 * neither means "report only". `digits`: decimals shown (default 0; 1 for KB and /job).
 */
export type Figure = {
  name: string
  value: number
  unit: string
  budget?: number
  atLeast?: number
  digits?: number
}

/** Prints figures as a table and returns whether every budget holds. */
export function printFigures(title: string, figures: Figure[]): boolean {
  console.log(`\n${title}`)
  let isWithinBudgets = true
  for (const f of figures) {
    const value = `${f.value.toFixed(f.digits ?? (f.unit === 'KB' || f.unit === '/job' ? 1 : 0))} ${f.unit}`
    const verdict =
      f.atLeast !== undefined
        ? f.value >= f.atLeast
          ? `ok (at least ${f.atLeast} ${f.unit})`
          : `UNDER (at least ${f.atLeast} ${f.unit})`
        : f.budget === undefined
          ? 'report'
          : f.value <= f.budget
            ? `ok (budget ${f.budget} ${f.unit})`
            : `OVER (budget ${f.budget} ${f.unit})`
    if (f.budget !== undefined && f.value > f.budget) isWithinBudgets = false
    if (f.atLeast !== undefined && f.value < f.atLeast) isWithinBudgets = false
    console.log(`  ${f.name.padEnd(48)} ${value.padStart(12)}  ${verdict}`)
  }
  return isWithinBudgets
}

/** The machine's 1-minute load average: on a shared 2-core machine, read every time figure beside it. */
export function machineLoad(): Figure {
  return { name: 'machine load average (1 min) at the start', value: loadavg()[0] ?? Number.NaN, unit: '' }
}

/** The 1-minute load average per core. */
export function loadPerCore(): number {
  return (loadavg()[0] ?? Number.NaN) / availableParallelism()
}

/**
 * Waits (up to `maxWaitMs`, looking every 5 s) for the machine to be quiet enough that a timing
 * means something: a 1-minute load average per core at most `atMost`. Returns the load it saw
 * last and whether it was quiet.
 */
export async function waitForQuietMachine(
  atMost: number,
  maxWaitMs: number,
): Promise<{ isQuiet: boolean; loadPerCore: number }> {
  const until = Date.now() + maxWaitMs
  for (;;) {
    const load = loadPerCore()
    if (load <= atMost) return { isQuiet: true, loadPerCore: load }
    if (Date.now() >= until) return { isQuiet: false, loadPerCore: load }
    await delay(5000)
  }
}
