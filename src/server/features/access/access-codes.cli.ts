import { loadConfig } from '../../config.ts'
import { openDatabase } from '../../db/client.ts'
import { embeddedLockHolder } from '../../db/embedded-lock.ts'
import { createAccessCode, listAccessCodes, revokeAccessCode } from './access-codes.service.ts'

// `npm run access-codes -- create [CODE] [--note "…"] | list | revoke CODE`

const usage = 'usage: npm run access-codes -- create [CODE] [--note "text"] | list | revoke CODE'
const [command, ...rest] = process.argv.slice(2)
const write = (line: string) => process.stdout.write(`${line}\n`)

const config = loadConfig()
if (!config.databaseUrl) {
  const holder = embeddedLockHolder(config.dataDir)
  if (holder) {
    process.stderr.write(
      `Vitrin (process ${holder}) is using the embedded database in ${config.dataDir}. Stop it first, or set ACCESS_CODES and restart.\n`,
    )
    process.exit(1)
  }
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 })
let exitCode = 0
try {
  await database.migrate()
  if (command === 'create') {
    const noteAt = rest.indexOf('--note')
    const note = noteAt >= 0 ? rest[noteAt + 1] : undefined
    const code = rest.find((arg, i) => !arg.startsWith('--') && i !== noteAt + 1)
    const row = await createAccessCode(database.db, {
      ...(code ? { code } : {}),
      source: 'cli',
      ...(note ? { note } : {}),
    })
    write(row.code)
  } else if (command === 'list') {
    const rows = await listAccessCodes(database.db)
    if (rows.length === 0) write('no access codes')
    for (const row of rows) {
      const state = row.revokedAt ? `revoked ${row.revokedAt.toISOString().slice(0, 10)}` : 'active'
      write(
        `${row.code}  ${state.padEnd(18)} ${String(row.redemptionCount).padStart(5)} uses  ${row.source}${row.note ? `  ${row.note}` : ''}`,
      )
    }
  } else if (command === 'revoke' && rest[0]) {
    write(
      (await revokeAccessCode(database.db, rest[0], new Date()))
        ? `revoked ${rest[0].toUpperCase()}`
        : 'no such active code',
    )
  } else {
    process.stderr.write(`${usage}\n`)
    exitCode = 2
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  exitCode = 1
} finally {
  await database.close()
}
process.exit(exitCode)
