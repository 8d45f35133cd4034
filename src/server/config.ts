import { z } from 'zod'
import { loopbackHosts } from '#server/net/public-address.ts'
import { apiRateLimitDefaults } from '#shared/api-limits.ts'
import { isLocale, type Locale } from '#shared/i18n/locales.ts'

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes')

/**
 * Every setting Vitrin reads from the environment. With nothing set, the embedded
 * defaults run: PGlite and local files under ./data, mail to the log.
 */
const envSchema = z.object({
  /** development | production | test; production turns on Secure cookies and refuses test hooks. */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Interface to listen on. */
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Port to listen on; 0 picks a free one. */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * The public origin users reach, e.g. https://vitrin.example.com; the only source of emailed
   * links (a request's Host is never used). Required in production; elsewhere it defaults to
   * http://localhost:<PORT> (HOST when it is not a wildcard address).
   */
  PUBLIC_URL: z.url().optional(),
  /** Folder for the embedded database, local files and the generated secret. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** PostgreSQL connection string; when set, PostgreSQL replaces the embedded PGlite database. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Size of the PostgreSQL connection pool per process. */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** Secret for sessions and encryption (≥ 32 characters). Generated into DATA_DIR when unset in embedded mode. */
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Log level: fatal, error, warn, info, debug, trace or silent. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** SMTP server for outgoing mail, e.g. smtp://user:pass@mail.example.com:587; unset writes mail to the log. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** Sender of outgoing mail. */
  MAIL_FROM: z.string().min(3).default('Vitrin <no-reply@vitrin.localhost>'),
  /** Where contact-form messages are sent; also shown on the contact page. */
  SUPPORT_EMAIL: z.email().default('support@vitrin.localhost'),
  /** Language of mail sent to the support team. */
  SUPPORT_LANGUAGE: z.string().refine(isLocale, 'must be en or tr').default('en'),
  /** Trust X-Forwarded-For for the client address (only behind a proxy you control). */
  TRUST_PROXY: booleanFromString.default(false),
  /** Folder of the built web app to serve. */
  WEB_DIST_DIR: z.string().min(1).default('./dist/web'),
  /** Seconds to let requests in flight finish on shutdown. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(10),
  /** Beta access codes to accept, comma-separated (6 letters or digits each); more can be made with the CLI. */
  ACCESS_CODES: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((code) => code.trim().toUpperCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[A-Z0-9]{6}$/, 'each code must be 6 letters or digits')))
    .optional(),
  /**
   * Who takes payment for plans: manual (no payment; users choose plans, except in production,
   * where `npm run billing` sets them) or stripe (needs both STRIPE_ keys below). A key alone
   * does not switch it.
   */
  BILLING_PROVIDER: z.enum(['manual', 'stripe']).default('manual'),
  /** Stripe secret (sk_…) or restricted (rk_…) API key, test or live. */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_[A-Za-z0-9_]{4,}$/, 'must be a Stripe secret key (sk_… or rk_…)')
    .optional(),
  /** Signing secret (whsec_…) of the webhook endpoint `npm run billing:setup` made. */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9_]{4,}$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  /** Send Stripe API traffic to another origin, e.g. the fake in tests/fakes. Leave unset in production. */
  STRIPE_API_BASE: z
    .string()
    .regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be an http(s):// origin, e.g. http://127.0.0.1:4700')
    .optional(),
  /** Who edits images: offline (built-in studio, no AI) or fal. A key alone does not switch it. */
  IMAGE_PROVIDER: z.enum(['offline', 'fal']).default('offline'),
  /** Who makes videos: offline (built-in studio) or fal. */
  VIDEO_PROVIDER: z.enum(['offline', 'fal']).default('offline'),
  /** Who writes SEO copy: offline (built-in studio) or openai (any OpenAI-compatible chat API). */
  SEO_PROVIDER: z.enum(['offline', 'openai']).default('offline'),
  /** The server's fal.ai key (users may bring their own). */
  FAL_KEY: z.string().min(8).optional(),
  /** fal model for image edits. */
  FAL_IMAGE_MODEL: z.string().min(3).default('fal-ai/nano-banana/edit'),
  /** fal model for image-to-video (fal-ai/veo3.1/fast/image-to-video is the successor). */
  FAL_VIDEO_MODEL: z.string().min(3).default('fal-ai/veo3/fast/image-to-video'),
  /** Send fal traffic (queue and storage) to another origin, e.g. a local fake for tests. */
  FAL_BASE_URL: z.url().optional(),
  /** Trendyol's seller API, up to /integration (its stage host, or a local fake for tests). */
  TRENDYOL_API_BASE: z.url().default('https://apigw.trendyol.com/integration'),
  /** Hepsiburada's catalogue API host (mpop-sit.hepsiburada.com is its test environment, or a local fake). */
  HEPSIBURADA_API_BASE: z.url().default('https://mpop.hepsiburada.com'),
  /** How a fal job's status is followed: its status stream (falls back to polling) or polling alone. */
  FAL_STATUS_UPDATES: z.enum(['stream', 'poll']).default('stream'),
  /** Key for the OpenAI-compatible SEO model (any non-empty value for Ollama). */
  OPENAI_API_KEY: z.string().min(1).optional(),
  /** Base URL of the OpenAI-compatible API (OpenAI, OpenRouter, Ollama, vLLM). */
  OPENAI_BASE_URL: z.url().default('https://api.openai.com/v1'),
  /** Chat model for SEO copy; it must accept an image. */
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /**
   * Vision model (at OPENAI_BASE_URL, with OPENAI_API_KEY) that chooses a marketplace category's
   * remaining attributes among their allowed values from the product photo; unset: none, the
   * seller answers them.
   */
  VISION_MODEL: z.string().min(1).optional(),
  /** The ffmpeg binary the offline studio uses for videos. */
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  /** Read text and watermarks on results for the marketplace checker (OCR, about 110 MB while in use); false: "check by eye". */
  MARKETPLACE_OCR: booleanFromString.default(true),
  /** S3 bucket for uploads and results; when set, it replaces local files under DATA_DIR/files. */
  S3_BUCKET: z.string().min(3).max(63).optional(),
  /** Region of the bucket (any value the store accepts; MinIO and most others take us-east-1). */
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Endpoint of an S3-compatible store, e.g. http://minio:9000 or an R2 URL; unset means AWS. */
  S3_ENDPOINT: z.url().optional(),
  /** Access key id for the bucket. */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  /** Secret access key for the bucket. */
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Put the bucket in the URL path, not the host name; MinIO and most self-hosted stores need it. */
  S3_FORCE_PATH_STYLE: booleanFromString.default(false),
  /** Folder inside the bucket for Vitrin's objects, e.g. vitrin/, so a bucket can be shared. */
  S3_PREFIX: z.string().min(1).optional(),
  /**
   * The bucket's public address (a CDN or the store's public bucket URL, up to where object keys
   * start), e.g. https://media.example.com; when set, images published to marketplaces are linked
   * there (objects under `<S3_PREFIX>/published/`, which must be publicly readable) instead of
   * served under PUBLIC_URL/media.
   */
  S3_PUBLIC_URL: z.url().optional(),
  /** Generation jobs one worker runs at once. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Tries per job for transient failures (provider down, busy, or our own error). */
  WORKER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(4),
  /** Image results measured for the marketplace checker at once, after their jobs (0: none; decision 44). */
  WORKER_FACTS_CONCURRENCY: z.coerce.number().int().min(0).max(8).default(1),
  /** Wait before the first retry; doubled for each further try. */
  WORKER_RETRY_BASE_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  /**
   * Jobs one user may have running at once, across all workers; the rest of theirs wait their turn.
   * Unset: one fewer than WORKER_CONCURRENCY (at least 1), so one user never takes every slot.
   */
  WORKER_MAX_RUNNING_PER_USER: z.coerce.number().int().min(1).max(1000).optional(),
  /** Publication steps (a send to a marketplace, a status read) one worker process takes at once. */
  PUBLISHER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Wait before a marketplace's answer to a sent request is read, and read again while it is not ready. */
  PUBLISHER_PROCESSING_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /** Wait before products under the marketplace's review are read again. */
  PUBLISHER_REVIEW_POLL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** Jobs one user may have waiting or running at once; more are refused (QUEUE_FULL) until some finish. */
  MAX_QUEUED_PER_USER: z.coerce.number().int().min(1).max(100_000).default(50),
  /** Generations (image, video and SEO together) one account may start per minute. */
  GENERATIONS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(20),
  /** Generations one client address may start per minute, across accounts. */
  GENERATIONS_PER_MINUTE_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(60),
  /** New beta accounts (trials) one client address may make per 24 hours. */
  TRIALS_PER_DAY_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** Event streams (live job updates) one user may hold open in one server process. */
  EVENT_STREAMS_PER_USER: z.coerce.number().int().min(1).max(10_000).default(10),
  /** Uploads one account may make per minute. */
  UPLOADS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Webhook test events and resends one account may queue per minute, together. */
  WEBHOOK_SENDS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(10),
  /** Uploads one client address may make per minute, across accounts. */
  UPLOADS_PER_MINUTE_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(60),
  /** Catalogue product lists one account may import per hour (each is read on a worker thread). */
  CATALOGUE_IMPORTS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(60),
  /** Photo checks (a photo ZIP or the list's image links) one account may run per hour. */
  CATALOGUE_PHOTO_CHECKS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(30),
  /** The whole photo step of one import (every image link fetched) ends after this many seconds. */
  CATALOGUE_PHOTO_STEP_SECONDS: z.coerce.number().int().min(1).max(3_600).default(90),
  /** Public API (/v1): GET and HEAD requests one API key may make per minute. */
  API_READS_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(apiRateLimitDefaults.readsPerMinute),
  /** Public API (/v1): other requests (POST) one API key may make per minute. */
  API_WRITES_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(apiRateLimitDefaults.writesPerMinute),
  /** Uploads no generation uses (as input or reference) are deleted after this many hours. */
  UPLOAD_RETENTION_HOURS: z.coerce
    .number()
    .min(1)
    .max(24 * 365)
    .default(24),
  /** Run a worker inside the web server (the embedded default); false when `npm run worker` processes do the work. */
  IN_PROCESS_WORKER: booleanFromString.default(true),
  /** Test-only endpoints under /api/test (outbox, stored messages). Refused in production. */
  ENABLE_TEST_HOOKS: booleanFromString.default(false),
  /**
   * Test-only: hosts (`name` or `name:port`, comma-separated) that fetches of user-given links may
   * reach although they resolve to private addresses, on any port (src/server/net). Refused in production.
   */
  FETCH_ALLOW_PRIVATE_HOSTS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/,
            'each entry must be a host name or address, with an optional :port',
          ),
      ),
    )
    .optional(),
  /**
   * Development only: webhook endpoints may target this machine (localhost, 127.0.0.1, [::1], any
   * port), so that `npm run webhooks:listen` can receive deliveries. Refused unless NODE_ENV=development.
   */
  WEBHOOKS_ALLOW_LOOPBACK: booleanFromString.default(false),
})

/**
 * Rules between settings. Checked on the raw values, beside the schema, so that one start
 * reports these together with every other bad value.
 */
function crossCheck(env: Record<string, string>): string[] {
  const problems: string[] = []
  if (env.DATABASE_URL && !env.APP_SECRET) {
    problems.push(
      'APP_SECRET: is required with DATABASE_URL: every server of a shared deployment must hold the same secret',
    )
  }
  if (env.SEO_PROVIDER === 'openai' && !env.OPENAI_API_KEY) {
    problems.push(
      'OPENAI_API_KEY: is required with SEO_PROVIDER=openai (any non-empty value for a local Ollama)',
    )
  }
  if (env.VISION_MODEL && !env.OPENAI_API_KEY) {
    problems.push(
      'OPENAI_API_KEY: is required with VISION_MODEL (the vision model is reached at OPENAI_BASE_URL; any non-empty value for a local Ollama)',
    )
  }
  if (['false', '0', 'no'].includes(env.IN_PROCESS_WORKER ?? '') && !env.DATABASE_URL) {
    problems.push(
      'IN_PROCESS_WORKER: may be false only with DATABASE_URL (separate workers need a shared PostgreSQL)',
    )
  }
  if (env.S3_BUCKET && (!env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: are both required with S3_BUCKET')
  }
  if (env.S3_PUBLIC_URL && !env.S3_BUCKET) {
    problems.push('S3_PUBLIC_URL: needs S3_BUCKET (published images are linked in that bucket)')
  }
  if (env.NODE_ENV === 'production' && !env.PUBLIC_URL) {
    problems.push(
      'PUBLIC_URL: is required in production (e.g. https://vitrin.example.com): emailed links are built from it, never from the request',
    )
  }
  if (env.BILLING_PROVIDER === 'stripe' && (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET)) {
    problems.push('STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: are both required with BILLING_PROVIDER=stripe')
  }
  if (env.NODE_ENV === 'production' && env.STRIPE_API_BASE && !env.STRIPE_API_BASE.startsWith('https://')) {
    problems.push('STRIPE_API_BASE: must be an https:// URL in production (card and customer data go there)')
  }
  const isTestHooks = ['true', '1', 'yes'].includes(env.ENABLE_TEST_HOOKS ?? '')
  if (isTestHooks && env.NODE_ENV === 'production') {
    problems.push('ENABLE_TEST_HOOKS: must not be set in production')
  }
  if (env.FETCH_ALLOW_PRIVATE_HOSTS && env.NODE_ENV === 'production') {
    problems.push(
      'FETCH_ALLOW_PRIVATE_HOSTS: must not be set in production (it lets user-given links reach private addresses)',
    )
  }
  const isLoopbackWebhooks = ['true', '1', 'yes'].includes(env.WEBHOOKS_ALLOW_LOOPBACK ?? '')
  if (isLoopbackWebhooks && (env.NODE_ENV ?? 'development') !== 'development') {
    problems.push(
      'WEBHOOKS_ALLOW_LOOPBACK: may be true only with NODE_ENV=development (it lets webhooks reach this machine)',
    )
  }
  return problems
}

export type Config = {
  env: 'development' | 'production' | 'test'
  host: string
  port: number
  /** Origin of every emailed link: PUBLIC_URL, or http://localhost:<PORT> outside production. */
  publicUrl: string
  dataDir: string
  databaseUrl: string | undefined
  databasePoolMax: number
  appSecret: string | undefined
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL']
  smtpUrl: string | undefined
  mailFrom: string
  supportEmail: string
  supportLanguage: Locale
  trustProxy: boolean
  webDistDir: string
  shutdownGraceSeconds: number
  enableTestHooks: boolean
  /** The marketplace checker reads text on images (MARKETPLACE_OCR). */
  marketplaceOcr: boolean
  /** Hosts user-given links may reach at private addresses (tests only; empty in production). */
  fetchAllowPrivateHosts: string[]
  /**
   * Hosts webhook targets may name although private: fetchAllowPrivateHosts, plus the loopback
   * hosts with WEBHOOKS_ALLOW_LOOPBACK (development only).
   */
  webhookAllowPrivateHosts: string[]
  accessCodes: string[]
  billingProvider: 'manual' | 'stripe'
  /** Set with BILLING_PROVIDER=stripe. */
  stripe:
    | {
        secretKey: string
        webhookSecret: string
        /** Where the SDK sends requests instead of api.stripe.com (STRIPE_API_BASE). */
        api: { host: string; port: number; protocol: 'http' | 'https' } | undefined
      }
    | undefined
  worker: {
    concurrency: number
    inProcess: boolean
    maxAttempts: number
    retryBaseMs: number
    maxRunningPerUser: number
    maxQueuedPerUser: number
    /** Image results the worker measures for the checker at once, after their jobs (0: none). */
    factsConcurrency: number
  }
  /** The publisher beside each worker (jobs/publisher.ts). */
  publisher: {
    /** PUBLISHER_CONCURRENCY: publication steps one process takes at once. */
    concurrency: number
    /** PUBLISHER_PROCESSING_POLL_MS, PUBLISHER_REVIEW_POLL_MS. */
    pollMs: { processing: number; review: number }
  }
  limits: {
    generationsPerMinute: number
    generationsPerMinutePerClient: number
    uploadsPerMinute: number
    eventStreamsPerUser: number
    uploadsPerMinutePerClient: number
    /** New beta accounts (trials) one client address may make per 24 hours. */
    trialsPerDayPerClient: number
    uploadRetentionHours: number
    /** Webhook test events and resends per account per minute (WEBHOOK_SENDS_PER_MINUTE). */
    webhookSendsPerMinute: number
    catalogueImportsPerHour: number
    cataloguePhotoChecksPerHour: number
    /** Seconds the photo step of one import may take in all; rows not reached get `imageTimedOut`. */
    cataloguePhotoStepSeconds: number
    /** Public API requests per API key per minute: reads (GET, HEAD) and writes (the rest). */
    apiReadsPerMinute: number
    apiWritesPerMinute: number
  }
  storage: {
    kind: 'local' | 's3'
    s3?: {
      bucket: string
      region: string
      endpoint: string | undefined
      accessKeyId: string
      secretAccessKey: string
      forcePathStyle: boolean
      prefix: string | undefined
      /** S3_PUBLIC_URL without a trailing slash: where published images are linked instead of PUBLIC_URL/media. */
      publicUrl?: string | undefined
    }
  }
  providers: {
    image: 'offline' | 'fal'
    video: 'offline' | 'fal'
    seo: 'offline' | 'openai'
    fal: {
      key: string | undefined
      imageModel: string
      videoModel: string
      baseUrl: string | undefined
      statusUpdates: 'stream' | 'poll'
    }
    openai: {
      apiKey: string | undefined
      baseUrl: string
      model: string
      /** VISION_MODEL: chooses publishing attributes from the photo; undefined: no vision. */
      visionModel: string | undefined
    }
    ffmpegPath: string
  }
  /** The marketplaces' seller APIs publishing talks to (TRENDYOL_API_BASE, HEPSIBURADA_API_BASE). */
  marketplaceApis: { trendyol: string; hepsiburada: string }
}

/** Raised with every problem found, so one start shows all of them. */
export class ConfigError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

/** The origin of a server listening on host:port, as a browser on this machine reaches it. */
function localOrigin(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`
}

/**
 * With PORT=0 the port is only known once listening: call this then, so the default PUBLIC_URL
 * (and so every emailed link) names the real port. A configured PUBLIC_URL is left alone.
 */
export function adoptListeningPort(config: Config, port: number): void {
  if (config.port !== 0) return
  const url = new URL(config.publicUrl)
  if (url.port === '0') {
    url.port = String(port)
    config.publicUrl = url.origin
  }
}

/** STRIPE_API_BASE as the SDK's host, port and protocol options (it takes no base URL). */
function stripeApiAddress(base: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const url = new URL(base)
  const protocol = url.protocol === 'http:' ? 'http' : 'https'
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  }
}

/**
 * The per-user running cap when WORKER_MAX_RUNNING_PER_USER is unset: one below the worker's
 * slots (at least 1), so on a default server (2 slots) one user's jobs leave a slot for others.
 */
export function defaultMaxRunningPerUser(concurrency: number): number {
  return Math.max(1, concurrency - 1)
}

/**
 * The start-up warning for a per-user cap that lets one user fill every slot of this worker
 * (with one worker, the whole fleet), so another seller waits for a whole job; null when it
 * leaves room. With a single slot a cap of 1 cannot be lower, so that warns too.
 */
export function workerCapWarning(
  worker: Pick<Config['worker'], 'concurrency' | 'maxRunningPerUser'>,
): string | null {
  if (worker.maxRunningPerUser < worker.concurrency) return null
  return `WORKER_MAX_RUNNING_PER_USER (${worker.maxRunningPerUser}) is not below this worker's WORKER_CONCURRENCY (${worker.concurrency}): one user's jobs can fill every slot of it and other users wait; lower it, or run more workers`
}

/** Parses the environment once; empty strings count as unset. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env = Object.fromEntries(
    Object.keys(envSchema.shape).flatMap((key) => {
      const value = source[key]?.trim()
      return value ? [[key, value]] : []
    }),
  )
  const parsed = envSchema.safeParse(env)
  const problems = [
    ...(parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`)),
    ...crossCheck(env),
  ]
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems)
  const e = parsed.data
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, '') ?? localOrigin(e.HOST, e.PORT),
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    appSecret: e.APP_SECRET,
    logLevel: e.LOG_LEVEL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    supportLanguage: e.SUPPORT_LANGUAGE as Locale,
    trustProxy: e.TRUST_PROXY,
    webDistDir: e.WEB_DIST_DIR,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    enableTestHooks: e.ENABLE_TEST_HOOKS,
    marketplaceOcr: e.MARKETPLACE_OCR,
    fetchAllowPrivateHosts: e.FETCH_ALLOW_PRIVATE_HOSTS ?? [],
    webhookAllowPrivateHosts: [
      ...(e.FETCH_ALLOW_PRIVATE_HOSTS ?? []),
      ...(e.WEBHOOKS_ALLOW_LOOPBACK ? loopbackHosts : []),
    ],
    accessCodes: e.ACCESS_CODES ?? [],
    billingProvider: e.BILLING_PROVIDER,
    stripe:
      e.BILLING_PROVIDER === 'stripe' && e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            api: e.STRIPE_API_BASE ? stripeApiAddress(e.STRIPE_API_BASE) : undefined,
          }
        : undefined,
    worker: {
      concurrency: e.WORKER_CONCURRENCY,
      inProcess: e.IN_PROCESS_WORKER,
      maxAttempts: e.WORKER_MAX_ATTEMPTS,
      retryBaseMs: e.WORKER_RETRY_BASE_MS,
      maxRunningPerUser: e.WORKER_MAX_RUNNING_PER_USER ?? defaultMaxRunningPerUser(e.WORKER_CONCURRENCY),
      maxQueuedPerUser: e.MAX_QUEUED_PER_USER,
      factsConcurrency: e.WORKER_FACTS_CONCURRENCY,
    },
    publisher: {
      concurrency: e.PUBLISHER_CONCURRENCY,
      pollMs: { processing: e.PUBLISHER_PROCESSING_POLL_MS, review: e.PUBLISHER_REVIEW_POLL_MS },
    },
    limits: {
      generationsPerMinute: e.GENERATIONS_PER_MINUTE,
      generationsPerMinutePerClient: e.GENERATIONS_PER_MINUTE_PER_CLIENT,
      uploadsPerMinute: e.UPLOADS_PER_MINUTE,
      eventStreamsPerUser: e.EVENT_STREAMS_PER_USER,
      uploadsPerMinutePerClient: e.UPLOADS_PER_MINUTE_PER_CLIENT,
      trialsPerDayPerClient: e.TRIALS_PER_DAY_PER_CLIENT,
      uploadRetentionHours: e.UPLOAD_RETENTION_HOURS,
      webhookSendsPerMinute: e.WEBHOOK_SENDS_PER_MINUTE,
      catalogueImportsPerHour: e.CATALOGUE_IMPORTS_PER_HOUR,
      cataloguePhotoChecksPerHour: e.CATALOGUE_PHOTO_CHECKS_PER_HOUR,
      cataloguePhotoStepSeconds: e.CATALOGUE_PHOTO_STEP_SECONDS,
      apiReadsPerMinute: e.API_READS_PER_MINUTE,
      apiWritesPerMinute: e.API_WRITES_PER_MINUTE,
    },
    storage:
      e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            kind: 's3',
            s3: {
              bucket: e.S3_BUCKET,
              region: e.S3_REGION,
              endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ''),
              accessKeyId: e.S3_ACCESS_KEY_ID,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
              // Stored without slashes at either end; s3.ts joins it to each key with one.
              prefix: e.S3_PREFIX?.replace(/^\/+|\/+$/g, '') || undefined,
              publicUrl: e.S3_PUBLIC_URL?.replace(/\/+$/, ''),
            },
          }
        : { kind: 'local' },
    providers: {
      image: e.IMAGE_PROVIDER,
      video: e.VIDEO_PROVIDER,
      seo: e.SEO_PROVIDER,
      fal: {
        key: e.FAL_KEY,
        imageModel: e.FAL_IMAGE_MODEL,
        videoModel: e.FAL_VIDEO_MODEL,
        baseUrl: e.FAL_BASE_URL,
        statusUpdates: e.FAL_STATUS_UPDATES,
      },
      openai: {
        apiKey: e.OPENAI_API_KEY,
        baseUrl: e.OPENAI_BASE_URL.replace(/\/+$/, ''),
        model: e.OPENAI_MODEL,
        visionModel: e.VISION_MODEL,
      },
      ffmpegPath: e.FFMPEG_PATH,
    },
    marketplaceApis: {
      trendyol: e.TRENDYOL_API_BASE.replace(/\/+$/, ''),
      hepsiburada: e.HEPSIBURADA_API_BASE.replace(/\/+$/, ''),
    },
  }
}
