import { join } from 'node:path'
import { type Auth, createAuth } from '#server/auth/auth.ts'
import { createSecretBox, type SecretBox } from '#server/crypto/secret-box.ts'
import type { Database } from '#server/db/client.ts'
import { createMailer, type Mailer } from '#server/email/outbox.ts'
import { createEmailTransport, type EmailTransport } from '#server/email/transport.ts'
import { createNotifier, type Notifier } from '#server/events/notifier.ts'
import { startPgNotifier } from '#server/events/pg-notifier.ts'
import type { EventRecorder } from '#server/events/recorder.ts'
import {
  type BillingProvider,
  createManualBillingProvider,
} from '#server/features/billing/billing-provider.ts'
import { createListReader, type ListReader } from '#server/features/catalogue/import/list-reader.ts'
import { createInspections, type Inspections } from '#server/features/marketplaces/marketplaces.service.ts'
import { createTextReader, type TextReader } from '#server/features/marketplaces/read-text.ts'
import { webhookEvents } from '#server/features/webhooks/webhook-events.service.ts'
import type { JobOutcomes } from '#server/job-queue/outcomes.ts'
import type { Providers } from '#server/providers/index.ts'
import { createRateLimiter, type RateLimiter } from '#server/rate-limit/rate-limiter.ts'
import { createSegmenter, type Segmenter } from '#server/segmentation/segmenter.ts'
import { createStorage } from '#server/storage/index.ts'
import type { ObjectStorage } from '#server/storage/types.ts'
import type { Config } from './config.ts'
import { jobOutcomes } from './job-outcomes.ts'
import type { Logger } from './logger.ts'
import { ensurePrivateDir, removeOldFiles } from './private-dir.ts'

/**
 * Everything the app and the worker need, built by createAppDeps (or by tests) and passed in:
 * the HTTP app (app.ts) and the worker runtime (jobs/worker-runtime.ts) both take it.
 */
export type AppDeps = {
  config: Config
  database: Database
  logger: Logger
  mailer: Mailer
  rateLimiter: RateLimiter
  auth: Auth
  billing: BillingProvider
  /** Encrypts users' provider keys. */
  keyBox: SecretBox
  /** Encrypts webhook endpoints' signing secrets (a key of its own, derived from APP_SECRET). */
  webhookBox: SecretBox
  /** Encrypts sellers' marketplace API credentials (a key of its own, derived from APP_SECRET). */
  marketplaceBox: SecretBox
  storage: ObjectStorage
  /** In memory on PGlite (one process); also over LISTEN/NOTIFY on PostgreSQL. Closed before the database. */
  notifier: Notifier
  /**
   * Reads text on images for the marketplace checker: one OCR worker, started on first use,
   * stopped when idle. Made by main.ts or worker-main.ts (null with MARKETPLACE_OCR=false); whoever
   * made it closes it.
   */
  textReader: TextReader | null
  /**
   * Reads the catalogue's product lists and indexes its photo ZIPs on worker threads (started on
   * first use, each released when idle): made by main.ts, which closes it on shutdown.
   */
  listReader: ListReader
  /**
   * The marketplace checker's image measurements under way in this process: the routes' and the
   * in-process worker's facts measurer share them, so a check opened while the measurer is on
   * that file waits for its measurement instead of starting another.
   */
  imageInspections: Inspections
  /**
   * `DATA_DIR/incoming`, owner-only: photo ZIPs are received here before they are checked, and
   * exports are put together here. Whoever serves the app makes and sweeps it first
   * (prepareIncomingDir); a worker process never touches it.
   */
  incomingDir: string
  /**
   * The process's one segmentation model (started on first use, ended after an idle minute):
   * made by main.ts or worker-main.ts, shared by the offline studio, the job runner and the
   * marketplace measurer; whoever made it closes it.
   */
  segmenter: Segmenter
  /** What the features do when a job is accepted and settles (job-outcomes.ts). */
  jobOutcomes: JobOutcomes
  /** Records batches finished and products decided with them (the webhooks' deliveries). */
  events: EventRecorder
  now: () => Date
  isShuttingDown: () => boolean
  /**
   * In a process that runs the worker with the offline studio making images (main.ts sets it from
   * the worker's warmUp): loads the model, and separates a photo's product when one is given. A
   * stored upload calls it, since an image job usually follows.
   */
  warmUpStudio?: Providers['warmUp']
}

/** Wires the services the app needs from config and an open database. */
export async function createAppDeps(options: {
  config: Config
  database: Database
  logger: Logger
  transport?: EmailTransport
  isShuttingDown?: () => boolean
  /** The clock; tests move it to cross periods. */
  now?: () => Date
  /** The process's segmentation model; a new one (nothing started until its first photo) when left out. */
  segmenter?: Segmenter
  /**
   * The process's OCR reader, or null for none; when left out, a new one (no thread until a check
   * reads text) if config.marketplaceOcr, else null.
   */
  textReader?: TextReader | null
  /**
   * The process's list reader; a new one (no thread until its first list) when left out, as in a
   * worker process, which reads no list.
   */
  listReader?: ListReader
}): Promise<AppDeps> {
  const { config, database, logger } = options
  const db = database.db
  if (!config.appSecret)
    throw new Error('createAppDeps needs config.appSecret (main.ts fills it in embedded mode)')
  const transport = options.transport ?? (await createEmailTransport({ smtpUrl: config.smtpUrl }))
  const mailer = createMailer({ db, transport, from: config.mailFrom, logger, now: options.now })
  return {
    config,
    database,
    logger,
    mailer,
    rateLimiter: createRateLimiter(db),
    auth: createAuth({
      db,
      secret: config.appSecret,
      baseUrl: config.publicUrl,
      isProduction: config.env === 'production',
      logger,
    }),
    billing: await createBillingProvider(config, db, options.now ?? (() => new Date()), mailer),
    keyBox: createSecretBox(config.appSecret, 'provider-keys v1'),
    webhookBox: createSecretBox(config.appSecret, 'webhook-secrets v1'),
    marketplaceBox: createSecretBox(config.appSecret, 'marketplace-connections v1'),
    storage: await createStorage(config),
    // Separate processes (workers, more servers) share a PostgreSQL: their signals travel through it.
    notifier: database.openSession
      ? await startPgNotifier({ db, openSession: database.openSession, logger })
      : createNotifier(),
    textReader:
      options.textReader !== undefined
        ? options.textReader
        : config.marketplaceOcr
          ? createTextReader({ log: logger })
          : null,
    listReader: options.listReader ?? createListReader(),
    imageInspections: createInspections(),
    incomingDir: join(config.dataDir, 'incoming'),
    segmenter: options.segmenter ?? createSegmenter(),
    jobOutcomes: jobOutcomes(logger),
    events: webhookEvents,
    now: options.now ?? (() => new Date()),
    isShuttingDown: options.isShuttingDown ?? (() => false),
  }
}

/** A file in `DATA_DIR/incoming` unchanged this long is left over from a stopped process. */
export const staleIncomingMs = 10 * 60_000

/**
 * Makes the incoming folder (`AppDeps.incomingDir`, owner-only) and removes what a stopped process
 * left there, before the app serves. A photo ZIP is removed when its request ends, received or
 * not; one left by a process that stopped goes here, at start. A file written in the last minutes
 * may be another server's upload under way (servers on one machine can share DATA_DIR with
 * PostgreSQL), so it stays.
 */
export function prepareIncomingDir(deps: Pick<AppDeps, 'incomingDir'>): void {
  ensurePrivateDir(deps.incomingDir)
  removeOldFiles(deps.incomingDir, staleIncomingMs)
}

async function createBillingProvider(
  config: Config,
  db: Database['db'],
  now: () => Date,
  mailer: Mailer,
): Promise<BillingProvider> {
  if (config.billingProvider === 'stripe' && config.stripe) {
    // Stripe's SDK is loaded only where it is used (about half a second of every start otherwise).
    const { createStripeBillingProvider, createStripeClient } = await import(
      '#server/features/billing/stripe-billing-provider.ts'
    )
    return createStripeBillingProvider({
      db,
      stripe: createStripeClient(config.stripe),
      webhookSecret: config.stripe.webhookSecret,
      publicUrl: () => config.publicUrl,
      now,
      mailer,
    })
  }
  // In production no user may give themselves a plan for free: the operator sets plans.
  return createManualBillingProvider(db, { canUsersChangePlan: config.env !== 'production' })
}
