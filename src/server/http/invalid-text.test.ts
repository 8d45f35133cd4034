import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import { serve } from '@hono/node-server'
import { sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger, describeForLog } from '#server/logger.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { nextClientIp } from '#tests/support/factories.ts'
import { signedInClient } from '#tests/support/generation-client.ts'
import { createTestClient, startTestServer, type TestServer } from '#tests/support/test-server.ts'
import type { AppEnv } from './context.ts'
import { handleError } from './errors.ts'

const validContact = { name: 'Can', email: 'can@example.com', message: 'Hello' }

async function expectFieldRefused(response: Response, field: string) {
  expect(response.status).toBe(400)
  const body = (await response.json()) as ErrorBody
  expect(body.error.code).toBe('VALIDATION_FAILED')
  expect(body.error.details?.fields?.[field]).toBe('invalid')
}

describe('text the database cannot store', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it.each([
    ['a NUL byte', 'Hello\u0000world'],
    ['a lone surrogate', 'Hello \ud800 world'],
    ['a control character', 'Hello\u001bworld'],
  ])('refuses %s in the contact form with 400 naming the field', async (_, text) => {
    const client = createTestClient(server, { clientIp: nextClientIp() })
    await expectFieldRefused(
      await client.request('/api/contact', { json: { ...validContact, message: text } }),
      'message',
    )
    await expectFieldRefused(
      await client.request('/api/contact', { json: { ...validContact, name: text } }),
      'name',
    )
  })

  it('keeps tabs and line breaks in free text', async () => {
    const client = createTestClient(server, { clientIp: nextClientIp() })
    const response = await client.request('/api/contact', {
      json: { ...validContact, message: 'Line one\r\n\tLine two' },
    })
    expect(response.status).toBe(201)
  })

  it('refuses a NUL byte in a prompt or in product details with 400 naming the field', async () => {
    const client = await signedInClient(server)
    const imageAssetId = randomUUID()
    await expectFieldRefused(
      await client.request('/api/generations', { json: { mode: 'image', imageAssetId, prompt: 'a\u0000b' } }),
      'prompt',
    )
    await expectFieldRefused(
      await client.request('/api/generations', {
        json: { mode: 'seo', imageAssetId, details: { name: 'Mug', brand: 'Acme\u0000' } },
      }),
      'details.brand',
    )
    await expectFieldRefused(await client.request('/api/generations?cursor=%00'), 'cursor')
  })

  it('refuses a NUL byte in a password reset token instead of failing', async () => {
    const client = createTestClient(server, { clientIp: nextClientIp() })
    await expectFieldRefused(
      await client.request('/api/auth/password-reset/confirm', {
        json: { token: 'abc\u0000def', password: 'secret12' },
      }),
      'token',
    )
  })
})

describe('database errors at the error handler', () => {
  let server: TestServer
  let url: string
  let close: () => Promise<void>
  const lines: string[] = []

  beforeAll(async () => {
    server = await startTestServer()
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean))
        done()
      },
    })
    const log = createLogger({ level: 'info', destination })
    const { db } = server.database
    const app = new Hono<AppEnv>()
      .use(async (c, next) => {
        c.set('log', log)
        c.set('requestId', 'test-request')
        await next()
      })
      .post('/store', async (c) => {
        const { text } = await c.req.json<{ text: string }>()
        await db.execute(sql`select ${text}::text as stored`)
        return c.text('stored')
      })
      .post('/uuid', async (c) => {
        const { id } = await c.req.json<{ id: string }>()
        await db.execute(sql`select ${id}::uuid as id`)
        return c.text('found')
      })
      .post('/broken', async (c) => {
        const { email } = await c.req.json<{ email: string }>()
        await db.execute(sql`select * from no_such_table where email = ${email}`)
        return c.text('never')
      })
    app.onError(handleError)
    const listener = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => listener.once('listening', () => resolve()))
    url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`
    close = () => new Promise<void>((resolve) => listener.close(() => resolve()))
  })
  afterAll(async () => {
    await close()
    await server.close()
  })

  const post = (path: string, json: unknown) =>
    fetch(url + path, {
      method: 'POST',
      body: JSON.stringify(json),
      headers: { 'content-type': 'application/json' },
    })

  it('answers 400, not 500, when the database refuses the text itself', async () => {
    const nul = await post('/store', { text: 'secret-prompt\u0000' })
    expect(nul.status).toBe(400)
    expect(((await nul.json()) as ErrorBody).error.code).toBe('VALIDATION_FAILED')
    const uuid = await post('/uuid', { id: 'not-a-uuid' })
    expect(uuid.status).toBe(400)
  })

  it('logs a failed query with its SQL and code but without its parameters', async () => {
    lines.length = 0
    const response = await post('/broken', { email: 'private-person@example.com' })
    expect(response.status).toBe(500)
    expect(JSON.stringify(await response.json())).not.toContain('private-person')
    const logged = lines.join('\n')
    expect(logged).toContain('request failed')
    expect(logged).toContain('no_such_table')
    expect(logged).not.toContain('private-person@example.com')
    expect(logged).not.toContain('"params"')
  })

  it("keeps a failed query's parameters out of library log lines too (the auth library's)", async () => {
    const failure = await server.database.db
      .execute(sql`select * from no_such_table where email = ${'private-person@example.com'}`)
      .then(
        () => null,
        (error: unknown) => error,
      )
    expect(String(failure)).toContain('private-person@example.com')
    expect(describeForLog(failure)).toContain('no_such_table')
    expect(describeForLog(failure)).not.toContain('private-person@example.com')
    expect(describeForLog('plain text')).toBe('plain text')
  })
})
