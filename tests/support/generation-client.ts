import { expect } from 'vitest'
import type { UsageResponse } from '#shared/contracts/billing.ts'
import type { GenerationView } from '#shared/contracts/generations.ts'
import type { PlanId } from '#shared/plans.ts'
import { nextClientIp } from './factories.ts'
import { makeJpeg } from './fake-providers.ts'
import { createTestClient, type TestClient, type TestServer } from './test-server.ts'

/** The id of the user signed in on this client. */
export async function userIdOf(client: TestClient): Promise<string> {
  return ((await (await client.request('/api/session')).json()) as { user: { id: string } }).user.id
}

/** A signed-up user with a plan, in its own cookie jar. */
export async function signedInClient(
  server: Pick<TestServer, 'api'>,
  planId: PlanId | null = 'growth',
): Promise<TestClient> {
  const client = createTestClient(server, { clientIp: nextClientIp() })
  const email = `seller-${Math.random().toString(36).slice(2)}@example.com`
  const signUp = await client.request('/api/auth/sign-up', { json: { email, password: 'secret1' } })
  expect(signUp.status).toBe(201)
  if (planId) await client.request('/api/billing/subscription', { json: { planId } })
  return client
}

export async function upload(
  client: TestClient,
  bytes: Buffer,
  name = 'product.jpg',
  type = 'image/jpeg',
): Promise<Response> {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name)
  return client.request('/api/assets', { method: 'POST', body: form })
}

export async function uploadPhoto(client: TestClient): Promise<string> {
  const response = await upload(client, await makeJpeg(400, 300))
  expect(response.status).toBe(201)
  return ((await response.json()) as { asset: { id: string } }).asset.id
}

export async function createGeneration(client: TestClient, body: Record<string, unknown>): Promise<Response> {
  return client.request('/api/generations', { json: body })
}

export async function getGeneration(client: TestClient, id: string): Promise<GenerationView> {
  const response = await client.request(`/api/generations/${id}`)
  return ((await response.json()) as { generation: GenerationView }).generation
}

/** Waits (by asking, not sleeping) until the generation reaches one of the states. */
export async function waitForStatus(
  client: TestClient,
  id: string,
  statuses: GenerationView['status'][],
  timeout = 15_000,
) {
  let latest: GenerationView | null = null
  // The status itself is what is compared, so a wait that runs out names where the job stood.
  await expect
    .poll(
      async () => {
        latest = await getGeneration(client, id)
        return latest.status
      },
      { timeout, interval: 50 },
    )
    .toBeOneOf(statuses)
  return latest as unknown as GenerationView
}

export async function usage(client: TestClient) {
  return (await (await client.request('/api/usage')).json()) as UsageResponse
}
