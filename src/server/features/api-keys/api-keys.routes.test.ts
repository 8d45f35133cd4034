import { createHash } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { apiKeys } from '#server/db/schema/index.ts'
import {
  type ApiKeysResponse,
  apiKeyPattern,
  type CreateApiKeyResponse,
  maxLiveApiKeys,
} from '#shared/contracts/api-keys.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { signedInClient } from '#tests/support/generation-client.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'
import { generateApiKey } from './api-keys.service.ts'

describe('API keys in Settings (/api/api-keys)', () => {
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

  async function create(client: TestClient, name: string) {
    return client.request('/api/api-keys', { json: { name } })
  }

  async function created(client: TestClient, name: string): Promise<CreateApiKeyResponse> {
    const response = await create(client, name)
    expect(response.status).toBe(201)
    return (await response.json()) as CreateApiKeyResponse
  }

  async function list(client: TestClient): Promise<ApiKeysResponse> {
    const response = await client.request('/api/api-keys')
    expect(response.status).toBe(200)
    return (await response.json()) as ApiKeysResponse
  }

  async function errorCode(response: Response) {
    return ((await response.json()) as ErrorBody).error.code
  }

  it('shows a new key once, and stores only its hash and first characters', async () => {
    const client = await signedInClient(server, 'pro')
    const { key, secret } = await created(client, '  Shopify sync  ')

    expect(secret).toMatch(apiKeyPattern)
    expect(key).toMatchObject({
      name: 'Shopify sync',
      prefix: secret.slice(0, 12),
      lastUsedAt: null,
      revokedAt: null,
    })
    expect(key.prefix).toMatch(/^vtr_[0-9A-Za-z]{8}$/)

    // Never again: the list carries the prefix only.
    const listed = await client.request('/api/api-keys')
    const listedText = await listed.text()
    expect(listedText).not.toContain(secret)
    expect(listedText).not.toContain(secret.slice(12))
    expect((JSON.parse(listedText) as ApiKeysResponse).keys).toEqual([key])

    // At rest: the SHA-256 of the key, and nothing of it past the prefix, in any column.
    const [row] = await server.database.db.select().from(apiKeys)
    expect(row?.keyHash).toBe(createHash('sha256').update(secret).digest('hex'))
    const dump = (await server.database.db.execute(
      sql`select row_to_json(api_keys)::text as row from api_keys`,
    )) as unknown as {
      rows: { row: string }[]
    }
    expect(dump.rows).toHaveLength(1)
    expect(dump.rows[0]?.row).not.toContain(secret)
    expect(dump.rows[0]?.row).not.toContain(secret.slice(12, 24))
  })

  it('makes keys that differ and keep to the documented shape', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey()))
    expect(keys.size).toBe(200)
    for (const key of keys) expect(key).toMatch(apiKeyPattern)
    // Every base62 character turns up across 200 keys of 43 characters (8,600 draws).
    const seen = new Set([...keys].flatMap((key) => [...key.slice(4)]))
    expect(seen.size).toBe(62)
  })

  it('lists live keys newest first, then revoked ones by when they were revoked', async () => {
    const client = await signedInClient(server, 'pro')
    const first = await created(client, 'first')
    const second = await created(client, 'second')
    const third = await created(client, 'third')
    // Different creation times, so the order is by time and not by chance.
    for (const [index, { key }] of [first, second, third].entries()) {
      await server.database.db
        .update(apiKeys)
        .set({ createdAt: new Date(Date.UTC(2026, 0, 1 + index)) })
        .where(eq(apiKeys.id, key.id))
    }
    for (const { key } of [first, third]) {
      const revoked = await client.request(`/api/api-keys/${key.id}`, { method: 'DELETE' })
      expect(revoked.status).toBe(200)
    }
    // Revoked ones by when they were revoked: the first key last made, the third first revoked.
    await server.database.db
      .update(apiKeys)
      .set({ revokedAt: new Date(Date.UTC(2026, 2, 1)) })
      .where(eq(apiKeys.id, first.key.id))
    await server.database.db
      .update(apiKeys)
      .set({ revokedAt: new Date(Date.UTC(2026, 1, 1)) })
      .where(eq(apiKeys.id, third.key.id))

    const view = await list(client)
    expect(view.hasApiAccess).toBe(true)
    expect(view.maxLiveKeys).toBe(maxLiveApiKeys)
    expect(view.keys.map((k) => k.name)).toEqual(['second', 'first', 'third'])
    expect(view.keys[0]).toMatchObject({ createdAt: '2026-01-02T00:00:00.000Z', revokedAt: null })
    expect(view.keys[1]?.revokedAt).toBe('2026-03-01T00:00:00.000Z')
  })

  it('revokes at once: the key stops working on the next request, and revoking again changes nothing', async () => {
    const client = await signedInClient(server, 'pro')
    const { key, secret } = await created(client, 'ci')
    const bearer = { headers: { authorization: `Bearer ${secret}` } }
    expect((await server.api('/v1/usage', bearer)).status).toBe(200)

    const response = await client.request(`/api/api-keys/${key.id}`, { method: 'DELETE' })
    expect(response.status).toBe(200)
    const { key: revoked } = (await response.json()) as { key: { revokedAt: string | null } }
    expect(revoked.revokedAt).not.toBeNull()

    const refused = await server.api('/v1/usage', bearer)
    expect(refused.status).toBe(401)
    expect(await errorCode(refused)).toBe('API_KEY_INVALID')

    const again = await client.request(`/api/api-keys/${key.id}`, { method: 'DELETE' })
    expect(again.status).toBe(200)
    expect(((await again.json()) as { key: { revokedAt: string } }).key.revokedAt).toBe(revoked.revokedAt)
  })

  it("answers 404 for another user's key and leaves it working", async () => {
    const owner = await signedInClient(server, 'pro')
    const other = await signedInClient(server, 'pro')
    const { key, secret } = await created(owner, 'mine')

    const response = await other.request(`/api/api-keys/${key.id}`, { method: 'DELETE' })
    expect(response.status).toBe(404)
    expect(await errorCode(response)).toBe('NOT_FOUND')
    expect((await list(other)).keys).toEqual([])
    expect((await server.api('/v1/usage', { headers: { authorization: `Bearer ${secret}` } })).status).toBe(
      200,
    )

    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const missing = await owner.request(`/api/api-keys/${id}`, { method: 'DELETE' })
      expect(missing.status).toBe(404)
      expect(await errorCode(missing)).toBe('NOT_FOUND')
    }
  })

  it('refuses to make keys without a Pro plan, but still lists and revokes them', async () => {
    for (const planId of ['starter', 'growth', null] as const) {
      const client = await signedInClient(server, planId)
      const response = await create(client, 'nope')
      expect(response.status).toBe(403)
      expect(await errorCode(response)).toBe('API_PLAN_REQUIRED')
      expect(await list(client)).toEqual({ hasApiAccess: false, maxLiveKeys: maxLiveApiKeys, keys: [] })
    }
    expect(await server.database.db.select().from(apiKeys)).toHaveLength(0)

    // An account that left Pro keeps seeing its keys and can revoke them.
    const client = await signedInClient(server, 'pro')
    const { key } = await created(client, 'old')
    await client.request('/api/billing/subscription', { json: { planId: 'growth' } })
    const view = await list(client)
    expect(view.hasApiAccess).toBe(false)
    expect(view.keys.map((k) => k.id)).toEqual([key.id])
    expect((await client.request(`/api/api-keys/${key.id}`, { method: 'DELETE' })).status).toBe(200)
  })

  it(`holds at most ${maxLiveApiKeys} live keys; revoking one makes room`, async () => {
    const client = await signedInClient(server, 'pro')
    const made = await Promise.all(
      Array.from({ length: maxLiveApiKeys }, (_, index) => created(client, `key ${index}`)),
    )
    const refused = await create(client, 'one too many')
    expect(refused.status).toBe(409)
    expect(await errorCode(refused)).toBe('API_KEY_LIMIT_REACHED')

    await client.request(`/api/api-keys/${made[0]?.key.id}`, { method: 'DELETE' })
    expect((await create(client, 'replacement')).status).toBe(201)
    expect((await create(client, 'again too many')).status).toBe(409)
    const view = await list(client)
    expect(view.keys.filter((k) => k.revokedAt === null)).toHaveLength(maxLiveApiKeys)
    expect(view.keys).toHaveLength(maxLiveApiKeys + 1)
  })

  it('never passes the cap when many keys are asked for at once', async () => {
    const client = await signedInClient(server, 'pro')
    const answers = await Promise.all(
      Array.from({ length: maxLiveApiKeys + 5 }, (_, index) => create(client, `burst ${index}`)),
    )
    expect(answers.filter((r) => r.status === 201)).toHaveLength(maxLiveApiKeys)
    expect(answers.filter((r) => r.status === 409)).toHaveLength(5)
  })

  it('checks the name, and needs a signed-in session', async () => {
    const client = await signedInClient(server, 'pro')
    const empty = await create(client, '   ')
    expect(empty.status).toBe(400)
    expect(((await empty.json()) as ErrorBody).error.details?.fields).toEqual({ name: 'required' })
    const long = await create(client, 'x'.repeat(61))
    expect(((await long.json()) as ErrorBody).error.details?.fields).toEqual({ name: 'tooLong' })

    const anonymous = createTestClient(server)
    for (const [path, method] of [
      ['/api/api-keys', 'GET'],
      ['/api/api-keys', 'POST'],
      ['/api/api-keys/00000000-0000-4000-8000-000000000000', 'DELETE'],
    ] as const) {
      const response = await anonymous.request(path, {
        method,
        ...(method === 'POST' ? { json: { name: 'x' } } : {}),
      })
      expect(response.status).toBe(401)
      expect(await errorCode(response)).toBe('UNAUTHORIZED')
    }
  })
})
