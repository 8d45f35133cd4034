import { Writable } from 'node:stream'
import { eq } from 'drizzle-orm'
import { pino } from 'pino'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Database } from '#server/db/client.ts'
import { emailOutbox } from '#server/db/schema/index.ts'
import { createLogger } from '#server/logger.ts'
import { openTestDatabase } from '#tests/support/test-database.ts'
import { resetDatabase } from '#tests/support/test-server.ts'
import { createMailer, enqueueEmail } from './outbox.ts'
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
})
