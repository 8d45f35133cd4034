import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import { type IntegrationMarketplace, integrationMarketplaces } from '#shared/contracts/integrations.ts'
import {
  type BrandSearchResponse,
  brandSearchQuerySchema,
  type CategoryAttributesResponse,
  type CategorySearchResponse,
  categorySearchQuerySchema,
  type TaxonomyRefreshResponse,
} from '#shared/contracts/publishing.ts'
import { AppError } from '#shared/errors.ts'
import type { Taxonomy } from './taxonomy.service.ts'

const categoryParamSchema = z.object({ id: z.string().regex(/^\d{1,18}$/) })

/**
 * /api/integrations, beside the connections: the marketplace's categories (searched), a
 * category's attributes, a refresh of the cached list, and Trendyol's brands. Each is read with
 * the asking seller's own connection.
 */
export function taxonomyRoutes(taxonomy: Taxonomy) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/trendyol/brands', validate('query', brandSearchQuerySchema), async (c) =>
      c.json<BrandSearchResponse>({
        brands: await taxonomy.brands(currentUser(c).id, c.req.valid('query').q),
      }),
    )
    .get('/:marketplace/categories', validate('query', categorySearchQuerySchema), async (c) =>
      c.json<CategorySearchResponse>(
        await taxonomy.search(
          currentUser(c).id,
          marketplaceOf(c.req.param('marketplace')),
          c.req.valid('query').q,
        ),
      ),
    )
    .get('/:marketplace/categories/:id/attributes', validate('param', categoryParamSchema), async (c) =>
      c.json<CategoryAttributesResponse>(
        await taxonomy.attributes(
          currentUser(c).id,
          marketplaceOf(c.req.param('marketplace')),
          c.req.valid('param').id,
        ),
      ),
    )
    .post('/:marketplace/taxonomy/refresh', async (c) =>
      c.json<TaxonomyRefreshResponse>(
        await taxonomy.refresh(currentUser(c).id, marketplaceOf(c.req.param('marketplace'))),
      ),
    )
}

function marketplaceOf(value: string): IntegrationMarketplace {
  if (!(integrationMarketplaces as readonly string[]).includes(value)) {
    throw new AppError('NOT_FOUND', 'No such marketplace')
  }
  return value as IntegrationMarketplace
}
