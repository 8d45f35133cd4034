import { count, eq, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { requestId } from 'hono/request-id'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { assets, generations, idempotencyKeys } from '#server/db/schema/index.ts'
import type { AppEnv } from '#server/http/context.ts'
import { handleError } from '#server/http/errors.ts'
import type { CreateApiKeyResponse } from '#shared/contracts/api-keys.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { makeJpeg } from '#tests/support/fake-providers.ts'
import { signedInClient, userIdOf } from '#tests/support/generation-client.ts'
import { resetDatabase, startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { idempotentPosts } from './idempotency.routes.ts'
import { idempotencyKeyTtlMs, sweepExpiredIdempotencyKeys } from './idempotency.service.ts'

describe('Idempotency-Key on /v1 POSTs', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ GENERATIONS_PER_MINUTE: '1000', API_WRITES_PER_MINUTE: '1000' })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
  })
  afterAll(async () => {
    await server.close()
  })

  /** A Pro user's API key, and its owner's id. */
  async function proKey(): Promise<{ secret: string; userId: string }> {
    const web = await signedInClient(server, 'pro')
    const response = await web.request('/api/api-keys', { json: { name: 'sync' } })
    expect(response.status).toBe(201)
    return { secret: ((await response.json()) as CreateApiKeyResponse).secret, userId: await userIdOf(web) }
  }

  function v1(secret: string, path: string, init: RequestInit & { json?: unknown; key?: string } = {}) {
    const { json, key, ...rest } = init
    return server.api(path, {
      method: 'POST',
      ...rest,
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      headers: {
        authorization: `Bearer ${secret}`,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key === undefined ? {} : { 'idempotency-key': key }),
        ...(rest.headers as Record<string, string> | undefined),
      },
    })
  }

  async function upload(secret: string, photo: Buffer, key?: string) {
    const body = new FormData()
    body.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'cup.jpg')
    return v1(secret, '/v1/assets', { body, ...(key === undefined ? {} : { key }) })
  }

  async function uploadedPhoto(secret: string): Promise<string> {
    const response = await upload(secret, await makeJpeg(200, 150))
    expect(response.status).toBe(201)
    return ((await response.json()) as { asset: { id: string } }).asset.id
  }

  async function rows(table: typeof generations | typeof assets | typeof idempotencyKeys) {
    const [row] = await server.database.db.select({ n: count() }).from(table)
    return row?.n ?? 0
  }

  async function expectError(response: Response, status: number, code: string) {
    const body = (await response.json()) as ErrorBody
    expect({ status: response.status, code: body.error.code }).toEqual({ status, code })
    return body
  }

  it('answers the same request again with the first answer, and creates nothing more', async () => {
    const { secret } = await proKey()
    const imageAssetId = await uploadedPhoto(secret)
    const request = { mode: 'image', imageAssetId, prompt: 'on marble' }

    const first = await v1(secret, '/v1/generations', { json: request, key: 'order-1001' })
    expect(first.status).toBe(202)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const firstBody = await first.json()

    for (let i = 0; i < 2; i++) {
      const again = await v1(secret, '/v1/generations', { json: request, key: 'order-1001' })
      expect(again.status).toBe(202)
      expect(again.headers.get('idempotent-replayed')).toBe('true')
      expect(again.headers.get('content-type')).toContain('application/json')
      expect(await again.json()).toEqual(firstBody)
    }
    expect(await rows(generations)).toBe(1)

    // Without the header every POST runs.
    expect((await v1(secret, '/v1/generations', { json: request })).status).toBe(202)
    expect((await v1(secret, '/v1/generations', { json: request })).status).toBe(202)
    expect(await rows(generations)).toBe(3)
  })

  it('refuses the key with another body or another path (422), and still replays the first', async () => {
    const { secret } = await proKey()
    const imageAssetId = await uploadedPhoto(secret)
    const request = { mode: 'image', imageAssetId, prompt: 'on marble' }
    const first = await v1(secret, '/v1/generations', { json: request, key: 'k-1' })
    expect(first.status).toBe(202)
    const firstBody = await first.json()

    const otherBody = await v1(secret, '/v1/generations', {
      json: { ...request, prompt: 'on wood' },
      key: 'k-1',
    })
    const refused = await expectError(otherBody, 422, 'IDEMPOTENCY_KEY_REUSED')
    expect(refused.error.requestId).toBe(otherBody.headers.get('x-request-id'))
    // The same JSON with other spacing is another body: bytes are compared, not meanings.
    await expectError(
      await v1(secret, '/v1/generations', {
        body: JSON.stringify(request, null, 2),
        headers: { 'content-type': 'application/json' },
        key: 'k-1',
      }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    )
    const { generation } = firstBody as { generation: { id: string } }
    await expectError(
      await v1(secret, `/v1/generations/${generation.id}/cancel`, { key: 'k-1' }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    )
    expect(await rows(generations)).toBe(1)

    const again = await v1(secret, '/v1/generations', { json: request, key: 'k-1' })
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(firstBody)
  })

  it('keeps keys per account: another account may use the same key for its own request', async () => {
    const alice = await proKey()
    const bob = await proKey()
    const aliceAsset = await uploadedPhoto(alice.secret)
    const bobAsset = await uploadedPhoto(bob.secret)
    const a = await v1(alice.secret, '/v1/generations', {
      json: { mode: 'image', imageAssetId: aliceAsset },
      key: 'same',
    })
    const b = await v1(bob.secret, '/v1/generations', {
      json: { mode: 'image', imageAssetId: bobAsset },
      key: 'same',
    })
    expect([a.status, b.status]).toEqual([202, 202])
    expect(b.headers.get('idempotent-replayed')).toBeNull()
    expect(await rows(generations)).toBe(2)
  })

  it('makes one generation of five concurrent requests with one key; all five get its answer', async () => {
    const { secret } = await proKey()
    const imageAssetId = await uploadedPhoto(secret)
    const request = { mode: 'image', imageAssetId, prompt: 'five at once' }
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => v1(secret, '/v1/generations', { json: request, key: 'burst' })),
    )
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202])
    const bodies = await Promise.all(answers.map((answer) => answer.json()))
    for (const body of bodies) expect(body).toEqual(bodies[0])
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(4)
    expect(await rows(generations)).toBe(1)
  })

  it('replays an upload sent again with a new multipart boundary, and refuses another file', async () => {
    const { secret } = await proKey()
    const photo = await makeJpeg(240, 180)
    // fetch picks a new random boundary for every FormData body, as curl does.
    const first = await upload(secret, photo, 'upload-7')
    expect(first.status).toBe(201)
    const firstBody = await first.json()
    const again = await upload(secret, photo, 'upload-7')
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(firstBody)
    expect(await rows(assets)).toBe(1)

    await expectError(
      await upload(secret, await makeJpeg(240, 180, '#1d4ed8'), 'upload-7'),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    )
    // A longer body is refused without reading it past the first one's length.
    await expectError(
      await upload(secret, await makeJpeg(900, 700), 'upload-7'),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    )
    expect(await rows(assets)).toBe(1)
  })

  it('forgets a key 24 hours after its first request; the sweep deletes such keys', async () => {
    const { secret } = await proKey()
    const imageAssetId = await uploadedPhoto(secret)
    const request = { mode: 'image', imageAssetId }
    expect((await v1(secret, '/v1/generations', { json: request, key: 'daily' })).status).toBe(202)
    expect((await v1(secret, '/v1/generations', { json: request, key: 'fresh' })).status).toBe(202)
    const { db } = server.database
    // Just inside the 24 hours: still the same request.
    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - ${idempotencyKeyTtlMs - 60_000} * interval '1 millisecond'` })
      .where(eq(idempotencyKeys.key, 'daily'))
    const inside = await v1(secret, '/v1/generations', { json: request, key: 'daily' })
    expect(inside.headers.get('idempotent-replayed')).toBe('true')
    expect(await rows(generations)).toBe(2)

    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '24 hours 1 second'` })
      .where(eq(idempotencyKeys.key, 'daily'))
    const after = await v1(secret, '/v1/generations', {
      json: { ...request, prompt: 'a new day' },
      key: 'daily',
    })
    expect(after.status).toBe(202)
    expect(after.headers.get('idempotent-replayed')).toBeNull()
    expect(await rows(generations)).toBe(3)

    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(idempotencyKeys.key, 'daily'))
    expect(await sweepExpiredIdempotencyKeys({ db, now: () => new Date() })).toBe(1)
    expect(await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).toEqual([{ key: 'fresh' }])
  })

  it('refuses a malformed key before anything runs', async () => {
    const { secret } = await proKey()
    const imageAssetId = await uploadedPhoto(secret)
    const request = { mode: 'image', imageAssetId }
    const tooLong = await v1(secret, '/v1/generations', { json: request, key: 'k'.repeat(256) })
    const body = await expectError(tooLong, 400, 'VALIDATION_FAILED')
    expect(body.error.details?.fields).toEqual({ 'Idempotency-Key': 'tooLong' })
    const nonAscii = await v1(secret, '/v1/generations', {
      json: request,
      headers: { 'idempotency-key': Buffer.from('sipariş', 'utf8').toString('latin1') },
    })
    expect((await expectError(nonAscii, 400, 'VALIDATION_FAILED')).error.details?.fields).toEqual({
      'Idempotency-Key': 'invalid',
    })
    expect((await v1(secret, '/v1/generations', { json: request, key: 'k'.repeat(255) })).status).toBe(202)
    expect(await rows(generations)).toBe(1)
  })

  describe('which answers are kept, and duplicates while the first runs', () => {
    /**
     * The middleware over a route whose answers the test picks, on the real database and error
     * rendering, with a clock and a pause of the test's own.
     */
    function appWith(
      userId: string,
      answer: () => Promise<Response> | Response,
      options: { now?: () => Date; waitMs?: number; pause?: (ms: number) => Promise<void> } = {},
    ) {
      let runs = 0
      const app = new Hono<AppEnv>()
      app.use(requestId({ headerName: 'X-Request-Id' }))
      app.use(async (c, next) => {
        c.set('log', server.deps.logger)
        c.set('user', { id: userId, email: 'a@example.com', isBeta: false, createdAt: new Date() })
        await next()
      })
      app.onError(handleError)
      app.use(idempotentPosts({ db: server.database.db, now: options.now ?? (() => new Date()), ...options }))
      app.post('/things', async (c) => {
        runs++
        await c.req.text()
        return answer()
      })
      const send = async (key: string, body = '{"n":1}'): Promise<Response> =>
        app.request('/things', {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
        })
      return { send, runs: () => runs }
    }

    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

    it('runs a request again after a 5xx, a 400 or a 429 answer: those are not kept', async () => {
      const { userId } = await proKey()
      const statuses = [500, 503, 400, 429, 201]
      const app = appWith(userId, () => json(statuses.shift() ?? 599, { ok: statuses.length }))
      expect((await app.send('retry-me')).status).toBe(500)
      expect((await app.send('retry-me')).status).toBe(503)
      expect((await app.send('retry-me')).status).toBe(400)
      expect((await app.send('retry-me')).status).toBe(429)
      expect(await rows(idempotencyKeys)).toBe(0)
      const done = await app.send('retry-me')
      expect(done.status).toBe(201)
      const replay = await app.send('retry-me')
      expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
      expect(await replay.json()).toEqual({ ok: 0 })
      expect(app.runs()).toBe(5)
    })

    it('keeps other 4xx answers and replays them, and an empty answer as empty', async () => {
      const { userId } = await proKey()
      const notFound = appWith(userId, () => json(404, { error: { code: 'NOT_FOUND', message: 'gone' } }))
      expect((await notFound.send('lookup')).status).toBe(404)
      const again = await notFound.send('lookup')
      expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([404, 'true'])
      expect(await again.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'gone' } })
      expect(notFound.runs()).toBe(1)

      const empty = appWith(userId, () => new Response(null, { status: 204 }))
      expect((await empty.send('nothing')).status).toBe(204)
      const emptyAgain = await empty.send('nothing')
      expect([
        emptyAgain.status,
        emptyAgain.headers.get('idempotent-replayed'),
        await emptyAgain.text(),
      ]).toEqual([204, 'true', ''])
      expect(empty.runs()).toBe(1)
    })

    it('makes a duplicate wait for the running first request, then replays its answer', async () => {
      const { userId } = await proKey()
      let open = () => {}
      const gate = new Promise<void>((resolve) => {
        open = resolve
      })
      let first: Promise<Response> | null = null
      let pauses = 0
      const app = appWith(
        userId,
        async () => {
          await gate
          return json(201, { made: 1 })
        },
        {
          waitMs: 60_000,
          // The duplicate found the key running: let the first finish, then look again.
          pause: async () => {
            pauses++
            open()
            await first
          },
        },
      )
      first = app.send('slow')
      await expect.poll(() => rows(idempotencyKeys)).toBe(1)
      const duplicate = await app.send('slow')
      expect(pauses).toBe(1)
      expect([duplicate.status, duplicate.headers.get('idempotent-replayed')]).toEqual([201, 'true'])
      expect(await duplicate.json()).toEqual({ made: 1 })
      expect((await first).status).toBe(201)
      expect(app.runs()).toBe(1)
    })

    it('refuses a duplicate with 409 IDEMPOTENCY_KEY_IN_USE while the first runs past the wait', async () => {
      const { userId } = await proKey()
      let open = () => {}
      const gate = new Promise<void>((resolve) => {
        open = resolve
      })
      const app = appWith(
        userId,
        async () => {
          await gate
          return json(201, { made: 1 })
        },
        { waitMs: 0 },
      )
      const first = app.send('busy')
      await expect.poll(() => rows(idempotencyKeys)).toBe(1)
      await expectError(await app.send('busy'), 409, 'IDEMPOTENCY_KEY_IN_USE')
      // Another body is known to differ only once the first has its whole fingerprint.
      await expectError(await app.send('busy', '{"n":2}'), 409, 'IDEMPOTENCY_KEY_IN_USE')
      open()
      expect((await first).status).toBe(201)
      expect((await app.send('busy')).headers.get('idempotent-replayed')).toBe('true')
      await expectError(await app.send('busy', '{"n":2}'), 422, 'IDEMPOTENCY_KEY_REUSED')
      expect(app.runs()).toBe(1)
    })

    it("takes over a key left running by a stopped process, and counts 24 hours on the app's clock", async () => {
      const { userId } = await proKey()
      let now = new Date('2026-03-01T10:00:00Z')
      const app = appWith(userId, () => json(201, { at: now.toISOString() }), { now: () => now, waitMs: 0 })
      await server.database.db.insert(idempotencyKeys).values({
        userId,
        key: 'orphan',
        requestHash: 'POST /things pending',
        createdAt: new Date(now.getTime() - 9 * 60_000),
      })
      await expectError(await app.send('orphan'), 409, 'IDEMPOTENCY_KEY_IN_USE')
      now = new Date(now.getTime() + 60_000)
      const taken = await app.send('orphan')
      expect(taken.status).toBe(201)
      expect(await taken.json()).toEqual({ at: '2026-03-01T10:01:00.000Z' })

      now = new Date(now.getTime() + idempotencyKeyTtlMs - 1)
      expect(await (await app.send('orphan')).json()).toEqual({ at: '2026-03-01T10:01:00.000Z' })
      now = new Date(now.getTime() + 1)
      expect(await (await app.send('orphan')).json()).toEqual({ at: '2026-03-02T10:01:00.000Z' })
      expect(app.runs()).toBe(2)
    })
  })
})
