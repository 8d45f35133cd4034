import { loadConfig } from '#server/config.ts'
import { type Db, openDatabase } from './client.ts'
import {
  askLockHolder,
  type EmbeddedLock,
  EmbeddedLockHeldError,
  holdEmbeddedLock,
  type LockRequest,
} from './embedded-lock.ts'

/**
 * Runs an operator command (npm run access-codes, npm run billing) on the configured database,
 * then exits with the code it returns. The embedded database can be opened by one process only,
 * so the command holds its data folder's lock (db/embedded-lock.ts) while it runs. While a server
 * holds it, a command given as `viaServer` is sent to that server, which runs it on its own
 * database and answers with what to print; otherwise (or when the holder does not answer, e.g.
 * a migration) the command refuses, with `whileServerRuns` as the advice. An error is printed
 * as its message and exits 1.
 */
export async function runOperatorCommand(
  run: (db: Db) => Promise<number>,
  whileServerRuns = 'Stop it first.',
  viaServer?: LockRequest,
): Promise<never> {
  const config = loadConfig()
  let lock: EmbeddedLock | null = null
  if (!config.databaseUrl) {
    try {
      lock = await holdEmbeddedLock(config.dataDir)
    } catch (error) {
      if (!(error instanceof EmbeddedLockHeldError)) throw error
      const answer = viaServer ? await askLockHolder(config.dataDir, viaServer) : null
      if (answer) {
        process.stdout.write(answer.stdout)
        process.stderr.write(answer.stderr)
        process.exit(answer.exitCode)
      }
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
