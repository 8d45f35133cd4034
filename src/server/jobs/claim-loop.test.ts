import { describe, expect, it } from 'vitest'
import { createLogger } from '#server/logger.ts'
import { type ClaimedWork, type ClaimLoopOptions, startClaimLoop } from './claim-loop.ts'

// The claim loop on its own: work is a list of due pieces, each finished when the test says so.
// No poll ever fires (an hour): whatever the loop does, a wake-up, a finished piece or a timer
// made it do.

type Piece = { name: string; finish: (due: Date | null) => void; failWith: (error: Error) => void }

function harness(overrides: Partial<ClaimLoopOptions> = {}) {
  const lines: string[] = []
  const log = createLogger({ level: 'info', destination: { write: (line: string) => lines.push(line) } })
  const due: string[] = []
  const started: Piece[] = []
  let claims = 0
  let claimError: Error | null = null
  let wake: () => void = () => undefined
  const claimWaiters: (() => void)[] = []
  const loop = startClaimLoop({
    log,
    now: () => new Date(),
    concurrency: 2,
    onDue: (waker) => {
      wake = waker
      return () => {
        wake = () => undefined
      }
    },
    pollMs: () => 60 * 60_000,
    claim: async (free) => {
      claims++
      for (const waiter of claimWaiters.splice(0)) waiter()
      if (claimError) throw claimError
      return due.splice(0, free).map(
        (name) =>
          new Promise<Date | null>((resolve, reject) => {
            started.push({ name, finish: resolve, failWith: reject })
          }) satisfies ClaimedWork,
      )
    },
    claimFailed: 'claiming failed',
    ...overrides,
  })
  /** Resolves at the loop's next claim after now. */
  const nextClaim = () => new Promise<void>((resolve) => claimWaiters.push(resolve))
  return {
    loop,
    lines,
    due,
    started,
    claims: () => claims,
    failClaims: (error: Error | null) => {
      claimError = error
    },
    wake: () => wake(),
    nextClaim,
  }
}

describe('the claim loop', () => {
  it('fills its free slots, and a freed slot takes what was left without a wake-up', async () => {
    const h = harness()
    const claimed = h.nextClaim()
    h.due.push('a', 'b', 'c')
    h.wake()
    await claimed
    await expect.poll(() => h.started.map((piece) => piece.name)).toEqual(['a', 'b'])
    const again = h.nextClaim()
    h.started[0]?.finish(null)
    await again
    await expect.poll(() => h.started.map((piece) => piece.name)).toEqual(['a', 'b', 'c'])
    h.started[1]?.finish(null)
    h.started[2]?.finish(null)
    await h.loop.stop()
  })

  it('sleeps after a round that left slots free, until woken', async () => {
    const h = harness()
    const claimed = h.nextClaim()
    h.due.push('a')
    h.wake()
    await claimed
    await expect.poll(() => h.started.length).toBe(1)
    const claimsBefore = h.claims()
    h.started[0]?.finish(null)
    await h.loop.stop()
    // The round had a free slot left, so nothing more was due: finishing did not look again.
    expect(h.claims()).toBe(claimsBefore)
  })

  it('looks again when a piece of its own comes due again', async () => {
    const h = harness()
    h.due.push('a')
    const claimed = h.nextClaim()
    h.wake()
    await claimed
    await expect.poll(() => h.started.length).toBe(1)
    h.due.push('a again')
    const byTimer = h.nextClaim()
    h.started[0]?.finish(new Date(Date.now() - 1))
    await byTimer
    await expect.poll(() => h.started.map((piece) => piece.name)).toEqual(['a', 'a again'])
    h.started[1]?.finish(null)
    await h.loop.stop()
  })

  it('looks again when its timer fires before the app clock says the piece is due', async () => {
    // A busy event loop fires a timer early by the app's clock (its own time is read late), and
    // an app clock may run slow: either way the piece is not yet due when the timer fires. The
    // loop must set its timer again, not sleep until the poll (an hour here).
    const start = Date.now()
    const slowClock = () => new Date(start + (Date.now() - start) / 2)
    let dueAt: Date | null = null
    const started: string[] = []
    let finishFirst: (due: Date | null) => void = () => undefined
    let wake: () => void = () => undefined
    const loop = startClaimLoop({
      log: createLogger({ level: 'silent' }),
      now: slowClock,
      concurrency: 2,
      onDue: (waker) => {
        wake = waker
        return () => undefined
      },
      pollMs: () => 60 * 60_000,
      claim: async () => {
        if (started.length === 0) {
          started.push('a')
          return [new Promise<Date | null>((resolve) => (finishFirst = resolve))]
        }
        if (dueAt && dueAt <= slowClock()) {
          dueAt = null
          started.push('a again')
          return [Promise.resolve(null)]
        }
        return []
      },
      claimFailed: 'claiming failed',
    })
    wake()
    await expect.poll(() => started).toEqual(['a'])
    dueAt = new Date(slowClock().getTime() + 40)
    finishFirst(dueAt)
    await expect.poll(() => started, { timeout: 2_000 }).toEqual(['a', 'a again'])
    await loop.stop()
  })

  it('logs a failed claim and claims again at the next wake-up', async () => {
    const h = harness()
    h.failClaims(new Error('the database went away'))
    const failed = h.nextClaim()
    h.wake()
    await failed
    await expect.poll(() => h.lines.some((line) => line.includes('claiming failed'))).toBe(true)
    h.failClaims(null)
    h.due.push('a')
    const claimed = h.nextClaim()
    h.wake()
    await claimed
    await expect.poll(() => h.started.length).toBe(1)
    h.started[0]?.finish(null)
    await h.loop.stop()
  })

  it('stops only once the pieces under way are done, and takes nothing new meanwhile', async () => {
    const h = harness()
    const claimed = h.nextClaim()
    h.due.push('a')
    h.wake()
    await claimed
    await expect.poll(() => h.started.length).toBe(1)
    let isStopped = false
    const stopping = h.loop.stop().then(() => {
      isStopped = true
    })
    h.due.push('b')
    h.wake()
    await Promise.resolve()
    expect(isStopped).toBe(false)
    h.started[0]?.failWith(new Error('a piece that broke its promise'))
    await stopping
    expect(h.started.map((piece) => piece.name)).toEqual(['a'])
    expect(h.lines.some((line) => line.includes('a claimed piece of work failed'))).toBe(true)
  })
})
