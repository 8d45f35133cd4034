import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { type Database, DatabaseClosedError, type DatabaseSession } from '#server/db/client.ts'
import type { Logger } from '#server/logger.ts'
import { createLocalSignals, type Notifier } from './notifier.ts'

// Notices between processes on PostgreSQL: every signal is emitted in this process at once (with
// the row, as createNotifier does) and also sent with pg_notify on a pooled connection; one
// dedicated session LISTENs and re-emits other processes' notices here, without a row
// (listeners read it). A payload names the sender (a random id per notifier, since the pool's
// backend is not the listening one), the generation and its owner: never the row, which could
// pass NOTIFY's 8000-byte limit and would be stale by the time it is read anyway.

/** "There may be work": workers look for jobs. Payload `{ o }`. */
export const workChannel = 'vitrin_work'
/** "Webhook deliveries are due": webhook dispatchers look. Payload `{ o }`. */
export const webhooksChannel = 'vitrin_webhooks'
/** "Publications are due": publishers look. Payload `{ o }`. */
export const publicationsChannel = 'vitrin_publications'
/** "This generation changed": event streams read it. Payload `{ o, g, u }`. */
export const generationsChannel = 'vitrin_generations'

/**
 * At most one work notice per this many ms from one process: a worker settling a burst of jobs,
 * or a burst of accepted requests, sends one at once and one at the end of the gap, not one each.
 */
export const workNoticeGapMs = 50
/** How often the listening session is asked `select 1`, so a connection dead without a word is noticed. */
const sessionCheckMs = 30_000
/** How long that check may take before the session is given up and replaced. */
const sessionCheckTimeoutMs = 10_000

type Notice = { o?: unknown; g?: unknown; u?: unknown }

export type PgNotifier = Notifier & {
  /** This notifier's id: in every payload it sends, and in its session's application_name. */
  readonly origin: string
}

export type PgNotifierOptions = {
  db: Database['db']
  openSession: NonNullable<Database['openSession']>
  logger: Logger
  /** Waits between tries to listen again: the first, doubling up to the last (each ±25 %). */
  reconnect?: { firstMs: number; maxMs: number }
}

/**
 * Starts listening (one try; on failure it keeps trying in the background, and signals stay
 * in this process meanwhile) and returns the notifier. After a lost session is replaced, every
 * listener is told to look again ("resync"), since notices sent meanwhile never arrive.
 */
export async function startPgNotifier(options: PgNotifierOptions): Promise<PgNotifier> {
  const { db, openSession } = options
  const reconnect = options.reconnect ?? { firstMs: 250, maxMs: 10_000 }
  const origin = randomUUID()
  const log = options.logger.child({ component: 'notices' })
  const local = createLocalSignals()

  let session: { client: DatabaseSession; drop: () => void } | null = null
  let isClosing = false
  // After the first try, any session is a replacement: notices may have been missed before it.
  let hasTried = false
  let failures = 0
  let reconnectTimer: NodeJS.Timeout | undefined

  function scheduleListen(): void {
    if (isClosing || reconnectTimer) return
    const delay = Math.round(
      Math.min(reconnect.maxMs, reconnect.firstMs * 2 ** failures) * (0.75 + Math.random() * 0.5),
    )
    failures++
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined
      void listen()
    }, delay)
    reconnectTimer.unref()
  }

  function handleNotification(message: { channel: string; payload?: string | undefined }): void {
    let notice: Notice
    try {
      notice = JSON.parse(message.payload ?? '') as Notice
    } catch {
      return
    }
    // Our own: emitted here already, with the row.
    if (notice.o === origin) return
    if (message.channel === workChannel) local.emitWork()
    else if (message.channel === webhooksChannel) local.emitWebhooks()
    else if (message.channel === publicationsChannel) local.emitPublications()
    else if (message.channel === generationsChannel && typeof notice.g === 'string') {
      local.emitGeneration(
        notice.g,
        undefined,
        undefined,
        typeof notice.u === 'string' ? notice.u : undefined,
      )
    }
  }

  async function listen(): Promise<void> {
    if (isClosing) return
    const isReplacement = hasTried
    hasTried = true
    let client: DatabaseSession
    try {
      client = await openSession({ applicationName: `vitrin notices ${origin}` })
    } catch (error) {
      // The database closed under us: the process is shutting down.
      if (error instanceof DatabaseClosedError || isClosing) return
      log.warn({ err: error }, 'could not connect to listen for notices; trying again')
      scheduleListen()
      return
    }
    let isDropped = false
    const drop = () => {
      if (isDropped) return
      isDropped = true
      if (session?.client === client) session = null
      client.end().catch(() => {})
      scheduleListen()
    }
    client.on('error', (error) => {
      if (!isClosing) log.warn({ err: error }, 'lost the connection listening for notices; reconnecting')
      drop()
    })
    client.on('end', drop)
    client.on('notification', handleNotification)
    try {
      await client.query(
        `listen ${workChannel}; listen ${webhooksChannel}; listen ${publicationsChannel}; listen ${generationsChannel}`,
      )
    } catch (error) {
      if (!isClosing && !isDropped) log.warn({ err: error }, 'could not listen for notices; trying again')
      drop()
      return
    }
    if (isClosing || isDropped) {
      drop()
      return
    }
    session = { client, drop }
    failures = 0
    if (isReplacement) {
      log.warn('listening for notices again; those sent meanwhile were lost, so every listener looks again')
      local.emitResync()
    }
  }

  const sessionCheck = setInterval(() => {
    const current = session
    if (!current) return
    const timeout = setTimeout(current.drop, sessionCheckTimeoutMs)
    current.client
      .query('select 1')
      .catch(() => current.drop())
      .finally(() => clearTimeout(timeout))
  }, sessionCheckMs)
  sessionCheck.unref()

  // --- Sending ---------------------------------------------------------------------------------

  const sending = new Set<Promise<void>>()
  function send(channel: string, payloads: string[]): void {
    const sent = db
      .execute(
        sql`select pg_notify(${channel}, notice.payload)
          from json_array_elements_text(${JSON.stringify(payloads)}::json) as notice(payload)`,
      )
      .then(
        () => {},
        (error: unknown) =>
          log.warn(
            { err: error, channel },
            'sending a notice failed; other processes will see the change later',
          ),
      )
    sending.add(sent)
    void sent.finally(() => sending.delete(sent))
  }

  let lastWorkSentAt = Number.NEGATIVE_INFINITY
  let workTimer: NodeJS.Timeout | undefined
  function sendWork(): void {
    lastWorkSentAt = Date.now()
    send(workChannel, [JSON.stringify({ o: origin })])
  }

  // Generations changed within one turn of the event loop (a claim of several jobs) go out in
  // one statement, one notice per generation.
  const pendingGenerations = new Map<string, string | undefined>()
  let generationsFlush: NodeJS.Immediate | undefined
  function flushGenerations(): void {
    generationsFlush = undefined
    const payloads = [...pendingGenerations].map(([id, userId]) =>
      JSON.stringify({ o: origin, g: id, u: userId }),
    )
    pendingGenerations.clear()
    if (payloads.length > 0) send(generationsChannel, payloads)
  }

  await listen()
  if (session) log.debug({ origin }, 'listening for notices')

  return {
    origin,
    workAvailable() {
      local.emitWork()
      if (isClosing || workTimer) return
      const wait = lastWorkSentAt + workNoticeGapMs - Date.now()
      if (wait <= 0) sendWork()
      else {
        workTimer = setTimeout(() => {
          workTimer = undefined
          sendWork()
        }, wait)
      }
    },
    onWorkAvailable: local.onWorkAvailable,
    // Rare (one per settled job with subscribers, resend, test) next to work notices: not coalesced.
    webhooksDue() {
      local.emitWebhooks()
      if (!isClosing) send(webhooksChannel, [JSON.stringify({ o: origin })])
    },
    onWebhooksDue: local.onWebhooksDue,
    // One per queuing request (a whole batch is one): not coalesced either.
    publicationsDue() {
      local.emitPublications()
      if (!isClosing) send(publicationsChannel, [JSON.stringify({ o: origin })])
    },
    onPublicationsDue: local.onPublicationsDue,
    generationChanged(id, row, assets, userId) {
      local.emitGeneration(id, row, assets, userId)
      if (isClosing) return
      pendingGenerations.set(id, row?.userId ?? userId ?? pendingGenerations.get(id))
      generationsFlush ??= setImmediate(flushGenerations)
    },
    onGenerationChanged: local.onGenerationChanged,
    onUserGenerationsChanged: local.onUserGenerationsChanged,
    isCrossProcess: () => session !== null,
    async close() {
      if (isClosing) return
      isClosing = true
      clearTimeout(reconnectTimer)
      clearInterval(sessionCheck)
      if (workTimer) {
        clearTimeout(workTimer)
        workTimer = undefined
        sendWork()
      }
      if (generationsFlush) {
        clearImmediate(generationsFlush)
        flushGenerations()
      }
      await Promise.all(sending)
      const current = session
      session = null
      await current?.client.end().catch(() => {})
    },
  }
}
