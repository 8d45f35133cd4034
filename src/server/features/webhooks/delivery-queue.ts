import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import {
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  webhookDeliveries,
  webhookEndpoints,
} from '#server/db/schema/index.ts'
import type { WebhookDeliveryError } from '#shared/contracts/webhooks.ts'

// The webhook delivery queue: webhook_deliveries rows are its jobs, claimed with a lease like
// generations (job-queue/job-queue.ts), and every change of their state is written
// here. Times come from the caller's clock (the app's), so tests move time instead of sleeping.
// An attempt in flight keeps its row `pending` with a lease; a dispatcher that stops renewing
// nothing (attempts are short) simply lets the lease run out, and the row is due again.

/** A claimed delivery with what sending it needs from its endpoint. */
export type ClaimedDelivery = {
  delivery: WebhookDeliveryRow
  endpoint: Pick<WebhookEndpointRow, 'id' | 'url' | 'encryptedSecret'>
}

const at = (time: Date) => sql`${time.toISOString()}::timestamptz`

/**
 * Claims up to `limit` due deliveries (pending, their time come, no live lease, their endpoint
 * enabled), oldest due first, in one statement: each counts as an attempt from here on.
 * SKIP LOCKED lets several dispatchers on one PostgreSQL claim side by side.
 */
export async function claimDeliveries(
  db: Db,
  options: { workerId: string; limit: number; leaseMs: number; now: Date },
): Promise<ClaimedDelivery[]> {
  const { now } = options
  const isDue = (alias: string) => {
    const column = (name: string) => sql.raw(`${alias}.${name}`)
    return sql`(${column('status')} = 'pending' and ${column('next_attempt_at')} <= ${at(now)}
      and (${column('lease_until')} is null or ${column('lease_until')} < ${at(now)}))`
  }
  const picked = sql`select d.id from ${webhookDeliveries} d
    join ${webhookEndpoints} e on e.id = d.endpoint_id and e.disabled_at is null
    where ${isDue('d')}
    order by d.next_attempt_at, d.id
    limit ${options.limit}
    for update of d skip locked`
  const claimed = db.$with('claimed').as(
    db
      .update(webhookDeliveries)
      .set({
        lockedBy: options.workerId,
        leaseUntil: new Date(now.getTime() + options.leaseMs),
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        lastAttemptAt: now,
      })
      // Checked again on the newest version of each row: another claim may have taken it.
      .where(sql`${webhookDeliveries.id} in (${picked}) and ${isDue('webhook_deliveries')}`)
      .returning(),
  )
  const rows = await db
    .with(claimed)
    .select()
    .from(claimed)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, claimed.endpointId))
  return rows
    .map((row) => ({
      delivery: row.claimed,
      endpoint: {
        id: row.webhook_endpoints.id,
        url: row.webhook_endpoints.url,
        encryptedSecret: row.webhook_endpoints.encryptedSecret,
      },
    }))
    .sort((a, b) => a.delivery.nextAttemptAt.getTime() - b.delivery.nextAttemptAt.getTime())
}

const stillHeld = (id: string, workerId: string) =>
  and(
    eq(webhookDeliveries.id, id),
    eq(webhookDeliveries.lockedBy, workerId),
    eq(webhookDeliveries.status, 'pending'),
  )

/** Answered 2xx: delivered. False when the worker no longer held it. */
export async function markDelivered(
  db: Db,
  held: { id: string; workerId: string },
  result: { responseStatus: number; now: Date },
): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({
      status: 'succeeded',
      responseStatus: result.responseStatus,
      lastError: null,
      deliveredAt: result.now,
      lockedBy: null,
      leaseUntil: null,
    })
    .where(stillHeld(held.id, held.workerId))
    .returning({ id: webhookDeliveries.id })
  return rows.length > 0
}

/**
 * Not delivered this time: due again at `retryAt`, or `failed` for good when that is null (the
 * retry window is over). The attempt's status and reason are kept on the row.
 */
export async function markAttemptFailed(
  db: Db,
  held: { id: string; workerId: string },
  result: { responseStatus: number | null; error: WebhookDeliveryError; retryAt: Date | null },
): Promise<boolean> {
  const rows = await db
    .update(webhookDeliveries)
    .set({
      status: result.retryAt ? 'pending' : 'failed',
      ...(result.retryAt ? { nextAttemptAt: result.retryAt } : {}),
      responseStatus: result.responseStatus,
      lastError: result.error,
      lockedBy: null,
      leaseUntil: null,
    })
    .where(stillHeld(held.id, held.workerId))
    .returning({ id: webhookDeliveries.id })
  return rows.length > 0
}

/** The earliest time a pending delivery comes due, for a dispatcher's next wake-up. */
export async function nextDueAt(db: Db): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<string | null>`min(${webhookDeliveries.nextAttemptAt})` })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, 'pending'))
  return row?.at ? new Date(row.at) : null
}
