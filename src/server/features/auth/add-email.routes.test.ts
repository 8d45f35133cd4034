import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { accounts, assets, generations, subscriptions, users } from '#server/db/schema/index.ts'
import { syncConfiguredCodes } from '#server/features/access/access-codes.service.ts'
import { requireEmailAccount } from '#server/http/session.ts'
import { nextClientIp } from '#tests/support/factories.ts'
import { createGeneration, uploadPhoto } from '#tests/support/generation-client.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'
import { authRateLimits } from './auth.service.ts'

const password = 'keep-my-work-7'

describe('a beta account adds an email (POST /api/auth/email)', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true' })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    await syncConfiguredCodes(server.database.db, ['VITRIN'])
  })
  afterAll(async () => {
    await server.close()
  })

  const client = () => createTestClient(server, { clientIp: nextClientIp() })
  const errorOf = async (response: Response) =>
    ((await response.json()) as { error: { code: string; details?: { fields?: Record<string, string> } } })
      .error

  async function betaClient(): Promise<{ browser: TestClient; userId: string }> {
    const browser = client()
    const response = await browser.request('/api/access', { json: { code: 'VITRIN' } })
    expect(response.status).toBe(201)
    return { browser, userId: (await response.json()).user.id as string }
  }

  async function userRow(id: string) {
    const [row] = await server.database.db.select().from(users).where(eq(users.id, id))
    return row
  }

  async function credentialOf(userId: string) {
    return server.database.db
      .select()
      .from(accounts)
      .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
  }

  it('keeps the same user, library, usage and trial, and lets it sign in with the email later', async () => {
    const { browser, userId } = await betaClient()
    const before = await (await browser.request('/api/session')).json()
    expect(before.user).toMatchObject({ id: userId, isBeta: true, email: null })
    // The session's end is told, seven days out (it renews with use).
    const daysLeft = (Date.parse(before.sessionEndsAt) - Date.now()) / 86_400_000
    expect(daysLeft).toBeGreaterThan(6.9)
    expect(daysLeft).toBeLessThanOrEqual(7)

    const assetId = await uploadPhoto(browser)
    const accepted = await createGeneration(browser, { mode: 'image', imageAssetId: assetId })
    expect(accepted.status).toBe(202)
    const generationId = (await accepted.json()).generation.id as string
    const usageBefore = await (await browser.request('/api/usage')).json()
    expect(usageBefore.images.used).toBe(1)

    const response = await browser.request('/api/auth/email', {
      json: { email: ' Beta.Seller@Example.com ', password },
    })
    expect(response.status).toBe(200)
    expect((await response.json()).user).toMatchObject({
      id: userId,
      email: 'beta.seller@example.com',
      isBeta: false,
    })

    // The same cookie goes on working, now for an account with an email.
    const after = await (await browser.request('/api/session')).json()
    expect(after.user).toMatchObject({ id: userId, email: 'beta.seller@example.com', isBeta: false })
    expect(await userRow(userId)).toMatchObject({ email: 'beta.seller@example.com', isBeta: false })
    const [credential] = await credentialOf(userId)
    expect(credential?.accountId).toBe(userId)
    expect(credential?.password).toBeTruthy()
    expect(credential?.password).not.toContain(password)

    expect(await (await browser.request('/api/usage')).json()).toEqual(usageBefore)
    const [trial] = await server.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
    expect(trial).toMatchObject({ isTrial: true, status: 'active', planId: 'growth' })

    expect((await browser.request('/api/auth/sign-out', { method: 'POST' })).status).toBe(204)
    expect((await browser.request('/api/usage')).status).toBe(401)

    const later = client()
    const signIn = await later.request('/api/auth/sign-in', {
      json: { email: 'beta.seller@example.com', password },
    })
    expect(signIn.status).toBe(200)
    expect((await signIn.json()).user).toMatchObject({ id: userId, isBeta: false })
    expect((await later.request(`/api/generations/${generationId}`)).status).toBe(200)
    expect(await server.database.db.select().from(assets).where(eq(assets.id, assetId))).toMatchObject([
      { userId },
    ])
    expect(await server.database.db.select().from(generations)).toHaveLength(1)
    expect(await (await later.request('/api/usage')).json()).toEqual(usageBefore)
  })

  it('refuses an email already in use, any case, and changes nothing', async () => {
    const owner = client()
    expect(
      (await owner.request('/api/auth/sign-up', { json: { email: 'taken@example.com', password } })).status,
    ).toBe(201)
    const { browser, userId } = await betaClient()
    const response = await browser.request('/api/auth/email', {
      json: { email: 'TAKEN@example.com', password },
    })
    expect(response.status).toBe(409)
    expect((await errorOf(response)).code).toBe('AUTH_EMAIL_TAKEN')
    expect((await userRow(userId))?.isBeta).toBe(true)
    expect(await credentialOf(userId)).toHaveLength(0)
    expect((await (await browser.request('/api/session')).json()).user).toMatchObject({ isBeta: true })
  })

  it('refuses weak passwords and bad emails with named fields, and changes nothing', async () => {
    const { browser, userId } = await betaClient()
    for (const [body, fields] of [
      [{ email: 'new@example.com', password: '123' }, { password: 'tooShort' }],
      [{ email: 'new@example.com', password: 'password' }, { password: 'tooCommon' }],
      [{ email: 'new@example.com', password: 'New@Example.com' }, { password: 'sameAsEmail' }],
      [{ email: 'nope', password }, { email: 'email' }],
    ] as const) {
      const response = await browser.request('/api/auth/email', { json: body })
      expect(response.status).toBe(400)
      expect((await errorOf(response)).details?.fields).toEqual(fields)
    }
    expect((await userRow(userId))?.isBeta).toBe(true)
    expect(await credentialOf(userId)).toHaveLength(0)
  })

  it('refuses an account that already has an email, and asks for a session', async () => {
    const browser = client()
    await browser.request('/api/auth/sign-up', { json: { email: 'seller@example.com', password } })
    const response = await browser.request('/api/auth/email', {
      json: { email: 'other@example.com', password },
    })
    expect(response.status).toBe(409)
    expect((await errorOf(response)).code).toBe('ACCOUNT_HAS_EMAIL')

    // A second try from the same beta browser after its upgrade is refused the same way.
    const { browser: beta } = await betaClient()
    expect(
      (await beta.request('/api/auth/email', { json: { email: 'first@example.com', password } })).status,
    ).toBe(200)
    const again = await beta.request('/api/auth/email', { json: { email: 'second@example.com', password } })
    expect((await errorOf(again)).code).toBe('ACCOUNT_HAS_EMAIL')

    const anonymous = await client().request('/api/auth/email', {
      json: { email: 'x@example.com', password },
    })
    expect(anonymous.status).toBe(401)
    expect((await errorOf(anonymous)).code).toBe('UNAUTHORIZED')
  })

  it('counts tries per email together with sign-up', async () => {
    // The sign-up is the email's first try of authRateLimits.signUpPerEmail.
    await client().request('/api/auth/sign-up', { json: { email: 'taken@example.com', password } })
    const { browser, userId } = await betaClient()
    for (let i = 1; i < authRateLimits.signUpPerEmail.limit; i++) {
      const refused = await browser.request('/api/auth/email', {
        json: { email: 'taken@example.com', password },
      })
      expect(refused.status).toBe(409)
    }
    const limited = await browser.request('/api/auth/email', {
      json: { email: 'taken@example.com', password },
    })
    expect(limited.status).toBe(429)
    expect((await errorOf(limited)).code).toBe('RATE_LIMITED')
    expect((await userRow(userId))?.isBeta).toBe(true)
  })

  it('requireEmailAccount refuses a beta account with EMAIL_REQUIRED, and lets others through', () => {
    const base = { id: 'u1', email: 'u1@example.com', createdAt: new Date() }
    expect(() => requireEmailAccount({ ...base, isBeta: true })).toThrow(
      expect.objectContaining({ code: 'EMAIL_REQUIRED', status: 403 }),
    )
    expect(() => requireEmailAccount({ ...base, isBeta: false })).not.toThrow()
  })
})
