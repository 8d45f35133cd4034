import { Hono } from 'hono'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import {
  type PublicationView,
  type PublishDraftResponse,
  type PublishResponse,
  publishDraftRequestSchema,
  publishRequestSchema,
  type ResubmitResponse,
  resubmitRequestSchema,
} from '#shared/contracts/publishing.ts'
import { getPublication, listPublications, type PublishDeps, publishResults } from './publish.service.ts'
import { type DraftDeps, draftAttributes } from './publish-draft.service.ts'
import { resubmitPublication } from './resubmit.service.ts'

/** /api/publications: studio results published to a marketplace, and how each product fares there. */
export function publicationsRoutes(deps: PublishDeps & { draft: DraftDeps }) {
  return new Hono<AppEnv>()
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
    .get('/', async (c) =>
      c.json<{ publications: PublicationView[] }>({
        publications: await listPublications(deps.db, currentUser(c).id),
      }),
    )
    .get('/:id', async (c) =>
      c.json<{ publication: PublicationView }>({
        publication: await getPublication(deps.db, currentUser(c).id, c.req.param('id')),
      }),
    )
}
