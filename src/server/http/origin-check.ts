import type { MiddlewareHandler } from 'hono'
import { AppError } from '../../shared/errors.ts'
import type { AppEnv } from './context.ts'

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Refuses state-changing requests that a browser marks as coming from another site. Cookies
 * are SameSite=Lax as well; this closes the remaining gaps (e.g. same-site subdomains).
 * Requests without browser headers (curl, server-to-server) are not affected.
 */
export function refuseCrossSite(publicUrl: string | undefined): MiddlewareHandler<AppEnv> {
  const allowedOrigin = publicUrl ? new URL(publicUrl).origin : null
  return async (c, next) => {
    if (!safeMethods.has(c.req.method)) {
      const fetchSite = c.req.header('sec-fetch-site')
      if (fetchSite === 'cross-site') throw new AppError('FORBIDDEN', 'Cross-site request refused')
      const origin = c.req.header('origin')
      if (origin) {
        const requestOrigin = new URL(c.req.url).origin
        const host = c.req.header('host')
        const isSameHost = host !== undefined && origin.replace(/^https?:\/\//, '') === host
        if (origin !== requestOrigin && origin !== allowedOrigin && !isSameHost) {
          throw new AppError('FORBIDDEN', 'Cross-site request refused')
        }
      }
    }
    await next()
  }
}
