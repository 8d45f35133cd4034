import { loadConfig } from '#server/config.ts'
import { openDatabase } from './client.ts'
import { type EmbeddedLock, EmbeddedLockHeldError, holdEmbeddedLock } from './embedded-lock.ts'

// `npm run db:migrate`: applies pending migrations to the configured database and exits.
// The server also migrates at start; this is for deploy pipelines that migrate first.
const config = loadConfig()
// The embedded database can be opened by one process only (db/embedded-lock.ts).
let lock: EmbeddedLock | null = null
if (!config.databaseUrl) {
  try {
    lock = await holdEmbeddedLock(config.dataDir)
  } catch (error) {
    if (!(error instanceof EmbeddedLockHeldError)) throw error
    process.stderr.write(`${error.message}\n`)
    process.exit(1)
  }
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
await database.migrate()
await database.close()
await lock?.release()
process.stdout.write(`migrations applied (${database.kind})\n`)
