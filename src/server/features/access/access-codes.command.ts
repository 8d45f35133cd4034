import type { Db } from '#server/db/client.ts'
import { createAccessCode, listAccessCodes, revokeAccessCode } from './access-codes.service.ts'

// `npm run access-codes -- create [CODE] [--note "…"] [--max N] [--expires DATE] | list | revoke CODE`,
// as a function of the database: the CLI runs it on a database it opens itself, or, while a
// server holds the embedded one, asks that server to run it (db/operator-command.ts).

export const accessCodesUsage =
  'usage: npm run access-codes -- create [CODE] [--note "text"] [--max N] [--expires YYYY-MM-DD|ISO-timestamp] | list | revoke CODE'

/** What a run printed and how it ended: 0 done, 1 refused (with why), 2 not a command. */
export type CommandResult = { exitCode: number; stdout: string; stderr: string }

class UsageError extends Error {}

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
  throw new UsageError(
    `--expires: "${value}" is not a date (YYYY-MM-DD, the end of that day UTC) or an ISO timestamp with a zone`,
  )
}

function parseCreate(args: string[], now: Date): CreateOptions {
  const options: CreateOptions = {}
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ''
    if (!arg.startsWith('--')) {
      if (options.code !== undefined) throw new UsageError(`unexpected argument "${arg}"`)
      options.code = arg
      continue
    }
    const value = args[i + 1]
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value`)
    i++
    if (arg === '--note') options.note = value
    else if (arg === '--max') {
      if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1_000_000)
        throw new UsageError(`--max: "${value}" is not a whole number from 1 to 1000000`)
      options.maxRedemptions = Number(value)
    } else if (arg === '--expires') {
      options.expiresAt = parseExpiry(value)
      if (options.expiresAt.getTime() <= now.getTime())
        throw new UsageError(`--expires: ${value} is already past`)
    } else throw new UsageError(`unknown option ${arg}`)
  }
  return options
}

/** The arguments' own mistakes, before any database is opened (null when they are fine). */
export function accessCodesArgumentError(args: string[], now = new Date()): string | null {
  if (args[0] !== 'create') return null
  try {
    parseCreate(args.slice(1), now)
    return null
  } catch (error) {
    if (error instanceof UsageError) return error.message
    throw error
  }
}

function listLine(row: Awaited<ReturnType<typeof listAccessCodes>>[number], now: Date): string {
  const state = row.revokedAt
    ? `revoked ${row.revokedAt.toISOString().slice(0, 10)}`
    : row.expiresAt && row.expiresAt.getTime() <= now.getTime()
      ? 'expired'
      : row.maxRedemptions !== null && row.redemptionCount >= row.maxRedemptions
        ? 'used up'
        : 'active'
  const uses = `${row.redemptionCount}${row.maxRedemptions === null ? '' : `/${row.maxRedemptions}`} uses`
  const expiry = row.expiresAt ? `expires ${row.expiresAt.toISOString()}` : 'no expiry'
  return `${row.code}  ${state.padEnd(18)} ${uses.padStart(11)}  ${expiry.padEnd(32)} ${row.source}${row.note ? `  ${row.note}` : ''}`
}

/** Runs one access-codes command on `db`. */
export async function runAccessCodesCommand(
  db: Db,
  args: string[],
  now = new Date(),
): Promise<CommandResult> {
  const [command, ...rest] = args
  const lines: string[] = []
  try {
    if (command === 'create') {
      const row = await createAccessCode(db, { ...parseCreate(rest, now), source: 'cli' })
      lines.push(row.code)
    } else if (command === 'list') {
      const rows = await listAccessCodes(db)
      if (rows.length === 0) lines.push('no access codes')
      for (const row of rows) lines.push(listLine(row, now))
    } else if (command === 'revoke' && rest[0]) {
      const code = rest[0]
      lines.push(
        (await revokeAccessCode(db, code, now)) ? `revoked ${code.toUpperCase()}` : 'no such active code',
      )
    } else {
      return { exitCode: 2, stdout: '', stderr: `${accessCodesUsage}\n` }
    }
  } catch (error) {
    if (error instanceof UsageError)
      return { exitCode: 1, stdout: '', stderr: `${error.message}\n${accessCodesUsage}\n` }
    throw error
  }
  return { exitCode: 0, stdout: lines.map((line) => `${line}\n`).join(''), stderr: '' }
}
