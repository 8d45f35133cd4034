import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { apiKeys } from '#server/db/schema/index.ts'
import { setPeriodUsage } from '#server/features/quota/usage.service.ts'
import type { CreateApiKeyResponse } from '#shared/contracts/api-keys.ts'
import type { UsageResponse } from '#shared/contracts/billing.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { signedInClient, userIdOf } from '#tests/support/generation-client.ts'
import {
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'
import { generateApiKey, lastUsedPrecisionMs } from './api-keys.service.ts'

describe('/v1 authentication by API key', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
  })
  afterAll(async () => {
    await server.close()
  })

  /** A Pro user with one key, in a cookie jar of its own. */
  async function proUserWithKey(): Promise<{ client: TestClient; secret: string; keyId: string }> {
    const client = await signedInClient(server, 'pro')
    const response = await client.request('/api/api-keys', { json: { name: 'integration' } })
    expect(response.status).toBe(201)
    const { key, secret } = (await response.json()) as CreateApiKeyResponse
    return { client, secret, keyId: key.id }
  }

  function withKey(secret: string, init: RequestInit = {}) {
    return {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${secret}` },
    }
  }

  async function expectError(response: Response, status: number, code: string) {
    expect(response.status).toBe(status)
    const body = (await response.json()) as ErrorBody
    expect(body.error.code).toBe(code)
    expect(typeof body.error.message).toBe('string')
    expect(body.error.requestId).toBe(response.headers.get('x-request-id'))
    expect(response.headers.get('cache-control')).toBe('no-store')
  }

  it("answers /v1/usage with the key owner's numbers, the same as the web app's /api/usage", async () => {
    const alice = await proUserWithKey()
    const bob = await proUserWithKey()
    await setPeriodUsage(server.database.db, await userIdOf(alice.client), new Date(), {
      imagesUsed: 7,
      videosUsed: 2,
    })
    await setPeriodUsage(server.database.db, await userIdOf(bob.client), new Date(), {
      imagesUsed: 40,
      videosUsed: 0,
    })

    const response = await server.api('/v1/usage', withKey(alice.secret))
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const viaKey = (await response.json()) as UsageResponse
    expect(viaKey.images).toEqual({ used: 7, quota: 2500 })
    expect(viaKey.videos).toEqual({ used: 2, quota: 60 })
    expect(viaKey.subscription?.planId).toBe('pro')
    expect(viaKey).toEqual(await (await alice.client.request('/api/usage')).json())

    const bobs = (await (await server.api('/v1/usage', withKey(bob.secret))).json()) as UsageResponse
    expect(bobs.images.used).toBe(40)
  })

  it('refuses a request with no key, naming the scheme', async () => {
    const response = await server.api('/v1/usage')
    await expectError(response, 401, 'API_KEY_REQUIRED')
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="vitrin"')
    // Unknown /v1 paths are behind the key too.
    await expectError(await server.api('/v1/nothing-here'), 401, 'API_KEY_REQUIRED')
  })

  it('refuses malformed and unknown keys alike', async () => {
    const { secret } = await proUserWithKey()
    for (const authorization of [
      'Bearer',
      'Bearer ',
      `Basic ${Buffer.from(`user:${secret}`).toString('base64')}`,
      secret,
      `Bearer ${secret.slice(0, -1)}`,
      `Bearer ${secret}x`,
      `Bearer ${secret} extra`,
      `Bearer ${secret.replace('vtr_', 'sk_')}`,
      `Bearer ${generateApiKey()}`,
    ]) {
      const response = await server.api('/v1/usage', { headers: { authorization } })
      await expectError(response, 401, 'API_KEY_INVALID')
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="vitrin"')
    }
    // The scheme's name is case-insensitive (RFC 9110).
    expect((await server.api('/v1/usage', { headers: { authorization: `bearer ${secret}` } })).status).toBe(
      200,
    )
  })

  it('refuses a revoked key', async () => {
    const { client, secret, keyId } = await proUserWithKey()
    expect((await server.api('/v1/usage', withKey(secret))).status).toBe(200)
    await client.request(`/api/api-keys/${keyId}`, { method: 'DELETE' })
    await expectError(await server.api('/v1/usage', withKey(secret)), 401, 'API_KEY_INVALID')
  })

  it("stops a downgraded account's keys with the plan error, and takes them back on Pro", async () => {
    const { client, secret } = await proUserWithKey()
    await client.request('/api/billing/subscription', { json: { planId: 'growth' } })
    const downgraded = await server.api('/v1/usage', withKey(secret))
    await expectError(downgraded, 403, 'API_PLAN_REQUIRED')
    expect(downgraded.headers.get('www-authenticate')).toBeNull()

    await client.request('/api/billing/subscription', { method: 'DELETE' })
    await expectError(await server.api('/v1/usage', withKey(secret)), 403, 'API_PLAN_REQUIRED')

    // The key was never revoked: back on Pro, it works again.
    await client.request('/api/billing/subscription', { json: { planId: 'pro' } })
    expect((await server.api('/v1/usage', withKey(secret))).status).toBe(200)
  })

  it('never accepts the session cookie on /v1', async () => {
    const { client } = await proUserWithKey()
    expect((await client.request('/api/usage')).status).toBe(200)
    await expectError(await client.request('/v1/usage'), 401, 'API_KEY_REQUIRED')
  })

  it('never accepts a key on the web routes', async () => {
    const { secret } = await proUserWithKey()
    for (const [path, init] of [
      ['/api/generations', {}],
      ['/api/usage', {}],
      ['/api/api-keys', {}],
      [
        '/api/api-keys',
        {
          method: 'POST',
          body: '{"name":"minted by a key"}',
          headers: { 'content-type': 'application/json' },
        },
      ],
    ] as const) {
      const response = await server.api(path, withKey(secret, init))
      expect(response.status).toBe(401)
      expect(((await response.json()) as ErrorBody).error.code).toBe('UNAUTHORIZED')
    }
    expect(await server.database.db.select().from(apiKeys)).toHaveLength(1)
  })

  it('is not behind the cookie routes’ cross-site check, and sends no CORS headers', async () => {
    const { secret } = await proUserWithKey()
    const crossSite = { origin: 'https://shop.example', 'sec-fetch-site': 'cross-site' }
    const read = await server.api('/v1/usage', withKey(secret, { headers: crossSite }))
    expect(read.status).toBe(200)
    expect(read.headers.get('access-control-allow-origin')).toBeNull()
    // A POST from another site reaches routing (404 here, as no POST endpoint exists yet), not FORBIDDEN.
    const post = await server.api('/v1/usage', withKey(secret, { method: 'POST', headers: crossSite }))
    expect(post.status).toBe(404)
    // The same POST on the cookie routes is refused.
    const cookieRoute = await server.api('/api/usage', { method: 'POST', headers: crossSite })
    expect(cookieRoute.status).toBe(403)
  })

  it('records the last use at most once a minute per key', async () => {
    const { client, secret, keyId } = await proUserWithKey()
    const lastUsed = async () =>
      (
        await server.database.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, keyId))
      )[0]?.at ?? null
    expect(await lastUsed()).toBeNull()

    const before = Date.now()
    await server.api('/v1/usage', withKey(secret))
    const first = await lastUsed()
    expect(first?.getTime()).toBeGreaterThanOrEqual(before - 1000)

    // Used 30 s ago: not written again.
    const recent = new Date(Date.now() - lastUsedPrecisionMs / 2)
    await server.database.db.update(apiKeys).set({ lastUsedAt: recent }).where(eq(apiKeys.id, keyId))
    await server.api('/v1/usage', withKey(secret))
    await server.api('/v1/usage', withKey(secret))
    expect(await lastUsed()).toEqual(recent)

    // Used over a minute ago: moved to now.
    const old = new Date(Date.now() - lastUsedPrecisionMs - 5000)
    await server.database.db.update(apiKeys).set({ lastUsedAt: old }).where(eq(apiKeys.id, keyId))
    const beforeUse = Date.now()
    await server.api('/v1/usage', withKey(secret))
    expect((await lastUsed())?.getTime()).toBeGreaterThanOrEqual(beforeUse - 1000)

    // A refused request (the plan no longer has the API) does not count as a use.
    await server.database.db.update(apiKeys).set({ lastUsedAt: old }).where(eq(apiKeys.id, keyId))
    await client.request('/api/billing/subscription', { json: { planId: 'starter' } })
    expect((await server.api('/v1/usage', withKey(secret))).status).toBe(403)
    expect(await lastUsed()).toEqual(old)
  })

  it('answers unknown /v1 paths with the error shape once the key is good', async () => {
    const { secret } = await proUserWithKey()
    await expectError(await server.api('/v1/generations/whatever', withKey(secret)), 404, 'NOT_FOUND')
  })
})
