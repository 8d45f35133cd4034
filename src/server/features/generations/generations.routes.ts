import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { AppEnv } from '#server/http/context.ts'
import { createEventStreams, type EventStreams } from '#server/http/event-streams.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import {
  createGenerationRequestSchema,
  createVideoRequestSchema,
  type GenerationListResponse,
  type GenerationResponse,
  listGenerationsQuerySchema,
} from '#shared/contracts/generations.ts'
import { admitGeneration, createGeneration, createVideoFromImage } from './create-generation.service.ts'
import { openGenerationEvents } from './generation-events.ts'
import {
  cancelGeneration,
  deleteGeneration,
  type GenerationDeps,
  getGeneration,
  listGenerations,
  setSaved,
} from './generations.service.ts'

/**
 * `streams` caps each user's open event streams and tells them when sessions end in this
 * process (app.ts passes the one the sign-out routes signal); without it each router has its own.
 */
export function generationsRoutes(deps: GenerationDeps, streams: EventStreams = createEventStreams()) {
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      .post('/', validate('json', createGenerationRequestSchema), async (c) => {
        const admission = admitGeneration(deps, currentUser(c).id, c.get('clientIp'))
        admission.catch(() => undefined)
        return c.json<GenerationResponse>(
          { generation: await createGeneration(deps, currentUser(c).id, c.req.valid('json'), admission) },
          202,
        )
      })
      .get('/', validate('query', listGenerationsQuerySchema), async (c) => {
        c.header('Cache-Control', 'no-store')
        return c.json<GenerationListResponse>(
          await listGenerations(deps, currentUser(c).id, c.req.valid('query')),
        )
      })
      .get('/:id', async (c) => {
        c.header('Cache-Control', 'no-store')
        return c.json<GenerationResponse>({
          generation: await getGeneration(deps, currentUser(c).id, c.req.param('id')),
        })
      })
      .post('/:id/video', validate('json', createVideoRequestSchema), async (c) => {
        await admitGeneration(deps, currentUser(c).id, c.get('clientIp'))
        return c.json<GenerationResponse>(
          {
            generation: await createVideoFromImage(
              deps,
              currentUser(c).id,
              c.req.param('id'),
              c.req.valid('json'),
            ),
          },
          202,
        )
      })
      .post('/:id/save', async (c) =>
        c.json<GenerationResponse>({
          generation: await setSaved(deps, currentUser(c).id, c.req.param('id'), true),
        }),
      )
      .delete('/:id/save', async (c) =>
        c.json<GenerationResponse>({
          generation: await setSaved(deps, currentUser(c).id, c.req.param('id'), false),
        }),
      )
      .post('/:id/cancel', async (c) =>
        c.json<GenerationResponse>({
          generation: await cancelGeneration(deps, currentUser(c).id, c.req.param('id')),
        }),
      )
      .delete('/:id', async (c) => {
        await deleteGeneration(deps, currentUser(c).id, c.req.param('id'))
        return c.body(null, 204)
      })
      // Server-sent events: the generation whenever its state changes, until it is finished.
      .get('/:id/events', async (c) => {
        const events = await openGenerationEvents(
          { ...deps, streams },
          { userId: currentUser(c).id, sessionId: c.get('sessionId'), generationId: c.req.param('id') },
        )
        return streamSSE(c, async (stream) => {
          stream.onAbort(() => events.close())
          for await (const event of events) {
            if (stream.aborted) break
            if (event.type === 'keep-alive') await stream.write(': keep-alive\n\n')
            else {
              await stream.writeSSE({
                event: 'generation',
                data: JSON.stringify(event.generation),
                id: event.id,
              })
            }
          }
        })
      })
  )
}
