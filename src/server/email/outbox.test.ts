import { Writable } from 'node:stream'
import { eq } from 'drizzle-orm'
import { pino } from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/client.ts'
import { emailOutbox } from '#server/db/schema/index.ts'
import { createLogger } from '#server/logger.ts'
import { openTestDatabase } from '#tests/support/test-database.ts'
import { resetDatabase } from '#tests/support/test-server.ts'
import { createMailer, enqueueEmail, nextRetryAt, outboxRetry } from './outbox.ts'
import { createEmailTransport, type EmailTransport, type OutgoingEmail } from './transport.ts'

const logger = createLogger({ level: 'silent' })
const from = 'Vitrin <no-reply@vitrin.test>'
const email = {
  kind: 'contact_notification' as const,
  to: 'support@vitrin.test',
  replyTo: 'ayse@example.com',
  subject: 'Yeni mesaj',
  text: 'Merhaba',
}

type RecordingTransport = EmailTransport & { calls: (OutgoingEmail & { from: string })[] }

/** A transport of the given kind that records each call and fails with `error` when given one. */
function recordingTransport(kind: 'smtp' | 'log', error?: unknown): RecordingTransport {
  const calls: (OutgoingEmail & { from: string })[] = []
  return {
    kind,
    calls,
    async send(outgoing) {
      calls.push(outgoing)
      if (error !== undefined) throw error
    },
  }
}

describe('email outbox', () => {
  let database: Database
  beforeAll(async () => {
    database = await openTestDatabase()
  })
  beforeEach(async () => {
    await resetDatabase(database)
  })
  afterAll(async () => {
    await database.close()
  })

  const rowOf = async (id: string) => {
    const [row] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.id, id))
    if (!row) throw new Error(`no outbox row ${id}`)
    return row
  }

  it('enqueues an email as pending, not yet attempted', async () => {
    const id = await enqueueEmail(database.db, email)
    expect(await rowOf(id)).toMatchObject({
      toAddress: 'support@vitrin.test',
      replyTo: 'ayse@example.com',
      subject: 'Yeni mesaj',
      textBody: 'Merhaba',
      kind: 'contact_notification',
      status: 'pending',
      attempts: 0,
      lastError: null,
      sentAt: null,
    })
  })

  it('enqueues nothing when the surrounding transaction rolls back', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueEmail(tx, email)
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    expect(await database.db.select().from(emailOutbox)).toEqual([])
  })

  it('marks an email delivered by the log transport as logged', async () => {
    const transport = recordingTransport('log')
    const id = await enqueueEmail(database.db, email)
    await createMailer({ db: database.db, transport, from, logger }).deliver(id)
    expect(transport.calls).toEqual([
      {
        from,
        to: 'support@vitrin.test',
        replyTo: 'ayse@example.com',
        subject: 'Yeni mesaj',
        text: 'Merhaba',
      },
    ])
    const row = await rowOf(id)
    expect(row).toMatchObject({ status: 'logged', attempts: 1, lastError: null })
    expect(row.sentAt).toBeInstanceOf(Date)
  })

  it('marks an email sent over SMTP as sent, and sends no Reply-To when there is none', async () => {
    const transport = recordingTransport('smtp')
    const id = await enqueueEmail(database.db, { ...email, replyTo: undefined })
    await createMailer({ db: database.db, transport, from, logger }).deliver(id)
    expect(transport.calls[0]?.replyTo).toBeUndefined()
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 1, replyTo: null })
  })

  it('records a failed delivery with the reason, without throwing', async () => {
    const transport = recordingTransport('smtp', new Error('550 mailbox unavailable'))
    const id = await enqueueEmail(database.db, email)
    await expect(
      createMailer({ db: database.db, transport, from, logger }).deliver(id),
    ).resolves.toBeUndefined()
    const row = await rowOf(id)
    expect(row).toMatchObject({ status: 'failed', attempts: 1, lastError: '550 mailbox unavailable' })
    expect(row.sentAt).toBeNull()
  })

  it('keeps the recorded reason short, and copes with a thrown non-Error', async () => {
    const long = recordingTransport('smtp', new Error('x'.repeat(2_000)))
    const first = await enqueueEmail(database.db, email)
    await createMailer({ db: database.db, transport: long, from, logger }).deliver(first)
    expect((await rowOf(first)).lastError).toHaveLength(500)

    const odd = recordingTransport('smtp', 'a string, not an Error')
    const second = await enqueueEmail(database.db, email)
    await createMailer({ db: database.db, transport: odd, from, logger }).deliver(second)
    expect(await rowOf(second)).toMatchObject({ status: 'failed', lastError: 'unknown error' })
  })

  it('retries a failed email and clears the reason once it goes through', async () => {
    const id = await enqueueEmail(database.db, email)
    const failing = recordingTransport('smtp', new Error('421 try later'))
    await createMailer({ db: database.db, transport: failing, from, logger }).deliver(id)
    const working = recordingTransport('smtp')
    await createMailer({ db: database.db, transport: working, from, logger }).deliver(id)
    expect(working.calls).toHaveLength(1)
    expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null })
  })

  it('does not send an email twice', async () => {
    for (const kind of ['smtp', 'log'] as const) {
      const transport = recordingTransport(kind)
      const mailer = createMailer({ db: database.db, transport, from, logger })
      const id = await enqueueEmail(database.db, email)
      await mailer.deliver(id)
      await mailer.deliver(id)
      expect(transport.calls).toHaveLength(1)
      expect((await rowOf(id)).attempts).toBe(1)
    }
  })

  it('does nothing for an unknown id', async () => {
    const transport = recordingTransport('smtp')
    await createMailer({ db: database.db, transport, from, logger }).deliver(
      '00000000-0000-4000-8000-000000000000',
    )
    expect(transport.calls).toEqual([])
  })

  it('writes the email to the log when no SMTP_URL is configured', async () => {
    const lines: string[] = []
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'))
        callback()
      },
    })
    const log = pino({ level: 'info' }, sink)
    const transport = await createEmailTransport({ smtpUrl: undefined })
    expect(transport.kind).toBe('log')
    const id = await enqueueEmail(database.db, email)
    await createMailer({ db: database.db, transport, from, logger: log }).deliver(id)
    expect(await rowOf(id)).toMatchObject({ status: 'logged', attempts: 1 })
    const entry = lines.map((line) => JSON.parse(line)).find((e) => e.email)
    expect(entry?.email).toMatchObject({ to: 'support@vitrin.test', subject: 'Yeni mesaj', text: 'Merhaba' })
  })

  describe('retries', () => {
    /** A clock the test moves; starts now. */
    function clock() {
      let at = Date.now()
      return {
        now: () => new Date(at),
        move: (ms: number) => {
          at += ms
        },
      }
    }

    /**
     * A mailer on a clock the test moves, over a transport that fails while `state.isDown` says
     * so (as given), counting its calls and sends; and one email in the outbox for it.
     */
    async function mailerOnClock(options: { isDown: boolean }) {
      const time = clock()
      const state = { isDown: options.isDown, calls: 0, sent: 0 }
      const transport: EmailTransport = {
        kind: 'smtp',
        async send() {
          state.calls++
          if (state.isDown) throw new Error('421 service not available')
          state.sent++
        },
      }
      const mailer = createMailer({ db: database.db, transport, from, logger, now: time.now })
      return { time, state, mailer, id: await enqueueEmail(database.db, email) }
    }

    it('waits a minute after a failure, then three times longer each time up to 6 hours, and gives up after 8', () => {
      const at = new Date('2026-11-24T10:00:00Z')
      const waits = [1, 2, 3, 4, 5, 6, 7].map((attempts) => {
        const next = nextRetryAt(attempts, at)
        return next ? (next.getTime() - at.getTime()) / 60_000 : null
      })
      expect(waits).toEqual([1, 3, 9, 27, 81, 243, 360])
      expect(nextRetryAt(8, at)).toBeNull()
    })

    it('retries a failed email once its time comes, not before, and sends it once the server is back', async () => {
      const { time, state, mailer, id } = await mailerOnClock({ isDown: true })
      await mailer.deliver(id)
      const failed = await rowOf(id)
      expect(failed).toMatchObject({ status: 'failed', attempts: 1 })
      expect(failed.nextAttemptAt?.getTime()).toBe(time.now().getTime() + 60_000)

      time.move(59_000)
      expect(await mailer.retryDue()).toBe(0)
      expect(state.calls).toBe(1)

      time.move(1_000)
      expect(await mailer.retryDue()).toBe(1)
      expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 2 })
      expect((await rowOf(id)).nextAttemptAt?.getTime()).toBe(time.now().getTime() + 180_000)

      state.isDown = false
      time.move(180_000)
      expect(await mailer.retryDue()).toBe(1)
      expect(await rowOf(id)).toMatchObject({
        status: 'sent',
        attempts: 3,
        lastError: null,
        nextAttemptAt: null,
      })
      expect(state.sent).toBe(1)
      time.move(24 * 3_600_000)
      expect(await mailer.retryDue()).toBe(0)
    })

    it('leaves an email alone for a look by hand once its 8 attempts have failed', async () => {
      const { time, state, mailer, id } = await mailerOnClock({ isDown: true })
      await mailer.deliver(id)
      for (let attempt = 2; attempt <= outboxRetry.maxAttempts; attempt++) {
        time.move(outboxRetry.maxMs)
        expect(await mailer.retryDue()).toBe(1)
      }
      expect(await rowOf(id)).toMatchObject({ status: 'failed', attempts: 8, nextAttemptAt: null })
      time.move(outboxRetry.maxMs)
      expect(await mailer.retryDue()).toBe(0)
      expect(state.calls).toBe(8)
      // Asked for by hand, it is tried again.
      state.isDown = false
      await mailer.deliver(id)
      expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 9 })
    })

    it('delivers an email its process wrote but never handed over, once it is 5 minutes old', async () => {
      const { time, state, mailer, id } = await mailerOnClock({ isDown: false })
      time.move(outboxRetry.abandonedAfterMs - 60_000)
      expect(await mailer.retryDue()).toBe(0)
      time.move(120_000)
      expect(await mailer.retryDue()).toBe(1)
      expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 1 })
    })

    it('takes over a delivery whose lease ran out (its sender stopped), and not before', async () => {
      const { time, state, mailer, id } = await mailerOnClock({ isDown: false })
      // A sender took it and stopped before recording anything.
      await database.db
        .update(emailOutbox)
        .set({ status: 'sending', nextAttemptAt: new Date(time.now().getTime() + outboxRetry.leaseMs) })
        .where(eq(emailOutbox.id, id))
      await mailer.deliver(id)
      expect(state.calls).toBe(0)
      time.move(outboxRetry.leaseMs)
      expect(await mailer.retryDue()).toBe(1)
      expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 1 })
    })

    it('sends an email once when two deliveries of it start at the same moment', async () => {
      const transport = recordingTransport('smtp')
      const first = createMailer({ db: database.db, transport, from, logger })
      const second = createMailer({ db: database.db, transport, from, logger })
      const id = await enqueueEmail(database.db, email)
      await Promise.all([first.deliver(id), second.deliver(id), first.deliver(id)])
      expect(transport.calls).toHaveLength(1)
      expect(await rowOf(id)).toMatchObject({ status: 'sent', attempts: 1 })
    })
  })
})
