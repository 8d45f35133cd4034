import { Hono, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { requestId } from 'hono/request-id'
import type { AssetRow } from '#server/db/schema/index.ts'
import { accessRoutes } from '#server/features/access/access.routes.ts'
import { apiKeysRoutes, requireApiKey } from '#server/features/api-keys/api-keys.routes.ts'
import { assetsRoutes } from '#server/features/assets/assets.routes.ts'
import { authRoutes } from '#server/features/auth/auth.routes.ts'
import { topUpForShortage } from '#server/features/billing/auto-topup.service.ts'
import { billingRoutes, billingWebhookRoutes } from '#server/features/billing/billing.routes.ts'
import { startTrial } from '#server/features/billing/subscription.service.ts'
import { catalogueRoutes } from '#server/features/catalogue/catalogue.routes.ts'
import { contactRoutes } from '#server/features/contact/contact.routes.ts'
import { generationsRoutes } from '#server/features/generations/generations.routes.ts'
import { healthRoutes } from '#server/features/health/health.routes.ts'
import { idempotentPosts } from '#server/features/idempotency/idempotency.routes.ts'
import {
  marketplaceDeps,
  marketplaceRoutes,
  marketplaceSummaryRoutes,
  preferencesRoutes,
} from '#server/features/marketplaces/marketplaces.routes.ts'
import { visionFromConfig } from '#server/features/publishing/attribute-vision.ts'
import { connectionsRoutes } from '#server/features/publishing/connections.routes.ts'
import { isUnderTest } from '#server/features/publishing/public-origin.ts'
import { publicationsRoutes } from '#server/features/publishing/publications.routes.ts'
import { publishedMediaRoutes } from '#server/features/publishing/published-media.routes.ts'
import { taxonomyRoutes } from '#server/features/publishing/taxonomy.routes.ts'
import { createTaxonomy } from '#server/features/publishing/taxonomy.service.ts'
import { usageRoutes } from '#server/features/quota/usage.routes.ts'
import { accountRoutes } from '#server/features/settings/account.routes.ts'
import { settingsRoutes } from '#server/features/settings/settings.routes.ts'
import { createUserLocaleRecorder } from '#server/features/settings/user-locale.ts'
import { webhooksRoutes } from '#server/features/webhooks/webhooks.routes.ts'
import { resolveClientIp } from '#server/http/client-ip.ts'
import { compression } from '#server/http/compression.ts'
import type { AppEnv } from '#server/http/context.ts'
import { handleError } from '#server/http/errors.ts'
import { createEventStreams } from '#server/http/event-streams.ts'
import { refuseCrossSite } from '#server/http/origin-check.ts'
import { requestContext } from '#server/http/request-context.ts'
import { securityHeaders } from '#server/http/security-headers.ts'
import { loadSession } from '#server/http/session.ts'
import { mountWebApp } from '#server/http/web-app.ts'
import type { ImageMime } from '#server/providers/types.ts'
import { testHookRoutes } from '#server/test-hooks/test-hooks.routes.ts'
import { apiReferenceRoutes, openApiDocumentRoutes } from '#server/v1/api-reference.routes.ts'
import { openApiDocument, publicApiRoutes, publicUploadPath } from '#server/v1/public-api.routes.ts'
import type { PublicConfig } from '#shared/contracts/public-config.ts'
import { AppError } from '#shared/errors.ts'
import { isLocale } from '#shared/i18n/locales.ts'
import type { AppDeps } from './deps.ts'

const jsonBodyLimitBytes = 64 * 1024

/** Builds the Hono app from its dependencies: no listening, no files, nothing started. */
export function createApp(deps: AppDeps) {
  const { config, database, logger } = deps
  const app = new Hono<AppEnv>()

  app.use(requestId({ headerName: 'X-Request-Id' }))
  app.use(async (c, next) => {
    const log = logger.child({ requestId: c.get('requestId') })
    c.set('log', log)
    c.set('clientIp', resolveClientIp(c, config.trustProxy))
    const started = performance.now()
    await next()
    const path = c.req.path
    const isQuiet = path.startsWith('/assets/') || path === '/healthz' || path === '/readyz'
    log[isQuiet ? 'debug' : 'info'](
      { method: c.req.method, path, status: c.res.status, ms: Math.round(performance.now() - started) },
      'request',
    )
  })
  app.use(securityHeaders({ isProduction: config.env === 'production' }))
  app.use(compression())
  app.onError(handleError)

  app.route('/', healthRoutes({ database, isShuttingDown: deps.isShuttingDown }))

  const api = new Hono<AppEnv>()
  // API answers are per user and change: never stored by browsers or proxies unless a route says
  // otherwise (public-config, asset files). Error answers get the same from handleError.
  const noStore: MiddlewareHandler<AppEnv> = async (c, next) => {
    await next()
    if (!c.res.headers.has('Cache-Control')) c.res.headers.set('Cache-Control', 'no-store')
  }
  api.use(noStore)
  const limitJsonBody = bodyLimit({
    maxSize: jsonBodyLimitBytes,
    onError: () => {
      throw new AppError('PAYLOAD_TOO_LARGE', 'Request body too large')
    },
  })
  // GET and HEAD requests have no body (@hono/node-server gives them none), and asking for one
  // (bodyLimit reads c.req.raw.body) would build the full Request object for nothing.
  const jsonBodyLimit: MiddlewareHandler<AppEnv> = (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitJsonBody(c, next)
  // Uploads have their own, larger limits, enforced while streaming (http/multipart.ts).
  const isUpload = (path: string) =>
    path === '/api/assets' ||
    path === '/api/catalogue/imports' ||
    /^\/api\/catalogue\/batches\/[^/]+\/photos$/.test(path)
  api.use((c, next) => (c.req.method === 'POST' && isUpload(c.req.path) ? next() : jsonBodyLimit(c, next)))
  // Payment-provider webhooks come server to server, authenticated by their signature: mounted
  // before the cross-site check and the session, which they neither need nor could pass.
  api.route(
    '/billing/webhooks',
    billingWebhookRoutes({
      db: database.db,
      billing: deps.billing,
      now: deps.now,
      mailer: deps.mailer,
      publicUrl: config.publicUrl,
      isSharedDatabase: database.kind === 'postgres',
    }),
  )
  api.use(refuseCrossSite(config.publicUrl, config.trustProxy))
  const session = loadSession(deps.auth)
  // Whoever ends sessions calls session.forget (sign-out, password changes, account deletion);
  // open event streams then look at their own session at once.
  const eventStreams = createEventStreams({ maxPerUser: config.limits.eventStreamsPerUser })
  const forgetSessions = session.forget
  session.forget = () => {
    forgetSessions()
    eventStreams.sessionsChanged()
  }
  api.use(session)
  // Signing out, changing or resetting a password end sessions: cached lookups are dropped.
  api.use('/auth/*', async (c, next) => {
    await next()
    if (c.req.method !== 'GET') session.forget()
  })
  const withRequestContext: MiddlewareHandler<AppEnv> = async (c, next) => {
    const locale = c.req.header('x-vitrin-locale')
    await requestContext.run(
      {
        locale: isLocale(locale) ? locale : 'en',
        origin: new URL(c.req.url).origin,
        clientIp: c.get('clientIp'),
        log: c.get('log'),
      },
      next,
    )
  }
  api.use(withRequestContext)
  // The app names its language on every call: remembered per user for the email a webhook writes.
  const userLocales = createUserLocaleRecorder(database.db)
  api.use(async (c, next) => {
    const user = c.get('user')
    const locale = c.req.header('x-vitrin-locale')
    if (user && isLocale(locale)) await userLocales.record(user.id, locale)
    await next()
  })
  api.get('/public-config', (c) => {
    c.header('Cache-Control', 'public, max-age=300')
    return c.json<PublicConfig>({ supportEmail: config.supportEmail })
  })
  api.route(
    '/contact',
    contactRoutes({
      db: database.db,
      mailer: deps.mailer,
      rateLimiter: deps.rateLimiter,
      supportEmail: config.supportEmail,
      supportLanguage: config.supportLanguage,
    }),
  )
  const { db } = database
  api.route('/', authRoutes({ ...deps, db }))
  api.route(
    '/access',
    accessRoutes({
      db,
      auth: deps.auth,
      rateLimiter: deps.rateLimiter,
      now: deps.now,
      trialsPerClient: config.limits.trialsPerDayPerClient,
      startTrial,
    }),
  )
  api.route(
    '/billing',
    billingRoutes({
      db,
      billing: deps.billing,
      now: deps.now,
      mailer: deps.mailer,
      publicUrl: config.publicUrl,
    }),
  )
  api.route('/usage', usageRoutes({ db, now: deps.now }))
  api.route('/api-keys', apiKeysRoutes({ db, now: deps.now }))
  api.route(
    '/webhooks',
    webhooksRoutes({
      db,
      now: deps.now,
      secretBox: deps.webhookBox,
      notifier: deps.notifier,
      // With WEBHOOKS_ALLOW_LOOPBACK (development only) this machine's addresses too.
      allowPrivateHosts: config.webhookAllowPrivateHosts,
      rateLimiter: deps.rateLimiter,
      sendsPerMinute: config.limits.webhookSendsPerMinute,
    }),
  )
  api.route(
    '/settings',
    settingsRoutes({
      db,
      keyBox: deps.keyBox,
      isBillingLive: deps.billing.isLive,
      providers: config.providers,
      now: deps.now,
    }),
  )
  api.route(
    '/integrations',
    connectionsRoutes({
      db,
      box: deps.marketplaceBox,
      apis: config.marketplaceApis,
      log: deps.logger,
      now: deps.now,
    }),
  )
  // One per process: it keeps its category index and brand answers in memory.
  const taxonomy = createTaxonomy({
    db,
    box: deps.marketplaceBox,
    apis: config.marketplaceApis,
    log: deps.logger,
    now: deps.now,
  })
  api.route('/integrations', taxonomyRoutes(taxonomy))
  // One per process, beside the taxonomy: the single-product draft and the catalogue batch's
  // drafts choose attributes from the photo through it (null without VISION_MODEL).
  const vision = visionFromConfig(config.providers, deps.logger)
  api.route(
    '/account',
    accountRoutes({
      db,
      storage: deps.storage,
      auth: deps.auth,
      rateLimiter: deps.rateLimiter,
      forgetSessions: () => session.forget(),
    }),
  )
  // The model's process ends after an idle minute: a new photo starts it again, and its product
  // is cut, ahead of the image job that usually follows. A failure here is the job's to report.
  const { warmUpStudio, logger: log } = deps
  const photoArrived = warmUpStudio
    ? (asset: AssetRow) =>
        void deps.storage
          .get(asset.storageKey)
          .then((bytes) => warmUpStudio({ bytes, mime: asset.mime as ImageMime, sha256: asset.checksum }))
          .catch((error: unknown) =>
            log.debug({ err: error, assetId: asset.id }, 'preparing a new photo failed'),
          )
    : undefined
  const assetDeps = {
    db,
    storage: deps.storage,
    rateLimiter: deps.rateLimiter,
    limits: config.limits,
    now: deps.now,
    photoArrived,
  }
  api.route('/assets', assetsRoutes(assetDeps))
  const generationDeps = {
    db,
    storage: deps.storage,
    rateLimiter: deps.rateLimiter,
    notifier: deps.notifier,
    outcomes: deps.jobOutcomes,
    providers: config.providers,
    limits: config.limits,
    maxQueuedPerUser: config.worker.maxQueuedPerUser,
    now: deps.now,
    topUp: (shortage: Parameters<typeof topUpForShortage>[1]) =>
      topUpForShortage(
        { db, now: deps.now, billing: deps.billing, mailer: deps.mailer, publicUrl: config.publicUrl },
        shortage,
      ),
  }
  api.route('/generations', generationsRoutes(generationDeps, eventStreams))
  const uploadsDir = deps.incomingDir
  // One set of measurements for the marketplace routes and the catalogue's preset exports: a
  // card's summary measures what the panel then reuses.
  const marketplaces = marketplaceDeps({
    db,
    storage: deps.storage,
    segmenter: deps.segmenter,
    textReader: deps.textReader,
    inspections: deps.imageInspections,
    ffmpegPath: config.providers.ffmpegPath,
    tempDir: uploadsDir,
  })
  api.route(
    '/catalogue',
    catalogueRoutes({
      db,
      storage: deps.storage,
      generations: generationDeps,
      events: deps.events,
      fetch: { allowPrivateHosts: config.fetchAllowPrivateHosts, log: deps.logger },
      log: deps.logger,
      now: deps.now,
      tempDir: uploadsDir,
      notifier: deps.notifier,
      streams: eventStreams,
      marketplaces,
      rateLimiter: deps.rateLimiter,
      limits: config.limits,
      photoStepSeconds: config.limits.cataloguePhotoStepSeconds,
    }),
  )
  // A result's marketplace check and export, beside the generations routes; measuring runs the
  // process's one segmentation model, which the offline studio shares.
  api.route('/generations', marketplaceRoutes(marketplaces))
  api.route(
    '/publications',
    publicationsRoutes({
      db,
      rateLimiter: deps.rateLimiter,
      events: deps.events,
      connections: { db, box: deps.marketplaceBox, apis: config.marketplaceApis, log: deps.logger },
      log: deps.logger,
      now: deps.now,
      allowHttpImages: isUnderTest(config),
      pollMs: config.publisher.pollMs,
      notifier: deps.notifier,
      marketplaces,
      media: { storage: deps.storage, config, log: deps.logger },
      draft: {
        db,
        storage: deps.storage,
        segmenter: deps.segmenter,
        taxonomy,
        vision,
      },
    }),
  )
  api.route('/marketplace', marketplaceSummaryRoutes(marketplaces))
  api.route('/preferences', preferencesRoutes({ db }))
  if (config.enableTestHooks) api.route('/test', testHookRoutes({ db: database.db, now: deps.now }))
  api.all('*', () => {
    throw new AppError('NOT_FOUND', 'No such API endpoint')
  })
  app.route('/api', api)

  // The public API (docs/public-api.md; decision 28). Authenticated by API key
  // alone: no session is loaded here, so a cookie never counts. No cross-site check (a browser
  // never adds an Authorization header by itself) and no CORS headers: keys belong on servers,
  // and the reference page is same-origin. The routes (src/server/v1, decision 31) call the
  // web app's services, so quotas and error codes are the same.
  const publicApi = publicApiRoutes({
    db,
    now: deps.now,
    assets: assetDeps,
    generations: generationDeps,
    catalogue: {
      db,
      storage: deps.storage,
      generations: generationDeps,
      events: deps.events,
      fetch: { allowPrivateHosts: config.fetchAllowPrivateHosts, log: deps.logger },
      log: deps.logger,
      now: deps.now,
    },
    connections: { db, box: deps.marketplaceBox, apis: config.marketplaceApis, log: deps.logger },
  })
  // The document is public (no key): the reference page at /docs/api reads it.
  app.route('/v1/openapi.json', openApiDocumentRoutes(openApiDocument(publicApi)))
  const v1 = new Hono<AppEnv>()
  v1.use(noStore)
  // An upload streams under its own limit (http/multipart.ts), as /api/assets does.
  v1.use((c, next) =>
    c.req.method === 'POST' && c.req.path === publicUploadPath ? next() : jsonBodyLimit(c, next),
  )
  // The key, and the request counted per key in the same statement before any work (a replayed
  // answer counts too); then Idempotency-Key on POSTs.
  v1.use(
    requireApiKey({
      db,
      now: deps.now,
      rateLimiter: deps.rateLimiter,
      readsPerMinute: config.limits.apiReadsPerMinute,
      writesPerMinute: config.limits.apiWritesPerMinute,
    }),
  )
  v1.use(withRequestContext)
  v1.use(idempotentPosts({ db, now: deps.now }))
  v1.route('/', publicApi)
  v1.all('*', () => {
    throw new AppError('NOT_FOUND', 'No such API endpoint')
  })
  app.route('/v1', v1)

  // The API reference (Scalar, served from node_modules): before the web app, whose
  // client-side routing would otherwise answer /docs/api with index.html.
  app.route('/docs/api', apiReferenceRoutes({ isProduction: config.env === 'production' }))
  // Images published to marketplaces (features/publishing): public by their unguessable token,
  // with no session, key or cross-site check, since a marketplace's downloader has none.
  app.route('/media', publishedMediaRoutes({ db, storage: deps.storage }))
  mountWebApp(app, {
    webDistDir: config.webDistDir,
    publicUrl: () => config.publicUrl,
    isProduction: config.env === 'production',
  })
  return app
}

export type App = ReturnType<typeof createApp>
