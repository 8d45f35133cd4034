import { randomUUID } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { publications } from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import {
  claimDuePublication,
  type PublisherDeps,
  stepPublication,
} from '#server/features/publishing/publications.service.ts'

export type PublisherOptions = PublisherDeps & {
  notifier: Pick<Notifier, 'onPublicationsDue' | 'isCrossProcess'>
  /** Publication steps in flight at once (each mostly waits on a marketplace). */
  concurrency: number
  /**
   * How long a claim holds: longer than one step takes (a step's requests each have a 30 s
   * deadline), so another process takes a publication over only from a process that stopped.
   */
  leaseMs: number
  /** How often to look when nothing wakes the publisher. */
  idlePollMs: number
  /** The same while other processes' notices arrive (PostgreSQL LISTEN up). Defaults to idlePollMs. */
  crossProcessIdlePollMs?: number
}

export type Publisher = { readonly id: string; stop: () => Promise<void> }

/**
 * Publishes beside the generation worker, in the same processes (worker-runtime.ts): a loop that
 * claims due publications while it has free slots and moves each one step along
 * (publications.service.ts), woken by the notifier (publications queued) and by timers for the
 * next turns of the steps it took, with a poll as the fallback (other processes' publications,
 * leases of stopped ones). Any number of processes may run one: a claim is a lease, and each
 * publication's step is taken by one of them at a time.
 */
export function startPublisher(options: PublisherOptions): Publisher {
  const id = `publisher-${randomUUID().slice(0, 8)}`
  const log = options.log.child({ publisher: id })
  const { concurrency, leaseMs, idlePollMs, crossProcessIdlePollMs } = options
  const deps: PublisherDeps = { ...options, log }
  const running = new Set<Promise<void>>()
  const wakers = new Set<() => void>()
  const timers = new Set<NodeJS.Timeout>()
  let isStopping = false
  let hasNews = true

  const wake = () => {
    hasNews = true
    for (const waker of [...wakers]) waker()
  }
  const unsubscribe = options.notifier.onPublicationsDue(wake)

  /** Wakes the loop when a publication we stepped comes due again (by the app clock, read now). */
  const wakeAt = (due: Date) => {
    if (isStopping) return
    const timer = setTimeout(
      () => {
        timers.delete(timer)
        wake()
      },
      Math.max(0, due.getTime() - options.now().getTime()),
    )
    timer.unref()
    timers.add(timer)
  }

  /** Its next turn, when nobody holds it and it is not finished. */
  async function nextTurnOf(publicationId: string): Promise<Date | null> {
    const [row] = await options.db
      .select({ dueAt: publications.dueAt })
      .from(publications)
      .where(and(eq(publications.id, publicationId), isNull(publications.leaseOwner)))
    return row?.dueAt ?? null
  }

  /** Claims for the free slots and starts each step. False when a claim failed. */
  async function round(free: number): Promise<boolean> {
    hasNews = false
    let claimed = 0
    while (claimed < free && !isStopping) {
      let publication: Awaited<ReturnType<typeof claimDuePublication>>
      try {
        publication = await claimDuePublication(options.db, id, leaseMs, options.now())
      } catch (error) {
        log.error({ err: error }, 'claiming a publication failed')
        return false
      }
      if (!publication) return true
      claimed++
      const claimedId = publication.id
      const work: Promise<void> = stepPublication(deps, publication)
        .then(async (result) => {
          if (result !== 'later') return
          const due = await nextTurnOf(claimedId)
          if (due) wakeAt(due)
        })
        // Its lease ends on its own; then this or another process takes the step again.
        .catch((error: unknown) =>
          log.error(
            { err: error, publicationId: claimedId },
            'a publication step failed; it will be taken again',
          ),
        )
        .finally(() => {
          running.delete(work)
          // A slot is free: what waited for one is taken now.
          wake()
        })
      running.add(work)
    }
    // Every slot taken: more may be due, so a freed slot looks again at once (the wake above).
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
      const pollMs = options.notifier.isCrossProcess() ? (crossProcessIdlePollMs ?? idlePollMs) : idlePollMs
      const timer = setTimeout(() => {
        hasNews = true
        done()
      }, pollMs)
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

  log.info({ concurrency }, 'publisher started')
  return {
    id,
    async stop() {
      isStopping = true
      unsubscribe()
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      for (const waker of [...wakers]) waker()
      await loop
      log.info('publisher stopped')
    },
  }
}
