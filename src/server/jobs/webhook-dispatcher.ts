import { randomUUID } from 'node:crypto'
import type { Notifier } from '#server/events/notifier.ts'
import { type DeliveryDeps, deliverDueWebhooks } from '#server/features/webhooks/deliver.ts'
import { type ClaimedWork, startClaimLoop } from './claim-loop.ts'

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
 * claim loop (claim-loop.ts) that takes due deliveries while it has free slots, woken by the notifier (an event
 * written, a resend, a test) and by timers for its own retries, with a poll as the fallback
 * (retries scheduled by other processes, leases of stopped ones).
 */
export function startWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const id = `webhooks-${randomUUID().slice(0, 8)}`
  const log = options.log.child({ dispatcher: id })
  const deps: DeliveryDeps = { ...options, log }

  /** Claims due deliveries for the free slots and starts each attempt. */
  async function claim(free: number): Promise<ClaimedWork[]> {
    const started = await deliverDueWebhooks(deps, { workerId: id, limit: free, leaseMs: options.leaseMs })
    return started.attempts.map((attempt) =>
      attempt
        .then((outcome) => (outcome.kind === 'retry' ? outcome.retryAt : null))
        .catch((error: unknown) => {
          log.error({ err: error }, 'recording a webhook attempt failed')
          return null
        }),
    )
  }

  const loop = startClaimLoop({
    log,
    now: options.now,
    concurrency: options.concurrency,
    onDue: (wake) => options.notifier.onWebhooksDue(wake),
    pollMs: () =>
      options.notifier.isCrossProcess() ? (options.crossProcessPollMs ?? options.pollMs) : options.pollMs,
    claim,
    claimFailed: 'claiming webhook deliveries failed',
  })
  log.info({ concurrency: options.concurrency }, 'webhook dispatcher started')
  return {
    id,
    async stop() {
      await loop.stop()
      log.info('webhook dispatcher stopped')
    },
  }
}
