import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { accounts, emailOutbox, sessions, users } from '#server/db/schema/index.ts'
import { nextClientIp } from '#tests/support/factories.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestServer,
} from '#tests/support/test-server.ts'

const password = 'secret1'

describe('accounts over HTTP', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true', PUBLIC_URL: 'https://vitrin.test' })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    server.transport.sent.length = 0
  })
  afterAll(async () => {
    await server.close()
  })

  const client = () => createTestClient(server, { clientIp: nextClientIp() })
  const errorCode = async (response: Response) =>
    ((await response.json()) as { error: { code: string } }).error.code

  it('signs up, keeps the session in an httpOnly SameSite=Lax cookie, and stores only a hash', async () => {
    const browser = client()
    const response = await browser.request('/api/auth/sign-up', {
      json: { email: ' New@Example.com ', password },
    })
    expect(response.status).toBe(201)
    expect((await response.json()).user).toMatchObject({ email: 'new@example.com', isBeta: false })
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('vitrin.session_token='))
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)

    const session = await (await browser.request('/api/session')).json()
    expect(session.user.email).toBe('new@example.com')

    const [account] = await server.database.db.select().from(accounts)
    expect(account?.password).toBeTruthy()
    expect(account?.password).not.toContain(password)
    expect(await server.database.db.select().from(sessions)).toHaveLength(1)
  })

  it('refuses a short password and a bad email with named fields', async () => {
    const browser = client()
    const bad = await browser.request('/api/auth/sign-up', { json: { email: 'nope', password: '123' } })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.details.fields).toEqual({ email: 'email', password: 'tooShort' })
    expect(await server.database.db.select().from(users)).toHaveLength(0)
  })

  it('answers a sign-up for a registered email as for a new one, without a session, and emails the owner in their language', async () => {
    const fresh = await client().request('/api/auth/sign-up', {
      json: { email: 'new@example.com', password },
    })
    const owner = client()
    await owner.request('/api/auth/sign-up', { json: { email: 'taken@example.com', password } })
    const [ownerRow] = await server.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'taken@example.com'))
    // The owner last used the app in Turkish; whoever signs up now reads English.
    await server.database.db.update(users).set({ locale: 'tr' }).where(eq(users.email, 'taken@example.com'))
    server.transport.sent.length = 0

    const stranger = client()
    const again = await stranger.request('/api/auth/sign-up', {
      json: { email: 'TAKEN@example.com', password: 'another-password' },
      headers: { 'x-vitrin-locale': 'en' },
    })
    // The same status and the same shape as a new account's answer.
    expect(again.status).toBe(fresh.status)
    expect(again.status).toBe(201)
    expect(again.headers.get('content-type')).toBe(fresh.headers.get('content-type'))
    const body = (await again.json()) as { user: Record<string, unknown> }
    const freshBody = (await fresh.json()) as { user: Record<string, unknown> }
    expect(Object.keys(body).sort()).toEqual(Object.keys(freshBody).sort())
    expect(Object.keys(body.user).sort()).toEqual(Object.keys(freshBody.user).sort())
    expect(body.user).toMatchObject({ email: 'taken@example.com', isBeta: false })
    expect(body.user.id).not.toBe(ownerRow?.id)
    expect(body.user.id).toMatch(/^[0-9a-f-]{36}$/)
    // But no session, and nothing changed: no new user, the owner's password still works.
    expect(again.headers.getSetCookie().some((c) => c.startsWith('vitrin.session_token='))).toBe(false)
    expect((await (await stranger.request('/api/session')).json()).user).toBeNull()
    expect(await server.database.db.select().from(users)).toHaveLength(2)
    const signIn = await client().request('/api/auth/sign-in', {
      json: { email: 'taken@example.com', password },
    })
    expect(signIn.status).toBe(200)

    // The owner hears of it by email (written after the answer), in Turkish, with both links.
    await expect
      .poll(
        async () =>
          (await server.database.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'account_exists')))
            .length,
        { timeout: 10_000, interval: 20 },
      )
      .toBe(1)
    const [email] = await server.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, 'account_exists'))
    expect(email?.toAddress).toBe('taken@example.com')
    expect(email?.subject).toBe('Zaten bir Vitrin hesabınız var')
    expect(email?.textBody).toContain('https://vitrin.test/tr/auth/signin')
    expect(email?.textBody).toContain('https://vitrin.test/tr/auth/reset-password')
    expect(email?.textBody).not.toContain('another-password')
    await expect.poll(() => server.transport.sent.map((sent) => sent.to)).toEqual(['taken@example.com'])

    // An owner with no language of record gets the request's.
    await server.database.db.update(users).set({ locale: null }).where(eq(users.email, 'taken@example.com'))
    await client().request('/api/auth/sign-up', {
      json: { email: 'taken@example.com', password: 'third-password' },
      headers: { 'x-vitrin-locale': 'en' },
    })
    await expect
      .poll(async () =>
        (await server.database.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'account_exists')))
          .map((row) => row.subject)
          .sort(),
      )
      .toEqual(['You already have a Vitrin account', 'Zaten bir Vitrin hesabınız var'])
  })

  it('signs in with the right password only, and signs out on the server', async () => {
    await client().request('/api/auth/sign-up', { json: { email: 'seller@example.com', password } })
    const browser = client()
    const wrong = await browser.request('/api/auth/sign-in', {
      json: { email: 'seller@example.com', password: 'wrong1' },
    })
    expect(wrong.status).toBe(401)
    expect(await errorCode(wrong)).toBe('AUTH_INVALID_CREDENTIALS')
    const unknown = await browser.request('/api/auth/sign-in', {
      json: { email: 'nobody@example.com', password },
    })
    expect(await errorCode(unknown)).toBe('AUTH_INVALID_CREDENTIALS')

    const ok = await browser.request('/api/auth/sign-in', { json: { email: 'seller@example.com', password } })
    expect(ok.status).toBe(200)
    const stolenCookie = new Map(browser.cookies)
    expect((await browser.request('/api/usage')).status).toBe(200)

    expect((await browser.request('/api/auth/sign-out', { method: 'POST' })).status).toBe(204)
    expect((await (await browser.request('/api/session')).json()).user).toBeNull()
    // The old cookie is dead on the server, not just removed from the browser.
    const replay = createTestClient(server)
    for (const [name, value] of stolenCookie) replay.cookies.set(name, value)
    expect((await replay.request('/api/usage')).status).toBe(401)
  })

  it('refuses every session-only endpoint with 401 without a session', async () => {
    const anonymous = client()
    for (const [method, path] of [
      ['GET', '/api/usage'],
      ['GET', '/api/billing'],
      ['POST', '/api/billing/subscription'],
      ['GET', '/api/settings'],
      ['PUT', '/api/settings/fal-key'],
      ['POST', '/api/auth/password'],
    ] as const) {
      const response = await anonymous.request(path, { method, ...(method === 'GET' ? {} : { json: {} }) })
      expect(response.status, `${method} ${path}`).toBe(401)
      expect(await errorCode(response)).toBe('UNAUTHORIZED')
    }
  })

  it('refuses a cross-site write from a browser', async () => {
    const browser = client()
    await browser.request('/api/auth/sign-up', { json: { email: 'csrf@example.com', password } })
    const forged = await browser.request('/api/billing/subscription', {
      json: { planId: 'pro' },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    })
    expect(forged.status).toBe(403)
    const sameSite = await browser.request('/api/billing/subscription', {
      json: { planId: 'pro' },
      headers: { origin: server.url, 'sec-fetch-site': 'same-origin' },
    })
    expect(sameSite.status).toBe(200)
  })

  it('resets a password through the emailed link, once, in the reader language, ending every session', async () => {
    const owner = client()
    await owner.request('/api/auth/sign-up', { json: { email: 'reset@example.com', password } })
    expect((await owner.request('/api/usage')).status).toBe(200)
    const requester = client()
    const requested = await requester.request('/api/auth/password-reset', {
      json: { email: 'reset@example.com' },
      headers: { 'x-vitrin-locale': 'tr' },
    })
    expect(requested.status).toBe(202)
    // The email is written after the answer: wait for it (bounded, on the row itself).
    const deadline = Date.now() + 10_000
    let [email] = await server.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.kind, 'password_reset'))
    while (!email && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve))
      ;[email] = await server.database.db
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.kind, 'password_reset'))
    }
    expect(email?.subject).toBe('Vitrin şifrenizi sıfırlayın')
    // The link opens the page in the reader's language too.
    const link = email?.textBody.match(
      /https:\/\/vitrin\.test\/tr\/auth\/reset-password\/confirm\?token=(\S+)/,
    )
    expect(link).not.toBeNull()
    const token = decodeURIComponent(link?.[1] ?? '')

    const confirmed = await requester.request('/api/auth/password-reset/confirm', {
      json: { token, password: 'newpass1' },
    })
    expect(confirmed.status).toBe(200)
    expect((await owner.request('/api/usage')).status).toBe(401)

    const reused = await requester.request('/api/auth/password-reset/confirm', {
      json: { token, password: 'another1' },
    })
    expect(await errorCode(reused)).toBe('AUTH_RESET_TOKEN_INVALID')
    const old = await client().request('/api/auth/sign-in', {
      json: { email: 'reset@example.com', password },
    })
    expect(old.status).toBe(401)
    const fresh = await client().request('/api/auth/sign-in', {
      json: { email: 'reset@example.com', password: 'newpass1' },
    })
    expect(fresh.status).toBe(200)
  })

  it('answers a reset request for an unknown email exactly as for a known one, and sends nothing', async () => {
    const response = await client().request('/api/auth/password-reset', {
      json: { email: 'ghost@example.com' },
    })
    expect(response.status).toBe(202)
    expect(await response.json()).toEqual({ ok: true })
    expect(await server.database.db.select().from(emailOutbox)).toHaveLength(0)
  })

  it('changes the password with the current one and ends the other sessions', async () => {
    const first = client()
    await first.request('/api/auth/sign-up', { json: { email: 'change@example.com', password } })
    const second = client()
    await second.request('/api/auth/sign-in', { json: { email: 'change@example.com', password } })
    // Signed in and just seen by the server, so its session lookup is fresh in the cache.
    expect((await second.request('/api/usage')).status).toBe(200)

    const wrong = await first.request('/api/auth/password', {
      json: { currentPassword: 'nope12', newPassword: 'newpass1' },
    })
    expect(await errorCode(wrong)).toBe('AUTH_WRONG_PASSWORD')
    const changed = await first.request('/api/auth/password', {
      json: { currentPassword: password, newPassword: 'newpass1' },
    })
    expect(changed.status).toBe(200)
    expect((await first.request('/api/usage')).status).toBe(200)
    expect((await second.request('/api/usage')).status).toBe(401)
  })

  it('slows down wrong passwords per email and client, not per email alone', async () => {
    await client().request('/api/auth/sign-up', { json: { email: 'target@example.com', password } })
    const guesser = client()
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) {
      const response = await guesser.request('/api/auth/sign-in', {
        json: { email: 'target@example.com', password: 'guess12' },
      })
      statuses.push(response.status)
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401])
    expect(statuses.slice(5)).toEqual([429, 429])
    const ok = await client().request('/api/auth/sign-in', {
      json: { email: 'target@example.com', password },
    })
    expect(ok.status).toBe(200)
  })
})
