import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { eq, like, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createApp } from '#server/app.ts'
import { type Database, openDatabase } from '#server/db/client.ts'
import { rateLimitBuckets, subscriptions } from '#server/db/schema/index.ts'
import { createRateLimiter } from '#server/rate-limit/rate-limiter.ts'
import { createServices } from '#server/services.ts'
import type { CreateApiKeyResponse } from '#shared/contracts/api-keys.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { signedInClient, userIdOf } from '#tests/support/generation-client.ts'
import { withDatabaseName } from '#tests/support/postgres.ts'
import {
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'

describe('rate limits per API key on /v1', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ API_READS_PER_MINUTE: '3', API_WRITES_PER_MINUTE: '2' })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
  })
  afterAll(async () => {
    await server.close()
  })

  async function createKey(web: TestClient): Promise<{ secret: string; id: string }> {
    const response = await web.request('/api/api-keys', { json: { name: 'sync' } })
    expect(response.status).toBe(201)
    const { key, secret } = (await response.json()) as CreateApiKeyResponse
    return { secret, id: key.id }
  }

  async function proKey() {
    return createKey(await signedInClient(server, 'pro'))
  }

  function call(secret: string, path: string, init: RequestInit & { base?: string } = {}) {
    const { base, headers, ...rest } = init
    return fetch((base ?? server.url) + path, {
      ...rest,
      headers: { authorization: `Bearer ${secret}`, ...(headers as Record<string, string> | undefined) },
    })
  }

  function limits(response: Response) {
    return {
      status: response.status,
      limit: response.headers.get('ratelimit-limit'),
      remaining: response.headers.get('ratelimit-remaining'),
    }
  }

  function resetSeconds(response: Response): number {
    const reset = Number(response.headers.get('ratelimit-reset'))
    expect(Number.isInteger(reset)).toBe(true)
    expect(reset).toBeGreaterThanOrEqual(1)
    expect(reset).toBeLessThanOrEqual(60)
    return reset
  }

  it('says on every answer where the key stands, then refuses with 429 and Retry-After', async () => {
    const { secret } = await proKey()
    const answers = [
      await call(secret, '/v1/usage'),
      await call(secret, '/v1/usage'),
      await call(secret, `/v1/generations/${randomUUID()}`),
    ]
    expect(answers.map(limits)).toEqual([
      { status: 200, limit: '3', remaining: '2' },
      { status: 200, limit: '3', remaining: '1' },
      // An error answer carries them too.
      { status: 404, limit: '3', remaining: '0' },
    ])
    const resets = answers.map(resetSeconds)
    expect(resets[2]).toBeLessThanOrEqual(resets[0] ?? 0)

    const refused = await call(secret, '/v1/usage')
    expect(limits(refused)).toEqual({ status: 429, limit: '3', remaining: '0' })
    const body = (await refused.json()) as ErrorBody
    expect(body.error.code).toBe('RATE_LIMITED')
    expect(body.error.requestId).toBe(refused.headers.get('x-request-id'))
    expect(refused.headers.get('retry-after')).toBe(refused.headers.get('ratelimit-reset'))
    expect(body.error.details?.retryAfterSeconds).toBe(resetSeconds(refused))
    expect(refused.headers.get('cache-control')).toBe('no-store')
  })

  it('counts requests sent at once exactly as one by one: each its own place, none past the limit', async () => {
    const { secret } = await proKey()
    const answers = await Promise.all(Array.from({ length: 7 }, () => call(secret, '/v1/usage')))
    const allowed = answers.filter((answer) => answer.status === 200)
    expect(allowed.map((answer) => limits(answer).remaining).sort()).toEqual(['0', '1', '2'])
    const refused = answers.filter((answer) => answer.status !== 200)
    expect(refused.map(limits)).toEqual(Array(4).fill({ status: 429, limit: '3', remaining: '0' }))
    expect(limits(await call(secret, '/v1/usage'))).toEqual({ status: 429, limit: '3', remaining: '0' })
  })

  it('counts writes (POST) apart from reads, and a replayed idempotent answer counts', async () => {
    const { secret } = await proKey()
    for (let i = 0; i < 3; i++) await call(secret, '/v1/usage')
    expect((await call(secret, '/v1/usage')).status).toBe(429)

    const cancel = () =>
      call(secret, `/v1/generations/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}/cancel`, {
        method: 'POST',
        headers: { 'idempotency-key': 'cancel-1' },
      })
    const first = await cancel()
    expect(limits(first)).toEqual({ status: 404, limit: '2', remaining: '1' })
    const replayed = await cancel()
    expect(replayed.headers.get('idempotent-replayed')).toBe('true')
    expect(limits(replayed)).toEqual({ status: 404, limit: '2', remaining: '0' })
    const refused = await cancel()
    expect(limits(refused)).toEqual({ status: 429, limit: '2', remaining: '0' })
    expect(refused.headers.get('idempotent-replayed')).toBeNull()
  })

  it('gives each key its own buckets, and a new window starts full', async () => {
    const web = await signedInClient(server, 'pro')
    const first = await createKey(web)
    const second = await createKey(web)
    for (let i = 0; i < 3; i++) await call(first.secret, '/v1/usage')
    expect((await call(first.secret, '/v1/usage')).status).toBe(429)
    expect(limits(await call(second.secret, '/v1/usage'))).toEqual({
      status: 200,
      limit: '3',
      remaining: '2',
    })

    // The first key's window began a minute ago: it is over.
    await server.database.db
      .update(rateLimitBuckets)
      .set({ windowStart: sql`${rateLimitBuckets.windowStart} - interval '60 seconds'` })
      .where(like(rateLimitBuckets.key, `%${first.id}`))
    const renewed = await call(first.secret, '/v1/usage')
    expect(limits(renewed)).toEqual({ status: 200, limit: '3', remaining: '2' })
    expect(resetSeconds(renewed)).toBeGreaterThanOrEqual(59)
  })

  it('does not count a request refused for its key, and answers it without RateLimit headers', async () => {
    const { secret } = await proKey()
    for (const authorization of ['', 'Bearer vtr_nope']) {
      const refused = await fetch(`${server.url}/v1/usage`, {
        headers: authorization ? { authorization } : {},
      })
      expect(refused.status).toBe(401)
      expect(refused.headers.get('ratelimit-limit')).toBeNull()
    }
    expect(limits(await call(secret, '/v1/usage')).remaining).toBe('2')
  })

  it('does not count a request refused for its plan, and counts again once the plan is back', async () => {
    const web = await signedInClient(server, 'pro')
    const { secret } = await createKey(web)
    expect(limits(await call(secret, '/v1/usage')).remaining).toBe('2')
    await web.request('/api/billing/subscription', { json: { planId: 'starter' } })
    for (let i = 0; i < 3; i++) {
      const refused = await call(secret, '/v1/usage')
      expect(refused.status).toBe(403)
      expect(refused.headers.get('ratelimit-limit')).toBeNull()
    }
    await web.request('/api/billing/subscription', { json: { planId: 'pro' } })
    expect(limits(await call(secret, '/v1/usage'))).toEqual({ status: 200, limit: '3', remaining: '1' })
  })

  it('counts a request whose plan period had ended, once the period is renewed', async () => {
    const web = await signedInClient(server, 'pro')
    const { secret } = await createKey(web)
    expect(limits(await call(secret, '/v1/usage')).remaining).toBe('2')
    // The manual plan's period ended a day ago: the next request renews it, then is counted.
    // (Dates from here, in milliseconds as the app writes them: the renewal is guarded by the
    // period's end as the app read it.)
    const userId = await userIdOf(web)
    const dayMs = 86_400_000
    await server.database.db
      .update(subscriptions)
      .set({
        currentPeriodStart: new Date(Date.now() - 31 * dayMs),
        currentPeriodEnd: new Date(Date.now() - dayMs),
      })
      .where(eq(subscriptions.userId, userId))
    expect(limits(await call(secret, '/v1/usage'))).toEqual({ status: 200, limit: '3', remaining: '1' })
    const [renewed] = await server.database.db
      .select({ end: subscriptions.currentPeriodEnd })
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
    expect(renewed?.end.getTime()).toBeGreaterThan(Date.now())
    expect(limits(await call(secret, '/v1/usage'))).toEqual({ status: 200, limit: '3', remaining: '0' })
  })

  it('shares the buckets between two servers on one database', async () => {
    // A second app on its own connection to the same database (on PGlite, the one handle).
    let database: Database = server.database
    if (server.database.kind === 'postgres') {
      const result = (await server.database.db.execute(
        sql`select current_database() as name`,
      )) as unknown as {
        rows: { name: string }[]
      }
      const url = process.env.TEST_DATABASE_URL
      if (!url || !result.rows[0]) throw new Error('TEST_DATABASE_URL is needed on PostgreSQL')
      database = await openDatabase({ databaseUrl: withDatabaseName(url, result.rows[0].name), poolMax: 2 })
    }
    const other = createApp(
      createServices({ ...server.deps, database, rateLimiter: createRateLimiter(database.db) }),
    )
    const listener = serve({ fetch: other.fetch, hostname: '127.0.0.1', port: 0 })
    await new Promise<void>((resolve) => listener.once('listening', () => resolve()))
    const otherUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`
    try {
      const { secret } = await proKey()
      const answers = [
        await call(secret, '/v1/usage'),
        await call(secret, '/v1/usage', { base: otherUrl }),
        await call(secret, '/v1/usage'),
        await call(secret, '/v1/usage', { base: otherUrl }),
      ]
      expect(answers.map((answer) => limits(answer).remaining)).toEqual(['2', '1', '0', '0'])
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429])
    } finally {
      if ('closeAllConnections' in listener) listener.closeAllConnections()
      await new Promise<void>((resolve) => listener.close(() => resolve()))
      if (database !== server.database) await database.close()
    }
  })
})
