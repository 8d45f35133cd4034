import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { AppEnv } from '#server/http/context.ts'
import {
  createEventStreams,
  type EventStreams,
  eventStreamSessionCheckMs,
  isSessionLive,
} from '#server/http/event-streams.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import {
  createGenerationRequestSchema,
  createVideoRequestSchema,
  isTerminalStatus,
  listGenerationsQuerySchema,
} from '#shared/contracts/generations.ts'
import {
  type AssetRow,
  admitGeneration,
  cancelGeneration,
  createGeneration,
  createVideoFromImage,
  deleteGeneration,
  findOwnedRow,
  type GenerationDeps,
  type GenerationRow,
  getGeneration,
  getOwnedRowWithInput,
  listGenerations,
  presentRows,
  setSaved,
} from './generations.service.ts'

/** How often an event stream looks at the database when nothing in this process says "changed". */
const eventPollMs = 1000
/**
 * The same, once this process's own worker has reported on the job: its notices carry every
 * change, and the look at the database is only a safety net.
 */
const eventSafetyPollMs = 5000
const keepAliveMs = 15_000

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
        return c.json(
          { generation: await createGeneration(deps, currentUser(c).id, c.req.valid('json'), admission) },
          202,
        )
      })
      .get('/', validate('query', listGenerationsQuerySchema), async (c) => {
        c.header('Cache-Control', 'no-store')
        return c.json(await listGenerations(deps, currentUser(c).id, c.req.valid('query')))
      })
      .get('/:id', async (c) => {
        c.header('Cache-Control', 'no-store')
        return c.json({ generation: await getGeneration(deps, currentUser(c).id, c.req.param('id')) })
      })
      .post('/:id/video', validate('json', createVideoRequestSchema), async (c) => {
        await admitGeneration(deps, currentUser(c).id, c.get('clientIp'))
        return c.json(
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
        c.json({ generation: await setSaved(deps, currentUser(c).id, c.req.param('id'), true) }),
      )
      .delete('/:id/save', async (c) =>
        c.json({ generation: await setSaved(deps, currentUser(c).id, c.req.param('id'), false) }),
      )
      .post('/:id/cancel', async (c) =>
        c.json({ generation: await cancelGeneration(deps, currentUser(c).id, c.req.param('id')) }),
      )
      .delete('/:id', async (c) => {
        await deleteGeneration(deps, currentUser(c).id, c.req.param('id'))
        return c.body(null, 204)
      })
      // Server-sent events: the generation whenever its state changes, until it is finished.
      .get('/:id/events', async (c) => {
        const userId = currentUser(c).id
        const sessionId = c.get('sessionId')
        const id = c.req.param('id')
        const owned = await getOwnedRowWithInput(deps.db, userId, id)
        let row: GenerationRow | null = owned.row
        const release = streams.open(userId)
        return streamSSE(c, async (stream) => {
          let lastSeen = ''
          let lastSentAt = 0
          let wake: (() => void) | null = null
          // Set by a change notice; a notice that comes while we are busy is not lost.
          let isDirty = false
          // The row a notice carried, if the latest notice carried one: it saves a read.
          let noticed: GenerationRow | undefined
          const assetCache = new Map<string, AssetRow>(owned.input ? [[owned.input.id, owned.input]] : [])
          let pollMs = eventPollMs
          const unsubscribe = deps.notifier.onGenerationChanged(id, (changed, stored) => {
            isDirty = true
            noticed = changed
            if (changed) pollMs = eventSafetyPollMs
            for (const asset of stored ?? []) if (asset.userId === userId) assetCache.set(asset.id, asset)
            wake?.()
          })
          // The stream ends with its session: looked at every few seconds, and at once when a
          // session ends in this process.
          let isSessionCheckDue = false
          let lastSessionCheck = Date.now()
          const unwatchSessions = streams.onSessionsChanged(() => {
            isSessionCheckDue = true
            wake?.()
          })
          stream.onAbort(() => {
            unsubscribe()
            unwatchSessions()
            release()
            wake?.()
          })
          let lastSent = Date.now()
          try {
            while (!stream.aborted) {
              if (isSessionCheckDue || Date.now() - lastSessionCheck >= eventStreamSessionCheckMs) {
                isSessionCheckDue = false
                lastSessionCheck = Date.now()
                if (!sessionId || !(await isSessionLive(deps.db, sessionId, deps.now()))) break
              }
              // At most one read of the row per wake-up, none when a notice brought it; asset
              // rows are read once each.
              isDirty = false
              const fresh =
                noticed && noticed.userId === userId && noticed.updatedAt.getTime() >= lastSentAt
                  ? noticed
                  : undefined
              noticed = undefined
              row ??= fresh ?? (await findOwnedRow(deps.db, userId, id))
              if (!row) break
              const fingerprint = `${row.status}:${row.updatedAt.toISOString()}:${row.queuePosition ?? ''}`
              if (fingerprint !== lastSeen) {
                lastSeen = fingerprint
                lastSentAt = row.updatedAt.getTime()
                const [generation] = await presentRows(deps.db, [row], assetCache)
                if (!generation) break
                await stream.writeSSE({
                  event: 'generation',
                  data: JSON.stringify(generation),
                  id: fingerprint,
                })
                lastSent = Date.now()
                if (isTerminalStatus(generation.status)) break
              } else if (Date.now() - lastSent > keepAliveMs) {
                await stream.write(': keep-alive\n\n')
                lastSent = Date.now()
              }
              row = null
              if (isDirty || isSessionCheckDue) continue
              await new Promise<void>((resolve) => {
                const timer = setTimeout(resolve, pollMs)
                wake = () => {
                  clearTimeout(timer)
                  resolve()
                }
              })
            }
          } finally {
            unsubscribe()
            unwatchSessions()
            release()
          }
        })
      })
  )
}
