import { isPlanId } from '../../../shared/plans.ts'
import { loadConfig } from '../../config.ts'
import { openDatabase } from '../../db/client.ts'
import { embeddedLockHolder } from '../../db/embedded-lock.ts'
import { setPlanByOperator } from './billing-operator.service.ts'

// `npm run billing -- set-plan <email|user-id> <starter|growth|pro|none>`
// With manual billing in production users cannot choose a plan themselves; the operator sets it.

const usage = 'usage: npm run billing -- set-plan <email|user-id> <starter|growth|pro|none>'
const [command, user, plan] = process.argv.slice(2)
const write = (line: string) => process.stdout.write(`${line}\n`)

if (command !== 'set-plan' || !user || !(plan === 'none' || isPlanId(plan))) {
  process.stderr.write(`${usage}\n`)
  process.exit(2)
}

const config = loadConfig()
if (!config.databaseUrl) {
  const holder = embeddedLockHolder(config.dataDir)
  if (holder) {
    process.stderr.write(
      `Vitrin (process ${holder}) is using the embedded database in ${config.dataDir}. Stop it first.\n`,
    )
    process.exit(1)
  }
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: 2 })
let exitCode = 0
try {
  await database.migrate()
  const result = await setPlanByOperator(database.db, user, plan === 'none' ? null : plan, new Date())
  if (result.status === 'no-such-user') {
    process.stderr.write(`no user with the email or id ${user}\n`)
    exitCode = 1
  } else if (result.status === 'removed') {
    write(result.hadPlan ? `${result.email}: plan ended` : `${result.email}: had no active plan`)
  } else {
    const until = result.subscription.currentPeriodEnd.toISOString().slice(0, 10)
    write(`${result.email}: ${result.subscription.planId}, current period to ${until}`)
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  exitCode = 1
} finally {
  await database.close()
}
process.exit(exitCode)
