import type { Server } from 'node:http'
// What the fakes share when started by hand or by the end-to-end run: the JSON routes under
// /__control/ that script them over HTTP, reading command-line flags, and stopping.

export type ControlAnswer = { status: number; body: unknown }

export type ControlTarget = {
  /** Takes the script in `body` for `match` (every request when undefined); an error text if unusable. */
  script(body: Record<string, unknown>, match: string | undefined): string | null
  /** Drops the script for `match`, or every script. */
  reset(match: string | undefined): void
  /** Lets the jobs in flight for `match` finish now (fakes whose jobs take time); how many. */
  release?(match: string): number
  /** The requests answered so far, each with the marker whose script it followed. */
  requests: readonly { match?: string | undefined }[]
}

/** Answers one /__control/ request: health, script, reset, release, requests (filtered by `?match=`). */
export function answerControl(method: string, url: URL, raw: string, target: ControlTarget): ControlAnswer {
  let body: Record<string, unknown> = {}
  try {
    body = raw ? JSON.parse(raw) : {}
  } catch {
    return { status: 400, body: { error: 'body must be JSON' } }
  }
  const match = typeof body.match === 'string' && body.match.length > 0 ? body.match : undefined
  if (method === 'GET' && url.pathname === '/__control/health') return { status: 200, body: { ok: true } }
  if (method === 'POST' && url.pathname === '/__control/script') {
    const problem = target.script(body, match)
    return problem ? { status: 400, body: { error: problem } } : { status: 200, body: { ok: true } }
  }
  if (method === 'POST' && url.pathname === '/__control/reset') {
    target.reset(match)
    return { status: 200, body: { ok: true } }
  }
  if (method === 'POST' && url.pathname === '/__control/release' && target.release) {
    if (!match) return { status: 400, body: { error: 'match is required' } }
    return { status: 200, body: { released: target.release(match) } }
  }
  if (method === 'GET' && url.pathname === '/__control/requests') {
    const wanted = url.searchParams.get('match')
    return { status: 200, body: { requests: target.requests.filter((r) => !wanted || r.match === wanted) } }
  }
  return { status: 404, body: { error: `No control route for ${method} ${url.pathname}` } }
}

/** The value after `--name` on the command line, if given. */
export function argValue(args: string[], name: string): string | undefined {
  const index = args.indexOf(name)
  return index >= 0 ? args[index + 1] : undefined
}

/** Closes a fake's server, ending its open connections (keep-alive, event streams) first. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.closeAllConnections()
    server.close((error) => (error ? reject(error) : resolve()))
  })
}

/** A fake run by hand: closed, and the process ended, on Ctrl-C or SIGTERM. */
export function exitOnStop(close: () => Promise<void>): void {
  const stop = () => {
    close().finally(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
