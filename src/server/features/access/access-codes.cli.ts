import { runOperatorCommand } from '#server/db/operator-command.ts'
import { createAccessCode, listAccessCodes, revokeAccessCode } from './access-codes.service.ts'

// `npm run access-codes -- create [CODE] [--note "…"] [--max N] [--expires DATE] | list | revoke CODE`
const usage =
  'usage: npm run access-codes -- create [CODE] [--note "text"] [--max N] [--expires YYYY-MM-DD|ISO-timestamp] | list | revoke CODE'
const [command, ...rest] = process.argv.slice(2)
const write = (line: string) => process.stdout.write(`${line}\n`)
const fail = (message: string): never => {
  process.stderr.write(`${message}\n${usage}\n`)
  process.exit(1)
}

type CreateOptions = { code?: string; note?: string; maxRedemptions?: number; expiresAt?: Date }

/** A date alone means the end of that day in UTC; a full ISO timestamp means that moment. */
function parseExpiry(value: string): Date {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const end = new Date(`${value}T23:59:59.999Z`)
    if (!Number.isNaN(end.getTime()) && end.toISOString().startsWith(value)) return end
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    const at = new Date(value)
    if (!Number.isNaN(at.getTime())) return at
  }
  return fail(
    `--expires: "${value}" is not a date (YYYY-MM-DD, the end of that day UTC) or an ISO timestamp with a zone`,
  )
}

function parseCreate(args: string[]): CreateOptions {
  const options: CreateOptions = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    if (!arg.startsWith('--')) {
      if (options.code !== undefined) fail(`unexpected argument "${arg}"`)
      options.code = arg
      continue
    }
    const value = args[i + 1]
    if (value === undefined || value.startsWith('--')) fail(`${arg} needs a value`)
    i++
    if (arg === '--note') options.note = value
    else if (arg === '--max') {
      if (!/^\d+$/.test(value ?? '') || Number(value) < 1 || Number(value) > 1_000_000)
        fail(`--max: "${value}" is not a whole number from 1 to 1000000`)
      options.maxRedemptions = Number(value)
    } else if (arg === '--expires') {
      options.expiresAt = parseExpiry(value ?? '')
      if (options.expiresAt.getTime() <= Date.now()) fail(`--expires: ${value} is already past`)
    } else fail(`unknown option ${arg}`)
  }
  return options
}

const createOptions = command === 'create' ? parseCreate(rest) : undefined
await runOperatorCommand(async (db) => {
  if (createOptions) {
    const row = await createAccessCode(db, { ...createOptions, source: 'cli' })
    write(row.code)
  } else if (command === 'list') {
    const rows = await listAccessCodes(db)
    if (rows.length === 0) write('no access codes')
    const now = Date.now()
    for (const row of rows) {
      const state = row.revokedAt
        ? `revoked ${row.revokedAt.toISOString().slice(0, 10)}`
        : row.expiresAt && row.expiresAt.getTime() <= now
          ? 'expired'
          : row.maxRedemptions !== null && row.redemptionCount >= row.maxRedemptions
            ? 'used up'
            : 'active'
      const uses = `${row.redemptionCount}${row.maxRedemptions === null ? '' : `/${row.maxRedemptions}`} uses`
      const expiry = row.expiresAt ? `expires ${row.expiresAt.toISOString()}` : 'no expiry'
      write(
        `${row.code}  ${state.padEnd(18)} ${uses.padStart(11)}  ${expiry.padEnd(32)} ${row.source}${row.note ? `  ${row.note}` : ''}`,
      )
    }
  } else if (command === 'revoke' && rest[0]) {
    write(
      (await revokeAccessCode(db, rest[0], new Date()))
        ? `revoked ${rest[0].toUpperCase()}`
        : 'no such active code',
    )
  } else {
    process.stderr.write(`${usage}\n`)
    return 2
  }
  return 0
}, 'Stop it first, or set ACCESS_CODES and restart.')
