import { loadConfig } from '#server/config.ts'
import { type Db, openDatabase } from './client.ts'
import { embeddedLockHolder } from './embedded-lock.ts'

/**
 * Runs an operator command (npm run access-codes, npm run billing) on the configured database,
 * then exits with the code it returns. The embedded database can be opened by one process only,
 * so the command refuses, with `whileServerRuns` as the advice, while a server holds it. An error
 * is printed as its message and exits 1.
 */
export async function runOperatorCommand(
  run: (db: Db) => Promise<number>,
  whileServerRuns = 'Stop it first.',
): Promise<never> {
  const config = loadConfig()
  if (!config.databaseUrl) {
    const holder = embeddedLockHolder(config.dataDir)
    if (holder) {
      process.stderr.write(
        `Vitrin (process ${holder}) is using the embedded database in ${config.dataDir}. ${whileServerRuns}\n`,
      )
      process.exit(1)
    }
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: 2,
  })
  let exitCode = 0
  try {
    await database.migrate()
    exitCode = await run(database.db)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    exitCode = 1
  } finally {
    await database.close()
  }
  process.exit(exitCode)
}
