import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { generations } from '#server/db/schema/index.ts'
import { createLogger } from '#server/logger.ts'
import { createProviders } from '#server/providers/index.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import { type FalFake, startFalFake } from '#tests/fakes/fal-server.ts'
import {
  createGeneration,
  signedInClient,
  uploadPhoto,
  usage,
  waitForStatus,
} from '#tests/support/generation-client.ts'
import { resetDatabase, startTestServer, type TestServer } from '#tests/support/test-server.ts'

// The engine with the real fal adapter, against the fal fake: the HTTP protocol end to end.

describe('generations through fal', () => {
  let fal: FalFake
  let server: TestServer
  const makeProviders = (config: TestServer['config']) =>
    createProviders(config.providers, {
      segmenter: sharedSegmenter(),
      logger: createLogger({ level: 'silent' }),
      tuning: { fal: { pollIntervalMs: 20, retry: { baseDelay: 1, maxDelay: 5, backoffMultiplier: 0 } } },
    })

  beforeAll(async () => {
    fal = await startFalFake()
    const env = {
      TRUST_PROXY: 'true',
      IMAGE_PROVIDER: 'fal',
      VIDEO_PROVIDER: 'fal',
      FAL_KEY: 'server-fal-key-0001',
      FAL_BASE_URL: fal.url,
    }
    const probe = await startTestServer(env)
    const providers = await makeProviders(probe.config)
    await probe.close()
    server = await startTestServer(env, { providers })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    fal.script({})
    fal.clearRequests()
  })
  afterAll(async () => {
    await server.close()
    await fal.close()
  })

  const submits = () =>
    fal.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/fal-ai/nano-banana/edit'))

  it("shows fal's queue position while the job waits there, then clears it", async () => {
    fal.script({ statusPolls: 4, queueStepMs: 600 })
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (await createGeneration(client, { mode: 'image', imageAssetId })).json()
    await expect
      .poll(async () => {
        const read = await (await client.request(`/api/generations/${generation.id}`)).json()
        return [read.generation.status, read.generation.queuePosition]
      })
      .toEqual(['running', 1])
    const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'])
    expect([done.status, done.queuePosition]).toEqual(['succeeded', null])
  })

  it('succeeds when fal answers 503 twice and then accepts, holding the quota once', async () => {
    fal.script({ submit: [503, 503, 'ok'] })
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (
      await createGeneration(client, { mode: 'image', imageAssetId, prompt: 'velvet' })
    ).json()
    const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'])
    expect(done.status).toBe('succeeded')
    expect(submits()).toHaveLength(3)
    expect(submits()[2]?.headers.authorization).toBe('Key server-fal-key-0001')
    expect((await usage(client)).images.used).toBe(1)
    // The result was copied into our storage: it is served from us, not from fal.
    if (done.result?.type !== 'image') throw new Error('expected an image')
    const file = await client.request(done.result.image.url)
    expect(file.headers.get('content-type')).toBe('image/jpeg')
  })

  it('fails with PROVIDER_UNAVAILABLE and gives the quota back when fal keeps answering 500', async () => {
    fal.script({ result: Array.from({ length: 40 }, () => 500) })
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (await createGeneration(client, { mode: 'image', imageAssetId })).json()
    const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'], 30_000)
    expect(done).toMatchObject({ status: 'failed', errorCode: 'PROVIDER_UNAVAILABLE', isRetrying: false })
    expect((await usage(client)).images.used).toBe(0)
    const [row] = await server.database.db.select().from(generations).where(eq(generations.id, generation.id))
    expect(row?.attempts).toBeGreaterThan(1)
  })

  it('says a job back in the queue after a failed try is retrying, and a new one is not', async () => {
    fal.script({ completeAfterMs: 60_000 })
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (await createGeneration(client, { mode: 'image', imageAssetId })).json()
    expect(generation).toMatchObject({ status: 'queued', isRetrying: false })
    await server.database.db
      .update(generations)
      .set({ status: 'queued', attempts: 1, runAfter: new Date(Date.now() + 60_000), lockedBy: null })
      .where(eq(generations.id, generation.id))
    const read = await (await client.request(`/api/generations/${generation.id}`)).json()
    expect(read.generation).toMatchObject({ status: 'queued', isRetrying: true })
  })

  it('finishes a job after a restart while it was running at fal, without submitting it again', async () => {
    fal.script({ completeAfterMs: 3000 })
    const client = await signedInClient(server)
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (await createGeneration(client, { mode: 'image', imageAssetId })).json()
    await expect
      .poll(async () => {
        const [row] = await server.database.db
          .select()
          .from(generations)
          .where(eq(generations.id, generation.id))
        return row?.providerRequestId ?? null
      })
      .not.toBeNull()
    await server.worker?.stop()
    // A new process: new adapters with no memory of the request.
    const restarted = server.startWorker({ providers: await makeProviders(server.config) })
    try {
      const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'], 30_000)
      expect([done.status, done.errorCode]).toEqual(['succeeded', null])
      expect(submits()).toHaveLength(1)
      expect((await usage(client)).images.used).toBe(1)
    } finally {
      await restarted.stop()
      ;(server as { worker: unknown }).worker = server.startWorker()
    }
  })

  it("uses the user's own key when they bring one, and does not count it against the quota", async () => {
    const client = await signedInClient(server)
    await client.request('/api/settings/fal-key', { method: 'PUT', json: { key: 'users-own-fal-key-9999' } })
    await client.request('/api/settings', { method: 'PATCH', json: { byoApiEnabled: true } })
    const imageAssetId = await uploadPhoto(client)
    const { generation } = await (await createGeneration(client, { mode: 'image', imageAssetId })).json()
    expect(generation.usesOwnKey).toBe(true)
    const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'])
    expect(done.status).toBe('succeeded')
    expect(submits().map((r) => r.headers.authorization)).toEqual(['Key users-own-fal-key-9999'])
    expect((await usage(client)).images.used).toBe(0)
  })
})
