import { Hono } from 'hono'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import {
  connectHepsiburadaRequestSchema,
  connectTrendyolRequestSchema,
  type IntegrationMarketplace,
  type IntegrationsResponse,
  integrationMarketplaces,
} from '#shared/contracts/integrations.ts'
import { AppError } from '#shared/errors.ts'
import {
  type ConnectionsDeps,
  connectHepsiburada,
  connectTrendyol,
  disconnect,
  listConnections,
  testConnection,
} from './connections.service.ts'

/** /api/integrations: the seller's marketplace connections (Settings → Integrations). */
export function connectionsRoutes(deps: ConnectionsDeps & { now: () => Date }) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/', async (c) => c.json<IntegrationsResponse>(await listConnections(deps, currentUser(c).id)))
    .put('/trendyol', validate('json', connectTrendyolRequestSchema), async (c) =>
      c.json<IntegrationsResponse>(
        await connectTrendyol(deps, currentUser(c).id, c.req.valid('json'), deps.now()),
      ),
    )
    .put('/hepsiburada', validate('json', connectHepsiburadaRequestSchema), async (c) =>
      c.json<IntegrationsResponse>(
        await connectHepsiburada(deps, currentUser(c).id, c.req.valid('json'), deps.now()),
      ),
    )
    .post('/:marketplace/test', async (c) => {
      const marketplace = c.req.param('marketplace')
      if (!isMarketplace(marketplace)) throw new AppError('NOT_FOUND', 'No such marketplace')
      return c.json<IntegrationsResponse>(
        await testConnection(deps, currentUser(c).id, marketplace, deps.now()),
      )
    })
    .delete('/:marketplace', async (c) => {
      const marketplace = c.req.param('marketplace')
      if (!isMarketplace(marketplace)) throw new AppError('NOT_FOUND', 'No such marketplace')
      return c.json<IntegrationsResponse>(await disconnect(deps, currentUser(c).id, marketplace))
    })
}

function isMarketplace(value: string): value is IntegrationMarketplace {
  return (integrationMarketplaces as readonly string[]).includes(value)
}
