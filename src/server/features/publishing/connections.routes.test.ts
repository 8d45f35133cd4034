import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSecretBox } from '#server/crypto/secret-box.ts'
import { marketplaceConnections } from '#server/db/schema/index.ts'
import { createLogger } from '#server/logger.ts'
import {
  defaultHepsiburadaMerchant,
  type HepsiburadaFake,
  startHepsiburadaFake,
} from '#tests/fakes/hepsiburada-server.ts'
import { defaultTrendyolSeller, startTrendyolFake, type TrendyolFake } from '#tests/fakes/trendyol-server.ts'
import { nextClientIp } from '#tests/support/factories.ts'
import {
  createTestClient,
  resetDatabase,
  startTestServer,
  type TestServer,
} from '#tests/support/test-server.ts'
import { type ConnectionsDeps, openHepsiburada, openTrendyol } from './connections.service.ts'

// Settings → Integrations over HTTP, against the fake Trendyol and Hepsiburada seller APIs: the
// credentials are tried at the marketplace first, saved sealed only once it accepts them, shown
// back as an account and a mask, and opened by the server alone.

describe('marketplace connections over HTTP', () => {
  let trendyol: TrendyolFake
  let hepsiburada: HepsiburadaFake
  let server: TestServer
  beforeAll(async () => {
    trendyol = await startTrendyolFake()
    hepsiburada = await startHepsiburadaFake()
    server = await startTestServer({
      TRUST_PROXY: 'true',
      TRENDYOL_API_BASE: trendyol.apiBase,
      HEPSIBURADA_API_BASE: hepsiburada.url,
    })
  })
  beforeEach(async () => {
    await resetDatabase(server.database)
    trendyol.reset()
    hepsiburada.reset()
  })
  afterAll(async () => {
    await server.close()
    await trendyol.close()
    await hepsiburada.close()
  })

  async function signedIn() {
    const browser = createTestClient(server, { clientIp: nextClientIp() })
    const response = await browser.request('/api/auth/sign-up', {
      json: { email: `u${Math.random()}@example.com`, password: 'secret1' },
    })
    const { user } = (await response.json()) as { user: { id: string } }
    return { browser, userId: user.id }
  }

  const trendyolBody = {
    sellerId: defaultTrendyolSeller.sellerId,
    apiKey: defaultTrendyolSeller.apiKey,
    apiSecret: defaultTrendyolSeller.apiSecret,
  }

  const serviceDeps = (): ConnectionsDeps => ({
    db: server.database.db,
    box: createSecretBox(server.config.appSecret ?? '', 'marketplace-connections v1'),
    apis: { trendyol: trendyol.apiBase, hepsiburada: hepsiburada.url },
    log: createLogger({ level: 'silent' }),
  })

  it('connects Trendyol once it accepts the keys, shows only the account and a mask, and disconnects', async () => {
    const { browser, userId } = await signedIn()
    const none = await (await browser.request('/api/integrations')).json()
    expect(none.integrations).toEqual([
      { marketplace: 'trendyol', isConnected: false, accountId: null, secretMask: null, verifiedAt: null },
      { marketplace: 'hepsiburada', isConnected: false, accountId: null, secretMask: null, verifiedAt: null },
    ])

    const connected = await browser.request('/api/integrations/trendyol', {
      method: 'PUT',
      json: trendyolBody,
    })
    expect(connected.status).toBe(200)
    const text = await connected.text()
    // Neither the key nor the secret ever comes back.
    expect(text).not.toContain(defaultTrendyolSeller.apiKey)
    expect(text).not.toContain(defaultTrendyolSeller.apiSecret)
    expect(JSON.parse(text).integrations[0]).toMatchObject({
      marketplace: 'trendyol',
      isConnected: true,
      accountId: '123456',
      secretMask: '••••cret',
      verifiedAt: expect.any(String),
    })
    // The marketplace was asked, with the seller's own credentials and User-Agent.
    const asked = trendyol.requests.at(-1)
    expect(asked?.path).toMatch(/^\/integration\/product\/sellers\/123456\//)
    expect(asked?.status).toBe(200)

    // Stored sealed: the database holds neither, and only the server's key opens it.
    const [row] = await server.database.db.select().from(marketplaceConnections)
    expect(row?.encryptedSecret).not.toContain(defaultTrendyolSeller.apiSecret)
    const client = await openTrendyol(serviceDeps(), userId)
    await expect(client?.verify()).resolves.toBeUndefined()

    const gone = await (await browser.request('/api/integrations/trendyol', { method: 'DELETE' })).json()
    expect(gone.integrations[0]).toMatchObject({ marketplace: 'trendyol', isConnected: false })
    expect(await server.database.db.select().from(marketplaceConnections)).toHaveLength(0)
    expect(await openTrendyol(serviceDeps(), userId)).toBeNull()
  })

  it('saves nothing when the marketplace refuses the keys, or the keys are another seller’s', async () => {
    const { browser } = await signedIn()
    const wrong = await browser.request('/api/integrations/trendyol', {
      method: 'PUT',
      json: { ...trendyolBody, apiSecret: 'not-the-secret' },
    })
    expect(wrong.status).toBe(400)
    expect((await wrong.json()).error.code).toBe('MARKETPLACE_KEYS_REFUSED')
    const otherSeller = await browser.request('/api/integrations/trendyol', {
      method: 'PUT',
      json: { ...trendyolBody, sellerId: '999999' },
    })
    expect((await otherSeller.json()).error.code).toBe('MARKETPLACE_ACCOUNT_MISMATCH')
    expect(await server.database.db.select().from(marketplaceConnections)).toHaveLength(0)
  })

  it('tests a saved connection again: a new check time when it holds, and what is wrong when not', async () => {
    const { browser } = await signedIn()
    await browser.request('/api/integrations/trendyol', { method: 'PUT', json: trendyolBody })
    // Checked a day ago, as far as the database knows.
    const dayAgo = new Date(Date.now() - 86_400_000)
    await server.database.db.update(marketplaceConnections).set({ verifiedAt: dayAgo })
    const again = await browser.request('/api/integrations/trendyol/test', { method: 'POST' })
    expect(again.status).toBe(200)
    const later = (await again.json()).integrations[0].verifiedAt as string
    expect(Date.parse(later)).toBeGreaterThan(dayAgo.getTime() + 60_000)

    trendyol.script({ requests: [429] })
    const busy = await browser.request('/api/integrations/trendyol/test', { method: 'POST' })
    expect(busy.status).toBe(503)
    expect((await busy.json()).error.code).toBe('MARKETPLACE_BUSY')
    trendyol.script({ requests: [502] })
    const down = await browser.request('/api/integrations/trendyol/test', { method: 'POST' })
    expect((await down.json()).error.code).toBe('MARKETPLACE_UNAVAILABLE')
    // A failed test forgets nothing: the connection and its last good check stay.
    const listed = await (await browser.request('/api/integrations')).json()
    expect(listed.integrations[0]).toMatchObject({ isConnected: true, verifiedAt: later })

    const nothing = await browser.request('/api/integrations/hepsiburada/test', { method: 'POST' })
    expect(nothing.status).toBe(404)
  })

  it('says the marketplace did not answer, and saves nothing', async () => {
    const { browser } = await signedIn()
    hepsiburada.script({ requests: 503 })
    const down = await browser.request('/api/integrations/hepsiburada', {
      method: 'PUT',
      json: defaultHepsiburadaMerchant,
    })
    expect(down.status).toBe(502)
    expect((await down.json()).error.code).toBe('MARKETPLACE_UNAVAILABLE')
    expect(await server.database.db.select().from(marketplaceConnections)).toHaveLength(0)
  })

  it('connects Hepsiburada with the merchant ID and service key, for its owner only', async () => {
    const { browser, userId } = await signedIn()
    const connected = await (
      await browser.request('/api/integrations/hepsiburada', {
        method: 'PUT',
        json: defaultHepsiburadaMerchant,
      })
    ).json()
    expect(connected.integrations[1]).toMatchObject({
      marketplace: 'hepsiburada',
      isConnected: true,
      accountId: defaultHepsiburadaMerchant.merchantId,
      secretMask: `••••${defaultHepsiburadaMerchant.serviceKey.slice(-4)}`,
    })
    const client = await openHepsiburada(serviceDeps(), userId)
    expect(client?.merchantId).toBe(defaultHepsiburadaMerchant.merchantId)

    // Another seller sees none of it.
    const stranger = await signedIn()
    const theirs = await (await stranger.browser.request('/api/integrations')).json()
    expect(theirs.integrations.every((i: { isConnected: boolean }) => !i.isConnected)).toBe(true)
  })

  it('refuses a malformed service key and an unknown marketplace, and asks for a session', async () => {
    const { browser } = await signedIn()
    const askedBefore = hepsiburada.requests.length
    const short = await browser.request('/api/integrations/hepsiburada', {
      method: 'PUT',
      json: { merchantId: defaultHepsiburadaMerchant.merchantId, serviceKey: 'short' },
    })
    expect(short.status).toBe(400)
    expect((await short.json()).error.code).toBe('VALIDATION_FAILED')
    // Refused before the marketplace is asked anything.
    expect(hepsiburada.requests).toHaveLength(askedBefore)
    expect((await browser.request('/api/integrations/n11', { method: 'DELETE' })).status).toBe(404)
    const anonymous = createTestClient(server, { clientIp: nextClientIp() })
    expect((await anonymous.request('/api/integrations')).status).toBe(401)
  })
})
