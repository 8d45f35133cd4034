import { createHash } from 'node:crypto'
import type { Notifier } from '#server/events/notifier.ts'
import { type EventStreams, eventStreamSessionCheckMs, isSessionLive } from '#server/http/event-streams.ts'
import type { BatchView } from '#shared/contracts/catalogue.ts'
import { type CatalogueDeps, getBatchView } from './catalogue.service.ts'

/** How often a batch's stream looks at the database when no notice says something changed. */
const batchPollMs = 2000
/** The same while notices from every process arrive (PostgreSQL LISTEN is up): a safety net. */
const batchSafetyPollMs = 10_000
/**
 * Notices of one batch come in bursts (a worker finishing jobs): the view is read at most this
 * often, so a 1,000-row batch costs a read per interval, not per job.
 */
const batchCoalesceMs = 300
const keepAliveMs = 15_000

export type BatchEvent = { type: 'batch'; batch: BatchView; id: string } | { type: 'keep-alive' }

export type BatchEvents = AsyncIterable<BatchEvent> & { close(): void }

export type BatchEventsDeps = CatalogueDeps & { notifier: Notifier; streams: EventStreams }

function isSettled(view: BatchView): boolean {
  return view.batch.status === 'finished' || view.batch.status === 'canceled'
}

/**
 * The live view of the user's own batch: sent at once, then whenever one of the user's
 * generations changes (notices from this process, and from workers elsewhere over PostgreSQL
 * LISTEN), with a look at the database every few seconds as the safety net. Ends once the batch
 * is finished or canceled (after sending that view), or with the session. NOT_FOUND for someone
 * else's batch, RATE_LIMITED past the user's open streams, both before anything is sent.
 */
export async function openBatchEvents(
  deps: BatchEventsDeps,
  input: { userId: string; sessionId: string | null; batchId: string },
): Promise<BatchEvents> {
  const { userId, sessionId, batchId } = input
  const first = await getBatchView(deps, userId, batchId)
  const stops: (() => void)[] = [deps.streams.open(userId)]
  const stop = () => {
    for (const release of stops.splice(0)) release()
  }
  let isClosed = false
  let wake: (() => void) | null = null
  // While the stream waits out a burst of notices, new notices only mark it dirty.
  let isCoalescing = false
  let isDirty = false
  stops.push(
    deps.notifier.onUserGenerationsChanged(userId, () => {
      isDirty = true
      if (!isCoalescing) wake?.()
    }),
  )
  let isSessionCheckDue = false
  stops.push(
    deps.streams.onSessionsChanged(() => {
      isSessionCheckDue = true
      wake?.()
    }),
  )

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms)
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  const coalesce = async () => {
    isCoalescing = true
    try {
      await pause(batchCoalesceMs)
    } finally {
      isCoalescing = false
    }
  }

  async function* events(): AsyncGenerator<BatchEvent> {
    let view: BatchView | null = first
    let lastFingerprint = ''
    let lastSent = Date.now()
    let lastSessionCheck = Date.now()
    try {
      while (!isClosed) {
        if (isSessionCheckDue || Date.now() - lastSessionCheck >= eventStreamSessionCheckMs) {
          isSessionCheckDue = false
          lastSessionCheck = Date.now()
          if (!sessionId || !(await isSessionLive(deps.db, sessionId, deps.now()))) return
        }
        isDirty = false
        view ??= await getBatchView(deps, userId, batchId)
        const fingerprint = createHash('sha1').update(JSON.stringify(view)).digest('hex').slice(0, 16)
        if (fingerprint !== lastFingerprint) {
          lastFingerprint = fingerprint
          yield { type: 'batch', batch: view, id: fingerprint }
          lastSent = Date.now()
          if (isSettled(view)) return
        } else if (Date.now() - lastSent > keepAliveMs) {
          yield { type: 'keep-alive' }
          lastSent = Date.now()
        }
        view = null
        if (isClosed) return
        // After a notice, the rest of its burst is let in before reading again.
        if (!isDirty && !isSessionCheckDue) {
          await pause(deps.notifier.isCrossProcess() ? batchSafetyPollMs : batchPollMs)
        }
        if (isDirty && !isClosed) await coalesce()
      }
    } finally {
      stop()
    }
  }

  return Object.assign(events(), {
    close() {
      isClosed = true
      stop()
      wake?.()
    },
  })
}
