import { Hono } from 'hono'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import {
  type CataloguePublishDraftResponse,
  cataloguePublishDraftRequestSchema,
  cataloguePublishRequestSchema,
  type PublicationView,
  type PublishDraftResponse,
  type PublishResponse,
  publicationListQuerySchema,
  publishDraftRequestSchema,
  publishRequestSchema,
  type ResubmitResponse,
  resubmitRequestSchema,
} from '#shared/contracts/publishing.ts'
import {
  type CataloguePublishDeps,
  draftCataloguePublish,
  publishCatalogueBatch,
} from './catalogue-publish.service.ts'
import { getPublication, listPublications, publishResults } from './publish.service.ts'
import { draftAttributes } from './publish-draft.service.ts'
import { resubmitPublication } from './resubmit.service.ts'

/**
 * /api/publications: studio results and catalogue batches published to a marketplace, and how
 * each product fares there.
 */
export function publicationsRoutes(deps: CataloguePublishDeps) {
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      .post('/draft', validate('json', publishDraftRequestSchema), async (c) =>
        c.json<PublishDraftResponse>(
          await draftAttributes(deps.draft, currentUser(c).id, c.req.valid('json'), c.get('log')),
        ),
      )
      .post('/', validate('json', publishRequestSchema), async (c) =>
        c.json<PublishResponse>(await publishResults(deps, currentUser(c).id, c.req.valid('json')), 202),
      )
      .post('/:id/resubmit', validate('json', resubmitRequestSchema), async (c) =>
        c.json<ResubmitResponse>(
          await resubmitPublication(deps, currentUser(c).id, c.req.param('id'), c.req.valid('json')),
          202,
        ),
      )
      // Before the /:id routes, so "catalogue" is never read as a publication's id.
      .post('/catalogue/draft', validate('json', cataloguePublishDraftRequestSchema), async (c) =>
        c.json<CataloguePublishDraftResponse>(
          await draftCataloguePublish(deps, currentUser(c).id, c.req.valid('json')),
        ),
      )
      .post('/catalogue', validate('json', cataloguePublishRequestSchema), async (c) =>
        c.json<PublishResponse>(
          await publishCatalogueBatch(deps, currentUser(c).id, c.req.valid('json')),
          202,
        ),
      )
      .get('/', validate('query', publicationListQuerySchema), async (c) =>
        c.json<{ publications: PublicationView[] }>({
          publications: await listPublications(deps.db, currentUser(c).id, {
            batchId: c.req.valid('query').batchId,
          }),
        }),
      )
      .get('/:id', async (c) =>
        c.json<{ publication: PublicationView }>({
          publication: await getPublication(deps.db, currentUser(c).id, c.req.param('id')),
        }),
      )
  )
}
