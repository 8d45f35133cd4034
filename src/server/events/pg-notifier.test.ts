import { sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { type Database, type DatabaseSession, openDatabase } from '#server/db/client.ts'
import type { GenerationRow } from '#server/db/schema/index.ts'
import { createLogger } from '#server/logger.ts'
import { withDatabaseName } from '#tests/support/postgres.ts'
import { openTestDatabase, testEngine } from '#tests/support/test-database.ts'
import { generationsChannel, type PgNotifier, startPgNotifier, workChannel } from './pg-notifier.ts'

const row = { id: 'gen-1', userId: 'user-1', status: 'running' } as GenerationRow

/** The arguments of the listener's next call. */
function nextCall<A extends unknown[]>(
  subscribe: (listener: (...args: A) => void) => () => void,
): Promise<A> {
  return new Promise((resolve) => {
    const stop = subscribe((...args) => {
      stop()
      resolve(args)
    })
  })
}

async function rowsOf<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows
}

/** Connections a notifier holds open to listen (its application_name names it). */
async function listeningSessions(database: Database, notifier: PgNotifier): Promise<number> {
  const [found] = await rowsOf<{ n: number }>(
    database,
    sql`select count(*)::int as n from pg_stat_activity where application_name = ${`vitrin notices ${notifier.origin}`}`,
  )
  return Number(found?.n)
}

/** A raw session listening on a channel, keeping each payload's parsed JSON. */
async function tap(database: Database, channel: string) {
  const openSession = database.openSession
  if (!openSession) throw new Error('PostgreSQL only')
  const session: DatabaseSession = await openSession()
  const heard: { o: string; g?: string; u?: string }[] = []
  session.on('notification', (message) => heard.push(JSON.parse(message.payload ?? '{}')))
  await session.query(`listen ${channel}`)
  return { heard, close: () => session.end() }
}

describe.skipIf(testEngine !== 'postgres')('notices between processes on PostgreSQL', () => {
  // Two pools on one database, as two processes have; each notifier stands for one process.
  let first: Database
  let second: Database
  const started: PgNotifier[] = []

  async function start(database: Database, logLines: string[] = []): Promise<PgNotifier> {
    const openSession = database.openSession
    if (!openSession) throw new Error('PostgreSQL only')
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => logLines.push(line) },
    })
    const notifier = await startPgNotifier({
      db: database.db,
      openSession,
      logger,
      reconnect: { firstMs: 20, maxMs: 200 },
    })
    started.push(notifier)
    return notifier
  }

  beforeAll(async () => {
    first = await openTestDatabase()
    const [current] = await rowsOf<{ name: string }>(first, sql`select current_database() as name`)
    const url = process.env.TEST_DATABASE_URL ?? ''
    second = await openDatabase({ databaseUrl: withDatabaseName(url, current?.name ?? ''), poolMax: 4 })
  })
  afterEach(async () => {
    for (const notifier of started.splice(0)) await notifier.close()
  })
  afterAll(async () => {
    await second?.close()
    await first?.close()
  })

  it("brings a change to another process's generation and user listeners, and not back to its sender", async () => {
    const sender = await start(first)
    const receiver = await start(second)
    expect(sender.isCrossProcess()).toBe(true)
    const senderGeneration = vi.fn()
    const senderUser = vi.fn()
    sender.onGenerationChanged('gen-1', senderGeneration)
    sender.onUserGenerationsChanged('user-1', senderUser)

    const generationHeard = nextCall<[GenerationRow | undefined, unknown]>((listener) =>
      receiver.onGenerationChanged('gen-1', listener),
    )
    const userHeard = nextCall<[string | null, GenerationRow | undefined]>((listener) =>
      receiver.onUserGenerationsChanged('user-1', listener),
    )
    sender.generationChanged('gen-1', row)
    // Other processes read the row themselves: only the ids travel.
    expect(await generationHeard).toEqual([undefined, undefined])
    expect(await userHeard).toEqual(['gen-1', undefined])

    // A change without a row (a cancel) names its owner.
    const cancelHeard = nextCall<[string | null, GenerationRow | undefined]>((listener) =>
      receiver.onUserGenerationsChanged('user-1', listener),
    )
    sender.generationChanged('gen-1', undefined, undefined, 'user-1')
    expect(await cancelHeard).toEqual(['gen-1', undefined])

    // The sender's session gets its own notices too, in commit order: once a notice sent after
    // them has arrived, any echo would have been emitted.
    const marker = nextCall((listener) => sender.onGenerationChanged('marker', listener))
    receiver.generationChanged('marker', undefined, undefined, 'user-2')
    await marker
    expect(senderGeneration.mock.calls).toEqual([
      [row, undefined],
      [undefined, undefined],
    ])
    expect(senderUser.mock.calls).toEqual([
      ['gen-1', row],
      ['gen-1', undefined],
    ])
  })

  it("brings publications due and webhooks due to another process's publishers and dispatchers", async () => {
    const sender = await start(first)
    const receiver = await start(second)
    const publications = nextCall((listener) => receiver.onPublicationsDue(listener))
    const webhooks = nextCall((listener) => receiver.onWebhooksDue(listener))
    const local = vi.fn()
    sender.onPublicationsDue(local)
    const wrongChannel = vi.fn()
    receiver.onWorkAvailable(wrongChannel)
    sender.publicationsDue()
    sender.webhooksDue()
    await publications
    await webhooks
    // Heard once here, at once; and it did not arrive as another signal over there.
    expect(local).toHaveBeenCalledTimes(1)
    expect(wrongChannel).not.toHaveBeenCalled()
  })

  it('sends at most one work notice per 50 ms however often work is announced', async () => {
    const sender = await start(first)
    const receiver = await start(second)
    const sent = await tap(second, workChannel)
    try {
      const local = vi.fn()
      sender.onWorkAvailable(local)
      const heard = nextCall((listener) => receiver.onWorkAvailable(listener))
      for (let i = 0; i < 100; i++) sender.workAvailable()
      expect(local).toHaveBeenCalledTimes(100)
      await heard
      // One at once, and one at the end of the gap for the 99 after it.
      await expect.poll(() => sent.heard.length).toBe(2)
      await sender.close()
      receiver.workAvailable()
      await expect.poll(() => sent.heard.some((notice) => notice.o === receiver.origin)).toBe(true)
      expect(sent.heard.filter((notice) => notice.o === sender.origin)).toHaveLength(2)
    } finally {
      await sent.close()
    }
  })

  it('sends changes made in one turn of the event loop together, one notice per generation', async () => {
    const sender = await start(first)
    const sent = await tap(second, generationsChannel)
    try {
      sender.generationChanged('gen-1', row)
      sender.generationChanged('gen-1', { ...row, status: 'succeeded' })
      sender.generationChanged('gen-2', undefined, undefined, 'user-2')
      await expect.poll(() => sent.heard.length).toBe(2)
      await sender.close()
      const marker = await start(second)
      marker.generationChanged('marker')
      await expect.poll(() => sent.heard.some((notice) => notice.g === 'marker')).toBe(true)
      expect(sent.heard.filter((notice) => notice.o === sender.origin)).toEqual([
        { o: sender.origin, g: 'gen-1', u: 'user-1' },
        { o: sender.origin, g: 'gen-2', u: 'user-2' },
      ])
    } finally {
      await sent.close()
    }
  })

  it('listens again after its session is killed, and tells every listener to look again', async () => {
    const logLines: string[] = []
    const notifier = await start(first, logLines)
    const other = await start(second)
    const generation = vi.fn()
    notifier.onGenerationChanged('gen-1', generation)
    const userResync = nextCall<[string | null, GenerationRow | undefined]>((listener) =>
      notifier.onUserGenerationsChanged('user-1', listener),
    )
    const workResync = nextCall((listener) => notifier.onWorkAvailable(listener))
    const publicationsResync = nextCall((listener) => notifier.onPublicationsDue(listener))

    const killed = await rowsOf<{ pid: number }>(
      second,
      sql`select pg_terminate_backend(pid), pid from pg_stat_activity
        where application_name = ${`vitrin notices ${notifier.origin}`}`,
    )
    expect(killed).toHaveLength(1)

    // Nobody sent anything: these come from the resync once it listens again.
    expect(await userResync).toEqual([null, undefined])
    await workResync
    await publicationsResync
    expect(generation.mock.calls).toEqual([[undefined, undefined]])
    expect(notifier.isCrossProcess()).toBe(true)
    const log = logLines.join('')
    expect(log).toContain('lost the connection listening for notices')
    expect(log).toContain('listening for notices again')

    // And it hears other processes again, on a new session.
    const heard = nextCall((listener) => notifier.onGenerationChanged('gen-2', listener))
    other.generationChanged('gen-2', undefined, undefined, 'user-1')
    await heard
    expect(await listeningSessions(second, notifier)).toBe(1)
  }, 15_000)

  it('ends its session on close, and when the database closes under it', async () => {
    const notifier = await start(first)
    expect(await listeningSessions(second, notifier)).toBe(1)
    await notifier.close()
    expect(notifier.isCrossProcess()).toBe(false)
    await expect.poll(() => listeningSessions(second, notifier)).toBe(0)

    const [current] = await rowsOf<{ name: string }>(first, sql`select current_database() as name`)
    const third = await openDatabase({
      databaseUrl: withDatabaseName(process.env.TEST_DATABASE_URL ?? '', current?.name ?? ''),
      poolMax: 2,
    })
    const orphan = await start(third)
    expect(await listeningSessions(second, orphan)).toBe(1)
    await third.close()
    expect(orphan.isCrossProcess()).toBe(false)
    await expect.poll(() => listeningSessions(second, orphan)).toBe(0)
  })
})
