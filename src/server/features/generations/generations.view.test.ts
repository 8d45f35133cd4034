import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createOfflineStudio } from '#server/providers/offline-studio/index.ts'
import { sharedSegmenter } from '#server/segmentation/segmenter.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { parseOfflineNote } from '#shared/offline-note.ts'
import { createGeneration, signedInClient, upload, waitForStatus } from '#tests/support/generation-client.ts'
import {
  resetDatabase,
  startTestServer,
  type TestClient,
  type TestServer,
} from '#tests/support/test-server.ts'

// The camera angle of a product scene through the whole job (decision 42): the request's `view`,
// the row, the worker's call to the offline studio, and the note on the result that says which
// view was drawn. The two real photos: the coffee cup is shot from above, the rocket from the front.

const photo = (name: string) =>
  readFile(new URL(`../../../../tests/fixtures/photos/${name}`, import.meta.url))

async function uploadBytes(client: TestClient, bytes: Buffer): Promise<string> {
  const response = await upload(client, bytes)
  expect(response.status).toBe(201)
  return ((await response.json()) as { asset: { id: string } }).asset.id
}

async function generate(client: TestClient, body: Record<string, unknown>): Promise<GenerationView> {
  const response = await createGeneration(client, body)
  expect(response.status).toBe(202)
  const { generation } = (await response.json()) as { generation: GenerationView }
  const done = await waitForStatus(client, generation.id, ['succeeded', 'failed'], 60_000)
  expect([done.status, done.errorCode]).toEqual(['succeeded', null])
  return done
}

function viewDrawn(generation: GenerationView) {
  if (generation.result?.type !== 'image') throw new Error('expected an image')
  const note = parseOfflineNote(generation.result.description)
  return note?.subject === 'product' ? (note.view ?? null) : 'not a product note'
}

describe('the scene’s camera angle, on the offline studio', () => {
  let server: TestServer
  const studio = createOfflineStudio({ ffmpegPath: 'ffmpeg', segmenter: sharedSegmenter() })

  beforeAll(async () => {
    server = await startTestServer(
      { TRUST_PROXY: 'true', GENERATIONS_PER_MINUTE: '1000' },
      { providers: { image: studio, video: studio, seo: studio } },
    )
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
  })
  afterAll(async () => {
    await server.close()
  })

  it('matches the photo when left to the studio, and keeps the angle the seller chose', async () => {
    const client = await signedInClient(server, 'pro')
    const [coffee, rocket] = await Promise.all([
      photo('coffee.png').then((bytes) => uploadBytes(client, bytes)),
      photo('rocket.jpg').then((bytes) => uploadBytes(client, bytes)),
    ])
    const marble = { mode: 'image', prompt: 'marble countertop', aspectRatio: '1:1' }
    const fromAbove = await generate(client, { ...marble, imageAssetId: coffee })
    expect(fromAbove.view).toBe('auto')
    expect(viewDrawn(fromAbove)).toBe('top')
    const standing = await generate(client, { ...marble, imageAssetId: rocket })
    expect(viewDrawn(standing)).toBe('front')
    // The seller's choice wins over the photo's own angle, and is kept on the generation.
    const chosen = await generate(client, { ...marble, imageAssetId: coffee, view: 'front' })
    expect(chosen.view).toBe('front')
    expect(viewDrawn(chosen)).toBe('front')
    const read = (await (await client.request(`/api/generations/${chosen.id}`)).json()) as {
      generation: GenerationView
    }
    expect(read.generation.view).toBe('front')
    // The white studio has one view, and says none.
    const white = await generate(client, {
      ...marble,
      prompt: 'white studio background',
      imageAssetId: coffee,
      view: 'top',
    })
    expect(viewDrawn(white)).toBeNull()
  }, 180_000)

  it('refuses a view it does not know, naming the field', async () => {
    const client = await signedInClient(server, 'pro')
    const imageAssetId = await uploadBytes(client, await photo('rocket.jpg'))
    const response = await createGeneration(client, { mode: 'image', imageAssetId, view: 'side' })
    expect(response.status).toBe(400)
    const body = (await response.json()) as { error: { code: string; details?: unknown } }
    expect(body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: { view: 'invalid' } } })
  })
})
