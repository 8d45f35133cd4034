import { request as httpRequest } from 'node:http'
import { and, eq, like, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest'
import { emailOutbox, rateLimitBuckets, sessions, users, verifications } from '#server/db/schema/index.ts'
import { nextClientIp } from '#tests/support/factories.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestServer,
} from '#tests/support/test-server.ts'

const password = 'secret1'

// A server without PUBLIC_URL: links must still come from configuration (the default origin,
// here the test server's own address), never from what a request claims.
describe('auth hardening over HTTP', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true' })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    server.transport.sent.length = 0
  })
  afterAll(async () => {
    await server.close()
  })

  const client = () => createTestClient(server, { clientIp: nextClientIp() })
  const errorOf = async (response: Response) =>
    ((await response.json()) as { error: { code: string; details?: { retryAfterSeconds?: number } } }).error

  /** A raw POST with headers fetch would not let us forge (Host). */
  function rawPost(path: string, body: unknown, headers: Record<string, string>): Promise<number> {
    const target = new URL(server.url)
    const payload = JSON.stringify(body)
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            ...headers,
          },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', reject)
      req.end(payload)
    })
  }

  /** Waits (bounded, on the condition itself) until `count` reset emails to `to` were delivered. */
  async function deliveredResetEmails(to: string, count = 1) {
    const deadline = Date.now() + 10_000
    for (;;) {
      const rows = await server.database.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.kind, 'password_reset')))
        .orderBy(emailOutbox.createdAt)
      if (rows.length >= count && rows.every((row) => row.status === 'sent')) return rows
      if (Date.now() > deadline) throw new Error(`expected ${count} delivered reset emails to ${to}`)
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  const tokenOf = (body: string) => {
    const match = body.match(/\/auth\/reset-password\/confirm\?token=(\S+)/)
    if (!match?.[1]) throw new Error('no reset link in the email')
    return decodeURIComponent(match[1])
  }

  const signUp = async (email: string) => {
    const browser = client()
    expect((await browser.request('/api/auth/sign-up', { json: { email, password } })).status).toBe(201)
    return browser
  }

  it('builds the reset link from configuration, whatever Host or X-Forwarded-Host a request forges', async () => {
    await signUp('owner@example.com')
    expect(
      await rawPost(
        '/api/auth/password-reset',
        { email: 'owner@example.com' },
        {
          host: 'evil.example',
          'x-forwarded-for': nextClientIp(),
        },
      ),
    ).toBe(202)
    expect(
      await rawPost(
        '/api/auth/password-reset',
        { email: 'owner@example.com' },
        {
          'x-forwarded-host': 'evil.example',
          'x-forwarded-proto': 'https',
          'x-forwarded-for': nextClientIp(),
        },
      ),
    ).toBe(202)
    const emails = await deliveredResetEmails('owner@example.com', 2)
    expect(server.config.publicUrl).toBe(server.url)
    for (const email of emails) {
      expect(email.textBody).not.toContain('evil.example')
      expect(email.textBody).toContain(`${server.url}/auth/reset-password/confirm?token=`)
    }
    expect(server.transport.sent.map((mail) => mail.text)).toEqual(emails.map((email) => email.textBody))
  })

  it('keeps only the newest reset token alive, and a used token takes every other one with it', async () => {
    const owner = await signUp('tokens@example.com')
    for (let i = 0; i < 3; i++) {
      const response = await client().request('/api/auth/password-reset', {
        json: { email: 'tokens@example.com' },
      })
      expect(response.status).toBe(202)
      // One at a time, so the order of issue is known.
      await deliveredResetEmails('tokens@example.com', i + 1)
    }
    const [t1, t2, t3] = (await deliveredResetEmails('tokens@example.com', 3)).map((email) =>
      tokenOf(email.textBody),
    )
    const confirm = (token: string | undefined, newPassword: string) =>
      client().request('/api/auth/password-reset/confirm', { json: { token, password: newPassword } })
    for (const old of [t1, t2]) {
      const refused = await confirm(old, 'newpass1')
      expect(refused.status).toBe(400)
      expect((await errorOf(refused)).code).toBe('AUTH_RESET_TOKEN_INVALID')
    }
    // A token left over from elsewhere (say, issued before this rule) must die with the used one.
    const [user] = await server.database.db.select().from(users).where(eq(users.email, 'tokens@example.com'))
    await server.database.db.insert(verifications).values({
      id: 'leftover',
      identifier: 'reset-password:leftover-token',
      value: user?.id ?? '',
      expiresAt: new Date(Date.now() + 3_600_000),
    })
    expect((await owner.request('/api/usage')).status).toBe(200)
    expect((await confirm(t3, 'newpass1')).status).toBe(200)
    expect((await errorOf(await confirm('leftover-token', 'another1'))).code).toBe('AUTH_RESET_TOKEN_INVALID')
    expect((await errorOf(await confirm(t3, 'another1'))).code).toBe('AUTH_RESET_TOKEN_INVALID')
    expect(
      await server.database.db
        .select()
        .from(verifications)
        .where(like(verifications.identifier, 'reset-password:%')),
    ).toHaveLength(0)
    // The reset ended every session of the user, the one seen a moment ago included.
    expect((await owner.request('/api/usage')).status).toBe(401)
    expect(
      await server.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.userId, user?.id ?? '')),
    ).toHaveLength(0)
  })

  it('kills a reset link sent before a password change', async () => {
    const owner = await signUp('changer@example.com')
    await client().request('/api/auth/password-reset', { json: { email: 'changer@example.com' } })
    const [email] = await deliveredResetEmails('changer@example.com')
    const changed = await owner.request('/api/auth/password', {
      json: { currentPassword: password, newPassword: 'newpass1' },
    })
    expect(changed.status).toBe(200)
    const late = await client().request('/api/auth/password-reset/confirm', {
      json: { token: tokenOf(email?.textBody ?? ''), password: 'attacker1' },
    })
    expect((await errorOf(late)).code).toBe('AUTH_RESET_TOKEN_INVALID')
    const signIn = await client().request('/api/auth/sign-in', {
      json: { email: 'changer@example.com', password: 'newpass1' },
    })
    expect(signIn.status).toBe(200)
  })

  it('slows a guesser down with growing waits but never keeps the owner out from another client', async () => {
    await signUp('target@example.com')
    const attacker = client()
    const guess = () =>
      attacker.request('/api/auth/sign-in', { json: { email: 'target@example.com', password: 'guess12' } })
    const waits: number[] = []
    let failures = 0
    let refusedBeforeFive = 0
    while (failures < 30) {
      const response = await guess()
      if (response.status === 401) {
        failures += 1
        continue
      }
      expect(response.status).toBe(429)
      const error = await errorOf(response)
      expect(error.code).toBe('RATE_LIMITED')
      if (failures < 5) refusedBeforeFive += 1
      const wait = error.details?.retryAfterSeconds ?? 0
      waits.push(wait)
      // Instead of waiting, move the attacker's last failure back by the wait it was given.
      await server.database.db
        .update(rateLimitBuckets)
        .set({ lastHitAt: sql`${rateLimitBuckets.lastHitAt} - ${wait} * interval '1 second'` })
        .where(like(rateLimitBuckets.key, 'sign-in-fail%'))
    }
    expect(refusedBeforeFive).toBe(0)
    // 1 s after the fifth failure, then doubling, never more than 15 minutes.
    expect(waits[0]).toBe(1)
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1] ?? 0)
    expect(waits).toContain(900)
    expect(Math.max(...waits)).toBe(900)

    // The owner, elsewhere, gets in at once.
    const owner = client()
    const signedIn = await owner.request('/api/auth/sign-in', {
      json: { email: 'target@example.com', password },
    })
    expect(signedIn.status).toBe(200)
    // The guessing client stays slowed down, even with the right password.
    expect(
      (await attacker.request('/api/auth/sign-in', { json: { email: 'target@example.com', password } }))
        .status,
    ).toBe(429)
  })

  it('forgets a client’s failures for an account once it signs in', async () => {
    await signUp('typo@example.com')
    const browser = client()
    for (let i = 0; i < 4; i++) {
      const typo = await browser.request('/api/auth/sign-in', {
        json: { email: 'typo@example.com', password: 'typo123' },
      })
      expect(typo.status).toBe(401)
    }
    expect(
      (await browser.request('/api/auth/sign-in', { json: { email: 'typo@example.com', password } })).status,
    ).toBe(200)
    for (let i = 0; i < 5; i++) {
      const typo = await browser.request('/api/auth/sign-in', {
        json: { email: 'typo@example.com', password: 'typo123' },
      })
      expect(typo.status, `failure ${i + 1} after the success`).toBe(401)
    }
  })

  it('takes as long to answer a reset request for an unknown email as for a known one, and still mails the known one', async () => {
    await signUp('known@example.com')
    const timeOne = async (email: string) => {
      // Rate limits would answer early; each sample starts from none.
      await server.database.db.delete(rateLimitBuckets)
      const started = performance.now()
      const response = await client().request('/api/auth/password-reset', { json: { email } })
      const ms = performance.now() - started
      expect(response.status).toBe(202)
      return ms
    }
    // Mail servers are slow: a request that sent the email itself would show it plainly.
    const send = server.transport.send
    server.transport.send = async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 40))
      return send(...args)
    }
    onTestFinished(() => {
      server.transport.send = send
    })
    const known: number[] = []
    const unknown: number[] = []
    // Warm up both paths, then interleave, so load on the machine falls on both alike.
    await timeOne('ghost-0@example.com')
    await timeOne('known@example.com')
    await deliveredResetEmails('known@example.com', 1)
    for (let i = 0; i < 20; i++) {
      known.push(await timeOne('known@example.com'))
      // The email goes out after the answer; let it finish so it does not slow the next sample.
      await deliveredResetEmails('known@example.com', i + 2)
      unknown.push(await timeOne(`ghost-${i + 1}@example.com`))
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
    const knownMs = median(known)
    const unknownMs = median(unknown)
    // The leak being closed: the email was written and sent inside the request, so with this
    // 40 ms mail server a known address would answer at least 40 ms later. A known address still
    // costs a few more statements (the token and the outbox row), which a loaded machine can
    // stretch to several milliseconds, so the bound is half the mail server's delay.
    const bound = 20
    expect(Math.abs(knownMs - unknownMs), `known ${knownMs} ms, unknown ${unknownMs} ms`).toBeLessThan(bound)
    expect(server.transport.sent.filter((mail) => mail.to === 'known@example.com')).toHaveLength(21)
    expect(
      await server.database.db.select().from(emailOutbox).where(like(emailOutbox.toAddress, 'ghost-%')),
    ).toHaveLength(0)
  })
  it('takes as long to answer a sign-up for a registered email as for a new one', async () => {
    await signUp('owner@example.com')
    const timeOne = async (email: string) => {
      // Rate limits would answer early; each sample starts from none.
      await server.database.db.delete(rateLimitBuckets)
      const started = performance.now()
      const response = await client().request('/api/auth/sign-up', {
        json: { email, password: 'other-pass-1' },
      })
      const ms = performance.now() - started
      expect(response.status).toBe(201)
      return ms
    }
    const accountExistsEmails = async () =>
      (await server.database.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'account_exists')))
        .length
    const registered: number[] = []
    const fresh: number[] = []
    // Warm up both paths, then interleave, so load on the machine falls on both alike.
    await timeOne('owner@example.com')
    await timeOne('fresh-0@example.com')
    for (let i = 0; i < 8; i++) {
      registered.push(await timeOne('owner@example.com'))
      // The owner's email goes out after the answer; let it finish before the next sample.
      await expect.poll(accountExistsEmails).toBe(i + 2)
      fresh.push(await timeOne(`fresh-${i + 1}@example.com`))
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
    const registeredMs = median(registered)
    const freshMs = median(fresh)
    // Both hash the password (scrypt), which is most of the time; a registered email that
    // skipped it would answer in a fraction of a new account's time.
    expect(registeredMs, `registered ${registeredMs} ms, new ${freshMs} ms`).toBeGreaterThan(freshMs * 0.6)
    expect(registeredMs, `registered ${registeredMs} ms, new ${freshMs} ms`).toBeLessThan(freshMs * 1.5)
  }, 120_000)

  it('refuses the most common passwords and the email itself, at sign-up, reset and change', async () => {
    const fieldsOf = async (response: Response) => {
      expect(response.status).toBe(400)
      const error = (await response.json()).error
      expect(error.code).toBe('VALIDATION_FAILED')
      return error.details.fields
    }
    for (const common of ['123456', 'Password', 'qwerty123', 'şifre123', 'Galatasaray', ' iloveyou ']) {
      const refused = await client().request('/api/auth/sign-up', {
        json: { email: 'new@example.com', password: common },
      })
      expect(await fieldsOf(refused), common).toEqual({ password: 'tooCommon' })
    }
    const sameAsEmail = await client().request('/api/auth/sign-up', {
      json: { email: 'Mirror@Example.com', password: 'mirror@example.com' },
    })
    expect(await fieldsOf(sameAsEmail)).toEqual({ password: 'sameAsEmail' })
    expect(await server.database.db.select().from(users)).toHaveLength(0)

    const owner = await signUp('strong@example.com')
    expect(
      await fieldsOf(
        await owner.request('/api/auth/password', {
          json: { currentPassword: password, newPassword: 'password1' },
        }),
      ),
    ).toEqual({ newPassword: 'tooCommon' })
    expect(
      await fieldsOf(
        await owner.request('/api/auth/password', {
          json: { currentPassword: password, newPassword: 'STRONG@example.com' },
        }),
      ),
    ).toEqual({ newPassword: 'sameAsEmail' })

    await client().request('/api/auth/password-reset', { json: { email: 'strong@example.com' } })
    const [email] = await deliveredResetEmails('strong@example.com')
    const token = tokenOf(email?.textBody ?? '')
    for (const [weak, reason] of [
      ['fenerbahce', 'tooCommon'],
      ['strong@example.com', 'sameAsEmail'],
    ] as const) {
      const refused = await client().request('/api/auth/password-reset/confirm', {
        json: { token, password: weak },
      })
      expect(await fieldsOf(refused)).toEqual({ password: reason })
    }
    // The token still works for a good password, and the old one still signs in until then.
    expect(
      (await client().request('/api/auth/sign-in', { json: { email: 'strong@example.com', password } }))
        .status,
    ).toBe(200)
    const reset = await client().request('/api/auth/password-reset/confirm', {
      json: { token, password: 'Kedi-Masa-42' },
    })
    expect(reset.status).toBe(200)
  })

  it('ends a session 30 days after it began, however often it was renewed', async () => {
    const browser = await signUp('longlived@example.com')
    const [session] = await server.database.db.select().from(sessions)
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000)
    // Used every day for 29 days: still fine (and renewed for another 7).
    await server.database.db
      .update(sessions)
      .set({ createdAt: daysAgo(29), expiresAt: new Date(Date.now() + 6 * 86_400_000) })
      .where(eq(sessions.id, session?.id ?? ''))
    expect((await browser.request('/api/usage')).status).toBe(200)

    const other = await signUp('other@example.com')
    const [otherSession] = await server.database.db
      .select()
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(users.email, 'other@example.com'))
    await server.database.db
      .update(sessions)
      .set({ createdAt: daysAgo(30.01), expiresAt: new Date(Date.now() + 6 * 86_400_000) })
      .where(eq(sessions.id, otherSession?.sessions.id ?? ''))
    expect((await other.request('/api/usage')).status).toBe(401)
    expect((await (await other.request('/api/session')).json()).user).toBeNull()
    expect(
      await server.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, otherSession?.sessions.id ?? '')),
    ).toHaveLength(0)
  })
})
