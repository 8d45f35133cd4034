import { randomUUID } from 'node:crypto'
import type { Notifier } from '#server/events/notifier.ts'
import { type DeliveryDeps, deliverDueWebhooks } from '#server/features/webhooks/deliver.ts'

export type WebhookDispatcherOptions = DeliveryDeps & {
  notifier: Pick<Notifier, 'onWebhooksDue' | 'isCrossProcess'>
  /** Attempts in flight at once (each mostly waits on a receiver). */
  concurrency: number
  /** How long a claim holds: longer than one attempt's deadline, so a live attempt keeps it. */
  leaseMs: number
  /** How often to look when nothing wakes the dispatcher. */
  pollMs: number
  /** The same while other processes' notices arrive (PostgreSQL LISTEN up). Defaults to pollMs. */
  crossProcessPollMs?: number
}

export type WebhookDispatcher = { readonly id: string; stop: () => Promise<void> }

/**
 * Delivers webhooks beside the generation worker, in the same processes (worker-runtime.ts): a
 * loop that claims due deliveries while it has free slots, woken by the notifier (an event
 * written, a resend, a test) and by timers for its own retries, with a poll as the fallback
 * (retries scheduled by other processes, leases of stopped ones).
 */
export function startWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const id = `webhooks-${randomUUID().slice(0, 8)}`
  const log = options.log.child({ dispatcher: id })
  const deps: DeliveryDeps = { ...options, log }
  const running = new Set<Promise<void>>()
  const wakers = new Set<() => void>()
  const timers = new Set<NodeJS.Timeout>()
  let isStopping = false
  let hasNews = true

  const wake = () => {
    hasNews = true
    for (const waker of [...wakers]) waker()
  }
  const unsubscribe = options.notifier.onWebhooksDue(wake)

  /** Wakes the loop when a retry of ours comes due (by the app clock, read now). */
  const wakeAt = (due: Date) => {
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

  /** Claims for the free slots and starts each attempt. False when the claim failed. */
  async function round(free: number): Promise<boolean> {
    hasNews = false
    let started: Awaited<ReturnType<typeof deliverDueWebhooks>>
    try {
      started = await deliverDueWebhooks(deps, { workerId: id, limit: free, leaseMs: options.leaseMs })
    } catch (error) {
      log.error({ err: error }, 'claiming webhook deliveries failed')
      return false
    }
    // Every slot taken: more may be waiting, so a freed slot looks again at once.
    const isBacklogPossible = started.claimed.length === free
    for (const attempt of started.attempts) {
      const work: Promise<void> = attempt
        .then((outcome) => {
          if (outcome.kind === 'retry') wakeAt(outcome.retryAt)
        })
        .catch((error: unknown) => log.error({ err: error }, 'recording a webhook attempt failed'))
        .finally(() => {
          running.delete(work)
          if (isBacklogPossible) wake()
        })
      running.add(work)
    }
    return true
  }

  function waitForWakeUp(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        wakers.delete(done)
        resolve()
      }
      const pollMs = options.notifier.isCrossProcess()
        ? (options.crossProcessPollMs ?? options.pollMs)
        : options.pollMs
      const timer = setTimeout(() => {
        hasNews = true
        done()
      }, pollMs)
      wakers.add(done)
    })
  }

  const loop = (async () => {
    while (!isStopping) {
      const free = options.concurrency - running.size
      const isClaimOk = free > 0 && hasNews ? await round(free) : true
      if (hasNews && isClaimOk && options.concurrency - running.size > 0) continue
      await waitForWakeUp()
    }
    await Promise.all(running)
  })()

  log.info({ concurrency: options.concurrency }, 'webhook dispatcher started')
  return {
    id,
    async stop() {
      isStopping = true
      unsubscribe()
      for (const timer of timers) clearTimeout(timer)
      for (const waker of [...wakers]) waker()
      await loop
      log.info('webhook dispatcher stopped')
    },
  }
}
