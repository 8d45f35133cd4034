import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest'
import { creditBalances, generations, quotaReservations } from '#server/db/schema/index.ts'
import { grantCredits } from '#server/features/quota/credits.service.ts'
import { setPeriodUsage } from '#server/features/quota/usage.service.ts'
import { createScriptedProviders } from '#tests/support/fake-providers.ts'
import {
  createGeneration,
  getGeneration,
  signedInClient,
  uploadPhoto,
  usage,
  waitForStatus,
} from '#tests/support/generation-client.ts'
import { resetDatabase, startTestServer, type TestServer } from '#tests/support/test-server.ts'

describe('generations over HTTP, with a worker', () => {
  const fake = createScriptedProviders()
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(
      // Bursts here test the quota, not the per-minute limits (generation-limits.test.ts does).
      { TRUST_PROXY: 'true', IMAGE_PROVIDER: 'fal', VIDEO_PROVIDER: 'fal', GENERATIONS_PER_MINUTE: '1000' },
      // A lease a loaded machine cannot lose between heartbeats: the 2 s default renews every
      // 0.7 s, and a busy CI machine stalling a test process past that took a job from its own
      // worker until its tries ran out. Nothing here waits for a lease to run out.
      { providers: fake.providers, worker: { leaseMs: 6000 } },
    )
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    fake.script.image.length = 0
    fake.script.video.length = 0
    fake.script.seo.length = 0
    fake.calls.length = 0
  })
  afterAll(async () => {
    await server.close()
  })

  it('accepts at once with 202, runs the job, keeps the quota, and serves the stored result to its owner', async () => {
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const response = await createGeneration(client, {
      mode: 'image',
      imageAssetId,
      prompt: 'marble countertop',
    })
    expect(response.status).toBe(202)
    const { generation } = await response.json()
    expect(generation).toMatchObject({ status: 'queued', mode: 'image', tool: 'product', aspectRatio: '1:1' })
    expect((await usage(client)).images.used).toBe(1)

    const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'])
    expect(done.status).toBe('succeeded')
    expect(done.result?.type).toBe('image')
    if (done.result?.type !== 'image') throw new Error('expected an image result')
    expect(done.result.promptUsed).toBe('marble countertop')
    expect(done.result.image.fileName).toMatch(/^vitrin-product-image-1x1-\d{8}-\d{4}-[0-9a-f]{6}\.jpg$/)
    expect((await usage(client)).images.used).toBe(1)
    const [reservation] = await server.database.db.select().from(quotaReservations)
    expect(reservation?.status).toBe('committed')

    const file = await client.request(done.result.image.downloadUrl)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-disposition')).toContain(done.result.image.fileName)

    const stranger = await signedInClient(server)
    expect((await stranger.request(`/api/generations/${generation.id}`)).status).toBe(404)
    expect((await stranger.request(done.result.image.url)).status).toBe(404)
    expect((await stranger.request(`/api/generations/${generation.id}/events`)).status).toBe(404)
  })

  it('answers 400 "Invalid generation mode" for an unknown mode, holding nothing', async () => {
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const response = await createGeneration(client, { mode: 'hologram', imageAssetId })
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.error).toMatchObject({ code: 'INVALID_GENERATION_MODE', message: 'Invalid generation mode' })
    expect((await usage(client)).images.used).toBe(0)
    expect(await server.database.db.select().from(generations)).toHaveLength(0)
  })

  it("refuses another user's upload as input with 404", async () => {
    const owner = await signedInClient(server)
    const imageAssetId = await uploadPhoto(owner)
    const thief = await signedInClient(server)
    expect((await createGeneration(thief, { mode: 'image', imageAssetId })).status).toBe(404)
  })

  it('fails clearly on a permanent provider failure and gives the quota back', async () => {
    fake.script.image.push('rejected')
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (await createGeneration(client, { mode: 'image', imageAssetId })).json()
    const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'])
    expect(done).toMatchObject({ status: 'failed', errorCode: 'PROVIDER_REJECTED', result: null })
    expect((await usage(client)).images.used).toBe(0)
  })

  it('retries a provider that is unavailable twice, then succeeds, counting the quota once', async () => {
    fake.script.image.push('unavailable', 'unavailable')
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (await createGeneration(client, { mode: 'image', imageAssetId })).json()
    const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'])
    expect(done.status).toBe('succeeded')
    expect(fake.calls.filter((c) => c.kind === 'image.start')).toHaveLength(3)
    expect((await usage(client)).images.used).toBe(1)
  })

  it('fails after the last try when the provider stays unavailable, quota released', async () => {
    fake.script.image.push('unavailable', 'unavailable', 'unavailable')
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (await createGeneration(client, { mode: 'image', imageAssetId })).json()
    const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'])
    expect(done).toMatchObject({ status: 'failed', errorCode: 'PROVIDER_UNAVAILABLE' })
    expect((await usage(client)).images.used).toBe(0)
  })

  it('accepts exactly 3 of 50 concurrent requests when 3 images are left', async () => {
    const client = await signedInClient(server, 'starter')
    const imageAssetId = await uploadPhoto(client)
    const userId = (await (await client.request('/api/session')).json()).user.id
    await setPeriodUsage(server.database.db, userId, new Date(), { imagesUsed: 247, videosUsed: 0 })
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => createGeneration(client, { mode: 'image', imageAssetId })),
    )
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 202)).toHaveLength(3)
    expect(statuses.filter((s) => s === 403)).toHaveLength(47)
    const refused = await responses.find((r) => r.status === 403)?.json()
    expect(refused.error.code).toBe('QUOTA_EXCEEDED_IMAGES')
    expect((await usage(client)).images.used).toBe(250)
  })

  it('accepts exactly N of 20 concurrent requests with the image quota used up and N credits', async () => {
    const client = await signedInClient(server, 'starter')
    const imageAssetId = await uploadPhoto(client)
    const userId = (await (await client.request('/api/session')).json()).user.id
    await setPeriodUsage(server.database.db, userId, new Date(), { imagesUsed: 250, videosUsed: 0 })
    // 3 of a pack's 100 credits left: the rest of the pack was spent before.
    await grantCredits(server.database.db, {
      userId,
      packId: 'images_100',
      paymentRef: 'pi_http',
      origin: 'checkout',
    })
    await server.database.db
      .update(creditBalances)
      .set({ images: 3 })
      .where(eq(creditBalances.userId, userId))
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => createGeneration(client, { mode: 'image', imageAssetId })),
    )
    const statuses = responses.map((r) => r.status)
    expect(statuses.filter((s) => s === 202)).toHaveLength(3)
    expect(statuses.filter((s) => s === 403)).toHaveLength(17)
    const refused = await responses.find((r) => r.status === 403)?.json()
    expect(refused.error.code).toBe('QUOTA_EXCEEDED_IMAGES')
    const held = await server.database.db
      .select()
      .from(quotaReservations)
      .where(eq(quotaReservations.userId, userId))
    expect(held.map((r) => r.source)).toEqual(['credit', 'credit', 'credit'])
    const ids = await Promise.all(
      responses.filter((r) => r.status === 202).map(async (r) => (await r.json()).generation.id as string),
    )
    const outcomes = await Promise.all(ids.map((id) => waitForStatus(client, id, ['succeeded', 'failed'])))
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded', 'succeeded'])
    const after = await usage(client)
    expect(after.images.used).toBe(250)
    expect(after.credits).toEqual({ images: 0, videos: 0 })
  })

  it('needs a plan to generate images, but SEO is never blocked by the image quota', async () => {
    const client = await signedInClient(server, 'starter')
    const imageAssetId = await uploadPhoto(client)
    const userId = (await (await client.request('/api/session')).json()).user.id
    await setPeriodUsage(server.database.db, userId, new Date(), { imagesUsed: 250, videosUsed: 10 })
    expect((await createGeneration(client, { mode: 'image', imageAssetId })).status).toBe(403)
    const videoRefused = await createGeneration(client, { mode: 'video', imageAssetId })
    expect((await videoRefused.json()).error.code).toBe('QUOTA_EXCEEDED_VIDEOS')
    const seo = await createGeneration(client, {
      mode: 'seo',
      imageAssetId,
      details: { name: 'Deri cüzdan' },
    })
    expect(seo.status).toBe(202)
    const done = await waitForStatus(client, (await seo.json()).generation.id, ['succeeded', 'failed'])
    expect(done.result?.type).toBe('seo')

    // A plan that ended: its upload stays, but no mode may start, SEO included.
    const noPlan = await signedInClient(server)
    const asset = await uploadPhoto(noPlan)
    expect((await noPlan.request('/api/billing/subscription', { method: 'DELETE' })).status).toBeLessThan(300)
    for (const mode of ['image', 'video', 'seo']) {
      const refused = await createGeneration(noPlan, { mode, imageAssetId: asset })
      expect(refused.status).toBe(403)
      expect((await refused.json()).error.code).toBe('NO_SUBSCRIPTION')
    }
  })

  it('makes a video from an image result with its own prompt, counting the video quota', async () => {
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation: image } = await (
      await createGeneration(client, { mode: 'image', imageAssetId, aspectRatio: '9:16' })
    ).json()
    const early = await client.request(`/api/generations/${image.id}/video`, { json: { prompt: 'zoom in' } })
    // The image may or may not be done yet; if not, the answer says so.
    if (early.status === 409) expect((await early.json()).error.code).toBe('GENERATION_NOT_READY')
    await waitForStatus(client, image.id, ['succeeded'])
    const response = await client.request(`/api/generations/${image.id}/video`, {
      json: { prompt: 'slow zoom' },
    })
    expect(response.status).toBe(202)
    const { generation: video } = await response.json()
    expect(video).toMatchObject({
      mode: 'video',
      aspectRatio: '9:16',
      sourceGenerationId: image.id,
      prompt: 'slow zoom',
    })
    const done = await waitForStatus(client, video.id, ['succeeded', 'failed'])
    expect(done.result?.type).toBe('video')
    if (done.result?.type !== 'video') throw new Error('expected a video')
    expect(done.result.video.mime).toBe('video/mp4')
    expect(done.result.poster?.id).toBe(
      (await getGeneration(client, image.id)).result?.type === 'image' ? done.result.poster?.id : null,
    )
    const counts = await usage(client)
    expect(counts.videos.used).toBe(1)
    expect(counts.images.used).toBe(1)
  })

  it('cancels a queued or running job and gives the quota back', async () => {
    fake.script.image.push({ hang: true })
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (await createGeneration(client, { mode: 'image', imageAssetId })).json()
    await waitForStatus(client, generation.id, ['running'])
    const canceled = await client.request(`/api/generations/${generation.id}/cancel`, { method: 'POST' })
    expect(canceled.status).toBe(200)
    const done = await waitForStatus(client, generation.id, ['canceled'])
    expect(done.errorCode).toBe('GENERATION_CANCELED')
    expect((await usage(client)).images.used).toBe(0)
  })

  it('resumes a job in flight at the provider after a restart, by its request id, counting once', async () => {
    fake.script.image.push({ queue: 'req-restart-1' })
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (await createGeneration(client, { mode: 'image', imageAssetId })).json()
    await expect
      .poll(async () => {
        const [row] = await server.database.db
          .select()
          .from(generations)
          .where(eq(generations.id, generation.id))
        return row?.providerRequestId
      })
      .toBe('req-restart-1')
    // The server stops (its worker hands the job back), the provider finishes meanwhile, and a
    // new worker picks the job up again.
    await server.worker?.stop()
    fake.complete('req-restart-1')
    const second = server.startWorker()
    // Give the file's other tests their worker back, even when this test fails or runs out of time.
    onTestFinished(async () => {
      await second.stop()
      ;(server as { worker: unknown }).worker = server.startWorker()
    })
    const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'])
    expect(done.status).toBe('succeeded')
    expect(fake.calls.filter((c) => c.kind === 'image.start')).toHaveLength(1)
    expect(
      fake.calls.filter((c) => c.kind === 'image.resume' && c.requestId === 'req-restart-1').length,
    ).toBeGreaterThanOrEqual(2)
    expect((await usage(client)).images.used).toBe(1)
    const reservations = await server.database.db.select().from(quotaReservations)
    expect(reservations.map((r) => r.status)).toEqual(['committed'])
  })

  it('picks up waiting jobs at start and runs a backlog through its slots without waiting for a poll', async () => {
    await server.worker?.stop()
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    // Queued while no worker runs: the new worker's first look must find them.
    const early = (await (await createGeneration(client, { mode: 'image', imageAssetId })).json()).generation
      .id as string
    // A poll far beyond the test's time limit: every job below must start on a wake-up.
    const slow = server.startWorker({ concurrency: 1, pollMs: 10 * 60_000 })
    // Give the file's other tests their worker back, even when this test fails or runs out of time.
    onTestFinished(async () => {
      await slow.stop()
      ;(server as { worker: unknown }).worker = server.startWorker()
    })
    const later = await Promise.all(
      Array.from(
        { length: 3 },
        async () =>
          (await (await createGeneration(client, { mode: 'image', imageAssetId })).json()).generation
            .id as string,
      ),
    )
    for (const id of [early, ...later])
      expect((await waitForStatus(client, id, ['succeeded', 'failed'])).status).toBe('succeeded')
  })

  it('stops at once when told to while it is claiming, and hands back what that claim took', async () => {
    await server.worker?.stop()
    onTestFinished(() => {
      ;(server as { worker: unknown }).worker = server.startWorker()
    })
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const waiting = (await (await createGeneration(client, { mode: 'image', imageAssetId })).json())
      .generation.id as string
    // Its first look at the queue starts at once, so the stop comes while that claim is in
    // flight; a worker that went on to wait for its next poll would outlive the test.
    const worker = server.startWorker({ pollMs: 10 * 60_000 })
    await worker.stop()
    const [row] = await server.database.db.select().from(generations).where(eq(generations.id, waiting))
    expect(row).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null })
    expect(fake.calls.filter((c) => c.kind === 'image.start')).toHaveLength(0)
  })

  it('shares the queue between several workers, each job run exactly once', async () => {
    const second = server.startWorker()
    try {
      const client = await signedInClient(server)
      const imageAssetId = await uploadPhoto(client)
      const created = await Promise.all(
        Array.from(
          { length: 12 },
          async () =>
            (await (await createGeneration(client, { mode: 'image', imageAssetId })).json()).generation
              .id as string,
        ),
      )
      for (const id of created)
        expect((await waitForStatus(client, id, ['succeeded', 'failed'])).status).toBe('succeeded')
      expect(fake.calls.filter((c) => c.kind === 'image.start')).toHaveLength(12)
      const rows = await server.database.db.select().from(generations)
      expect(rows.every((r) => r.attempts === 1)).toBe(true)
      expect((await usage(client)).images.used).toBe(12)
    } finally {
      await second.stop()
    }
  })

  it('lists newest first in pages, filters by mode and saved, saves and deletes', async () => {
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const ids: string[] = []
    for (const mode of ['image', 'seo', 'image']) {
      const { generation } = await (
        await createGeneration(client, { mode, imageAssetId, details: { name: 'Kupa' } })
      ).json()
      ids.push(generation.id)
      await waitForStatus(client, generation.id, ['succeeded'])
    }
    const first = await (await client.request('/api/generations?limit=2')).json()
    expect(first.items.map((g: { id: string }) => g.id)).toEqual([ids[2], ids[1]])
    const second = await (await client.request(`/api/generations?limit=2&cursor=${first.nextCursor}`)).json()
    expect(second.items.map((g: { id: string }) => g.id)).toEqual([ids[0]])
    expect(second.nextCursor).toBeNull()

    const images = await (await client.request('/api/generations?mode=image')).json()
    expect(images.items).toHaveLength(2)
    await client.request(`/api/generations/${ids[1]}/save`, { method: 'POST' })
    const saved = await (await client.request('/api/generations?saved=1')).json()
    expect(saved.items.map((g: { id: string; isSaved: boolean }) => [g.id, g.isSaved])).toEqual([
      [ids[1], true],
    ])

    expect((await client.request(`/api/generations/${ids[0]}`, { method: 'DELETE' })).status).toBe(204)
    expect((await client.request(`/api/generations/${ids[0]}`)).status).toBe(404)
    expect((await client.request('/api/generations?cursor=not-a-cursor')).status).toBe(400)
  })

  it('streams state changes as server-sent events until the job is finished', async () => {
    fake.script.image.push({ queue: 'req-events-1' })
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (await createGeneration(client, { mode: 'image', imageAssetId })).json()
    const response = await client.request(`/api/generations/${generation.id}/events`)
    expect(response.headers.get('content-type')).toContain('text/event-stream')
    const reader = response.body?.getReader()
    if (!reader) throw new Error('no body')
    const statuses: string[] = []
    let buffer = ''
    const decoder = new TextDecoder()
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      buffer += decoder.decode(value, { stream: true })
      for (const match of buffer.matchAll(/^data: (.+)$/gm)) {
        const status = (JSON.parse(match[1] ?? '{}') as { status: string }).status
        if (statuses.at(-1) !== status) statuses.push(status)
        if (status === 'running') fake.complete('req-events-1')
      }
      buffer = buffer.slice(buffer.lastIndexOf('\n') + 1)
    }
    expect(statuses.at(-1)).toBe('succeeded')
    expect(statuses).toContain('running')
  })
})
