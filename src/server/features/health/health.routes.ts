import { Hono } from 'hono'
import type { Database } from '#server/db/client.ts'
import type { AppEnv } from '#server/http/context.ts'
import type { HealthResponse, ReadinessResponse } from '#shared/contracts/health.ts'

/** /healthz: the process answers. /readyz: it can also reach its database. */
export function healthRoutes(deps: { database: Database; isShuttingDown: () => boolean }) {
  return new Hono<AppEnv>()
    .get('/healthz', (c) => c.json<HealthResponse>({ status: 'ok' }))
    .get('/readyz', async (c) => {
      if (deps.isShuttingDown()) return c.json<ReadinessResponse>({ status: 'shutting_down' }, 503)
      try {
        await deps.database.ping()
        return c.json<ReadinessResponse>({ status: 'ready', database: deps.database.kind })
      } catch (error) {
        c.get('log').warn({ err: error }, 'readiness check failed')
        return c.json<ReadinessResponse>({ status: 'unavailable', database: deps.database.kind }, 503)
      }
    })
}
