import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { nextClientIp } from '../../../../tests/support/factories.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestServer,
} from '../../../../tests/support/test-server.ts'
import { accessCodeRedemptions, accessCodes } from '../../db/schema/index.ts'
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
