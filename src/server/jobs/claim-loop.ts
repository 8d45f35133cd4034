import type { Logger } from '#server/logger.ts'

// The loop shared by the worker's background senders (the publisher, the webhook dispatcher): it
// claims due work under a lease while it has free slots, runs each piece beside the others, and
// sleeps until something wakes it: the notifier (work written in this or another process), a
// timer for a piece of its own that comes due again, or the poll (other processes' work, leases of
// stopped processes). Any number of processes may run one: the claim is where two never meet.

/** One claimed piece of work: done with its next due time (a timer wakes the loop then), or null. */
export type ClaimedWork = Promise<Date | null>

export type ClaimLoopOptions = {
  log: Logger
  /** The app clock (tests move it); timers are set by the difference from it. */
  now: () => Date
  /** Pieces of work in flight at once (each mostly waits on another server). */
  concurrency: number
  /** Subscribes to "work is due" notices; answers the unsubscribe. */
  onDue: (wake: () => void) => () => void
  /** How often to look when nothing wakes the loop. */
  pollMs: () => number
  /**
   * Claims up to `free` due pieces and starts each; an empty list when none is due. A started
   * piece never rejects (it logs its own failure and answers null).
   */
  claim: (free: number) => Promise<ClaimedWork[]>
  /** Logged when a claim fails (the database); the loop looks again at the next wake-up. */
  claimFailed: string
}

export type ClaimLoop = { stop: () => Promise<void> }

export function startClaimLoop(options: ClaimLoopOptions): ClaimLoop {
  const { log, concurrency } = options
  const running = new Set<Promise<void>>()
  const wakers = new Set<() => void>()
  const timers = new Set<NodeJS.Timeout>()
  let isStopping = false
  let hasNews = true

  const wake = () => {
    hasNews = true
    for (const waker of [...wakers]) waker()
  }
  const unsubscribe = options.onDue(wake)

  /**
   * Wakes the loop when a piece of ours comes due again by the app clock. A timer may fire before
   * that clock reaches the due time (a busy event loop reads its own time late, and tests slow the
   * clock): then it is set again for what is left, since a claim made early finds nothing and the
   * loop would sleep until the poll.
   */
  const wakeAt = (due: Date) => {
    if (isStopping) return
    const left = due.getTime() - options.now().getTime()
    if (left <= 0) {
      wake()
      return
    }
    const timer = setTimeout(() => {
      timers.delete(timer)
      wakeAt(due)
    }, left)
    timer.unref()
    timers.add(timer)
  }

  /** Claims for the free slots and starts each piece. False when the claim failed. */
  async function round(free: number): Promise<boolean> {
    hasNews = false
    let started: ClaimedWork[]
    try {
      started = await options.claim(free)
    } catch (error) {
      log.error({ err: error }, options.claimFailed)
      return false
    }
    // Every slot taken: more may be due, so a freed slot looks again at once.
    const isBacklogPossible = started.length >= free
    for (const piece of started) {
      const work: Promise<void> = piece
        .then((due) => {
          if (due) wakeAt(due)
        })
        .catch((error: unknown) => log.error({ err: error }, 'a claimed piece of work failed'))
        .finally(() => {
          running.delete(work)
          if (isBacklogPossible) wake()
        })
      running.add(work)
    }
    return true
  }

  function waitForWakeUp(): Promise<void> {
    // Told to stop while it was claiming: stop() found no one waiting to wake, so do not wait.
    if (isStopping) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        wakers.delete(done)
        resolve()
      }
      const timer = setTimeout(() => {
        hasNews = true
        done()
      }, options.pollMs())
      wakers.add(done)
    })
  }

  const loop = (async () => {
    while (!isStopping) {
      const free = concurrency - running.size
      const isClaimOk = free > 0 && hasNews ? await round(free) : true
      if (hasNews && isClaimOk && concurrency - running.size > 0) continue
      await waitForWakeUp()
    }
    await Promise.all(running)
  })()

  return {
    async stop() {
      isStopping = true
      unsubscribe()
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      for (const waker of [...wakers]) waker()
      await loop
    },
  }
}
