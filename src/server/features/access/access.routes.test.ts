import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  accessCodeRedemptions,
  accessCodes,
  sessions,
  subscriptions,
  users,
} from '#server/db/schema/index.ts'
import { nextClientIp } from '#tests/support/factories.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestServer,
} from '#tests/support/test-server.ts'
import {
  createAccessCode,
  ensureSomeAccessCode,
  generateAccessCode,
  listAccessCodes,
  revokeAccessCode,
  syncConfiguredCodes,
} from './access-codes.service.ts'

describe('access codes', () => {
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

  it('lets a browser in with a valid code (any case): a beta account with a 7-day session and 30 days of Growth', async () => {
    const browser = client()
    const response = await browser.request('/api/access', { json: { code: ' vitrin ' } })
    expect(response.status).toBe(201)
    const { user } = await response.json()
    expect(user).toMatchObject({ isBeta: true, email: null })

    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('vitrin.session_token='))
    const maxAge = Number(cookie?.match(/Max-Age=(\d+)/i)?.[1])
    expect(maxAge).toBe(7 * 24 * 60 * 60)

    const usage = await (await browser.request('/api/usage')).json()
    expect(usage.subscription).toMatchObject({ planId: 'growth', status: 'active', isTrial: true })
    const days =
      (Date.parse(usage.subscription.currentPeriodEnd) - Date.parse(usage.subscription.currentPeriodStart)) /
      86_400_000
    expect(days).toBe(30)
    expect(usage.images).toEqual({ used: 0, quota: 1000 })

    const [code] = await server.database.db.select().from(accessCodes)
    expect(code?.redemptionCount).toBe(1)
    expect(await server.database.db.select().from(accessCodeRedemptions)).toHaveLength(1)
  })

  it('gives each browser its own beta account, and changes nothing for one already inside', async () => {
    const a = client()
    const b = client()
    const userA = (await (await a.request('/api/access', { json: { code: 'VITRIN' } })).json()).user
    const userB = (await (await b.request('/api/access', { json: { code: 'VITRIN' } })).json()).user
    expect(userA.id).not.toBe(userB.id)
    const again = await a.request('/api/access', { json: { code: 'VITRIN' } })
    expect(again.status).toBe(200)
    expect((await again.json()).user.id).toBe(userA.id)
  })

  it('refuses unknown, malformed and revoked codes with ACCESS_CODE_INVALID', async () => {
    await revokeAccessCode(server.database.db, 'vitrin', new Date())
    for (const code of ['VITRIN', 'ABCDEF', 'abc', '1234567', '']) {
      const response = await client().request('/api/access', { json: { code } })
      expect(response.status, code).toBe(400)
      expect((await response.json()).error.code).toBe('ACCESS_CODE_INVALID')
    }
  })

  it('limits attempts per client: the 11th within 15 minutes is refused, even with the right code', async () => {
    const browser = client()
    for (let i = 0; i < 10; i++) {
      expect((await browser.request('/api/access', { json: { code: 'WRONG1' } })).status).toBe(400)
    }
    const limited = await browser.request('/api/access', { json: { code: 'VITRIN' } })
    expect(limited.status).toBe(429)
    expect((await limited.json()).error.code).toBe('RATE_LIMITED')
  })

  it('never counts a valid code against the client: 15 new browsers behind one address all get in', async () => {
    const officeIp = nextClientIp()
    for (let i = 0; i < 15; i++) {
      // Separate, cookie-less requests: fifteen colleagues, one address.
      const response = await server.api('/api/access', {
        json: { code: 'VITRIN' },
        headers: { 'x-forwarded-for': officeIp },
      })
      expect(response.status, `colleague ${i + 1}`).toBe(201)
    }
    const [code] = await server.database.db.select().from(accessCodes)
    expect(code?.redemptionCount).toBe(15)
  })

  it('limits new beta accounts per client address to 20 a day', async () => {
    const officeIp = nextClientIp()
    const redeem = () =>
      server.api('/api/access', { json: { code: 'VITRIN' }, headers: { 'x-forwarded-for': officeIp } })
    for (let i = 0; i < 20; i++) expect((await redeem()).status, `trial ${i + 1}`).toBe(201)
    const refused = await redeem()
    expect(refused.status).toBe(429)
    const { error } = await refused.json()
    expect(error.code).toBe('RATE_LIMITED')
    expect(error.details.retryAfterSeconds).toBeGreaterThan(23 * 60 * 60)
    // Another address is not affected.
    expect((await client().request('/api/access', { json: { code: 'VITRIN' } })).status).toBe(201)
  })

  it('refuses a code past its redemption cap or its expiry like an unknown one', async () => {
    await createAccessCode(server.database.db, { code: 'CAPTWO', source: 'cli', maxRedemptions: 2 })
    await createAccessCode(server.database.db, {
      code: 'GONE01',
      source: 'cli',
      expiresAt: new Date(Date.now() - 1000),
    })
    expect((await client().request('/api/access', { json: { code: 'CAPTWO' } })).status).toBe(201)
    expect((await client().request('/api/access', { json: { code: 'captwo' } })).status).toBe(201)
    for (const code of ['CAPTWO', 'GONE01']) {
      const refused = await client().request('/api/access', { json: { code } })
      expect(refused.status, code).toBe(400)
      expect((await refused.json()).error.code).toBe('ACCESS_CODE_INVALID')
    }
    const [capped] = await server.database.db.select().from(accessCodes).where(eq(accessCodes.code, 'CAPTWO'))
    expect(capped?.redemptionCount).toBe(2)
    expect(
      await server.database.db
        .select()
        .from(accessCodeRedemptions)
        .where(eq(accessCodeRedemptions.code, 'CAPTWO')),
    ).toHaveLength(2)
  })

  it('never lets concurrent redemptions pass the cap', async () => {
    await createAccessCode(server.database.db, { code: 'RACE03', source: 'cli', maxRedemptions: 3 })
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => client().request('/api/access', { json: { code: 'RACE03' } })),
    )
    const statuses = responses.map((response) => response.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(3)
    expect(statuses.filter((status) => status !== 201).every((status) => status === 400)).toBe(true)
    const [row] = await server.database.db.select().from(accessCodes).where(eq(accessCodes.code, 'RACE03'))
    expect(row?.redemptionCount).toBe(3)
    expect(
      await server.database.db
        .select()
        .from(accessCodeRedemptions)
        .where(eq(accessCodeRedemptions.code, 'RACE03')),
    ).toHaveLength(3)
    expect(await server.database.db.select().from(users).where(eq(users.isBeta, true))).toHaveLength(3)
  })

  it('stores nothing of a redemption that fails half-way: no claim, no record, no account, no cookie', async () => {
    const { db } = server.database
    await createAccessCode(db, { code: 'HALF01', source: 'cli', maxRedemptions: 1 })
    // The database refuses the trial, the last write of a redemption, after the code's claim
    // and the redemption's record were written.
    await db.execute(
      sql.raw(`create function refuse_trial() returns trigger language plpgsql
        as $$ begin raise exception 'no trial in this test'; end $$`),
    )
    await db.execute(
      sql.raw(`create trigger refuse_trial before insert on subscriptions
        for each row execute function refuse_trial()`),
    )
    try {
      const refused = await client().request('/api/access', { json: { code: 'HALF01' } })
      expect(refused.status).toBe(500)
      expect(refused.headers.getSetCookie()).toEqual([])
    } finally {
      await db.execute(sql.raw('drop trigger refuse_trial on subscriptions'))
      await db.execute(sql.raw('drop function refuse_trial()'))
    }
    const [code] = await db.select().from(accessCodes).where(eq(accessCodes.code, 'HALF01'))
    expect(code?.redemptionCount).toBe(0)
    expect(await db.select().from(accessCodeRedemptions)).toHaveLength(0)
    expect(await db.select().from(users)).toHaveLength(0)
    expect(await db.select().from(sessions)).toHaveLength(0)
    expect(await db.select().from(subscriptions)).toHaveLength(0)
    // Its one redemption was never used up.
    expect((await client().request('/api/access', { json: { code: 'HALF01' } })).status).toBe(201)
  })

  it('makes one code on a first start with none, and none when some exist', async () => {
    await resetDatabase(server.database)
    const first = await ensureSomeAccessCode(server.database.db)
    expect(first).toMatch(/^[A-Z2-9]{6}$/)
    expect(await ensureSomeAccessCode(server.database.db)).toBeNull()
    expect(await listAccessCodes(server.database.db)).toHaveLength(1)
  })

  it('keeps a code revoked by hand revoked when ACCESS_CODES lists it again', async () => {
    await revokeAccessCode(server.database.db, 'VITRIN', new Date())
    await syncConfiguredCodes(server.database.db, ['VITRIN'])
    const [row] = await listAccessCodes(server.database.db)
    expect(row?.revokedAt).not.toBeNull()
  })

  it('generates readable codes and refuses to store malformed ones', async () => {
    for (let i = 0; i < 50; i++) expect(generateAccessCode()).toMatch(/^[A-HJ-NP-Z2-9]{6}$/)
    await expect(createAccessCode(server.database.db, { code: 'bad!', source: 'cli' })).rejects.toThrow()
  })
})

describe('the trials-per-address setting', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true', TRIALS_PER_DAY_PER_CLIENT: '3' })
    await syncConfiguredCodes(server.database.db, ['VITRIN'])
  })
  afterAll(async () => {
    await server.close()
  })

  it('TRIALS_PER_DAY_PER_CLIENT sets how many new beta accounts one address may make a day', async () => {
    const standIp = nextClientIp()
    const redeem = () =>
      server.api('/api/access', { json: { code: 'VITRIN' }, headers: { 'x-forwarded-for': standIp } })
    for (let i = 0; i < 3; i++) expect((await redeem()).status, `trial ${i + 1}`).toBe(201)
    const refused = await redeem()
    expect(refused.status).toBe(429)
    expect((await refused.json()).error.code).toBe('RATE_LIMITED')
  })
})
