import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { generations, subscriptions } from '#server/db/schema/index.ts'
import { nextClientIp } from '#tests/support/factories.ts'
import { createGeneration, signedInClient, uploadPhoto, userIdOf } from '#tests/support/generation-client.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'

describe('generations: a plan for every mode, per-minute limits', () => {
  let server: TestServer
  beforeAll(async () => {
    // No worker: accepted jobs stay queued; only acceptance is under test.
    server = await startTestServer({
      TRUST_PROXY: 'true',
      GENERATIONS_PER_MINUTE: '3',
      GENERATIONS_PER_MINUTE_PER_CLIENT: '5',
    })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
  })
  afterAll(async () => {
    await server.close()
  })

  it('refuses SEO copy without an active plan or trial, like images and videos, writing nothing', async () => {
    const client = await signedInClient(server, 'starter')
    const imageAssetId = await uploadPhoto(client)
    // The plan ends (expired trial, canceled plan): the upload stays, the studio does not.
    await server.database.db
      .update(subscriptions)
      .set({ status: 'expired' })
      .where(eq(subscriptions.userId, await userIdOf(client)))
    const refused = await createGeneration(client, { mode: 'seo', imageAssetId, details: { name: 'Çanta' } })
    expect(refused.status).toBe(403)
    expect((await refused.json()).error).toMatchObject({ code: 'NO_SUBSCRIPTION' })
    expect(await server.database.db.select().from(generations)).toHaveLength(0)
  })

  it('allows a set number of generations of any kind per account per minute, then 429 with a wait', async () => {
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const statuses: number[] = []
    for (const mode of ['seo', 'image', 'seo', 'image']) {
      statuses.push(
        (await createGeneration(client, { mode, imageAssetId, details: { name: 'Kupa' } })).status,
      )
    }
    expect(statuses).toEqual([202, 202, 202, 429])
    const limited = await createGeneration(client, { mode: 'video', imageAssetId })
    const body = await limited.json()
    expect(body.error.code).toBe('RATE_LIMITED')
    expect(body.error.details.retryAfterSeconds).toBeGreaterThan(0)
    expect(body.error.details.retryAfterSeconds).toBeLessThanOrEqual(60)
    expect(await server.database.db.select().from(generations)).toHaveLength(3)
    const usage = await (await client.request('/api/usage')).json()
    expect(usage.images.used).toBe(1)
  })

  it('limits a client address across accounts', async () => {
    const ip = nextClientIp()
    const clients: TestClient[] = []
    for (let i = 0; i < 2; i++) {
      const client = createTestClient(server, { clientIp: ip })
      await client.request('/api/auth/sign-up', {
        json: { email: `gen-${i}-${Math.random().toString(36).slice(2)}@example.com`, password: 'secret1' },
      })
      await client.request('/api/billing/subscription', { json: { planId: 'growth' } })
      clients.push(client)
    }
    const [first, second] = clients as [TestClient, TestClient]
    const firstPhoto = await uploadPhoto(first)
    const secondPhoto = await uploadPhoto(second)
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await createGeneration(first, { mode: 'seo', imageAssetId: firstPhoto, details: { name: 'Kupa' } }))
          .status,
      )
    }
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (
          await createGeneration(second, {
            mode: 'seo',
            imageAssetId: secondPhoto,
            details: { name: 'Kupa' },
          })
        ).status,
      )
    }
    // 3 + 2 from this address, then the address is at its limit of 5.
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429])
  })
})
