import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  accounts,
  assets,
  generations,
  providerKeys,
  quotaReservations,
  sessions,
  subscriptions,
  usageMonthly,
  users,
} from '#server/db/schema/index.ts'
import { syncConfiguredCodes } from '#server/features/access/access-codes.service.ts'
import { nextClientIp } from '#tests/support/factories.ts'
import { createScriptedProviders } from '#tests/support/fake-providers.ts'
import {
  createGeneration,
  signedInClient,
  uploadPhoto,
  waitForStatus,
} from '#tests/support/generation-client.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'

const password = 'secret-pass-1'

async function signUp(server: TestServer): Promise<{ client: TestClient; userId: string }> {
  const client = createTestClient(server, { clientIp: nextClientIp() })
  const email = `delete-${Math.random().toString(36).slice(2)}@example.com`
  expect((await client.request('/api/auth/sign-up', { json: { email, password } })).status).toBe(201)
  await client.request('/api/billing/subscription', { json: { planId: 'growth' } })
  const userId = (await (await client.request('/api/session')).json()).user.id as string
  return { client, userId }
}

const deleteAccount = (client: TestClient, body: unknown) =>
  client.request('/api/account', { method: 'DELETE', json: body })

describe('DELETE /api/account', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true' })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
  })
  afterAll(async () => {
    await server.close()
  })

  const db = () => server.database.db
  const pathOf = (storageKey: string) => join(server.dataDir, 'files', storageKey)
  async function rowsOf(userId: string) {
    const count = async (
      table: typeof users | typeof sessions,
      column: typeof users.id | typeof sessions.userId,
    ) => (await db().select().from(table).where(eq(column, userId))).length
    return {
      users: await count(users, users.id),
      sessions: await count(sessions, sessions.userId),
      accounts: (await db().select().from(accounts).where(eq(accounts.userId, userId))).length,
      subscriptions: (await db().select().from(subscriptions).where(eq(subscriptions.userId, userId))).length,
      usage: (await db().select().from(usageMonthly).where(eq(usageMonthly.userId, userId))).length,
      reservations: (await db().select().from(quotaReservations).where(eq(quotaReservations.userId, userId)))
        .length,
      keys: (await db().select().from(providerKeys).where(eq(providerKeys.userId, userId))).length,
      generations: (await db().select().from(generations).where(eq(generations.userId, userId))).length,
      assets: (await db().select().from(assets).where(eq(assets.userId, userId))).length,
    }
  }

  it('refuses a wrong or missing password and deletes nothing', async () => {
    const { client, userId } = await signUp(server)
    const photo = await uploadPhoto(client)
    for (const body of [{ password: 'not-my-password' }, {}, { confirmation: 'DELETE' }]) {
      const response = await deleteAccount(client, body)
      expect(response.status).toBe(400)
      expect((await response.json()).error.code).toBe('AUTH_WRONG_PASSWORD')
    }
    expect((await rowsOf(userId)).users).toBe(1)
    expect((await client.request(`/api/assets/${photo}/file`)).status).toBe(200)
    expect(
      (await createTestClient(server).request('/api/account', { method: 'DELETE', json: { password } }))
        .status,
    ).toBe(401)
  })

  it('deletes the account, its rows and files, signs it out everywhere, and leaves others alone', async () => {
    const { client, userId } = await signUp(server)
    const other = await signUp(server)
    const otherPhoto = await uploadPhoto(other.client)
    const photos = [await uploadPhoto(client), await uploadPhoto(client)]
    // A queued job with a quota reservation (no worker runs here), and a saved key.
    const queued = await createGeneration(client, { mode: 'image', imageAssetId: photos[0] })
    expect(queued.status).toBe(202)
    await client.request('/api/settings/fal-key', {
      method: 'PUT',
      json: { key: 'fal-key-0123456789abcdef' },
    })
    // A second session of the same account (another browser).
    const secondBrowser = createTestClient(server, { clientIp: nextClientIp() })
    const email = (await db().select().from(users).where(eq(users.id, userId)))[0]?.email
    expect((await secondBrowser.request('/api/auth/sign-in', { json: { email, password } })).status).toBe(200)
    const before = await rowsOf(userId)
    expect(before).toMatchObject({
      users: 1,
      sessions: 2,
      assets: 2,
      generations: 1,
      reservations: 1,
      keys: 1,
    })
    const storageKeys = (await db().select().from(assets).where(eq(assets.userId, userId))).map(
      (a) => a.storageKey,
    )
    for (const key of storageKeys) expect(existsSync(pathOf(key))).toBe(true)
    const oldCookies = new Map(client.cookies)

    const response = await deleteAccount(client, { password })
    expect(response.status).toBe(204)
    expect(response.headers.getSetCookie().join('\n')).toMatch(/vitrin\.session_token=;.*Max-Age=0/i)
    expect(client.cookies.size).toBe(0)

    expect(await rowsOf(userId)).toEqual({
      users: 0,
      sessions: 0,
      accounts: 0,
      subscriptions: 0,
      usage: 0,
      reservations: 0,
      keys: 0,
      generations: 0,
      assets: 0,
    })
    for (const key of storageKeys) expect(existsSync(pathOf(key))).toBe(false)

    // The old cookie, replayed at once, and the other browser's session no longer work.
    const replay = createTestClient(server, { clientIp: nextClientIp() })
    for (const [name, value] of oldCookies) replay.cookies.set(name, value)
    expect((await (await replay.request('/api/session')).json()).user).toBeNull()
    expect((await replay.request('/api/usage')).status).toBe(401)
    expect((await secondBrowser.request('/api/usage')).status).toBe(401)
    expect((await replay.request('/api/auth/sign-in', { json: { email, password } })).status).toBe(401)

    // Someone else's account and files are untouched.
    expect((await other.client.request(`/api/assets/${otherPhoto}/file`)).status).toBe(200)
    expect((await rowsOf(other.userId)).users).toBe(1)
  })

  it('lets a beta account (no password) delete itself with the confirmation instead', async () => {
    await syncConfiguredCodes(db(), ['VITRIN'])
    const beta = createTestClient(server, { clientIp: nextClientIp() })
    expect((await beta.request('/api/access', { json: { code: 'VITRIN' } })).status).toBeLessThan(300)
    const userId = (await (await beta.request('/api/session')).json()).user.id as string
    const photo = await uploadPhoto(beta)
    const [row] = await db().select().from(assets).where(eq(assets.id, photo))
    if (!row) throw new Error('upload not recorded')

    const unconfirmed = await deleteAccount(beta, { password: 'anything' })
    expect(unconfirmed.status).toBe(400)
    expect((await unconfirmed.json()).error.code).toBe('ACCOUNT_DELETE_CONFIRMATION_INVALID')
    expect((await deleteAccount(beta, { confirmation: 'delete' })).status).toBe(400)
    expect((await rowsOf(userId)).users).toBe(1)

    expect((await deleteAccount(beta, { confirmation: 'DELETE' })).status).toBe(204)
    expect((await rowsOf(userId)).users).toBe(0)
    expect(existsSync(pathOf(row.storageKey))).toBe(false)
  })
})

describe('DELETE /api/account while a job of the account runs', () => {
  const fake = createScriptedProviders()
  let server: TestServer
  beforeAll(async () => {
    // One slot: a job of someone else can only run once the deleted account's job lets go.
    server = await startTestServer(
      { TRUST_PROXY: 'true', IMAGE_PROVIDER: 'fal' },
      { providers: fake.providers, worker: { concurrency: 1 } },
    )
  })
  afterAll(async () => {
    await server.close()
  })

  it('the worker drops the vanished job and goes on with others', async () => {
    const { client } = await signUp(server)
    const photo = await uploadPhoto(client)
    fake.script.image.push({ queue: 'held-at-provider' })
    const { generation } = await (
      await createGeneration(client, { mode: 'image', imageAssetId: photo })
    ).json()
    await waitForStatus(client, generation.id, ['running'])

    expect((await deleteAccount(client, { password })).status).toBe(204)
    expect(
      await server.database.db.select().from(generations).where(eq(generations.id, generation.id)),
    ).toEqual([])

    const other = await signedInClient(server)
    const otherPhoto = await uploadPhoto(other)
    const next = await (await createGeneration(other, { mode: 'image', imageAssetId: otherPhoto })).json()
    const done = await waitForStatus(other, next.generation.id, ['succeeded', 'failed'])
    expect(done.status).toBe('succeeded')
  })
})
