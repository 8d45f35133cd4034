import { accessDeps } from '#server/features/access/access.deps.ts'
import type { AccessDeps } from '#server/features/access/access.routes.ts'
import { apiKeyGuardDeps, apiKeysDeps } from '#server/features/api-keys/api-keys.deps.ts'
import type { ApiKeysDeps } from '#server/features/api-keys/api-keys.service.ts'
import { assetDeps } from '#server/features/assets/assets.deps.ts'
import type { AssetDeps } from '#server/features/assets/assets.service.ts'
import { authDeps } from '#server/features/auth/auth.deps.ts'
import type { AuthDeps } from '#server/features/auth/auth.service.ts'
import { autoTopUp, billingDeps } from '#server/features/billing/billing.deps.ts'
import type { BillingDeps } from '#server/features/billing/billing.service.ts'
import { startTrial } from '#server/features/billing/subscription.service.ts'
import { catalogueDeps } from '#server/features/catalogue/catalogue.deps.ts'
import type { CatalogueRouteDeps } from '#server/features/catalogue/catalogue.routes.ts'
import { contactDeps } from '#server/features/contact/contact.deps.ts'
import type { ContactDeps } from '#server/features/contact/contact.service.ts'
import { generationDeps } from '#server/features/generations/generations.deps.ts'
import type { GenerationDeps } from '#server/features/generations/generations.service.ts'
import { idempotencyDeps } from '#server/features/idempotency/idempotency.deps.ts'
import type { IdempotentPostsDeps } from '#server/features/idempotency/idempotency.routes.ts'
import { marketplacesDeps } from '#server/features/marketplaces/marketplaces.deps.ts'
import type { MarketplaceDeps } from '#server/features/marketplaces/marketplaces.service.ts'
import type { CataloguePublishDeps } from '#server/features/publishing/catalogue-publish.service.ts'
import type { ConnectionsDeps } from '#server/features/publishing/connections.service.ts'
import { publishingDeps } from '#server/features/publishing/publishing.deps.ts'
import type { Taxonomy } from '#server/features/publishing/taxonomy.service.ts'
import type { AccountDeps } from '#server/features/settings/account.service.ts'
import { accountDeps, settingsDeps } from '#server/features/settings/settings.deps.ts'
import type { SettingsDeps } from '#server/features/settings/settings.service.ts'
import { createUserLocaleRecorder, type UserLocaleRecorder } from '#server/features/settings/user-locale.ts'
import { webhooksDeps } from '#server/features/webhooks/webhooks.deps.ts'
import type { WebhooksDeps } from '#server/features/webhooks/webhooks.service.ts'
import { createEventStreams, type EventStreams } from '#server/http/event-streams.ts'
import type { PublicApiDeps } from '#server/v1/public-api.routes.ts'
import type { AppDeps } from './deps.ts'

/**
 * Each feature's dependencies, built once from AppDeps by createServices: the web app (app.ts),
 * the public API (/v1) and the worker runtime (jobs/worker-runtime.ts) take this one object, so a
 * service's dependencies are written in one place and every caller shares the same instances.
 */
export type Services = {
  /** The process's infrastructure (config, database, logger …): middleware and the worker read it. */
  deps: AppDeps
  health: Pick<AppDeps, 'database' | 'isShuttingDown'>
  auth: AuthDeps
  access: AccessDeps
  contact: ContactDeps
  /** The billing pages and the payment provider's webhooks. */
  billing: BillingDeps
  /** API keys, the usage page, idempotency keys and the test hooks read only the database and the clock. */
  apiKeys: ApiKeysDeps
  /** What /v1 checks on every request: the key, and the requests counted per key. */
  apiKeyGuard: ApiKeysDeps & {
    rateLimiter: AppDeps['rateLimiter']
    readsPerMinute: number
    writesPerMinute: number
  }
  idempotency: IdempotentPostsDeps
  webhooks: WebhooksDeps
  settings: SettingsDeps & { now: () => Date }
  /** Each user's language, remembered from their calls for the email a webhook writes. */
  userLocales: UserLocaleRecorder
  /** Marketplace connections (the integrations page, /v1 and the publisher). */
  connections: ConnectionsDeps & { now: () => Date }
  /** One per process: it keeps its category index and brand answers in memory. */
  taxonomy: Taxonomy
  account: AccountDeps
  assets: AssetDeps
  generations: GenerationDeps
  /**
   * One set of measurements and video slots for the marketplace routes, the catalogue's preset
   * exports and published media: a card's summary measures what the panel then reuses.
   */
  marketplaces: MarketplaceDeps
  /** The catalogue, for /api/catalogue and /v1 alike. */
  catalogue: CatalogueRouteDeps
  publications: CataloguePublishDeps
  /** Published images, served by token (features/publishing). */
  publishedMedia: Pick<MarketplaceDeps, 'db' | 'storage'>
  /** Caps each user's open event streams; sign-outs tell them (app.ts). */
  streams: EventStreams
  /** The public API's view of the services above. */
  publicApi: PublicApiDeps
}

/**
 * Builds every feature's dependencies once, each by its feature's factory (`<f>.deps.ts`) from the
 * infrastructure; nothing is started and no file is touched.
 */
export function createServices(deps: AppDeps): Services {
  const { config, database, now } = deps
  const { db } = database
  const { storage } = deps

  const apiKeys = apiKeysDeps(deps)
  // A stored photo warms the offline studio's model, when this process runs it (assets.deps.ts).
  const assets = assetDeps(deps)
  const generations = generationDeps(deps, autoTopUp(deps))
  const marketplaces = marketplacesDeps(deps)
  const { connections, taxonomy, publications } = publishingDeps(deps, { marketplaces })
  const streams = createEventStreams({ maxPerUser: config.limits.eventStreamsPerUser })
  const catalogue = catalogueDeps(deps, { generations, marketplaces, streams })

  return {
    deps,
    health: { database, isShuttingDown: deps.isShuttingDown },
    auth: authDeps(deps),
    access: accessDeps(deps, startTrial),
    contact: contactDeps(deps),
    billing: billingDeps(deps),
    apiKeys,
    apiKeyGuard: apiKeyGuardDeps(deps),
    idempotency: idempotencyDeps(deps),
    webhooks: webhooksDeps(deps),
    settings: settingsDeps(deps),
    userLocales: createUserLocaleRecorder(db),
    connections,
    taxonomy,
    account: accountDeps(deps),
    assets,
    generations,
    marketplaces,
    catalogue,
    publications,
    publishedMedia: { db, storage },
    streams,
    publicApi: { db, now, assets, generations, catalogue, connections },
  }
}
