import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { maxEventStreamsPerUser } from '#server/http/event-streams.ts'
import type { ErrorBody } from '#shared/errors.ts'
import { createGeneration, signedInClient, uploadPhoto } from '#tests/support/generation-client.ts'
import { startTestServer, type TestClient, type TestServer } from '#tests/support/test-server.ts'

/** A queued generation: no worker runs in these tests, so it stays queued and its stream open. */
async function queuedGeneration(client: TestClient): Promise<string> {
  const imageAssetId = await uploadPhoto(client)
  const response = await createGeneration(client, { mode: 'image', imageAssetId })
  expect(response.status).toBe(202)
  return ((await response.json()) as { generation: { id: string } }).generation.id
}

type OpenStream = { response: Response; reader: ReadableStreamDefaultReader<Uint8Array>; abort: () => void }

async function openStream(client: TestClient, id: string): Promise<OpenStream> {
  const controller = new AbortController()
  const response = await client.request(`/api/generations/${id}/events`, { signal: controller.signal })
  expect(response.status).toBe(200)
  const reader = response.body?.getReader()
  if (!reader) throw new Error('no body')
  return { response, reader, abort: () => controller.abort() }
}

/** Reads until the first event has arrived. */
async function firstEvent(stream: OpenStream): Promise<string> {
  const decoder = new TextDecoder()
  let text = ''
  while (!text.includes('\n\n')) {
    const { value, done } = await stream.reader.read()
    if (done) throw new Error('the stream ended before its first event')
    text += decoder.decode(value, { stream: true })
  }
  return text
}

/** Reads to the end of the stream; the test times out if it never ends. */
async function readToEnd(stream: OpenStream): Promise<void> {
  for (;;) {
    const { done } = await stream.reader.read()
    if (done) return
  }
}

describe('generation event streams', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(async () => {
    await server.close()
  })

  it(`lets one user hold at most ${maxEventStreamsPerUser} open streams`, async () => {
    const client = await signedInClient(server)
    const id = await queuedGeneration(client)
    const streams: OpenStream[] = []
    try {
      for (let i = 0; i < maxEventStreamsPerUser; i++) {
        const stream = await openStream(client, id)
        expect(await firstEvent(stream)).toContain('"status":"queued"')
        streams.push(stream)
      }
      const refused = await client.request(`/api/generations/${id}/events`)
      expect(refused.status).toBe(429)
      expect(((await refused.json()) as ErrorBody).error.code).toBe('RATE_LIMITED')
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)

      // Another user is not held back by the first one's streams.
      const other = await signedInClient(server)
      const theirs = await openStream(other, await queuedGeneration(other))
      await firstEvent(theirs)
      theirs.abort()
    } finally {
      for (const stream of streams) stream.abort()
    }
  })

  it('ends an open stream when its session is signed out', async () => {
    const client = await signedInClient(server)
    const id = await queuedGeneration(client)
    const stream = await openStream(client, id)
    await firstEvent(stream)
    const signOut = await client.request('/api/auth/sign-out', { method: 'POST' })
    expect(signOut.status).toBeLessThan(300)
    await readToEnd(stream)
    expect((await client.request(`/api/generations/${id}/events`)).status).toBe(401)
  }, 10_000)

  it('ends an open stream when its session is gone from the database', async () => {
    const client = await signedInClient(server)
    const id = await queuedGeneration(client)
    const stream = await openStream(client, id)
    await firstEvent(stream)
    // Another process signed it out, or it expired: this one finds out at its next check.
    const { sessions } = await import('#server/db/schema/index.ts')
    await server.database.db.delete(sessions)
    await readToEnd(stream)
  }, 15_000)
})

describe('generation event streams with EVENT_STREAMS_PER_USER set', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ EVENT_STREAMS_PER_USER: '2' })
  })
  afterAll(async () => {
    await server.close()
  })

  it('refuses the stream past the configured cap', async () => {
    const client = await signedInClient(server)
    const id = await queuedGeneration(client)
    const streams = [await openStream(client, id), await openStream(client, id)]
    try {
      await Promise.all(streams.map(firstEvent))
      expect((await client.request(`/api/generations/${id}/events`)).status).toBe(429)
    } finally {
      for (const stream of streams) stream.abort()
    }
  })
})
