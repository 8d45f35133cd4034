import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { assets, generations } from '#server/db/schema/index.ts'
import { createLogger } from '#server/logger.ts'
import { getPlan } from '#shared/plans.ts'
import { nextClientIp } from '#tests/support/factories.ts'
import { makeJpeg } from '#tests/support/fake-providers.ts'
import {
  createGeneration,
  signedInClient,
  upload,
  uploadPhoto,
  userIdOf,
} from '#tests/support/generation-client.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'
import { storeAsset, sweepUnusedUploads } from './assets.service.ts'

const log = createLogger({ level: 'silent' })

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code
}

describe('uploads: plan, per-minute limits, storage quota, deletion, sweep', () => {
  let server: TestServer
  beforeAll(async () => {
    // No worker: generations stay queued, which is what "in use" needs.
    server = await startTestServer({
      TRUST_PROXY: 'true',
      UPLOADS_PER_MINUTE: '4',
      UPLOADS_PER_MINUTE_PER_CLIENT: '6',
    })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
  })
  afterAll(async () => {
    await server.close()
  })

  const pathOf = (storageKey: string) => join(server.dataDir, 'files', storageKey)
  async function assetRow(id: string) {
    const [row] = await server.database.db.select().from(assets).where(eq(assets.id, id))
    return row
  }

  it('refuses an upload without an active plan or trial, storing nothing', async () => {
    const client = await signedInClient(server, null)
    const response = await upload(client, await makeJpeg())
    expect(response.status).toBe(403)
    expect(await errorCode(response)).toBe('NO_SUBSCRIPTION')
    expect(await server.database.db.select().from(assets)).toHaveLength(0)
  })

  it('limits uploads per account per minute, and per client address across accounts', async () => {
    const ip = nextClientIp()
    const first = createTestClient(server, { clientIp: ip })
    const photo = await makeJpeg()
    const signUp = (client: TestClient) =>
      client.request('/api/auth/sign-up', {
        json: { email: `u-${Math.random().toString(36).slice(2)}@example.com`, password: 'secret1' },
      })
    await signUp(first)
    await first.request('/api/billing/subscription', { json: { planId: 'growth' } })
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) statuses.push((await upload(first, photo)).status)
    expect(statuses).toEqual([201, 201, 201, 201, 429])
    const limited = await upload(first, photo)
    const body = await limited.json()
    expect(body.error.code).toBe('RATE_LIMITED')
    expect(body.error.details.retryAfterSeconds).toBeGreaterThan(0)
    expect(body.error.details.retryAfterSeconds).toBeLessThanOrEqual(60)

    // Another account from the same address: the address has made its 6 tries already.
    const second = createTestClient(server, { clientIp: ip })
    await signUp(second)
    await second.request('/api/billing/subscription', { json: { planId: 'growth' } })
    expect((await upload(second, photo)).status).toBe(429)
    // The same account elsewhere is only held by its own limit, which is used up too.
    const elsewhere = createTestClient(server, { clientIp: nextClientIp() })
    for (const [name, value] of second.cookies) elsewhere.cookies.set(name, value)
    expect((await upload(elsewhere, photo)).status).toBe(201)
    expect(await server.database.db.select().from(assets)).toHaveLength(5)
  })

  it('refuses an upload that would pass the plan storage, and accepts one that fills it exactly', async () => {
    const client = await signedInClient(server, 'starter')
    const userId = await userIdOf(client)
    const photo = await makeJpeg(200, 200)
    const firstId = await (async () => {
      const response = await upload(client, photo)
      expect(response.status).toBe(201)
      return (await response.json()).asset.id as string
    })()
    const size = (await assetRow(firstId))?.bytes ?? 0
    expect(size).toBeGreaterThan(0)
    const quota = getPlan('starter').storageBytes
    // Fill up to exactly one more photo of the same size (rows only; an int column holds < 2^31).
    let filler = quota - 2 * size
    let n = 0
    while (filler > 0) {
      const bytes = Math.min(filler, 2_000_000_000)
      await server.database.db.insert(assets).values({
        userId,
        kind: 'result',
        mime: 'video/mp4',
        bytes,
        storageKey: `${userId}/filler-${n++}.mp4`,
        checksum: 'x',
        fileName: 'filler.mp4',
      })
      filler -= bytes
    }
    expect((await upload(client, photo)).status).toBe(201)
    const usage = await (await client.request('/api/usage')).json()
    expect(usage.storage).toEqual({ usedBytes: quota, quotaBytes: quota })

    const refused = await upload(client, photo)
    expect(refused.status).toBe(403)
    expect(await errorCode(refused)).toBe('STORAGE_QUOTA_EXCEEDED')
    expect(await server.database.db.select().from(assets).where(eq(assets.kind, 'upload'))).toHaveLength(2)

    // A full storage refuses new generations too (their results would be stored).
    const generation = await createGeneration(client, {
      mode: 'seo',
      imageAssetId: firstId,
      details: { name: 'Kupa' },
    })
    expect(generation.status).toBe(403)
    expect(await errorCode(generation)).toBe('STORAGE_QUOTA_EXCEEDED')
    // One byte below the quota, a generation is still accepted.
    await server.database.db
      .update(assets)
      .set({ bytes: 1 })
      .where(eq(assets.storageKey, `${userId}/filler-0.mp4`))
    expect(
      (await createGeneration(client, { mode: 'seo', imageAssetId: firstId, details: { name: 'Kupa' } }))
        .status,
    ).toBe(202)
  })

  it('deletes an own upload (row and file), refuses while a job uses it, and hides others with 404', async () => {
    const owner = await signedInClient(server)
    const id = await uploadPhoto(owner)
    const row = await assetRow(id)
    if (!row) throw new Error('upload not recorded')
    expect(existsSync(pathOf(row.storageKey))).toBe(true)

    const stranger = await signedInClient(server)
    expect((await stranger.request(`/api/assets/${id}`, { method: 'DELETE' })).status).toBe(404)
    expect(
      (await owner.request('/api/assets/00000000-0000-4000-8000-000000000000', { method: 'DELETE' })).status,
    ).toBe(404)
    expect((await owner.request('/api/assets/not-a-uuid', { method: 'DELETE' })).status).toBe(404)

    // Queued (no worker here): in use.
    const queued = await (await createGeneration(owner, { mode: 'image', imageAssetId: id })).json()
    const inUse = await owner.request(`/api/assets/${id}`, { method: 'DELETE' })
    expect(inUse.status).toBe(409)
    expect(await errorCode(inUse)).toBe('ASSET_IN_USE')
    expect(existsSync(pathOf(row.storageKey))).toBe(true)

    // Canceled: no longer in use; the finished generation stays, without its input.
    await owner.request(`/api/generations/${queued.generation.id}/cancel`, { method: 'POST' })
    expect((await owner.request(`/api/assets/${id}`, { method: 'DELETE' })).status).toBe(204)
    expect(await assetRow(id)).toBeUndefined()
    expect(existsSync(pathOf(row.storageKey))).toBe(false)
    expect((await owner.request(`/api/assets/${id}/file`)).status).toBe(404)
    expect((await owner.request(`/api/assets/${id}`, { method: 'DELETE' })).status).toBe(404)
    const [generation] = await server.database.db
      .select()
      .from(generations)
      .where(eq(generations.id, queued.generation.id))
    expect(generation?.inputAssetId).toBeNull()
  })

  it('refuses to delete a result directly: results go with their generation', async () => {
    const owner = await signedInClient(server)
    const userId = await userIdOf(owner)
    const result = await storeAsset(
      { db: server.database.db, storage: server.deps.storage },
      {
        userId,
        kind: 'result',
        bytes: await makeJpeg(),
        mime: 'image/jpeg',
        fileName: 'result.jpg',
      },
    )
    const response = await owner.request(`/api/assets/${result.id}`, { method: 'DELETE' })
    expect(response.status).toBe(403)
    expect(await errorCode(response)).toBe('FORBIDDEN')
    expect(existsSync(pathOf(result.storageKey))).toBe(true)
  })

  it('sweeps uploads no generation uses once they are older than the retention, rows and files', async () => {
    const client = await signedInClient(server)
    const [usedByJob, usedByFinished, unusedOld, unusedRecent] = [
      await uploadPhoto(client),
      await uploadPhoto(client),
      await uploadPhoto(client),
      await uploadPhoto(client),
    ] as [string, string, string, string]
    const job = await (await createGeneration(client, { mode: 'image', imageAssetId: usedByJob })).json()
    const finished = await (
      await createGeneration(client, { mode: 'seo', imageAssetId: usedByFinished, details: { name: 'Kupa' } })
    ).json()
    await client.request(`/api/generations/${finished.generation.id}/cancel`, { method: 'POST' })
    expect(job.generation.status).toBe('queued')
    const now = new Date()
    const longAgo = new Date(now.getTime() - 25 * 3_600_000)
    await server.database.db
      .update(assets)
      .set({ createdAt: longAgo })
      .where(inArray(assets.id, [usedByJob, usedByFinished, unusedOld]))
    const keys = new Map(
      (await server.database.db.select().from(assets)).map((row) => [row.id, row.storageKey] as const),
    )

    const removed = await sweepUnusedUploads(
      { db: server.database.db, storage: server.deps.storage, retentionHours: 24, log },
      now,
    )
    expect(removed).toBe(1)
    const left = (await server.database.db.select({ id: assets.id }).from(assets)).map((row) => row.id).sort()
    expect(left).toEqual([usedByJob, usedByFinished, unusedRecent].sort())
    expect(existsSync(pathOf(keys.get(unusedOld) ?? ''))).toBe(false)
    for (const id of left) expect(existsSync(pathOf(keys.get(id) ?? ''))).toBe(true)
    // A second sweep finds nothing more.
    expect(
      await sweepUnusedUploads(
        { db: server.database.db, storage: server.deps.storage, retentionHours: 24, log },
        now,
      ),
    ).toBe(0)
  })
})
