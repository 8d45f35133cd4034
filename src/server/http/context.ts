import type { Logger } from '../logger.ts'

/** What every request carries through Hono's context. */
export type AppEnv = {
  Variables: {
    requestId: string
    log: Logger
    clientIp: string
  }
}
