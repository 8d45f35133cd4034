import type { Context, MiddlewareHandler } from 'hono'
import { AppError } from '#shared/errors.ts'
import type { AppEnv } from './context.ts'

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * This request's own origin: the Host header with the socket's scheme, or with trustProxy the
 * scheme the proxy reports in X-Forwarded-Proto.
 */
function ownOrigin(c: Context, trustProxy: boolean): URL {
  const url = new URL(c.req.url)
  const forwardedProto = trustProxy
    ? c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase()
    : undefined
  if (forwardedProto === 'https' || forwardedProto === 'http') url.protocol = `${forwardedProto}:`
  return url
}

/**
 * The origins a state-changing request may come from: PUBLIC_URL's, and the request's own.
 * Schemes count: a page on http://host must not post to an https site on that host (a network
 * attacker can serve the http page). When PUBLIC_URL names this host, its scheme is the one;
 * when nothing tells us (plain socket, no trusted proxy header), the https origin of this host
 * is accepted too, since only this site can serve it (a TLS proxy we were not told about).
 */
function allowedOrigins(c: Context, publicOrigin: URL | null, trustProxy: boolean): Set<string> {
  const allowed = new Set<string>()
  if (publicOrigin) allowed.add(publicOrigin.origin)
  const own = ownOrigin(c, trustProxy)
  if (publicOrigin?.host !== own.host) {
    allowed.add(own.origin)
    const isSchemeKnown = trustProxy && c.req.header('x-forwarded-proto') !== undefined
    if (own.protocol === 'http:' && !isSchemeKnown) allowed.add(`https://${own.host}`)
  }
  return allowed
}

/**
 * Refuses state-changing requests that a browser marks as coming from another site. Cookies
 * are SameSite=Lax as well; this closes the remaining gaps (e.g. same-site subdomains, or an
 * http page of this host posting to the https site).
 * Requests without browser headers (curl, server-to-server) are not affected.
 */
export function refuseCrossSite(
  publicUrl: string | undefined,
  trustProxy = false,
): MiddlewareHandler<AppEnv> {
  const publicOrigin = publicUrl ? new URL(new URL(publicUrl).origin) : null
  return async (c, next) => {
    if (!safeMethods.has(c.req.method)) {
      const fetchSite = c.req.header('sec-fetch-site')
      if (fetchSite === 'cross-site') throw new AppError('FORBIDDEN', 'Cross-site request refused')
      const origin = c.req.header('origin')
      if (origin && !allowedOrigins(c, publicOrigin, trustProxy).has(origin)) {
        throw new AppError('FORBIDDEN', 'Cross-site request refused')
      }
    }
    await next()
  }
}
