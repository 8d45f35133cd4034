import { runOperatorCommand } from '#server/db/operator-command.ts'
import { isPlanId } from '#shared/plans.ts'
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

await runOperatorCommand(async (db) => {
  const result = await setPlanByOperator(db, user, plan === 'none' ? null : plan, new Date())
  if (result.status === 'no-such-user') {
    process.stderr.write(`no user with the email or id ${user}\n`)
    return 1
  }
  if (result.status === 'removed') {
    write(result.hadPlan ? `${result.email}: plan ended` : `${result.email}: had no active plan`)
  } else {
    const until = result.subscription.currentPeriodEnd.toISOString().slice(0, 10)
    write(`${result.email}: ${result.subscription.planId}, current period to ${until}`)
  }
  return 0
})
