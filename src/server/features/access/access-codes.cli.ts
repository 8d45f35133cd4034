import { runOperatorCommand } from '#server/db/operator-command.ts'
import { accessCodesArgumentError, accessCodesUsage, runAccessCodesCommand } from './access-codes.command.ts'

// `npm run access-codes -- create [CODE] [--note "…"] [--max N] [--expires DATE] | list | revoke CODE`.
// While a server holds the embedded database, the server runs the command (main.ts answers
// through the data folder's lock socket), so codes can be listed and made without stopping it.
const args = process.argv.slice(2)
const argumentError = accessCodesArgumentError(args)
if (argumentError) {
  process.stderr.write(`${argumentError}\n${accessCodesUsage}\n`)
  process.exit(1)
}

await runOperatorCommand(
  async (db) => {
    const result = await runAccessCodesCommand(db, args)
    process.stdout.write(result.stdout)
    process.stderr.write(result.stderr)
    return result.exitCode
  },
  'Stop it first, or set ACCESS_CODES and restart.',
  { tool: 'access-codes', args },
)
