import { Hono } from 'hono'
import { attachmentHeader } from '#server/http/attachment.ts'
import type { AppEnv } from '#server/http/context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import {
  type MarketplaceCheckView,
  type MarketplaceSummariesResponse,
  marketplaceCheckQuerySchema,
  marketplaceExportQuerySchema,
  marketplaceSummariesQuerySchema,
  type PreferencesResponse,
  updatePreferencesRequestSchema,
} from '#shared/contracts/marketplaces.ts'
import { checkForMarketplace, summariseForMarketplace } from './check-for-marketplace.service.ts'
import { exportForMarketplace } from './marketplace-export.service.ts'
import { createInspections, createVideoSlots, type MarketplaceDeps } from './marketplaces.service.ts'
import { getPreferences, updatePreferences } from './preferences.service.ts'

type RouteDeps = Omit<MarketplaceDeps, 'inspections' | 'videoSlots'> &
  Partial<Pick<MarketplaceDeps, 'inspections' | 'videoSlots'>>

/** The process's measurements and video slots, made once so every marketplace route shares them. */
export function marketplaceDeps(routeDeps: RouteDeps): MarketplaceDeps {
  return {
    ...routeDeps,
    inspections: routeDeps.inspections ?? createInspections(),
    videoSlots: routeDeps.videoSlots ?? createVideoSlots(),
  }
}

/** Mounted at /api/generations, beside the generations routes: a result's marketplace check and export. */
export function marketplaceRoutes(routeDeps: RouteDeps) {
  const deps = marketplaceDeps(routeDeps)
  return new Hono<AppEnv>()
    .get(
      '/:id/marketplace/:profile',
      requireUser,
      validate('query', marketplaceCheckQuerySchema),
      async (c) =>
        c.json<MarketplaceCheckView>(
          await checkForMarketplace(deps, currentUser(c).id, {
            generationId: c.req.param('id'),
            profile: c.req.param('profile'),
            slot: c.req.valid('query').slot,
          }),
        ),
    )
    .get(
      '/:id/marketplace/:profile/export',
      requireUser,
      validate('query', marketplaceExportQuerySchema),
      async (c) => {
        const file = await exportForMarketplace(deps, currentUser(c).id, {
          generationId: c.req.param('id'),
          profile: c.req.param('profile'),
          n: c.req.valid('query').n,
        })
        return c.body(new Uint8Array(file.bytes), 200, {
          'Content-Type': file.mime,
          'Content-Length': String(file.bytes.length),
          'Content-Disposition': attachmentHeader(file.fileName),
        })
      },
    )
}

/** Mounted at /api/marketplace: the library cards' checklist summaries, a page at a time. */
export function marketplaceSummaryRoutes(routeDeps: RouteDeps) {
  const deps = marketplaceDeps(routeDeps)
  return new Hono<AppEnv>().get(
    '/summaries',
    requireUser,
    validate('query', marketplaceSummariesQuerySchema),
    async (c) => {
      const query = c.req.valid('query')
      return c.json<MarketplaceSummariesResponse>(
        await summariseForMarketplace(deps, currentUser(c).id, {
          profile: query.profile,
          ids: query.ids,
          log: c.var.log,
        }),
      )
    },
  )
}

/** Mounted at /api/preferences: the profile the marketplace panels start with. */
export function preferencesRoutes(deps: Pick<MarketplaceDeps, 'db'>) {
  return new Hono<AppEnv>()
    .use(requireUser)
    .get('/', async (c) => c.json<PreferencesResponse>(await getPreferences(deps.db, currentUser(c).id)))
    .patch('/', validate('json', updatePreferencesRequestSchema), async (c) =>
      c.json<PreferencesResponse>(await updatePreferences(deps.db, currentUser(c).id, c.req.valid('json'))),
    )
}
