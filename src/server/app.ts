import { Hono, type MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { requestId } from 'hono/request-id'
import { accessRoutes } from '#server/features/access/access.routes.ts'
import { apiKeysRoutes, requireApiKey } from '#server/features/api-keys/api-keys.routes.ts'
import { assetsRoutes } from '#server/features/assets/assets.routes.ts'
import { authRoutes } from '#server/features/auth/auth.routes.ts'
import { billingRoutes, billingWebhookRoutes } from '#server/features/billing/billing.routes.ts'
import { catalogueRoutes } from '#server/features/catalogue/catalogue.routes.ts'
import { contactRoutes } from '#server/features/contact/contact.routes.ts'
import { generationsRoutes } from '#server/features/generations/generations.routes.ts'
import { healthRoutes } from '#server/features/health/health.routes.ts'
import { idempotentPosts } from '#server/features/idempotency/idempotency.routes.ts'
import {
  marketplaceRoutes,
  marketplaceSummaryRoutes,
  preferencesRoutes,
} from '#server/features/marketplaces/marketplaces.routes.ts'
import { connectionsRoutes } from '#server/features/publishing/connections.routes.ts'
import { publicationsRoutes } from '#server/features/publishing/publications.routes.ts'
import { publishedMediaRoutes } from '#server/features/publishing/published-media.routes.ts'
import { taxonomyRoutes } from '#server/features/publishing/taxonomy.routes.ts'
import { usageRoutes } from '#server/features/quota/usage.routes.ts'
import { accountRoutes } from '#server/features/settings/account.routes.ts'
import { settingsRoutes } from '#server/features/settings/settings.routes.ts'
import { webhooksRoutes } from '#server/features/webhooks/webhooks.routes.ts'
import { resolveClientIp } from '#server/http/client-ip.ts'
import { compression } from '#server/http/compression.ts'
import type { AppEnv } from '#server/http/context.ts'
import { handleError } from '#server/http/errors.ts'
import { refuseCrossSite } from '#server/http/origin-check.ts'
import { requestContext } from '#server/http/request-context.ts'
import { securityHeaders } from '#server/http/security-headers.ts'
import { loadSession } from '#server/http/session.ts'
import { mountWebApp } from '#server/http/web-app.ts'
import { testHookRoutes } from '#server/test-hooks/test-hooks.routes.ts'
import { apiReferenceRoutes, openApiDocumentRoutes } from '#server/v1/api-reference.routes.ts'
import { openApiDocument, publicApiRoutes, publicUploadPath } from '#server/v1/public-api.routes.ts'
import type { PublicConfig } from '#shared/contracts/public-config.ts'
import { AppError } from '#shared/errors.ts'
import { isLocale } from '#shared/i18n/locales.ts'
import type { Services } from './services.ts'

const jsonBodyLimitBytes = 64 * 1024

/**
 * Builds the Hono app from the services (services.ts): middleware and a mount list, no listening,
 * no files, nothing started.
 */
export function createApp(services: Services) {
  const { deps } = services
  const { config, logger } = deps
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

  app.route('/', healthRoutes(services.health))

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
  api.route('/billing/webhooks', billingWebhookRoutes(services.billing))
  api.use(refuseCrossSite(config.publicUrl, config.trustProxy))
  const session = loadSession(deps.auth)
  // Whoever ends sessions calls session.forget (sign-out, password changes, account deletion);
  // open event streams then look at their own session at once.
  const forgetSessions = session.forget
  session.forget = () => {
    forgetSessions()
    services.streams.sessionsChanged()
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
  api.use(async (c, next) => {
    const user = c.get('user')
    const locale = c.req.header('x-vitrin-locale')
    if (user && isLocale(locale)) await services.userLocales.record(user.id, locale)
    await next()
  })
  api.get('/public-config', (c) => {
    c.header('Cache-Control', 'public, max-age=300')
    return c.json<PublicConfig>({ supportEmail: config.supportEmail })
  })
  // The routes, in the order they are matched. A result's marketplace check and export sit beside
  // the generations routes; the taxonomy beside the marketplace connections.
  const apiRoutes: [path: string, routes: Hono<AppEnv>][] = [
    ['/contact', contactRoutes(services.contact)],
    ['/', authRoutes(services.auth)],
    ['/access', accessRoutes(services.access)],
    ['/billing', billingRoutes(services.billing)],
    ['/usage', usageRoutes(services.apiKeys)],
    ['/api-keys', apiKeysRoutes(services.apiKeys)],
    ['/webhooks', webhooksRoutes(services.webhooks)],
    ['/settings', settingsRoutes(services.settings)],
    ['/integrations', connectionsRoutes(services.connections)],
    ['/integrations', taxonomyRoutes(services.taxonomy)],
    ['/account', accountRoutes({ ...services.account, forgetSessions: () => session.forget() })],
    ['/assets', assetsRoutes(services.assets)],
    ['/generations', generationsRoutes(services.generations, services.streams)],
    ['/catalogue', catalogueRoutes(services.catalogue)],
    ['/generations', marketplaceRoutes(services.marketplaces)],
    ['/publications', publicationsRoutes(services.publications)],
    ['/marketplace', marketplaceSummaryRoutes(services.marketplaces)],
    ['/preferences', preferencesRoutes(services.marketplaces)],
    ...(config.enableTestHooks
      ? [['/test', testHookRoutes(services.apiKeys)] as [string, Hono<AppEnv>]]
      : []),
  ]
  for (const [path, routes] of apiRoutes) api.route(path, routes)
  api.all('*', () => {
    throw new AppError('NOT_FOUND', 'No such API endpoint')
  })
  app.route('/api', api)

  // The public API (docs/public-api.md; decision 28). Authenticated by API key
  // alone: no session is loaded here, so a cookie never counts. No cross-site check (a browser
  // never adds an Authorization header by itself) and no CORS headers: keys belong on servers,
  // and the reference page is same-origin. The routes (src/server/v1, decision 31) call the
  // web app's services, so quotas and error codes are the same.
  const publicApi = publicApiRoutes(services.publicApi)
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
  v1.use(requireApiKey(services.apiKeyGuard))
  v1.use(withRequestContext)
  v1.use(idempotentPosts(services.idempotency))
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
  app.route('/media', publishedMediaRoutes(services.publishedMedia))
  mountWebApp(app, {
    webDistDir: config.webDistDir,
    publicUrl: () => config.publicUrl,
    isProduction: config.env === 'production',
  })
  return app
}

export type App = ReturnType<typeof createApp>
