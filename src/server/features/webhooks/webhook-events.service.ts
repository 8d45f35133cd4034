import { randomUUID } from 'node:crypto'
import { type SQL, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import { type GenerationRow, webhookDeliveries, webhookEndpoints } from '#server/db/schema/index.ts'
import type { EventRecorder } from '#server/events/recorder.ts'
import type { FinishedWrite } from '#server/job-queue/outcomes.ts'
import {
  type WebhookBatch,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookGeneration,
  type WebhookPublication,
  webhookRetryWindowHours,
} from '#shared/contracts/webhooks.ts'

// The events other features' outcomes write for an account's webhook endpoints: each in the
// same statement or transaction as the outcome it tells of, so an event exists exactly when its
// outcome does (decision 29). A finished job's are joined into the queue's settle statement
// (generationWebhooks); a finished batch's and a decided product's are written through the
// EventRecorder (webhookEvents) the composition hands to the catalogue and publishing.

/** How long a delivery is retried before it is given up. */
export const retryWindowMs = webhookRetryWindowHours * 3_600_000

/** The generation as an event tells of it (contracts/webhooks.ts WebhookGeneration). */
export function webhookGenerationOf(
  row: Pick<GenerationRow, 'id' | 'status' | 'tool' | 'mode' | 'errorCode' | 'createdAt' | 'finishedAt'>,
): WebhookGeneration {
  return {
    id: row.id,
    status: row.status === 'succeeded' ? 'succeeded' : 'failed',
    tool: row.tool,
    mode: row.mode,
    errorCode: row.status === 'succeeded' ? null : row.errorCode,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  }
}

export function newEvent<E extends WebhookEvent>(type: E['type'], data: E['data'], now: Date): E {
  return { id: randomUUID(), type, created: now.toISOString(), data } as E
}

/** The rows an event becomes: one per enabled endpoint of the owner subscribed to its type. */
function deliveriesFor(event: WebhookEvent, userId: string, now: Date, condition: SQL = sql`true`): SQL {
  return sql`insert into ${webhookDeliveries}
      (endpoint_id, user_id, event_id, event_type, payload, next_attempt_at, give_up_at, created_at)
    select e.id, e.user_id, ${event.id}::uuid, ${event.type}::text, ${JSON.stringify(event)}::jsonb,
      ${now.toISOString()}::timestamptz, ${new Date(now.getTime() + retryWindowMs).toISOString()}::timestamptz,
      ${now.toISOString()}::timestamptz
    from ${webhookEndpoints} e
    where e.user_id = ${userId} and e.disabled_at is null
      and e.events @> jsonb_build_array(${event.type}::text) and ${condition}
    returning id`
}

/**
 * The deliveries of a generation's outcome, as a common table expression for the statement that
 * records the outcome (job-queue/settle-job.ts): written only when `applied` (a condition
 * on that statement's own update) holds, so an event exists exactly when its outcome does. Select
 * from it to learn how many were written (then call the notifier's webhooksDue).
 */
export function generationEventCte(db: Db, outcome: { row: GenerationRow; now: Date; applied: SQL }) {
  const { row, now } = outcome
  const type: WebhookEventType = row.status === 'succeeded' ? 'generation.succeeded' : 'generation.failed'
  const event = newEvent(type, { generation: webhookGenerationOf(row) }, now)
  return db
    .$with('webhook_events', { id: sql<string>`id` })
    .as(deliveriesFor(event, row.userId, now, outcome.applied))
}

/**
 * A finished job's webhook deliveries, the write the webhooks register with the job queue
 * (job-outcomes.ts): in the statement that settles the job, then the dispatcher is told.
 */
export const generationWebhooks: FinishedWrite = {
  ctes: (db, job) => [generationEventCte(db, job)],
  afterCommit(written, notifier) {
    if (written > 0) notifier.webhooksDue()
  },
}

/**
 * Writes a finished catalogue batch's `batch.completed` deliveries. Called inside the transaction
 * that marks the batch finished (catalogue.service.ts), so the event exists exactly when that
 * does. Returns how many deliveries were written.
 */
export async function insertBatchCompletedEvent(
  tx: Db,
  input: { userId: string; batch: WebhookBatch; now: Date },
): Promise<number> {
  const event = newEvent('batch.completed', { batch: input.batch }, input.now)
  const result = (await tx.execute(deliveriesFor(event, input.userId, input.now))) as unknown as {
    rows: unknown[]
  }
  return result.rows.length
}

/**
 * Writes a `publication.succeeded` (live) or `publication.failed` (rejected, failed) event for each
 * product whose outcome a publishing transaction records (publishing/record-outcomes.service.ts), in
 * that transaction and in one statement, so an event exists exactly when its outcome does.
 * Returns how many deliveries were written (then call the notifier's webhooksDue).
 */
export async function insertPublicationEvents(
  tx: Db,
  input: { userId: string; publications: WebhookPublication[]; now: Date },
): Promise<number> {
  const { userId, now } = input
  if (input.publications.length === 0) return 0
  const events = input.publications.map((publication) =>
    newEvent(
      publication.status === 'live' ? 'publication.succeeded' : 'publication.failed',
      { publication },
      now,
    ),
  )
  const result = (await tx.execute(sql`insert into ${webhookDeliveries}
      (endpoint_id, user_id, event_id, event_type, payload, next_attempt_at, give_up_at, created_at)
    select e.id, e.user_id, (event.body->>'id')::uuid, event.body->>'type', event.body,
      ${now.toISOString()}::timestamptz, ${new Date(now.getTime() + retryWindowMs).toISOString()}::timestamptz,
      ${now.toISOString()}::timestamptz
    from ${webhookEndpoints} e
    cross join jsonb_array_elements(${JSON.stringify(events)}::jsonb) as event(body)
    where e.user_id = ${userId} and e.disabled_at is null
      and e.events @> jsonb_build_array(event.body->>'type')
    returning id`)) as unknown as { rows: unknown[] }
  return result.rows.length
}

/** The webhook deliveries of the events other features record in their transactions. */
export const webhookEvents: EventRecorder = {
  batchCompleted: insertBatchCompletedEvent,
  publicationsDecided: insertPublicationEvents,
}
