import type { Db } from '#server/db/client.ts'
import type { WebhookBatch, WebhookPublication } from '#shared/contracts/webhooks.ts'

/**
 * Records what happened inside the transaction that made it happen, so the record exists exactly
 * when the change does: the webhooks feature writes each event's deliveries (its `webhookEvents`,
 * given to the features that report events when the app is composed). Each returns how many
 * deliveries it wrote; when any were, the caller wakes the dispatcher (the notifier's webhooksDue).
 */
export type EventRecorder = {
  /** A catalogue batch whose every job has settled. */
  batchCompleted(tx: Db, input: { userId: string; batch: WebhookBatch; now: Date }): Promise<number>
  /** Published products the marketplace decided on: live, or rejected or failed. */
  publicationsDecided(
    tx: Db,
    input: { userId: string; publications: WebhookPublication[]; now: Date },
  ): Promise<number>
}
