import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSecretBox } from '#server/crypto/secret-box.ts'
import { providerKeys } from '#server/db/schema/index.ts'
import { nextClientIp } from '#tests/support/factories.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestServer,
} from '#tests/support/test-server.ts'
import { readFalKey } from './settings.service.ts'

const falKey = '5b1e7f0a-1111-2222-3333-444455556666:0123456789abcdef0123456789abcdef'

describe('settings and billing over HTTP', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ TRUST_PROXY: 'true' })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
  })
  afterAll(async () => {
    await server.close()
  })

  async function signedIn() {
    const browser = createTestClient(server, { clientIp: nextClientIp() })
    await browser.request('/api/auth/sign-up', {
      json: { email: `u${Math.random()}@example.com`, password: 'secret1' },
    })
    return browser
  }

  it('activates a plan at once with test billing, changes it, and cancels it', async () => {
    const browser = await signedIn()
    const none = await (await browser.request('/api/billing')).json()
    expect(none).toEqual({
      provider: 'manual',
      hasCustomerPortal: false,
      hasCheckout: false,
      canChangePlan: true,
      subscription: null,
    })

    const chosen = await (
      await browser.request('/api/billing/subscription', { json: { planId: 'starter' } })
    ).json()
    expect(chosen.subscription).toMatchObject({ planId: 'starter', status: 'active', isTrial: false })
    expect((await (await browser.request('/api/usage')).json()).images.quota).toBe(250)

    await browser.request('/api/billing/subscription', { json: { planId: 'pro' } })
    expect((await (await browser.request('/api/usage')).json()).videos.quota).toBe(60)

    const canceled = await (await browser.request('/api/billing/subscription', { method: 'DELETE' })).json()
    expect(canceled.subscription.status).toBe('canceled')
    expect((await (await browser.request('/api/usage')).json()).images.quota).toBe(0)

    const bad = await browser.request('/api/billing/subscription', { json: { planId: 'platinum' } })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.details.fields).toEqual({ planId: 'invalid' })
  })

  it('stores the toggles on the subscription, and needs a plan for them', async () => {
    const browser = await signedIn()
    const refused = await browser.request('/api/settings', {
      method: 'PATCH',
      json: { autoTopupEnabled: true },
    })
    expect(refused.status).toBe(403)
    expect((await refused.json()).error.code).toBe('NO_SUBSCRIPTION')

    await browser.request('/api/billing/subscription', { json: { planId: 'growth' } })
    const updated = await (
      await browser.request('/api/settings', { method: 'PATCH', json: { autoTopupEnabled: true } })
    ).json()
    expect(updated).toMatchObject({ autoTopupEnabled: true, byoApiEnabled: false, isBillingLive: false })
    // The settings carry over to a new plan.
    await browser.request('/api/billing/subscription', { json: { planId: 'pro' } })
    expect((await (await browser.request('/api/settings')).json()).autoTopupEnabled).toBe(true)
  })

  it('keeps the fal key encrypted at rest and never sends it back, only a mask', async () => {
    const browser = await signedIn()
    await browser.request('/api/billing/subscription', { json: { planId: 'growth' } })
    const bodies: string[] = []
    const record = async (response: Response) => {
      bodies.push(await response.clone().text())
      return response
    }
    const saved = await (
      await record(await browser.request('/api/settings/fal-key', { method: 'PUT', json: { key: falKey } }))
    ).json()
    expect(saved.falKey).toEqual({ isSet: true, mask: '••••cdef' })
    // The test server's studio is the offline one; the seller's own key, switched on, is AI.
    expect(saved.studio).toEqual({ image: 'offline', video: 'offline' })
    await record(await browser.request('/api/settings'))
    const switched = await (
      await record(await browser.request('/api/settings', { method: 'PATCH', json: { byoApiEnabled: true } }))
    ).json()
    expect(switched.studio).toEqual({ image: 'ai', video: 'ai' })
    for (const body of bodies) {
      expect(body).not.toContain(falKey)
      expect(body).not.toContain(falKey.slice(0, 20))
    }

    const [row] = await server.database.db.select().from(providerKeys)
    expect(row?.encryptedKey).not.toContain(falKey.slice(0, 8))
    expect(Buffer.from(row?.encryptedKey ?? '', 'base64url').toString('utf8')).not.toContain(
      falKey.slice(0, 8),
    )
    // Only the server can read it back, with the app secret.
    const deps = {
      db: server.database.db,
      keyBox: createSecretBox(server.config.appSecret ?? '', 'provider-keys v1'),
    }
    expect(await readFalKey(deps, row?.userId ?? '')).toBe(falKey)
    const wrongSecret = {
      ...deps,
      keyBox: createSecretBox('another-secret-another-secret-another', 'provider-keys v1'),
    }
    await expect(readFalKey(wrongSecret, row?.userId ?? '')).rejects.toThrow()

    const removed = await (await browser.request('/api/settings/fal-key', { method: 'DELETE' })).json()
    expect(removed.falKey).toEqual({ isSet: false, mask: null })
    expect(await server.database.db.select().from(providerKeys)).toHaveLength(0)
  })

  it('refuses a key that is not a key', async () => {
    const browser = await signedIn()
    const response = await browser.request('/api/settings/fal-key', { method: 'PUT', json: { key: 'short' } })
    expect(response.status).toBe(400)
    expect((await response.json()).error.details.fields).toEqual({ key: 'tooShort' })
  })
})
