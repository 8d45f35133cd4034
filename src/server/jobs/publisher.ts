import { randomUUID } from 'node:crypto'
import { and, eq, isNull } from 'drizzle-orm'
import { publications } from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import { claimDuePublication, type PublisherDeps } from '#server/features/publishing/publications.service.ts'
import { stepPublication } from '#server/features/publishing/step-publication.service.ts'
import { type ClaimedWork, startClaimLoop } from './claim-loop.ts'

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
 * Publishes beside the generation worker, in the same processes (worker-runtime.ts): a claim loop
 * (claim-loop.ts) that takes due publications while it has free slots and moves each one step
 * along (step-publication.service.ts), woken by the notifier (publications queued) and by timers for
 * the next turns of the steps it took, with a poll as the fallback (other processes'
 * publications, leases of stopped ones). Any number of processes may run one: a claim is a lease, and each
 * publication's step is taken by one of them at a time.
 */
export function startPublisher(options: PublisherOptions): Publisher {
  const id = `publisher-${randomUUID().slice(0, 8)}`
  const log = options.log.child({ publisher: id })
  const { leaseMs, idlePollMs, crossProcessIdlePollMs } = options
  const deps: PublisherDeps = { ...options, log }

  /** Its next turn, when nobody holds it and it is not finished. */
  async function nextTurnOf(publicationId: string): Promise<Date | null> {
    const [row] = await options.db
      .select({ dueAt: publications.dueAt })
      .from(publications)
      .where(and(eq(publications.id, publicationId), isNull(publications.leaseOwner)))
    return row?.dueAt ?? null
  }

  /** Claims due publications one at a time for the free slots, and starts each one's step. */
  async function claim(free: number): Promise<ClaimedWork[]> {
    const started: ClaimedWork[] = []
    while (started.length < free) {
      const publication = await claimDuePublication(options.db, id, leaseMs, options.now())
      if (!publication) break
      const claimedId = publication.id
      started.push(
        stepPublication(deps, publication)
          .then((result) => (result === 'later' ? nextTurnOf(claimedId) : null))
          // Its lease ends on its own; then this or another process takes the step again.
          .catch((error: unknown) => {
            log.error(
              { err: error, publicationId: claimedId },
              'a publication step failed; it will be taken again',
            )
            return null
          }),
      )
    }
    return started
  }

  const loop = startClaimLoop({
    log,
    now: options.now,
    concurrency: options.concurrency,
    onDue: (wake) => options.notifier.onPublicationsDue(wake),
    pollMs: () => (options.notifier.isCrossProcess() ? (crossProcessIdlePollMs ?? idlePollMs) : idlePollMs),
    claim,
    claimFailed: 'claiming a publication failed',
  })
  log.info({ concurrency: options.concurrency }, 'publisher started')
  return {
    id,
    async stop() {
      await loop.stop()
      log.info('publisher stopped')
    },
  }
}
