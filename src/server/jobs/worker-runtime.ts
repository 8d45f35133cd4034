import { workerCapWarning } from '#server/config.ts'
import type { AppDeps } from '#server/deps.ts'
import { sweepUnusedUploads } from '#server/features/assets/assets.service.ts'
import { sweepStaleDrafts } from '#server/features/catalogue/catalogue.service.ts'
import { sweepExpiredIdempotencyKeys } from '#server/features/idempotency/idempotency.service.ts'
import { sweepOrphanedMedia } from '#server/features/publishing/published-media.service.ts'
import { readFalKey } from '#server/features/settings/settings.service.ts'
import { createProviders, describeProviders, type Providers } from '#server/providers/index.ts'
import type { Services } from '#server/services.ts'
import { webhookAttemptTimeoutSeconds } from '#shared/contracts/webhooks.ts'
import { type PublisherOptions, startPublisher } from './publisher.ts'
import { startWebhookDispatcher, type WebhookDispatcherOptions } from './webhook-dispatcher.ts'
import { startWorker, type Worker } from './worker.ts'

/** Per-mode time limits: a video may legitimately take minutes at a provider. */
export const jobTimeoutMs = { image: 5 * 60_000, video: 15 * 60_000, seo: 3 * 60_000 } as const

/** How often unused uploads are looked for (they are deleted UPLOAD_RETENTION_HOURS after upload). */
export const uploadSweepIntervalMs = 15 * 60_000

/**
 * Deletes unused uploads past their retention now and then every interval, in whichever
 * process runs workers (any number may: each upload is deleted once). Returns the stop.
 */
export function startUploadSweep(deps: AppDeps, intervalMs = uploadSweepIntervalMs): () => void {
  const log = deps.logger.child({ component: 'upload-sweep' })
  let isRunning = false
  const sweep = async () => {
    if (isRunning) return
    isRunning = true
    try {
      const removed = await sweepUnusedUploads(
        {
          db: deps.database.db,
          storage: deps.storage,
          retentionHours: deps.config.limits.uploadRetentionHours,
          log,
        },
        deps.now(),
      )
      if (removed > 0) log.info({ removed }, 'deleted unused uploads')
      const drafts = await sweepStaleDrafts({ db: deps.database.db, storage: deps.storage, log }, deps.now())
      if (drafts > 0) log.info({ drafts }, 'deleted catalogue drafts never started')
      // Keys past their 24 hours are ignored already; this keeps the table small.
      const keys = await sweepExpiredIdempotencyKeys({ db: deps.database.db, now: deps.now })
      if (keys > 0) log.info({ keys }, 'deleted expired idempotency keys')
      // Published images whose image was deleted (just now, or by its owner since the last pass).
      const media = await sweepOrphanedMedia({ db: deps.database.db, storage: deps.storage, log })
      if (media > 0) log.info({ media }, 'revoked published images of deleted images')
    } catch (error) {
      log.warn({ err: error }, 'sweeping unused uploads failed; will try again')
    } finally {
      isRunning = false
    }
  }
  const first = setTimeout(sweep, 60_000)
  const timer = setInterval(sweep, intervalMs)
  first.unref()
  timer.unref()
  return () => {
    clearTimeout(first)
    clearInterval(timer)
  }
}

/** How often the outbox is looked at for emails due again (email/outbox.ts, outboxRetry). */
export const emailRetryIntervalMs = 60_000

/**
 * Delivers the outbox's emails due again every interval, in whichever process runs workers (any
 * number may: a delivery takes its email first, so none is sent twice). Returns the stop, which
 * waits for a pass under way.
 */
export function startEmailRetry(deps: AppDeps, intervalMs = emailRetryIntervalMs): () => Promise<void> {
  const log = deps.logger.child({ component: 'email-retry' })
  let running: Promise<void> | null = null
  const pass = () => {
    running ??= deps.mailer
      .retryDue(log)
      .then((tried) => {
        if (tried > 0) log.info({ tried }, 'retried outbox emails')
      })
      .catch((error: unknown) => log.warn({ err: error }, 'retrying outbox emails failed; will try again'))
      .finally(() => {
        running = null
      })
  }
  const timer = setInterval(pass, intervalMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}

/**
 * How webhooks are delivered (docs/decisions/0029-signed-webhooks-on-their-own-queue.md): 10 s per
 * attempt, retries from 30 s doubling up to an hour (about 30 attempts in the 24-hour window).
 */
export function webhookDispatcherOptions(deps: AppDeps): WebhookDispatcherOptions {
  return {
    db: deps.database.db,
    secretBox: deps.webhookBox,
    // The same guard as every user-given URL; with WEBHOOKS_ALLOW_LOOPBACK (development only) it
    // lets deliveries reach this machine, for `npm run webhooks:listen`.
    fetch: { allowPrivateHosts: deps.config.webhookAllowPrivateHosts, log: deps.logger },
    now: deps.now,
    log: deps.logger,
    notifier: deps.notifier,
    userAgent: `Vitrin-Webhooks/1 (+${deps.config.publicUrl})`,
    timeoutMs: webhookAttemptTimeoutSeconds * 1000,
    retry: { baseMs: 30_000, maxMs: 3_600_000 },
    concurrency: 8,
    leaseMs: 60_000,
    pollMs: 1000,
    crossProcessPollMs: 5000,
  }
}

/**
 * How publications are moved along (jobs/publisher.ts): PUBLISHER_CONCURRENCY steps at once, each
 * under a lease longer than a step's requests may take, and the marketplaces' status read again
 * after PUBLISHER_PROCESSING_POLL_MS / PUBLISHER_REVIEW_POLL_MS.
 */
export function publisherOptions(services: Services): PublisherOptions {
  const { deps, publications } = services
  const { config } = deps
  return {
    db: publications.db,
    rateLimiter: publications.rateLimiter,
    events: publications.events,
    connections: publications.connections,
    log: publications.log,
    now: publications.now,
    notifier: deps.notifier,
    allowHttpImages: publications.allowHttpImages,
    pollMs: publications.pollMs,
    concurrency: config.publisher.concurrency,
    // A send and its retries of a cut-off connection take at most a few 30 s requests.
    leaseMs: 5 * 60_000,
    idlePollMs: 1000,
    crossProcessIdlePollMs: 5000,
  }
}

/**
 * Says which providers serve what (and any worker cap warning) and builds them on the process's
 * segmenter. A process that serves the app builds them before its services, which take their
 * warm-up (a stored photo starts the model).
 */
export async function createConfiguredProviders(
  deps: Pick<AppDeps, 'config' | 'logger' | 'segmenter'>,
): Promise<Providers> {
  const { config, logger } = deps
  for (const line of describeProviders(config.providers)) logger[line.level](line.message)
  const capWarning = workerCapWarning(config.worker)
  if (capWarning) logger.warn(capWarning)
  return createProviders(config.providers, { logger, segmenter: deps.segmenter })
}

/**
 * Starts a worker on the configured providers (built here unless given), with the upload sweep,
 * email retries, the webhook dispatcher and the publisher beside it.
 */
export async function startConfiguredWorker(
  services: Services,
  given?: Providers,
): Promise<Worker & { warmUp?: Providers['warmUp'] | undefined }> {
  const { deps } = services
  const { config, logger } = deps
  const providers = given ?? (await createConfiguredProviders(deps))
  const stopSweep = startUploadSweep(deps)
  const stopEmailRetry = startEmailRetry(deps)
  const worker = startWorker({
    db: deps.database.db,
    storage: deps.storage,
    notifier: deps.notifier,
    outcomes: deps.jobOutcomes,
    logger,
    providers,
    // "Keep my product exactly" finds the product with the same model the offline studio uses.
    segmenter: deps.segmenter,
    readOwnFalKey: (userId) => readFalKey({ db: deps.database.db, keyBox: deps.keyBox }, userId),
    concurrency: config.worker.concurrency,
    maxRunningPerUser: config.worker.maxRunningPerUser,
    isClaimSerialized: deps.database.kind === 'postgres',
    leaseMs: 30_000,
    pollMs: 1000,
    // With LISTEN up, other processes' new work wakes the worker; retries it schedules itself
    // wake it too, so looking is left for other workers' retries and expired leases.
    crossProcessPollMs: 5000,
    maxAttempts: config.worker.maxAttempts,
    retryBaseMs: config.worker.retryBaseMs,
    timeoutMs: jobTimeoutMs,
    // New image results are measured for the marketplace checker after their jobs settle, with
    // the same model and OCR a check uses (decision 44).
    facts: {
      concurrency: config.worker.factsConcurrency,
      segmenter: services.marketplaces.segmenter,
      textReader: services.marketplaces.textReader,
      inspections: services.marketplaces.inspections,
    },
  })
  // Webhooks go out from every process that runs generation jobs, beside the worker.
  const webhooks = startWebhookDispatcher(webhookDispatcherOptions(deps))
  // And so do listings to the marketplaces: every such process shares the publications' steps.
  const publisher = startPublisher(publisherOptions(services))
  return {
    id: worker.id,
    warmUp: providers.warmUp,
    stop: async () => {
      stopSweep()
      await Promise.all([worker.stop(), webhooks.stop(), publisher.stop(), stopEmailRetry()])
    },
  }
}
