import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { contactMessages, emailOutbox } from '#server/db/schema/index.ts'
import { resetDatabase, startTestServer, type TestServer } from '#tests/support/test-server.ts'

const validMessage = {
  name: 'Ayşe Yılmaz',
  email: 'ayse@example.com',
  company: 'Yılmaz Tekstil',
  phone: '+90 555 000 00 00',
  inquiryType: 'enterprise',
  message: 'Merhaba, 500 ürünlük kataloğumuz için teklif almak istiyoruz.',
  locale: 'tr',
}

describe('POST /api/contact', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ SUPPORT_EMAIL: 'support@vitrin.test', SUPPORT_LANGUAGE: 'tr' })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    server.transport.sent.length = 0
  })
  afterAll(async () => {
    await server.close()
  })

  const storedMessages = () => server.database.db.select().from(contactMessages)
  const outbox = () => server.database.db.select().from(emailOutbox)

  it('stores the message and mails it to support, in the support language, replying to the sender', async () => {
    const response = await server.api('/api/contact', { json: validMessage })
    expect(response.status).toBe(201)
    expect(await response.json()).toEqual({ ok: true })

    const [stored] = await storedMessages()
    expect(stored).toMatchObject({
      name: 'Ayşe Yılmaz',
      email: 'ayse@example.com',
      inquiryType: 'enterprise',
      locale: 'tr',
      company: 'Yılmaz Tekstil',
    })
    const [email] = await outbox()
    expect(email).toMatchObject({
      toAddress: 'support@vitrin.test',
      status: 'sent',
      kind: 'contact_notification',
      attempts: 1,
    })
    expect(server.transport.sent).toHaveLength(1)
    expect(server.transport.sent[0]).toMatchObject({ to: 'support@vitrin.test', replyTo: 'ayse@example.com' })
    expect(server.transport.sent[0]?.subject).toBe(
      'Ayşe Yılmaz kişisinden yeni iletişim mesajı (Kurumsal satış)',
    )
    expect(server.transport.sent[0]?.text).toContain('500 ürünlük kataloğumuz')
  })

  it('defaults the inquiry type to general and the optional fields to empty', async () => {
    const response = await server.api('/api/contact', {
      json: { name: 'Can', email: 'can@example.com', message: 'Hello' },
    })
    expect(response.status).toBe(201)
    const [stored] = await storedMessages()
    expect(stored).toMatchObject({ inquiryType: 'general', company: '', phone: '', locale: 'en' })
  })

  it('answers 400 naming each bad field, and stores nothing', async () => {
    const response = await server.api('/api/contact', {
      json: { name: '  ', email: 'not-an-email', inquiryType: 'spam', message: '' },
    })
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.error.code).toBe('VALIDATION_FAILED')
    expect(body.error.details.fields).toEqual({
      name: 'required',
      email: 'email',
      inquiryType: 'invalid',
      message: 'required',
    })
    expect(body.error.message).toContain('email')
    expect(body.error.requestId).toEqual(response.headers.get('x-request-id'))
    expect(await storedMessages()).toHaveLength(0)
    expect(await outbox()).toHaveLength(0)
  })

  it('calls a present value of the wrong type invalid, and a missing one required', async () => {
    const response = await server.api('/api/contact', { json: { name: 42, message: 'Hello' } })
    expect(response.status).toBe(400)
    expect((await response.json()).error.details.fields).toEqual({ name: 'invalid', email: 'required' })
  })

  it('answers 400 INVALID_JSON for a body that is not JSON', async () => {
    const response = await server.api('/api/contact', {
      method: 'POST',
      body: '{"name": ',
      headers: { 'content-type': 'application/json' },
    })
    expect(response.status).toBe(400)
    expect((await response.json()).error.code).toBe('INVALID_JSON')
  })

  it('refuses a body over 64 KB with 413', async () => {
    const response = await server.api('/api/contact', {
      json: { ...validMessage, message: 'x'.repeat(70_000) },
    })
    expect(response.status).toBe(413)
    expect((await response.json()).error.code).toBe('PAYLOAD_TOO_LARGE')
  })

  it('drops a message whose honeypot is filled, while telling the bot it worked', async () => {
    const response = await server.api('/api/contact', {
      json: { ...validMessage, website: 'http://spam.example' },
    })
    expect(response.status).toBe(201)
    expect(await storedMessages()).toHaveLength(0)
    expect(await outbox()).toHaveLength(0)
    expect(server.transport.sent).toHaveLength(0)
  })

  it('allows five messages per client in ten minutes, then answers 429 with Retry-After', async () => {
    for (let i = 0; i < 5; i++) {
      const ok = await server.api('/api/contact', { json: { ...validMessage, message: `message ${i}` } })
      expect(ok.status).toBe(201)
    }
    const limited = await server.api('/api/contact', { json: validMessage })
    expect(limited.status).toBe(429)
    const body = await limited.json()
    expect(body.error.code).toBe('RATE_LIMITED')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(600)
    expect(await storedMessages()).toHaveLength(5)
  })

  it('keeps the message when mail delivery fails, and records the failure in the outbox', async () => {
    server.transport.failNext(new Error('421 service not available'))
    const response = await server.api('/api/contact', { json: validMessage })
    expect(response.status).toBe(201)
    expect(await storedMessages()).toHaveLength(1)
    const [email] = await outbox()
    expect(email).toMatchObject({ status: 'failed', attempts: 1, lastError: '421 service not available' })
  })
})

describe('POST /api/contact with a real SMTP server', () => {
  it('delivers the notification over SMTP', async () => {
    const received: string[] = []
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = ''
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString('utf8')
        })
        stream.on('end', () => {
          received.push(data)
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()))
    const { port } = smtp.server.address() as AddressInfo
    const server = await startTestServer(
      {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        SUPPORT_EMAIL: 'team@vitrin.test',
        MAIL_FROM: 'Vitrin <noreply@vitrin.test>',
      },
      { useConfiguredTransport: true },
    )
    try {
      const response = await server.api('/api/contact', { json: { ...validMessage, locale: 'en' } })
      expect(response.status).toBe(201)
      expect(received).toHaveLength(1)
      expect(received[0]).toContain('To: team@vitrin.test')
      expect(received[0]).toContain('Reply-To: ayse@example.com')
      const [email] = await server.database.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.kind, 'contact_notification'))
      expect(email?.status).toBe('sent')
    } finally {
      await server.close()
      await new Promise<void>((resolve) => smtp.close(() => resolve()))
    }
  })
})
