import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSecretBox } from '#server/crypto/secret-box.ts'
import {
  marketplaceCategoryAttributes,
  marketplaceCategoryLists,
  marketplaceConnections,
} from '#server/db/schema/index.ts'
import type { MarketplaceAttribute } from '#shared/contracts/publishing.ts'
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

// The marketplaces' categories, attributes and brands over HTTP, read from the fake Trendyol and
// Hepsiburada with the seller's own connection, cached in the database for a day.

describe('marketplace taxonomy over HTTP', () => {
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
    // The fakes keep their request logs across resets: each test counts its own.
    trendyol.requests.length = 0
    hepsiburada.requests.length = 0
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

  async function connected(marketplace: 'trendyol' | 'hepsiburada') {
    const seller = await signedIn()
    const json =
      marketplace === 'trendyol'
        ? {
            sellerId: defaultTrendyolSeller.sellerId,
            apiKey: defaultTrendyolSeller.apiKey,
            apiSecret: defaultTrendyolSeller.apiSecret,
          }
        : defaultHepsiburadaMerchant
    const response = await seller.browser.request(`/api/integrations/${marketplace}`, { method: 'PUT', json })
    expect(response.status).toBe(200)
    return seller
  }

  const asked = (fake: { requests: { path: string }[] }, pattern: RegExp) =>
    fake.requests.filter((r) => pattern.test(r.path)).length
  const trendyolTree = /\/product\/product-categories$/
  const hepsiburadaList = /\/categories\/get-all-categories/

  it('finds Trendyol’s cup set under its full path, however the seller spells it, reading the tree once', async () => {
    const { browser } = await connected('trendyol')
    for (const q of ['fincan takımı', 'fincan takimi', 'FİNCAN TAKIMI', 'takımı fincan']) {
      const response = await browser.request(
        `/api/integrations/trendyol/categories?q=${encodeURIComponent(q)}`,
      )
      expect(response.status).toBe(200)
      const { categories, fetchedAt } = await response.json()
      expect(categories[0]).toEqual({
        marketplace: 'trendyol',
        id: '1111',
        name: 'Fincan Takımı',
        path: ['Ev & Mobilya', 'Mutfak', 'Sofra & Servis', 'Fincan Takımı'],
        isLeaf: true,
      })
      expect(Date.parse(fetchedAt)).toBeGreaterThan(Date.now() - 60_000)
    }
    // Four searches within the day: one read of the tree, kept in the database.
    expect(asked(trendyol, trendyolTree)).toBe(1)
    // Searching reads no category's attributes: those are read one category at a time, when asked for.
    expect(asked(trendyol, /\/product\/categories\//)).toBe(0)
    const [row] = await server.database.db.select().from(marketplaceCategoryLists)
    expect(row?.marketplace).toBe('trendyol')
    expect(row?.categories.length).toBe(20)

    // A day later the list is read again on the next search.
    await server.database.db
      .update(marketplaceCategoryLists)
      .set({ fetchedAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
    await browser.request('/api/integrations/trendyol/categories?q=kupa')
    expect(asked(trendyol, trendyolTree)).toBe(2)
  })

  it('shares the cached list between sellers: another seller’s search asks the marketplace nothing', async () => {
    const first = await connected('hepsiburada')
    const found = await (
      await first.browser.request('/api/integrations/hepsiburada/categories?q=fincan%20tak%C4%B1m%C4%B1')
    ).json()
    expect(found.categories[0]).toEqual({
      marketplace: 'hepsiburada',
      id: '60001001',
      name: 'Fincan Takımları',
      path: ['Ev, Yaşam, Kırtasiye, Ofis', 'Mutfak Gereçleri', 'Çay ve Kahve Fincanları', 'Fincan Takımları'],
      isLeaf: true,
    })
    const second = await connected('hepsiburada')
    const before = hepsiburada.requests.length
    const again = await (
      await second.browser.request('/api/integrations/hepsiburada/categories?q=kupa')
    ).json()
    expect(again.categories.map((c: { name: string }) => c.name)).toEqual(['Kupalar'])
    expect(hepsiburada.requests.length).toBe(before)
    expect(asked(hepsiburada, hepsiburadaList)).toBe(1)
  })

  it('reads a Trendyol leaf’s attributes with required flags and values once, and again after a refresh', async () => {
    const { browser } = await connected('trendyol')
    const response = await browser.request('/api/integrations/trendyol/categories/1111/attributes')
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.category).toMatchObject({ id: '1111', path: expect.arrayContaining(['Fincan Takımı']) })
    const byName = new Map((body.attributes as MarketplaceAttribute[]).map((a) => [a.name, a]))
    expect([...byName.keys()]).toEqual([
      'Renk',
      'Materyal',
      'Boyut/Ebat',
      'Parça Sayısı',
      'Kişi Sayısı',
      'Bulaşık Makinesinde Yıkanabilir',
    ])
    const colour = byName.get('Renk')
    expect(colour).toMatchObject({ id: '47', isRequired: true, isMultiple: false, allowsCustom: false })
    expect(colour?.values).toHaveLength(17)
    expect(colour?.values).toContainEqual({ id: expect.stringMatching(/^\d+$/), name: 'Beyaz' })
    expect(byName.get('Materyal')?.values.map((v) => v.name)).toContain('Porselen')
    expect(byName.get('Kişi Sayısı')).toMatchObject({ isRequired: false, allowsCustom: true, values: [] })
    expect(byName.get('Bulaşık Makinesinde Yıkanabilir')?.isRequired).toBe(false)

    // One request for the attributes and one per attribute for its values.
    const attributeReads = /\/product\/categories\/1111\/attributes/
    expect(asked(trendyol, attributeReads)).toBe(7)
    const again = await (
      await browser.request('/api/integrations/trendyol/categories/1111/attributes')
    ).json()
    expect(again).toEqual(body)
    expect(asked(trendyol, attributeReads)).toBe(7)
    expect(asked(trendyol, trendyolTree)).toBe(1)

    const refreshed = await browser.request('/api/integrations/trendyol/taxonomy/refresh', { method: 'POST' })
    expect(refreshed.status).toBe(200)
    expect(await refreshed.json()).toMatchObject({ marketplace: 'trendyol', categoryCount: 20 })
    expect(asked(trendyol, trendyolTree)).toBe(2)
    // The attributes were forgotten, and are read again when next asked for.
    expect(await server.database.db.select().from(marketplaceCategoryAttributes)).toHaveLength(0)
    await browser.request('/api/integrations/trendyol/categories/1111/attributes')
    expect(asked(trendyol, attributeReads)).toBe(14)
    expect(asked(trendyol, trendyolTree)).toBe(2)
  })

  it('reads a Hepsiburada leaf’s attributes: enum values listed, other types typed by the seller', async () => {
    const { browser } = await connected('hepsiburada')
    const body = await (
      await browser.request('/api/integrations/hepsiburada/categories/60001001/attributes')
    ).json()
    const byId = new Map((body.attributes as MarketplaceAttribute[]).map((a) => [a.id, a]))
    expect(byId.get('renk_variant_property')).toMatchObject({
      name: 'Renk',
      isRequired: true,
      isMultiple: false,
      allowsCustom: false,
    })
    expect(byId.get('renk_variant_property')?.values).toContainEqual({ id: 'Beyaz', name: 'Beyaz' })
    expect(byId.get('materyal')?.values.map((v) => v.name)).toEqual(['Porselen', 'Seramik', 'Cam'])
    expect(byId.get('ebatlar_variant_property')?.isRequired).toBe(false)
    expect(byId.get('Marka')).toMatchObject({ isRequired: true, allowsCustom: true, values: [] })
    expect(byId.get('tax_vat_rate')?.values.map((v) => v.name)).toEqual(['0', '1', '10', '20'])
    // Values are asked for the enum attributes only: KDV, Materyal, Kişi Sayısı, Bulaşık, Renk, Ebat.
    expect(asked(hepsiburada, /\/attribute\/[^/]+\/values/)).toBe(6)
    await browser.request('/api/integrations/hepsiburada/categories/60001001/attributes')
    expect(asked(hepsiburada, /\/categories\/60001001\/attribute/)).toBe(7)
  })

  it('refuses attributes of a category that takes no products, and of one that does not exist', async () => {
    const { browser } = await connected('trendyol')
    const parent = await browser.request('/api/integrations/trendyol/categories/1110/attributes')
    expect(parent.status).toBe(422)
    expect((await parent.json()).error.code).toBe('MARKETPLACE_CATEGORY_NOT_LEAF')
    const missing = await browser.request('/api/integrations/trendyol/categories/987654/attributes')
    expect(missing.status).toBe(404)
    const malformed = await browser.request('/api/integrations/trendyol/categories/abc/attributes')
    expect((await malformed.json()).error.code).toBe('VALIDATION_FAILED')
    // Neither was asked of the marketplace.
    expect(asked(trendyol, /\/product\/categories\//)).toBe(0)
  })

  it('asks a seller without the marketplace connected to connect it, and asks the marketplace nothing', async () => {
    const { browser } = await signedIn()
    const before = trendyol.requests.length + hepsiburada.requests.length
    for (const [method, path] of [
      ['GET', '/api/integrations/trendyol/categories?q=fincan'],
      ['GET', '/api/integrations/hepsiburada/categories/60001001/attributes'],
      ['POST', '/api/integrations/hepsiburada/taxonomy/refresh'],
      ['GET', '/api/integrations/trendyol/brands?q=karaca'],
    ] as const) {
      const response = await browser.request(path, { method })
      expect(response.status).toBe(409)
      expect((await response.json()).error.code).toBe('MARKETPLACE_NOT_CONNECTED')
    }
    expect(trendyol.requests.length + hepsiburada.requests.length).toBe(before)
    expect((await browser.request('/api/integrations/n11/categories?q=fincan')).status).toBe(404)
    expect((await browser.request('/api/integrations/trendyol/categories?q=')).status).toBe(400)
    const anonymous = createTestClient(server, { clientIp: nextClientIp() })
    expect((await anonymous.request('/api/integrations/trendyol/categories?q=fincan')).status).toBe(401)
  })

  it('says the saved keys were refused, or the marketplace is busy or down, and caches nothing', async () => {
    const { browser, userId } = await connected('trendyol')
    const box = createSecretBox(server.config.appSecret ?? '', 'marketplace-connections v1')
    // The seller changed the secret in Trendyol's panel since connecting.
    await server.database.db
      .update(marketplaceConnections)
      .set({
        encryptedSecret: box.seal(
          JSON.stringify({ apiKey: defaultTrendyolSeller.apiKey, apiSecret: 'revoked-secret' }),
        ),
      })
      .where(eq(marketplaceConnections.userId, userId))
    const refused = await browser.request('/api/integrations/trendyol/categories?q=fincan')
    expect(refused.status).toBe(400)
    expect((await refused.json()).error.code).toBe('MARKETPLACE_KEYS_REFUSED')
    expect(trendyol.requests.at(-1)?.status).toBe(401)

    const hb = await connected('hepsiburada')
    hepsiburada.script({ requests: [503] })
    const down = await hb.browser.request('/api/integrations/hepsiburada/taxonomy/refresh', {
      method: 'POST',
    })
    expect(down.status).toBe(502)
    expect((await down.json()).error.code).toBe('MARKETPLACE_UNAVAILABLE')
    expect(await server.database.db.select().from(marketplaceCategoryLists)).toHaveLength(0)

    const other = await connected('trendyol')
    trendyol.script({ requests: [429] })
    const busy = await other.browser.request('/api/integrations/trendyol/brands?q=Karaca')
    expect(busy.status).toBe(503)
    expect((await busy.json()).error.code).toBe('MARKETPLACE_BUSY')
  })

  it('answers from a day-old list and attributes while the marketplace is down, but a refresh says so', async () => {
    const { browser } = await connected('trendyol')
    await browser.request('/api/integrations/trendyol/categories?q=kupa')
    await browser.request('/api/integrations/trendyol/categories/1112/attributes')
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000)
    await server.database.db.update(marketplaceCategoryLists).set({ fetchedAt: dayAgo })
    await server.database.db.update(marketplaceCategoryAttributes).set({ fetchedAt: dayAgo })

    trendyol.script({ requests: 502 })
    const search = await browser.request('/api/integrations/trendyol/categories?q=kupa')
    expect(search.status).toBe(200)
    const found = await search.json()
    expect(found.categories.map((c: { id: string }) => c.id)).toEqual(['1112'])
    expect(found.fetchedAt).toBe(dayAgo.toISOString())
    const attributes = await browser.request('/api/integrations/trendyol/categories/1112/attributes')
    expect(attributes.status).toBe(200)
    expect((await attributes.json()).fetchedAt).toBe(dayAgo.toISOString())
    // The marketplace was asked each time, and refused: the list for the search, the list again
    // and the attributes for the attributes.
    expect(trendyol.requests.filter((r) => r.status === 502)).toHaveLength(3)

    const refresh = await browser.request('/api/integrations/trendyol/taxonomy/refresh', { method: 'POST' })
    expect(refresh.status).toBe(502)
    expect((await refresh.json()).error.code).toBe('MARKETPLACE_UNAVAILABLE')
  })

  it('finds Trendyol brands however the name is capitalised, and reuses a recent answer', async () => {
    const { browser } = await connected('trendyol')
    const brandReads = /\/product\/brands\/by-name/
    const found = await (await browser.request('/api/integrations/trendyol/brands?q=k%C3%BCtahya')).json()
    expect(found.brands).toEqual([{ id: '104', name: 'Kütahya Porselen' }])
    const asTyped = asked(trendyol, brandReads)
    expect(asTyped).toBeGreaterThan(0)
    const again = await (await browser.request('/api/integrations/trendyol/brands?q=k%C3%BCtahya')).json()
    expect(again).toEqual(found)
    expect(asked(trendyol, brandReads)).toBe(asTyped)
    // Turkish capitals: "milla" is asked as "MILLA" would miss TRENDYOLMİLLA's dotted İ.
    const milla = await (await browser.request('/api/integrations/trendyol/brands?q=mill')).json()
    expect(milla.brands).toEqual([{ id: '105', name: 'TRENDYOLMİLLA' }])
    const none = await (await browser.request('/api/integrations/trendyol/brands?q=zzzz')).json()
    expect(none.brands).toEqual([])
    // Hepsiburada takes the brand as free text: there is nothing to look up.
    const hb = await browser.request('/api/integrations/hepsiburada/brands?q=karaca')
    expect(hb.status).toBe(404)
  })
})
