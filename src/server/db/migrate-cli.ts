import { loadConfig } from '#server/config.ts'
import { openDatabase } from './client.ts'

// `npm run db:migrate`: applies pending migrations to the configured database and exits.
// The server also migrates at start; this is for deploy pipelines that migrate first.
const config = loadConfig()
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
await database.migrate()
await database.close()
process.stdout.write(`migrations applied (${database.kind})\n`)
