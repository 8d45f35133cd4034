import type { AssetRow, GenerationRow } from '#server/db/schema/index.ts'
import { type EventStreams, eventStreamSessionCheckMs, isSessionLive } from '#server/http/event-streams.ts'
import { type GenerationView, isTerminalStatus } from '#shared/contracts/generations.ts'
import {
  findOwnedRow,
  type GenerationDeps,
  getOwnedRowWithInput,
  presentRows,
} from './generations.service.ts'

/** How often an event stream looks at the database when nothing in this process says "changed". */
const eventPollMs = 1000
/**
 * The same, once this process's own worker has reported on the job, or while the notifier hears
 * other processes (PostgreSQL LISTEN): notices then carry every change, and the look at the
 * database is only a safety net.
 */
const eventSafetyPollMs = 5000
/** Proxies close connections that stay silent; a comment this often keeps the stream open. */
const keepAliveMs = 15_000

/** What a generation's event stream sends: the generation when it has changed, or a keep-alive. */
export type GenerationEvent =
  | {
      type: 'generation'
      generation: GenerationView
      /** The state sent (status, time, queue position), as the event's SSE `id`. */
      id: string
    }
  | { type: 'keep-alive' }

/** The events of one stream, in order; ends when the job is finished, the row or the session is gone. */
export type GenerationEvents = AsyncIterable<GenerationEvent> & {
  /** The client went away: stop waiting, free the stream's slot and listeners (safe to repeat). */
  close(): void
}

export type GenerationEventsDeps = Pick<GenerationDeps, 'db' | 'notifier' | 'now'> & {
  /** Caps each user's open streams and says when sessions end in this process. */
  streams: EventStreams
}

/**
 * Opens the event stream of the user's own generation: NOT_FOUND for someone else's or an
 * unknown one, RATE_LIMITED past the user's open streams (both thrown before anything is sent).
 * Change notices from this process carry the changed row (and a stored result's file row), so
 * most events need no read; other processes' notices (on PostgreSQL) say when to read it. The
 * row is also looked at every second (every 5 s once this process's worker has reported, or
 * while other processes' notices arrive), which is how changes whose notice was lost are seen.
 */
export async function openGenerationEvents(
  deps: GenerationEventsDeps,
  input: { userId: string; sessionId: string | null; generationId: string },
): Promise<GenerationEvents> {
  const { userId, sessionId, generationId: id } = input
  const owned = await getOwnedRowWithInput(deps.db, userId, id)
  const stops: (() => void)[] = [deps.streams.open(userId)]
  const stop = () => {
    for (const release of stops.splice(0)) release()
  }
  let isClosed = false
  let wake: (() => void) | null = null

  async function* events(): AsyncGenerator<GenerationEvent> {
    let row: GenerationRow | null = owned.row
    let lastSeen = ''
    let lastSentAt = 0
    // Set by a change notice; a notice that comes while we are busy is not lost.
    let isDirty = false
    // The row a notice carried, if the latest notice carried one: it saves a read.
    let noticed: GenerationRow | undefined
    const assetCache = new Map<string, AssetRow>(owned.input ? [[owned.input.id, owned.input]] : [])
    let hasOwnNotices = false
    stops.push(
      deps.notifier.onGenerationChanged(id, (changed, stored) => {
        isDirty = true
        noticed = changed
        if (changed) hasOwnNotices = true
        for (const asset of stored ?? []) if (asset.userId === userId) assetCache.set(asset.id, asset)
        wake?.()
      }),
    )
    // The stream ends with its session: looked at every few seconds, and at once when a
    // session ends in this process.
    let isSessionCheckDue = false
    let lastSessionCheck = Date.now()
    stops.push(
      deps.streams.onSessionsChanged(() => {
        isSessionCheckDue = true
        wake?.()
      }),
    )
    let lastSent = Date.now()
    try {
      while (!isClosed) {
        if (isSessionCheckDue || Date.now() - lastSessionCheck >= eventStreamSessionCheckMs) {
          isSessionCheckDue = false
          lastSessionCheck = Date.now()
          if (!sessionId || !(await isSessionLive(deps.db, sessionId, deps.now()))) return
        }
        // At most one read of the row per wake-up, none when a notice brought it; asset rows
        // are read once each.
        isDirty = false
        const fresh =
          noticed && noticed.userId === userId && noticed.updatedAt.getTime() >= lastSentAt
            ? noticed
            : undefined
        noticed = undefined
        row ??= fresh ?? (await findOwnedRow(deps.db, userId, id))
        if (!row) return
        const fingerprint = `${row.status}:${row.updatedAt.toISOString()}:${row.queuePosition ?? ''}`
        if (fingerprint !== lastSeen) {
          lastSeen = fingerprint
          lastSentAt = row.updatedAt.getTime()
          const [generation] = await presentRows(deps.db, [row], assetCache)
          if (!generation) return
          yield { type: 'generation', generation, id: fingerprint }
          lastSent = Date.now()
          if (isTerminalStatus(generation.status)) return
        } else if (Date.now() - lastSent > keepAliveMs) {
          yield { type: 'keep-alive' }
          lastSent = Date.now()
        }
        row = null
        if (isDirty || isSessionCheckDue || isClosed) continue
        await new Promise<void>((resolve) => {
          const pollMs = hasOwnNotices || deps.notifier.isCrossProcess() ? eventSafetyPollMs : eventPollMs
          const timer = setTimeout(resolve, pollMs)
          wake = () => {
            clearTimeout(timer)
            resolve()
          }
        })
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
