import type { AppDeps } from './app.ts'
import type { Config } from './config.ts'
import type { Database } from './db/client.ts'
import { createMailer } from './email/outbox.ts'
import { createEmailTransport, type EmailTransport } from './email/transport.ts'
import type { Logger } from './logger.ts'
import { createRateLimiter } from './rate-limit/rate-limiter.ts'

/** Wires the services the app needs from config and an open database. */
export async function createAppDeps(options: {
  config: Config
  database: Database
  logger: Logger
  transport?: EmailTransport
  isShuttingDown?: () => boolean
}): Promise<AppDeps> {
  const { config, database, logger } = options
  const transport = options.transport ?? (await createEmailTransport({ smtpUrl: config.smtpUrl }))
  return {
    config,
    database,
    logger,
    mailer: createMailer({ db: database.db, transport, from: config.mailFrom, logger }),
    rateLimiter: createRateLimiter(database.db),
    isShuttingDown: options.isShuttingDown ?? (() => false),
  }
}
