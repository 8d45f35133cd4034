import { and, eq } from 'drizzle-orm'
import type { SecretBox } from '#server/crypto/secret-box.ts'
import type { Db } from '#server/db/client.ts'
import { marketplaceConnections } from '#server/db/schema/index.ts'
import type { Logger } from '#server/logger.ts'
import {
  type ConnectHepsiburadaRequest,
  type ConnectTrendyolRequest,
  type IntegrationMarketplace,
  type IntegrationsResponse,
  integrationMarketplaces,
} from '#shared/contracts/integrations.ts'
import { AppError } from '#shared/errors.ts'
import { createHepsiburadaApi, type HepsiburadaApi, type HepsiburadaCredentials } from './hepsiburada-api.ts'
import { appErrorOf, MarketplaceApiError } from './marketplace-api-error.ts'
import { createTrendyolApi, type TrendyolApi, type TrendyolCredentials } from './trendyol-api.ts'

// A seller's connections to the marketplaces' seller APIs. Credentials are tried against the
// marketplace first and saved only once it accepts them, sealed; they are never sent back, and
// only the server opens them, to publish for their owner.

export type ConnectionsDeps = {
  db: Db
  box: SecretBox
  /** Where each marketplace's API lives (config: TRENDYOL_API_BASE, HEPSIBURADA_API_BASE). */
  apis: Record<IntegrationMarketplace, string>
  log: Logger
  fetch?: typeof fetch
}

/** The mask shown for a saved secret: never more than its last four characters. */
function maskSecret(last4: string): string {
  return `••••${last4}`
}

export async function listConnections(deps: ConnectionsDeps, userId: string): Promise<IntegrationsResponse> {
  const rows = await deps.db
    .select()
    .from(marketplaceConnections)
    .where(eq(marketplaceConnections.userId, userId))
  return {
    integrations: integrationMarketplaces.map((marketplace) => {
      const row = rows.find((r) => r.marketplace === marketplace)
      return {
        marketplace,
        isConnected: row !== undefined,
        accountId: row?.accountId ?? null,
        secretMask: row ? maskSecret(row.last4) : null,
        verifiedAt: row ? row.verifiedAt.toISOString() : null,
      }
    }),
  }
}

export function connectTrendyol(
  deps: ConnectionsDeps,
  userId: string,
  input: ConnectTrendyolRequest,
  now: Date,
): Promise<IntegrationsResponse> {
  const credentials: TrendyolCredentials = input
  return connect(deps, userId, 'trendyol', {
    accountId: input.sellerId,
    secret: { apiKey: input.apiKey, apiSecret: input.apiSecret },
    last4: input.apiSecret.slice(-4),
    verify: () => trendyolApi(deps, credentials).verify(),
    now,
  })
}

export function connectHepsiburada(
  deps: ConnectionsDeps,
  userId: string,
  input: ConnectHepsiburadaRequest,
  now: Date,
): Promise<IntegrationsResponse> {
  const credentials: HepsiburadaCredentials = input
  return connect(deps, userId, 'hepsiburada', {
    accountId: input.merchantId,
    secret: { serviceKey: input.serviceKey },
    last4: input.serviceKey.slice(-4),
    verify: () => hepsiburadaApi(deps, credentials).verify(),
    now,
  })
}

export async function disconnect(
  deps: ConnectionsDeps,
  userId: string,
  marketplace: IntegrationMarketplace,
): Promise<IntegrationsResponse> {
  await deps.db
    .delete(marketplaceConnections)
    .where(
      and(eq(marketplaceConnections.userId, userId), eq(marketplaceConnections.marketplace, marketplace)),
    )
  return listConnections(deps, userId)
}

/** The seller's Trendyol client, from their saved connection; null when they have none. */
export async function openTrendyol(deps: ConnectionsDeps, userId: string): Promise<TrendyolApi | null> {
  const row = await connectionOf(deps, userId, 'trendyol')
  if (!row) return null
  const secret = JSON.parse(deps.box.open(row.encryptedSecret)) as { apiKey: string; apiSecret: string }
  return trendyolApi(deps, { sellerId: row.accountId, ...secret })
}

/** The seller's Hepsiburada client, from their saved connection; null when they have none. */
export async function openHepsiburada(deps: ConnectionsDeps, userId: string): Promise<HepsiburadaApi | null> {
  const row = await connectionOf(deps, userId, 'hepsiburada')
  if (!row) return null
  const secret = JSON.parse(deps.box.open(row.encryptedSecret)) as { serviceKey: string }
  return hepsiburadaApi(deps, { merchantId: row.accountId, ...secret })
}

function trendyolApi(deps: ConnectionsDeps, credentials: TrendyolCredentials): TrendyolApi {
  return createTrendyolApi({
    baseUrl: deps.apis.trendyol,
    credentials,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  })
}

function hepsiburadaApi(deps: ConnectionsDeps, credentials: HepsiburadaCredentials): HepsiburadaApi {
  return createHepsiburadaApi({
    baseUrl: deps.apis.hepsiburada,
    credentials,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  })
}

/**
 * Asks the marketplace again with the saved credentials (Settings' Test): its verdict in the same
 * words as when connecting, and the time it last accepted them.
 */
export async function testConnection(
  deps: ConnectionsDeps,
  userId: string,
  marketplace: IntegrationMarketplace,
  now: Date,
): Promise<IntegrationsResponse> {
  const row = await connectionOf(deps, userId, marketplace)
  if (!row) throw new AppError('NOT_FOUND', 'No connection to test')
  const api =
    marketplace === 'trendyol' ? await openTrendyol(deps, userId) : await openHepsiburada(deps, userId)
  await verifyOrExplain(deps, marketplace, row.accountId, () => api?.verify() ?? Promise.resolve())
  await deps.db
    .update(marketplaceConnections)
    .set({ verifiedAt: now })
    .where(
      and(eq(marketplaceConnections.userId, userId), eq(marketplaceConnections.marketplace, marketplace)),
    )
  return listConnections(deps, userId)
}

/**
 * Runs a marketplace's check of the credentials; a refusal becomes the error that says what to
 * do: other keys, another account ID, wait (its rate limit, or this server's address blocked
 * after too many requests), or try again later. The marketplace's own words go to the log.
 */
async function verifyOrExplain(
  deps: ConnectionsDeps,
  marketplace: IntegrationMarketplace,
  accountId: string,
  verify: () => Promise<void>,
): Promise<void> {
  try {
    await verify()
  } catch (error) {
    if (!(error instanceof MarketplaceApiError)) throw error
    deps.log.warn(
      { marketplace, accountId, failure: error.failure, status: error.status, messages: error.messages },
      'marketplace refused or failed a connection check',
    )
    throw appErrorOf(error)
  }
}

async function connectionOf(deps: ConnectionsDeps, userId: string, marketplace: IntegrationMarketplace) {
  const [row] = await deps.db
    .select()
    .from(marketplaceConnections)
    .where(
      and(eq(marketplaceConnections.userId, userId), eq(marketplaceConnections.marketplace, marketplace)),
    )
  return row ?? null
}

async function connect(
  deps: ConnectionsDeps,
  userId: string,
  marketplace: IntegrationMarketplace,
  connection: {
    accountId: string
    secret: Record<string, string>
    last4: string
    verify: () => Promise<void>
    now: Date
  },
): Promise<IntegrationsResponse> {
  await verifyOrExplain(deps, marketplace, connection.accountId, connection.verify)
  const values = {
    accountId: connection.accountId,
    encryptedSecret: deps.box.seal(JSON.stringify(connection.secret)),
    last4: connection.last4,
    verifiedAt: connection.now,
  }
  await deps.db
    .insert(marketplaceConnections)
    .values({ userId, marketplace, ...values })
    .onConflictDoUpdate({
      target: [marketplaceConnections.userId, marketplaceConnections.marketplace],
      set: values,
    })
  return listConnections(deps, userId)
}
