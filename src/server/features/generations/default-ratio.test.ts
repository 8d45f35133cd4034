import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GenerationView } from '#shared/contracts/generations.ts'
import { createGeneration, signedInClient, uploadPhoto } from '#tests/support/generation-client.ts'
import { startTestServer, type TestClient, type TestServer } from '#tests/support/test-server.ts'

// The seller's marketplace drives the default ratio of a generation asked without one (the web
// app's forms and the public API share this path): Trendyol's main image is 2:3 (1200×1800),
// Amazon's and Hepsiburada's square; with no marketplace, 1:1 for products and 9:16 for fashion.
// No worker runs: the accepted generation says the ratio it will be made at.

describe('default ratio from the seller’s marketplace', () => {
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer({ GENERATIONS_PER_MINUTE: '1000' })
  })
  afterAll(async () => {
    await server?.close()
  })

  async function seller(marketplaceProfile: string | null) {
    const client = await signedInClient(server)
    if (marketplaceProfile) {
      const saved = await client.request('/api/preferences', {
        method: 'PATCH',
        json: { marketplaceProfile },
      })
      expect(saved.status).toBe(200)
    }
    return { client, photoId: await uploadPhoto(client) }
  }

  async function ratioOf(client: TestClient, body: Record<string, unknown>) {
    const response = await createGeneration(client, body)
    expect(response.status).toBe(202)
    return ((await response.json()) as { generation: GenerationView }).generation.aspectRatio
  }

  it('makes a Trendyol seller’s product and fashion images 2:3 and their videos 9:16', async () => {
    const { client, photoId } = await seller('trendyol')
    expect(await ratioOf(client, { mode: 'image', imageAssetId: photoId })).toBe('2:3')
    expect(await ratioOf(client, { tool: 'fashion', mode: 'image', imageAssetId: photoId })).toBe('2:3')
    // No marketplace publishes a 2:3 video, and Veo makes none: portrait stays portrait.
    expect(await ratioOf(client, { mode: 'video', imageAssetId: photoId })).toBe('9:16')
    // An asked ratio wins over the marketplace's.
    expect(await ratioOf(client, { mode: 'image', imageAssetId: photoId, aspectRatio: '9:16' })).toBe('9:16')
  })

  it('makes Amazon and Hepsiburada sellers’ images square, fashion included', async () => {
    for (const profile of ['amazon-tr', 'hepsiburada']) {
      const { client, photoId } = await seller(profile)
      expect(await ratioOf(client, { mode: 'image', imageAssetId: photoId })).toBe('1:1')
      expect(await ratioOf(client, { tool: 'fashion', mode: 'image', imageAssetId: photoId })).toBe('1:1')
    }
  })

  it('keeps 1:1 for products and 9:16 for fashion without a marketplace, and accepts 2:3 when asked', async () => {
    const { client, photoId } = await seller(null)
    expect(await ratioOf(client, { mode: 'image', imageAssetId: photoId })).toBe('1:1')
    expect(await ratioOf(client, { tool: 'fashion', mode: 'image', imageAssetId: photoId })).toBe('9:16')
    expect(await ratioOf(client, { mode: 'image', imageAssetId: photoId, aspectRatio: '2:3' })).toBe('2:3')
    expect(await ratioOf(client, { mode: 'video', imageAssetId: photoId, aspectRatio: '2:3' })).toBe('9:16')
  })
})
