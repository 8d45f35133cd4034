import { loadConfig } from '#server/config.ts'
import { type Db, openDatabase } from './client.ts'
import { type EmbeddedLock, EmbeddedLockHeldError, holdEmbeddedLock } from './embedded-lock.ts'

/**
 * Runs an operator command (npm run access-codes, npm run billing) on the configured database,
 * then exits with the code it returns. The embedded database can be opened by one process only,
 * so the command holds its data folder's lock (db/embedded-lock.ts) while it runs, and refuses,
 * with `whileServerRuns` as the advice, while a server holds it. An error is printed as its
 * message and exits 1.
 */
export async function runOperatorCommand(
  run: (db: Db) => Promise<number>,
  whileServerRuns = 'Stop it first.',
): Promise<never> {
  const config = loadConfig()
  let lock: EmbeddedLock | null = null
  if (!config.databaseUrl) {
    try {
      lock = await holdEmbeddedLock(config.dataDir)
    } catch (error) {
      if (!(error instanceof EmbeddedLockHeldError)) throw error
      const holder = error.holderPid ? `Vitrin (process ${error.holderPid})` : 'Another Vitrin process'
      process.stderr.write(
        `${holder} is using the embedded database in ${config.dataDir}. ${whileServerRuns}\n`,
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
    await lock?.release()
  }
  process.exit(exitCode)
}
