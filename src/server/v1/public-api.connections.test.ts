import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { marketplaceConnections } from '#server/db/schema/index.ts'
import type { CreateApiKeyResponse } from '#shared/contracts/api-keys.ts'
import type { PublicConnectionResponse } from '#shared/contracts/public-api.ts'
import type { ErrorBody } from '#shared/errors.ts'
import {
  defaultHepsiburadaMerchant,
  type HepsiburadaFake,
  startHepsiburadaFake,
} from '#tests/fakes/hepsiburada-server.ts'
import { defaultTrendyolSeller, startTrendyolFake, type TrendyolFake } from '#tests/fakes/trendyol-server.ts'
import { signedInClient } from '#tests/support/generation-client.ts'
import { type OpenApiContract, openApiContract, type V1Client } from '#tests/support/openapi-contract.ts'
import { resetDatabase, startTestServer, type TestServer } from '#tests/support/test-server.ts'

// Marketplace connections over /v1 (upsertConnection, getConnection, deleteConnection), against
// the fake Trendyol and Hepsiburada seller APIs. Every answer goes through the OpenAPI contract.

describe('marketplace connections over /v1', () => {
  let trendyol: TrendyolFake
  let hepsiburada: HepsiburadaFake
  let server: TestServer
  let contract: OpenApiContract
  beforeAll(async () => {
    trendyol = await startTrendyolFake()
    hepsiburada = await startHepsiburadaFake()
    server = await startTestServer({
      TRUST_PROXY: 'true',
      TRENDYOL_API_BASE: trendyol.apiBase,
      HEPSIBURADA_API_BASE: hepsiburada.url,
    })
    contract = await openApiContract(server)
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

  const trendyolBody = {
    sellerId: defaultTrendyolSeller.sellerId,
    apiKey: defaultTrendyolSeller.apiKey,
    apiSecret: defaultTrendyolSeller.apiSecret,
  }

  /** A Pro account's /v1 client. */
  async function proApi(): Promise<V1Client> {
    const web = await signedInClient(server, 'pro')
    const created = await web.request('/api/api-keys', { json: { name: 'panel sync' } })
    expect(created.status).toBe(201)
    return contract.client(((await created.json()) as CreateApiKeyResponse).secret)
  }

  async function connection(response: Response) {
    expect(response.status).toBe(200)
    return ((await response.json()) as PublicConnectionResponse).connection
  }

  async function errorOf(response: Response) {
    const body = (await response.json()) as ErrorBody
    return { status: response.status, code: body.error.code, fields: body.error.details?.fields }
  }

  it('connects Trendyol once it accepts the keys, answers with the account and a mask only, and disconnects', async () => {
    const api = await proApi()
    expect(await connection(await api.request('/v1/connections/trendyol'))).toEqual({
      marketplace: 'trendyol',
      isConnected: false,
      accountId: null,
      secretMask: null,
      verifiedAt: null,
    })

    const put = await api.request('/v1/connections/trendyol', { method: 'PUT', json: trendyolBody })
    const connected = await connection(put)
    expect(connected).toMatchObject({
      marketplace: 'trendyol',
      isConnected: true,
      accountId: defaultTrendyolSeller.sellerId,
      secretMask: `••••${defaultTrendyolSeller.apiSecret.slice(-4)}`,
    })
    expect(Date.parse(connected.verifiedAt ?? '')).toBeGreaterThan(Date.now() - 60_000)
    // The marketplace was asked, under the seller's own path.
    expect(trendyol.requests.some((r) => r.path.includes(`/sellers/${trendyolBody.sellerId}/`))).toBe(true)
    // Neither secret comes back, in any answer.
    const read = await api.request('/v1/connections/trendyol')
    const text = await read.clone().text()
    expect(text).not.toContain(trendyolBody.apiKey)
    expect(text).not.toContain(trendyolBody.apiSecret)
    expect(await connection(read)).toEqual(connected)

    // The other marketplace is untouched.
    expect((await connection(await api.request('/v1/connections/hepsiburada'))).isConnected).toBe(false)

    const deleted = await connection(await api.request('/v1/connections/trendyol', { method: 'DELETE' }))
    expect(deleted).toMatchObject({ marketplace: 'trendyol', isConnected: false, accountId: null })
    expect(await server.database.db.select().from(marketplaceConnections)).toHaveLength(0)
    // Again: the same answer, not an error.
    expect(
      (await connection(await api.request('/v1/connections/trendyol', { method: 'DELETE' }))).isConnected,
    ).toBe(false)
  })

  it('connects Hepsiburada with its own fields, and refuses the other marketplace’s shape', async () => {
    const api = await proApi()
    const mixed = await api.request('/v1/connections/hepsiburada', { method: 'PUT', json: trendyolBody })
    expect(await errorOf(mixed)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' })
    const unknownField = await api.request('/v1/connections/trendyol', {
      method: 'PUT',
      json: { ...trendyolBody, supplierId: '1' },
    })
    expect(await errorOf(unknownField)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' })
    expect(await server.database.db.select().from(marketplaceConnections)).toHaveLength(0)

    const connected = await connection(
      await api.request('/v1/connections/hepsiburada', { method: 'PUT', json: defaultHepsiburadaMerchant }),
    )
    expect(connected).toMatchObject({
      marketplace: 'hepsiburada',
      isConnected: true,
      accountId: defaultHepsiburadaMerchant.merchantId,
      secretMask: `••••${defaultHepsiburadaMerchant.serviceKey.slice(-4)}`,
    })
  })

  it('says why the marketplace refused, and saves nothing', async () => {
    const api = await proApi()
    const put = (json: unknown) => api.request('/v1/connections/trendyol', { method: 'PUT', json })
    expect(await errorOf(await put({ ...trendyolBody, apiSecret: 'not-the-secret' }))).toMatchObject({
      status: 400,
      code: 'MARKETPLACE_KEYS_REFUSED',
    })
    expect(await errorOf(await put({ ...trendyolBody, sellerId: '999999' }))).toMatchObject({
      status: 400,
      code: 'MARKETPLACE_ACCOUNT_MISMATCH',
    })
    trendyol.script({ requests: [429] })
    expect(await errorOf(await put(trendyolBody))).toMatchObject({ status: 503, code: 'MARKETPLACE_BUSY' })
    trendyol.script({ requests: [502] })
    expect(await errorOf(await put(trendyolBody))).toMatchObject({
      status: 502,
      code: 'MARKETPLACE_UNAVAILABLE',
    })
    expect(await server.database.db.select().from(marketplaceConnections)).toHaveLength(0)
  })

  it('answers 404 for a marketplace it does not know, and keeps each account’s connection its own', async () => {
    const api = await proApi()
    expect(await errorOf(await api.request('/v1/connections/n11'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    })
    expect(
      await errorOf(await api.request('/v1/connections/n11', { method: 'PUT', json: trendyolBody })),
    ).toMatchObject({ status: 404, code: 'NOT_FOUND' })

    await connection(await api.request('/v1/connections/trendyol', { method: 'PUT', json: trendyolBody }))
    const other = await proApi()
    expect((await connection(await other.request('/v1/connections/trendyol'))).isConnected).toBe(false)
    await connection(await other.request('/v1/connections/trendyol', { method: 'DELETE' }))
    expect((await connection(await api.request('/v1/connections/trendyol'))).isConnected).toBe(true)
  })

  it('is for API keys on a plan with the API only', async () => {
    const growth = await signedInClient(server, 'growth')
    const refused = await growth.request('/api/api-keys', { json: { name: 'panel sync' } })
    expect(refused.status).toBe(403)
    const noKey = await contract.client().request('/v1/connections/trendyol')
    expect(noKey.status).toBe(401)
  })

  it('reached every connections operation with a success, each answer as documented', () => {
    expect(contract.untested().filter((operation) => operation.includes('/v1/connections/'))).toEqual([])
  })
})
