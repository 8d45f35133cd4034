import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '#server/db/client.ts'
import {
  type CatalogueBatchRow,
  catalogueBatches,
  catalogueRows,
  generations,
} from '#server/db/schema/index.ts'
import type { Notifier } from '#server/events/notifier.ts'
import type { EventRecorder } from '#server/events/recorder.ts'
import type { AfterSettled } from '#server/job-queue/outcomes.ts'
import type { Logger } from '#server/logger.ts'

// A catalogue batch finishing: once none of its generations is queued or running it is marked
// finished with its batch.completed webhooks, by whichever comes first of its last job ending (a
// job outcome the catalogue registers) and someone looking at it (getBatchView).

/** Whether any of the batch's generations is still queued or running. */
function hasUnsettledJobs(batchId: string) {
  return sql`exists (select 1 from ${generations} g join ${catalogueRows} r on r.id = g.batch_row_id
    where r.batch_id = ${batchId} and g.status in ('queued', 'running'))`
}

/**
 * Marks a running batch finished once none of its generations is queued or running, and writes
 * its `batch.completed` webhook deliveries in the same transaction (so the event exists exactly
 * when the batch is finished). Called by the worker after each batch job ends and by
 * getBatchView; the guarded update makes whichever comes first the only one. Returns the batch
 * when this call finished it.
 */
export async function finishBatchIfSettled(
  deps: { db: Db; now: () => Date; notifier: Pick<Notifier, 'webhooksDue'>; events: EventRecorder },
  batchId: string,
): Promise<CatalogueBatchRow | null> {
  // Most calls come while other jobs of the batch still run: a read, no transaction.
  const [open] = (
    (await deps.db.execute(sql`select ${hasUnsettledJobs(batchId)} as is_open`)) as unknown as {
      rows: { is_open: boolean }[]
    }
  ).rows
  if (open?.is_open) return null
  const now = deps.now()
  const outcome = await deps.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db
    const [finished] = await tx
      .update(catalogueBatches)
      .set({ status: 'finished', finishedAt: now })
      .where(
        and(
          eq(catalogueBatches.id, batchId),
          eq(catalogueBatches.status, 'running'),
          sql`not ${hasUnsettledJobs(batchId)}`,
        ),
      )
      .returning()
    if (!finished) return null
    // Each product's state as the batch view gives it (rowState), counted.
    const counted = (await tx.execute(sql`
      select count(*) filter (where state = 'done')::int as done,
        count(*) filter (where state = 'failed')::int as failed,
        count(*) filter (where state = 'canceled')::int as canceled
      from (
        select case when bool_or(g.status = 'failed') then 'failed'
          when bool_and(g.status = 'canceled') then 'canceled'
          when bool_or(g.status = 'canceled') then 'failed'
          else 'done' end as state
        from ${catalogueRows} r join ${generations} g on g.batch_row_id = r.id
        where r.batch_id = ${batchId}
        group by r.id
      ) products`)) as unknown as { rows: { done: number; failed: number; canceled: number }[] }
    const counts = counted.rows[0] ?? { done: 0, failed: 0, canceled: 0 }
    const events = await deps.events.batchCompleted(tx, {
      userId: finished.userId,
      now,
      batch: {
        id: finished.id,
        status: 'finished',
        fileName: finished.fileName,
        createdAt: finished.createdAt.toISOString(),
        startedAt: finished.startedAt?.toISOString() ?? null,
        finishedAt: now.toISOString(),
        counts: {
          done: Number(counts.done),
          failed: Number(counts.failed),
          canceled: Number(counts.canceled),
        },
      },
    })
    return { finished, events }
  })
  if (!outcome) return null
  if (outcome.events > 0) deps.notifier.webhooksDue()
  return outcome.finished
}

/** The batch a catalogue row belongs to, then finishBatchIfSettled (a job knows only its row). */
async function finishBatchOfRow(
  deps: Parameters<typeof finishBatchIfSettled>[0],
  batchRowId: string,
): Promise<CatalogueBatchRow | null> {
  const [row] = await deps.db
    .select({ batchId: catalogueRows.batchId })
    .from(catalogueRows)
    .where(eq(catalogueRows.id, batchRowId))
  return row ? finishBatchIfSettled(deps, row.batchId) : null
}

/**
 * What the catalogue registers with the job queue (job-outcomes.ts): a batch job's final outcome
 * may be its batch's last, which marks the batch finished (and writes its batch.completed
 * webhooks), so a batch finishes without anyone looking at it. A failure is only logged: the
 * next look at the batch finishes it.
 */
export function finishBatchAfterJob(logger: Logger, events: EventRecorder): AfterSettled {
  return async (row, queue) => {
    if (!row.batchRowId) return
    await finishBatchOfRow({ ...queue, events, now: () => new Date() }, row.batchRowId).catch(
      (error: unknown) =>
        logger.warn({ err: error, generationId: row.id }, 'finishing the batch failed; the next look will'),
    )
  }
}
