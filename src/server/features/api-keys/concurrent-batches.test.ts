import { describe, expect, it } from 'vitest'
import { concurrentBatches } from './concurrent-batches.ts'

/** A run per call to `run`, each ended by the test: what it was asked for, and its ending. */
function controlledRuns() {
  const runs: { input: string; size: number; end: (value: string) => void; fail: (error: Error) => void }[] =
    []
  const run = (input: string, size: number) =>
    new Promise<string>((resolve, reject) => {
      runs.push({ input, size, end: resolve, fail: reject })
    })
  return { runs, run }
}

/** Lets the settled promises' callbacks run (the next run starts from one of them). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('concurrentBatches', () => {
  it('starts a lone call at once, and sends the calls that arrive meanwhile together in the next run', async () => {
    const { runs, run } = controlledRuns()
    const call = concurrentBatches(run)
    const first = call('key-a', 'a')
    expect(runs.map(({ size }) => size)).toEqual([1])

    // Three more arrive while the first run is in flight: none joins it.
    const waiting = [call('key-a', 'a'), call('key-a', 'a'), call('key-a', 'a')]
    expect(runs).toHaveLength(1)
    runs[0]?.end('first')
    expect(await first).toEqual({ result: 'first', index: 0, size: 1 })

    await settle()
    expect(runs.map(({ size }) => size)).toEqual([1, 3])
    runs[1]?.end('second')
    expect(await Promise.all(waiting)).toEqual([
      { result: 'second', index: 0, size: 3 },
      { result: 'second', index: 1, size: 3 },
      { result: 'second', index: 2, size: 3 },
    ])

    // The lane is idle again: the next call runs alone, at once.
    const later = call('key-a', 'a')
    expect(runs.map(({ size }) => size)).toEqual([1, 3, 1])
    runs[2]?.end('third')
    expect(await later).toEqual({ result: 'third', index: 0, size: 1 })
  })

  it('keeps lanes apart, and fails only the calls of a failed run', async () => {
    const { runs, run } = controlledRuns()
    const call = concurrentBatches(run)
    const a = call('key-a', 'a')
    const b = call('key-b', 'b')
    expect(runs.map(({ input, size }) => [input, size])).toEqual([
      ['a', 1],
      ['b', 1],
    ])
    const aAgain = call('key-a', 'a')
    runs[0]?.fail(new Error('database gone'))
    await expect(a).rejects.toThrow('database gone')

    await settle()
    runs[1]?.end('b done')
    runs[2]?.end('a done')
    expect(await b).toEqual({ result: 'b done', index: 0, size: 1 })
    expect(await aAgain).toEqual({ result: 'a done', index: 0, size: 1 })
  })
})
