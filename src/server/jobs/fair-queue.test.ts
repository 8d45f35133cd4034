import { and, eq, inArray, isNotNull } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type GenerationRow, generations, quotaReservations } from '#server/db/schema/index.ts'
import { createScriptedProviders } from '#tests/support/fake-providers.ts'
import {
  createGeneration,
  signedInClient,
  uploadPhoto,
  usage,
  userIdOf,
  waitForStatus,
} from '#tests/support/generation-client.ts'
import {
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'
import type { Worker } from './worker.ts'

/** Queues `count` jobs of one mode for a user, one after another, and returns their ids in order. */
async function queueJobs(client: TestClient, mode: 'image' | 'video' | 'seo', count: number) {
  const imageAssetId = await uploadPhoto(client)
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const response = await createGeneration(client, { mode, imageAssetId, details: { name: 'Kupa' } })
    expect(response.status).toBe(202)
    ids.push((await response.json()).generation.id)
  }
  return ids
}

/** The most jobs of these rows that were running at the same moment. */
function mostAtOnce(rows: GenerationRow[]): number {
  const events = rows.flatMap((row) => {
    if (!row.startedAt) return []
    const end = row.finishedAt?.getTime() ?? Number.POSITIVE_INFINITY
    return [
      { at: row.startedAt.getTime(), delta: 1 },
      { at: end, delta: -1 },
    ]
  })
  // A job that ends at the moment another starts did not overlap it.
  events.sort((a, b) => a.at - b.at || a.delta - b.delta)
  let running = 0
  let most = 0
  for (const event of events) {
    running += event.delta
    most = Math.max(most, running)
  }
  return most
}

describe('the job queue is fair between users', () => {
  const fake = createScriptedProviders()
  let server: TestServer
  let workers: Worker[] = []
  let requestCount = 0
  /** Every provider call is held at the provider until the test completes its request. */
  const holdEveryCall = () => {
    for (const kind of ['image', 'video'] as const) {
      fake.script[kind].length = 0
      for (let i = 0; i < 80; i++) fake.script[kind].push({ queue: `req-${kind}-${++requestCount}` })
    }
  }
  const rowsOf = (userId: string) =>
    server.database.db.select().from(generations).where(eq(generations.userId, userId))
  const startWorkers = (count: number, options: { concurrency: number; maxRunningPerUser: number }) => {
    for (let i = 0; i < count; i++)
      workers.push(server.startWorker({ providers: fake.providers, ...options }))
  }
  /** Completes at the provider every request of these users' running jobs. */
  const releaseRunning = async (userIds: string[]) => {
    const running = await server.database.db
      .select({ requestId: generations.providerRequestId })
      .from(generations)
      .where(
        and(
          inArray(generations.userId, userIds),
          eq(generations.status, 'running'),
          isNotNull(generations.providerRequestId),
        ),
      )
    for (const { requestId } of running) if (requestId) fake.complete(requestId)
  }

  beforeAll(async () => {
    server = await startTestServer({
      TRUST_PROXY: 'true',
      IMAGE_PROVIDER: 'fal',
      VIDEO_PROVIDER: 'fal',
      // Only the queue's own rules are under test here.
      GENERATIONS_PER_MINUTE: '1000',
      GENERATIONS_PER_MINUTE_PER_CLIENT: '1000',
      MAX_QUEUED_PER_USER: '100',
    })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    holdEveryCall()
    fake.calls.length = 0
  })
  afterEach(async () => {
    await Promise.all(workers.map((worker) => worker.stop()))
    workers = []
  })
  afterAll(async () => {
    await server.close()
  })

  it("starts another user's job in the first slot that frees, ahead of a 30-video burst", async () => {
    // The running cap is set out of the way: the order alone must let the other user in.
    startWorkers(1, { concurrency: 2, maxRunningPerUser: 10 })
    const burster = await signedInClient(server)
    const bursterId = await userIdOf(burster)
    const videos = await queueJobs(burster, 'video', 30)
    // Both slots are taken by the burst, its jobs held at the provider.
    await expect
      .poll(async () =>
        (await rowsOf(bursterId)).filter((r) => r.status === 'running' && r.providerRequestId),
      )
      .toHaveLength(2)

    const other = await signedInClient(server)
    const [seo] = await queueJobs(other, 'seo', 1)
    if (!seo) throw new Error('no SEO job')
    const [waiting] = await server.database.db.select().from(generations).where(eq(generations.id, seo))
    expect(waiting?.status).toBe('queued')

    // One slot frees: the next claim must take the other user's job, not the burst's third video.
    const [first] = (await rowsOf(bursterId)).filter((r) => r.status === 'running')
    if (!first?.providerRequestId) throw new Error('no running video')
    fake.complete(first.providerRequestId)
    const done = await waitForStatus(other, seo, ['succeeded', 'failed'])
    expect(done.status).toBe('succeeded')

    const [seoRow] = await server.database.db.select().from(generations).where(eq(generations.id, seo))
    const seoStarted = seoRow?.startedAt?.getTime()
    if (seoStarted === undefined) throw new Error('the SEO job has no start time')
    const burst = await rowsOf(bursterId)
    const startedFirst = burst.filter((r) => r.startedAt && r.startedAt.getTime() <= seoStarted)
    expect(startedFirst.map((r) => r.id).sort()).toEqual(videos.slice(0, 2).sort())
    expect(burst.filter((r) => r.status === 'queued').length).toBeGreaterThanOrEqual(27)
  })

  it("keeps one user's running jobs at the cap across workers, and gives the free slots to others", async () => {
    // Two workers with three slots each: six slots, and a cap of two jobs per user.
    startWorkers(2, { concurrency: 3, maxRunningPerUser: 2 })
    const heavy = await signedInClient(server)
    const heavyId = await userIdOf(heavy)
    await queueJobs(heavy, 'image', 5)
    const light = await signedInClient(server)
    const lightId = await userIdOf(light)
    await queueJobs(light, 'image', 3)
    const count = (rows: GenerationRow[], status: GenerationRow['status']) =>
      rows.filter((r) => r.status === status).length
    await expect
      .poll(async () => {
        const [heavyRows, lightRows] = await Promise.all([rowsOf(heavyId), rowsOf(lightId)])
        return [count(heavyRows, 'running'), count(lightRows, 'running')]
      })
      .toEqual([2, 2])

    // Two slots are free, yet the heavy user's three other jobs wait: a third user's job is
    // claimed (so the workers did look) while they stay queued.
    const third = await signedInClient(server)
    const [seo] = await queueJobs(third, 'seo', 1)
    if (!seo) throw new Error('no SEO job')
    expect((await waitForStatus(third, seo, ['succeeded', 'failed'])).status).toBe('succeeded')
    const heavyRows = await rowsOf(heavyId)
    expect([count(heavyRows, 'running'), count(heavyRows, 'queued')]).toEqual([2, 3])

    // Everything finishes as the provider lets the held requests go.
    await expect
      .poll(
        async () => {
          await releaseRunning([heavyId, lightId])
          const rows = [...(await rowsOf(heavyId)), ...(await rowsOf(lightId))]
          return rows.filter((r) => r.status !== 'succeeded').length
        },
        { timeout: 20_000, interval: 50 },
      )
      .toBe(0)
    // Over the whole run, never more than two of a user's jobs at once (and two did run together).
    expect(mostAtOnce(await rowsOf(heavyId))).toBe(2)
    expect(mostAtOnce(await rowsOf(lightId))).toBe(2)
    expect((await rowsOf(heavyId)).every((r) => r.attempts === 1)).toBe(true)
  })
})

describe('a full queue refuses new work', () => {
  let server: TestServer
  beforeAll(async () => {
    // No worker: accepted jobs stay queued.
    server = await startTestServer({
      TRUST_PROXY: 'true',
      IMAGE_PROVIDER: 'fal',
      GENERATIONS_PER_MINUTE: '1000',
      GENERATIONS_PER_MINUTE_PER_CLIENT: '1000',
      MAX_QUEUED_PER_USER: '3',
    })
  })
  afterAll(async () => {
    await server.close()
  })

  it('refuses the job past the cap with QUEUE_FULL (429), storing nothing and holding no quota', async () => {
    const client = await signedInClient(server)
    const userId = await userIdOf(client)
    const imageAssetId = await uploadPhoto(client)
    const accepted = await queueJobs(client, 'image', 3)

    const refused = await createGeneration(client, { mode: 'image', imageAssetId })
    expect(refused.status).toBe(429)
    expect((await refused.json()).error.code).toBe('QUEUE_FULL')
    // SEO holds no quota, but waits in the same queue.
    const refusedSeo = await createGeneration(client, {
      mode: 'seo',
      imageAssetId,
      details: { name: 'Kupa' },
    })
    expect(refusedSeo.status).toBe(429)
    expect((await refusedSeo.json()).error.code).toBe('QUEUE_FULL')

    const rows = await server.database.db.select().from(generations).where(eq(generations.userId, userId))
    expect(rows.map((r) => r.id).sort()).toEqual([...accepted].sort())
    const reservations = await server.database.db
      .select()
      .from(quotaReservations)
      .where(eq(quotaReservations.userId, userId))
    expect(reservations).toHaveLength(3)
    expect((await usage(client)).images.used).toBe(3)

    // Another user's queue is their own.
    const other = await signedInClient(server)
    expect(await queueJobs(other, 'image', 1)).toHaveLength(1)

    // A canceled job makes room again.
    const cancel = await client.request(`/api/generations/${accepted[0]}/cancel`, { method: 'POST' })
    expect(cancel.status).toBe(200)
    expect((await createGeneration(client, { mode: 'image', imageAssetId })).status).toBe(202)
    expect((await usage(client)).images.used).toBe(3)
  })
})
