import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import type { Notifier } from '#server/events/notifier.ts'
import { attachmentHeader } from '#server/http/attachment.ts'
import type { AppEnv } from '#server/http/context.ts'
import type { EventStreams } from '#server/http/event-streams.ts'
import { receiveFileToDisk } from '#server/http/multipart.ts'
import { requestContext } from '#server/http/request-context.ts'
import { currentUser, requireUser } from '#server/http/session.ts'
import { validate } from '#server/http/validate.ts'
import { catalogueLimits } from '#shared/catalogue/limits.ts'
import {
  type BatchListResponse,
  type BatchView,
  type CatalogueImportView,
  type RowCopyView,
  regenerateRowRequestSchema,
  rowCopyRequestSchema,
  rowExclusionsRequestSchema,
  type SavedMappingResponse,
  startBatchRequestSchema,
  updateMappingRequestSchema,
} from '#shared/contracts/catalogue.ts'
import { AppError } from '#shared/errors.ts'
import { isLocale, type Locale } from '#shared/i18n/locales.ts'
import { openBatchEvents } from './batch-events.ts'
import {
  admitCatalogueStep,
  type CatalogueDeps,
  type CatalogueRateLimits,
  cancelCatalogueBatch,
  getBatchView,
  getImportView,
  getSavedMapping,
  listBatches,
  retryCatalogueBatch,
  startBatch,
} from './catalogue.service.ts'
import { checkPhotos, importList, updateMapping } from './catalogue-import.service.ts'
import {
  deleteDraft,
  getRowCopy,
  regenerateRow,
  revertRowCopy,
  saveRowCopy,
  setRowExclusions,
} from './catalogue-review.service.ts'
import { exportableBatch, exportFileName, writeBatchExport } from './outgoing.service.ts'

export type CatalogueRouteDeps = CatalogueDeps &
  CatalogueRateLimits & {
    /** A private folder for uploads on their way in (a photo ZIP is read from disk, not memory). */
    tempDir: string
    notifier: Notifier
    /** Caps each user's open event streams; app.ts passes the one sign-outs signal. */
    streams: EventStreams
  }

/**
 * The language of the listing's own column headers. The ZIP is fetched by a plain link, which
 * cannot send X-Vitrin-Locale, so the page puts its language in `?lang=`; the header still counts
 * for API clients.
 */
function exportLocale(lang: string | undefined): Locale {
  return isLocale(lang) ? lang : (requestContext.getStore()?.locale ?? 'en')
}

/** The catalogue API; the shapes are in shared/contracts/catalogue.ts. */
export function catalogueRoutes(deps: CatalogueRouteDeps) {
  return (
    new Hono<AppEnv>()
      .use(requireUser)
      .post('/imports', async (c) => {
        // Counted before the body is read: reading a list costs a worker thread up to its budget.
        await admitCatalogueStep(deps, currentUser(c).id, 'imports')
        // Received to disk and read there by the list reader's thread: a 10 MB list never sits
        // whole in this thread's memory (its buffers, their copy and the collection they cost
        // held every request here for up to 150 ms).
        const path = join(deps.tempDir, `list-${randomUUID()}`)
        try {
          const file = await receiveFileToDisk(c.req.raw, catalogueLimits.maxListFileBytes, path)
          if (!file) throw new AppError('FILE_MISSING', 'No file in the upload')
          const view = await importList(deps, currentUser(c).id, { name: file.name, path })
          return c.json<CatalogueImportView>(view, 201)
        } finally {
          await rm(path, { force: true })
        }
      })
      .get('/mapping', async (c) =>
        c.json<SavedMappingResponse>(await getSavedMapping(deps, currentUser(c).id)),
      )
      .get('/batches', async (c) => c.json<BatchListResponse>(await listBatches(deps, currentUser(c).id)))
      .get('/batches/:id/import', async (c) =>
        c.json<CatalogueImportView>(await getImportView(deps, currentUser(c).id, c.req.param('id'))),
      )
      .put('/batches/:id/mapping', validate('json', updateMappingRequestSchema), async (c) =>
        c.json<CatalogueImportView>(
          await updateMapping(deps, currentUser(c).id, c.req.param('id'), c.req.valid('json').mapping),
        ),
      )
      .post('/batches/:id/photos', async (c) => {
        await admitCatalogueStep(deps, currentUser(c).id, 'photoChecks')
        const path = join(deps.tempDir, `photos-${randomUUID()}.zip`)
        const zip = await receiveFileToDisk(c.req.raw, catalogueLimits.photoZip.maxFileBytes, path)
        return c.json<CatalogueImportView>(
          await checkPhotos(deps, currentUser(c).id, c.req.param('id'), zip ? { path } : null),
        )
      })
      .post('/batches/:id/start', validate('json', startBatchRequestSchema), async (c) =>
        c.json<BatchView>(await startBatch(deps, currentUser(c).id, c.req.param('id'), c.req.valid('json'))),
      )
      .get('/batches/:id', async (c) =>
        c.json<BatchView>(await getBatchView(deps, currentUser(c).id, c.req.param('id'))),
      )
      // Server-sent events: the batch's view whenever it changes, until it is finished.
      .get('/batches/:id/events', async (c) => {
        const events = await openBatchEvents(deps, {
          userId: currentUser(c).id,
          sessionId: c.get('sessionId'),
          batchId: c.req.param('id'),
        })
        return streamSSE(c, async (stream) => {
          stream.onAbort(() => events.close())
          for await (const event of events) {
            if (stream.aborted) break
            if (event.type === 'keep-alive') await stream.write(': keep-alive\n\n')
            else await stream.writeSSE({ event: 'batch', data: JSON.stringify(event.batch), id: event.id })
          }
        })
      })
      .post('/batches/:id/cancel', async (c) =>
        c.json<BatchView>(await cancelCatalogueBatch(deps, currentUser(c).id, c.req.param('id'))),
      )
      .post('/batches/:id/retry', async (c) =>
        c.json<BatchView>(await retryCatalogueBatch(deps, currentUser(c).id, c.req.param('id'))),
      )
      // The review of one product before the export.
      .get('/batches/:id/rows/:rowId/copy', async (c) =>
        c.json<RowCopyView>(
          await getRowCopy(deps, currentUser(c).id, c.req.param('id'), c.req.param('rowId')),
        ),
      )
      .put('/batches/:id/rows/:rowId/copy', validate('json', rowCopyRequestSchema), async (c) =>
        c.json<RowCopyView>(
          await saveRowCopy(
            deps,
            currentUser(c).id,
            c.req.param('id'),
            c.req.param('rowId'),
            c.req.valid('json'),
          ),
        ),
      )
      .delete('/batches/:id/rows/:rowId/copy', async (c) =>
        c.json<RowCopyView>(
          await revertRowCopy(deps, currentUser(c).id, c.req.param('id'), c.req.param('rowId')),
        ),
      )
      .put('/batches/:id/rows/:rowId/exclusions', validate('json', rowExclusionsRequestSchema), async (c) =>
        c.json<BatchView>(
          await setRowExclusions(
            deps,
            currentUser(c).id,
            c.req.param('id'),
            c.req.param('rowId'),
            c.req.valid('json').excluded,
          ),
        ),
      )
      .post('/batches/:id/rows/:rowId/regenerate', validate('json', regenerateRowRequestSchema), async (c) =>
        c.json<BatchView>(
          await regenerateRow(
            deps,
            currentUser(c).id,
            c.req.param('id'),
            c.req.param('rowId'),
            c.req.valid('json'),
          ),
        ),
      )
      // The ZIP is streamed while it is built; an error after the first byte can only cut it off
      // (the archive is destroyed, so a cut-off download never looks complete).
      .get('/batches/:id/export', async (c) => {
        const userId = currentUser(c).id
        const batch = await exportableBatch(deps, userId, c.req.param('id'))
        const out = new PassThrough()
        const log = c.get('log')
        writeBatchExport(deps, userId, batch.id, {
          out,
          locale: exportLocale(c.req.query('lang')),
          signal: c.req.raw.signal,
          tempDir: deps.tempDir,
        }).catch((error: unknown) => {
          if (!c.req.raw.signal.aborted)
            log.error({ err: error, batchId: batch.id }, 'catalogue export failed')
          out.destroy(error instanceof Error ? error : new Error('export failed'))
        })
        return new Response(Readable.toWeb(out) as unknown as ReadableStream, {
          headers: {
            'Content-Type': 'application/zip',
            'Content-Disposition': attachmentHeader(exportFileName(batch)),
            'Cache-Control': 'private, no-store',
          },
        })
      })
      .delete('/batches/:id', async (c) => {
        await deleteDraft(deps, currentUser(c).id, c.req.param('id'))
        return c.body(null, 204)
      })
  )
}
